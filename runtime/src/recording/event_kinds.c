/* event_kinds.c - the events the program made that cannot time. */
#include "recording/event_kinds.h"

#include <pthread.h>

#include "common/key_table.h"

struct kind_entry {
  struct pygraph_table_key key;        /* the event handle */
  int untimed;                         /* made with cudaEventDisableTiming, alive */
};

/* Entries are kept after a destroy (marked timing): handles are reused, so
 * the table stays as large as the number of distinct handles seen. */
static pthread_mutex_t kinds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table kinds = PYGRAPH_KEY_TABLE_INIT(struct kind_entry);

static void set_untimed(cudaEvent_t event, int untimed)
{
  if (!event)
    return;
  struct pygraph_table_key key = {event, 0, 0};
  pthread_mutex_lock(&kinds_lock);
  struct kind_entry *e = pygraph_key_table_find(&kinds, key);
  if (!e && untimed)
    e = pygraph_key_table_insert(&kinds, key);
  if (e)
    e->untimed = untimed;              /* out of memory: unknown, i.e. times */
  pthread_mutex_unlock(&kinds_lock);
}

void pygraph_event_kinds_created(cudaEvent_t event, unsigned flags)
{
  set_untimed(event, (flags & cudaEventDisableTiming) != 0);
}

void pygraph_event_kinds_destroyed(cudaEvent_t event)
{
  set_untimed(event, 0);
}

int pygraph_event_kinds_times(cudaEvent_t event)
{
  struct pygraph_table_key key = {event, 0, 0};
  pthread_mutex_lock(&kinds_lock);
  const struct kind_entry *e = event ? pygraph_key_table_find(&kinds, key) : NULL;
  int untimed = e && e->untimed;
  pthread_mutex_unlock(&kinds_lock);
  return !untimed;
}
