/* devices.c - several devices in one region iteration (devices.h). */
#include "abi/devices.h"

#include <stdlib.h>

#include "abi/region_state.h"
#include "common/grow.h"
#include "common/text.h"

static int devices_changed;                 /* atomic access only */

int pygraph_devices_changed(void)
{
  return __atomic_load_n(&devices_changed, __ATOMIC_RELAXED);
}

static _Thread_local int tls_changed_before;

void pygraph_devices_note_change(int prev)
{
  __atomic_store_n(&devices_changed, 1, __ATOMIC_RELAXED);
  if (tls_changed_before)
    return;
  tls_changed_before = 1;
  pygraph_region_states_on_device(prev);    /* what ran so far ran there */
}

/* One state of the live iteration (the home state first). */
struct device_state {
  int device;                               /* -1: not known (the home state only) */
  struct pygraph_segment *seg;
  int records;                              /* its iteration records (begin said so) */
};

struct live_devices {
  struct device_state *states;              /* [0]: home; then in order of first use */
  size_t n, cap;
  int current;                              /* the device the thread is on, -1 unknown */
};

static _Thread_local struct live_devices tls_live;

void pygraph_devices_begin(int device)
{
  tls_live.n = 0;                           /* the home state is added at a first switch */
  tls_live.current = device;
}

int pygraph_devices_current(void)
{
  return tls_live.current;
}

int pygraph_devices_several(void)
{
  return tls_live.n > 1;
}

int pygraph_devices_held(void)
{
  return tls_live.n > 0;
}

static int add_state(struct live_devices *l, int device, struct pygraph_segment *seg)
{
  if (pygraph_grow((void **)&l->states, &l->cap, l->n + 1, sizeof l->states[0]))
    return 0;
  l->states[l->n++] = (struct device_state){device, seg, 1};
  return 1;
}

static struct pygraph_segment *state_of(const struct live_devices *l, int device)
{
  for (size_t i = 0; i < l->n; i++)
    if (l->states[i].device == device)
      return l->states[i].seg;
  return NULL;
}

/* A state for `device` not in the iteration yet, acquired, told, begun. */
static struct pygraph_segment *join(const struct pygraph_backend *backend, pygraph_region *region,
                                    unsigned index, int device, const char **why)
{
  static const char kNoState[] = "no segment state for the device (thread table full)";
  static const char kOutOfMemory[] = "out of memory";
  static const char kPassesThrough[] = "the device's segment state passes through";
  struct pygraph_segment *seg = pygraph_region_segment_on(backend, region, index, device);
  if (!seg || !pygraph_segment_try_acquire(seg)) {
    *why = kNoState;
    return NULL;
  }
  *why = pygraph_segment_note_devices(seg);
  if (*why || !add_state(&tls_live, device, seg)) {
    *why = *why ? *why : kOutOfMemory;
    pygraph_segment_release(seg);
    return NULL;
  }
  if (!pygraph_segment_begin_iteration(seg)) {
    tls_live.states[tls_live.n - 1].records = 0;
    *why = kPassesThrough;                  /* ended and released with the others */
    return NULL;
  }
  return seg;
}

struct pygraph_segment *pygraph_devices_switch(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index,
                                               struct pygraph_segment *home, int prev,
                                               int device, const char **why)
{
  static const char kUnknown[] = "device changed while the current device is not known";
  static const char kOutOfMemory[] = "out of memory";
  struct live_devices *l = &tls_live;
  l->current = device;
  if (l->n == 0) {                          /* the first change: the home state's device */
    if (!add_state(l, prev, home)) {
      *why = kOutOfMemory;                  /* pygraph_devices_stop flushes home alone */
      return NULL;
    }
    if (prev < 0) {
      *why = kUnknown;
      return NULL;
    }
    if ((*why = pygraph_segment_note_devices(home)) != NULL)
      return NULL;
  }
  struct pygraph_segment *seg = state_of(l, device);
  return seg ? seg : join(backend, region, index, device, why);
}

/* Makes `device` current when known; errors are CUDA's to keep: none is
 * expected for a device the program itself made current before. */
static void make_current(const struct pygraph_backend *backend, int device)
{
  if (device >= 0 && backend->set_device)
    (void)backend->set_device(device);
}

static int program_device(const struct pygraph_backend *backend)
{
  int device = -1;
  if (!backend->get_device || backend->get_device(&device) != cudaSuccess)
    return -1;
  return device;
}

void pygraph_devices_stop(struct pygraph_segment *home, const char *reason, int yield)
{
  const struct pygraph_backend *backend = pygraph_segment_backend(home);
  int program = program_device(backend);
  struct device_state alone = {-1, home, 1};
  const struct device_state *states = tls_live.n ? tls_live.states : &alone;
  for (size_t i = 0; i < (tls_live.n ? tls_live.n : 1); i++) {
    if (!states[i].records)
      continue;
    make_current(backend, states[i].device);
    if (yield)
      pygraph_segment_yield_to_program_capture(states[i].seg);
    else
      pygraph_segment_flush(states[i].seg, reason);
  }
  make_current(backend, program);
}

/* One went eager for good: every other state of the iteration follows. */
static void give_up_together(const struct live_devices *l)
{
  const char *why = NULL;
  for (size_t i = 0; i < l->n && !why; i++) {
    why = pygraph_segment_eager_for_good(l->states[i].seg);
    why = why && why[0] ? why : NULL;
  }
  if (!why)
    return;
  char *text = pygraph_text_printf("another device's state of the iteration: %s", why);
  for (size_t i = 0; i < l->n; i++)
    pygraph_segment_give_up(l->states[i].seg, text ? text : why);
  free(text);
}

void pygraph_devices_end(struct pygraph_segment *home)
{
  const struct pygraph_backend *backend = pygraph_segment_backend(home);
  int program = program_device(backend);
  for (size_t i = 0; i < tls_live.n; i++) {
    make_current(backend, tls_live.states[i].device);
    pygraph_segment_end_iteration(tls_live.states[i].seg);
  }
  give_up_together(&tls_live);
  for (size_t i = 0; i < tls_live.n; i++)
    pygraph_segment_release(tls_live.states[i].seg);
  make_current(backend, program);
  pygraph_devices_begin(-1);
}

int pygraph_devices_event_elsewhere(const struct pygraph_segment *seg, cudaEvent_t event)
{
  for (size_t i = 0; i < tls_live.n; i++) {
    if (tls_live.states[i].seg == seg)
      continue;
    const struct pygraph_op_list *ops = pygraph_segment_recorded(tls_live.states[i].seg);
    for (size_t j = 0; j < ops->n_ops; j++)
      if ((ops->ops[j].kind == PYGRAPH_OP_EVENT_RECORD ||
           ops->ops[j].kind == PYGRAPH_OP_EVENT_WAIT) &&
          ops->ops[j].event == event)
        return 1;
  }
  return 0;
}
