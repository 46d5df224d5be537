/* param_cache.c - process-wide func -> layout table.
 *
 * Steady-state lookups are served by the caller's hint; the table (with its
 * mutex) is only consulted when a kernel shows up at a new position, so the
 * lock is off the hot path.  Layouts are never freed: kernels live as long
 * as the process. */
#include "param_cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct cache_entry {
  const void *func;
  const struct pygraph_param_layout *layout;     /* NULL = backend could not tell */
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_entry *entries;
static size_t n_entries, cap_entries;             /* open addressing, cap power of 2 */

static size_t slot_of(const void *func, size_t cap)
{
  uintptr_t h = (uintptr_t)func;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

static struct cache_entry *find_slot(struct cache_entry *table, size_t cap, const void *func)
{
  size_t i = slot_of(func, cap);
  while (table[i].func && table[i].func != func)
    i = (i + 1) & (cap - 1);
  return &table[i];
}

static int grow_table(void)
{
  size_t new_cap = cap_entries ? cap_entries * 2 : 64;
  struct cache_entry *table = calloc(new_cap, sizeof *table);
  if (!table)
    return -1;
  for (size_t i = 0; i < cap_entries; i++)
    if (entries[i].func)
      *find_slot(table, new_cap, entries[i].func) = entries[i];
  free(entries);
  entries = table;
  cap_entries = new_cap;
  return 0;
}

struct pygraph_param_layout *pygraph_param_layout_alloc(size_t n_params)
{
  struct pygraph_param_layout *layout =
      calloc(1, sizeof *layout + n_params * sizeof layout->params[0]);
  if (layout)
    layout->n_params = n_params;
  return layout;
}

const struct pygraph_param_layout *
pygraph_param_layout_lookup(const struct pygraph_backend *backend, const void *func,
                            const void *hint_func, const struct pygraph_param_layout *hint)
{
  if (hint && hint_func == func)
    return hint;

  pthread_mutex_lock(&cache_lock);
  const struct pygraph_param_layout *layout = NULL;
  struct cache_entry *slot = cap_entries ? find_slot(entries, cap_entries, func) : NULL;
  if (slot && slot->func) {
    layout = slot->layout;
  } else {
    /* Querying under the lock keeps one layout per kernel; it happens once. */
    layout = backend->param_layout(func);
    if ((n_entries + 1) * 2 <= cap_entries || grow_table() == 0) {
      *find_slot(entries, cap_entries, func) = (struct cache_entry){func, layout};
      n_entries++;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  return layout;
}
