/* param_cache.c - process-wide func -> layout table.
 *
 * Steady-state lookups are served by the caller's hint; the table (with its
 * mutex) is only consulted when a kernel shows up at a new position, so the
 * lock is off the hot path.  Layouts are never freed: kernels live as long
 * as the process. */
#include "recording/param_cache.h"

#include "common/key_table.h"

#include <pthread.h>
#include <stdlib.h>

struct cache_entry {
  struct pygraph_table_key key;                  /* the kernel's host stub or CUfunction,
                                                    a = 1 for a CUfunction */
  const struct pygraph_param_layout *layout;     /* NULL = backend could not tell */
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table layouts = PYGRAPH_KEY_TABLE_INIT(struct cache_entry);

struct pygraph_param_layout *pygraph_param_layout_alloc(size_t n_params)
{
  struct pygraph_param_layout *layout =
      calloc(1, sizeof *layout + n_params * sizeof layout->params[0]);
  if (layout)
    layout->n_params = n_params;
  return layout;
}

/* The backend's layout of func: a driver-API CUfunction's through its own
 * entry (none: not described). */
static struct pygraph_param_layout *query(const struct pygraph_backend *backend, const void *func,
                                          int driver, unsigned arg_slots)
{
  if (!driver)
    return backend->param_layout(func, arg_slots);
  return backend->driver_param_layout ? backend->driver_param_layout(func, arg_slots) : NULL;
}

const struct pygraph_param_layout *
pygraph_param_layout_lookup(const struct pygraph_backend *backend, const void *func, int driver,
                            unsigned arg_slots, const void *hint_func,
                            const struct pygraph_param_layout *hint)
{
  if (hint && hint_func == func)
    return hint;

  pthread_mutex_lock(&cache_lock);
  /* A host stub and a CUfunction are different handles: keyed apart. */
  struct pygraph_table_key key = {func, driver ? 1u : 0u, 0};
  const struct cache_entry *found = pygraph_key_table_find(&layouts, key);
  const struct pygraph_param_layout *layout;
  if (found) {
    layout = found->layout;
  } else {
    /* Querying under the lock keeps one layout per kernel; it happens once. */
    layout = query(backend, func, driver, arg_slots);
    struct cache_entry *e = pygraph_key_table_insert(&layouts, key);
    if (e)
      e->layout = layout;
  }
  pthread_mutex_unlock(&cache_lock);
  return layout;
}
