/* region_state.c - lazy, race-free creation of region states. */
#include "region_state.h"

#include <pthread.h>
#include <stdlib.h>

#include "report.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_region_state *registry_head, **registry_tail = &registry_head;
static pthread_once_t report_once = PTHREAD_ONCE_INIT;

static void register_report(void)
{
  atexit(pygraph_report_at_exit);
}

static struct pygraph_region_state *create_state(const struct pygraph_backend *backend,
                                                 pygraph_region *region)
{
  unsigned n = region->n_segments ? region->n_segments : 1;
  struct pygraph_region_state *state =
      calloc(1, sizeof *state + n * sizeof state->segments[0]);
  if (!state)
    return NULL;
  state->region = region;
  state->n_segments = n;
  const struct pygraph_settings *settings = pygraph_settings();
  for (unsigned i = 0; i < n; i++)
    pygraph_segment_init(&state->segments[i], backend, settings, region, i);
  return state;
}

static void free_state(struct pygraph_region_state *state)
{
  free(state);   /* never used: no op lists were allocated yet */
}

struct pygraph_segment *pygraph_region_segment(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index)
{
  struct pygraph_region_state *state = __atomic_load_n(&region->state, __ATOMIC_ACQUIRE);
  if (!state) {
    if (region->abi_version != PYGRAPH_ABI_VERSION)
      return NULL;
    pthread_once(&report_once, register_report);
    struct pygraph_region_state *fresh = create_state(backend, region);
    if (!fresh)
      return NULL;
    void *expected = NULL;
    if (__atomic_compare_exchange_n(&region->state, &expected, fresh, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      pthread_mutex_lock(&registry_lock);
      *registry_tail = fresh;
      registry_tail = &fresh->next;
      pthread_mutex_unlock(&registry_lock);
      state = fresh;
    } else {
      free_state(fresh);       /* another thread won the race */
      state = expected;
    }
  }
  return index < state->n_segments ? &state->segments[index] : NULL;
}

void pygraph_region_states_foreach(void (*visit)(const struct pygraph_region_state *, void *),
                                   void *ctx)
{
  pthread_mutex_lock(&registry_lock);
  for (const struct pygraph_region_state *s = registry_head; s; s = s->next)
    visit(s, ctx);
  pthread_mutex_unlock(&registry_lock);
}
