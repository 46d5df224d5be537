/* region_state.c - lazy, race-free creation of region states, and the
 * registry of them that the report walks.  It knows nothing of the report:
 * the ABI entry (region_stack.c) arms it before a region's first state. */
#include "abi/region_state.h"

#include <pthread.h>
#include <stdlib.h>

#include "common/debug_log.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_region_state *registry_head, **registry_tail = &registry_head;

/* Thread ids: 1, 2, ... in order of a thread's first region begin; never
 * reused (0 = a free slot). */
static unsigned long next_thread_id;
static _Thread_local unsigned long tls_thread_id;

/* The thread's key for states of no particular device (region_state.h). */
static unsigned long thread_id(void)
{
  unsigned long id = tls_thread_id;
  if (__builtin_expect(id == 0, 0))
    tls_thread_id = id = __atomic_add_fetch(&next_thread_id, 1, __ATOMIC_RELAXED)
                         << PYGRAPH_DEVICE_KEY_BITS;
  return id;
}

/* A state never published (no op lists allocated yet). */
static void free_state(struct pygraph_region_state *state)
{
  for (unsigned i = 0; i < state->n_segments; i++)
    if (state->segments[i])
      pygraph_segment_discard(state->segments[i]);
  free(state->threads);
  free(state);
}

static struct pygraph_region_state *create_state(const struct pygraph_backend *backend,
                                                 pygraph_region *region)
{
  unsigned n = region->n_segments ? region->n_segments : 1;
  struct pygraph_region_state *state =
      calloc(1, sizeof *state + n * sizeof state->segments[0]);
  if (!state)
    return NULL;
  state->threads = calloc(n, sizeof state->threads[0]);
  if (!state->threads) {
    free(state);
    return NULL;
  }
  state->region = region;
  state->n_segments = n;
  const struct pygraph_settings *settings = pygraph_settings();
  for (unsigned i = 0; i < n; i++) {
    state->segments[i] = pygraph_segment_create(backend, settings, region, i);
    if (!state->segments[i]) {
      free_state(state);                    /* the region is not served: pass through */
      return NULL;
    }
    state->threads[i].seg[0] = state->segments[i];
  }
  return state;
}

/* Creates a thread slot's state (slot > 0), a copy of slot 0's configuration
 * (the settings the region state was created with). */
static struct pygraph_segment *create_thread_state(struct pygraph_region_state *state,
                                                   unsigned index)
{
  return pygraph_segment_create_like(state->segments[index]);
}

/* Claims slot k for `key` (its device + 1 in `device`, 0: unknown) and
 * makes its state: 1 with *out set (NULL: creation failed), or 0 when
 * another thread claimed the slot first (*owner: its key). */
static int claim_slot(struct pygraph_region_state *state, unsigned index, unsigned k,
                      unsigned long key, int device, unsigned long *owner,
                      struct pygraph_segment **out)
{
  struct pygraph_thread_states *t = &state->threads[index];
  unsigned long expected = 0;
  if (!__atomic_compare_exchange_n(&t->owner[k], &expected, key, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    *owner = expected;
    return 0;
  }
  __atomic_store_n(&t->device[k], device, __ATOMIC_RELAXED);
  if (k == 0) {
    *out = state->segments[index];        /* pre-created, published at creation */
    return 1;
  }
  *out = create_thread_state(state, index);
  if (*out) {                             /* the report reads it */
    pygraph_segment_publish(*out);
    __atomic_store_n(&t->seg[k], *out, __ATOMIC_RELEASE);
  }
  return 1;
}

/* Slot k's state as its owner sees it (NULL: creation failed). */
static struct pygraph_segment *own_slot(struct pygraph_region_state *state, unsigned index,
                                        unsigned k)
{
  if (k == 0)
    return state->segments[index];
  return __atomic_load_n(&state->threads[index].seg[k], __ATOMIC_RELAXED);
}

/* The calling thread's slot of segment `index`: found, claimed, or none
 * (table full, or out of memory): slot 0's state, shared. */
static struct pygraph_segment *thread_state(struct pygraph_region_state *state, unsigned index)
{
  struct pygraph_thread_states *t = &state->threads[index];
  unsigned long me = thread_id();
  for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
    unsigned long owner = __atomic_load_n(&t->owner[k], __ATOMIC_ACQUIRE);
    struct pygraph_segment *seg;
    if (owner == 0 && claim_slot(state, index, k, me, 0, &owner, &seg))
      return seg ? seg : state->segments[index];
    if (owner == me) {
      /* Only this thread writes seg[k]; NULL: creation failed, share slot 0. */
      seg = own_slot(state, index, k);
      return seg ? seg : state->segments[index];
    }
  }
  return state->segments[index];          /* table full: shared, trylock */
}

/* The calling thread's slot of segment `index` for `device`: its slot of
 * unknown device (which takes `device`), its slot of that device, or a
 * slot claimed for it; NULL when there is none (nothing is shared: slot
 * 0's state may run on another device). */
static struct pygraph_segment *device_state(struct pygraph_region_state *state, unsigned index,
                                            int device)
{
  struct pygraph_thread_states *t = &state->threads[index];
  unsigned long me = thread_id(), key = me | (unsigned long)(device + 1);
  for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
    unsigned long owner = __atomic_load_n(&t->owner[k], __ATOMIC_ACQUIRE);
    struct pygraph_segment *seg;
    if (owner == 0 && claim_slot(state, index, k, key, device + 1, &owner, &seg))
      return seg;
    if (owner != me && owner != key)
      continue;
    int known = __atomic_load_n(&t->device[k], __ATOMIC_RELAXED);
    if (known == 0)                       /* its first device: this one from now on */
      __atomic_store_n(&t->device[k], known = device + 1, __ATOMIC_RELAXED);
    if (known == device + 1)
      return own_slot(state, index, k);
  }
  return NULL;
}

/* The region's state, created at its first use; NULL when it cannot be
 * served. */
static struct pygraph_region_state *region_state(const struct pygraph_backend *backend,
                                                 pygraph_region *region)
{
  struct pygraph_region_state *state = __atomic_load_n(&region->state, __ATOMIC_ACQUIRE);
  if (!state) {
    if (region->abi_version != PYGRAPH_ABI_VERSION)
      return NULL;
    double t0 = backend->now_us ? backend->now_us() : 0.0;
    struct pygraph_region_state *fresh = create_state(backend, region);
    if (!fresh)
      return NULL;
    void *expected = NULL;
    if (__atomic_compare_exchange_n(&region->state, &expected, fresh, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      for (unsigned i = 0; i < fresh->n_segments; i++)
        pygraph_segment_publish(fresh->segments[i]);
      pthread_mutex_lock(&registry_lock);
      *registry_tail = fresh;
      registry_tail = &fresh->next;
      pthread_mutex_unlock(&registry_lock);
      /* The state's making is on the GPU's critical path in a loop whose
       * first launch comes after it (bench/results.md, adam's one-time cost). */
      pygraph_debug_log(pygraph_settings(),
                        "region %s %s:%u-%u: first entry, %u segment(s), made in %.1f us",
                        region->function ? region->function : "?",
                        region->file ? region->file : "?", region->line_begin,
                        region->line_end, fresh->n_segments,
                        backend->now_us ? backend->now_us() - t0 : 0.0);
      state = fresh;
    } else {
      free_state(fresh);       /* another thread won the race: never published */
      state = expected;
    }
  }
  return state;
}

struct pygraph_segment *pygraph_region_segment(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index)
{
  struct pygraph_region_state *state = region_state(backend, region);
  if (!state || index >= state->n_segments)
    return NULL;
  /* Fast path: the thread owning slot 0 (the only thread, usually). */
  if (__atomic_load_n(&state->threads[index].owner[0], __ATOMIC_RELAXED) == thread_id())
    return state->segments[index];
  return thread_state(state, index);
}

struct pygraph_segment *pygraph_region_segment_on(const struct pygraph_backend *backend,
                                                  pygraph_region *region, unsigned index,
                                                  int device)
{
  struct pygraph_region_state *state = region_state(backend, region);
  if (!state || index >= state->n_segments || device < 0 ||
      device >= (1 << PYGRAPH_DEVICE_KEY_BITS) - 1)
    return NULL;
  return device_state(state, index, device);
}

/* pygraph_region_states_on_device, for one region state. */
static void assign_device(const struct pygraph_region_state *state, void *ctx)
{
  int device = *(const int *)ctx;
  unsigned long me = thread_id();
  for (unsigned i = 0; i < state->n_segments; i++)
    for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
      struct pygraph_thread_states *t = &state->threads[i];
      if (__atomic_load_n(&t->owner[k], __ATOMIC_ACQUIRE) == me &&
          __atomic_load_n(&t->device[k], __ATOMIC_RELAXED) == 0)
        __atomic_store_n(&t->device[k], device + 1, __ATOMIC_RELAXED);
    }
}

void pygraph_region_states_on_device(int device)
{
  if (device >= 0)
    pygraph_region_states_foreach(assign_device, &device);
}

int pygraph_region_thread_device(const struct pygraph_region_state *state, unsigned index,
                                 unsigned slot)
{
  if (index >= state->n_segments || slot >= PYGRAPH_THREAD_STATES)
    return -1;
  return __atomic_load_n(&state->threads[index].device[slot], __ATOMIC_RELAXED) - 1;
}

const struct pygraph_segment *pygraph_region_thread_segment(
    const struct pygraph_region_state *state, unsigned index, unsigned slot)
{
  if (index >= state->n_segments || slot >= PYGRAPH_THREAD_STATES)
    return NULL;
  if (slot == 0)
    return state->segments[index];
  return __atomic_load_n(&state->threads[index].seg[slot], __ATOMIC_ACQUIRE);
}

unsigned pygraph_region_thread_states(const struct pygraph_region_state *state, unsigned index)
{
  unsigned n = 0;
  for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++)
    n += pygraph_region_thread_segment(state, index, k) != NULL;
  return n;
}

void pygraph_region_states_foreach(void (*visit)(const struct pygraph_region_state *, void *),
                                   void *ctx)
{
  pthread_mutex_lock(&registry_lock);
  for (const struct pygraph_region_state *s = registry_head; s; s = s->next)
    visit(s, ctx);
  pthread_mutex_unlock(&registry_lock);
}
