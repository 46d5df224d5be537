/* region_stack.c - begin/end protocol of the ABI, per thread. */
#include "abi/region_stack.h"

#include <stdatomic.h>

#include "abi/capture_check.h"
#include "abi/devices.h"
#include "abi/region_state.h"
#include "abi/report.h"

/* Deeper nesting than this is not tracked (begins beyond it are ignored
 * outright); the pass only nests regions through known callees. */
#define MAX_OPEN_REGIONS 64

struct open_region {
  pygraph_region *region;
  struct pygraph_segment *owned;            /* bottom entry only; NULL = pass through */
};

struct thread_regions {
  struct open_region stack[MAX_OPEN_REGIONS];
  unsigned depth;
  struct pygraph_segment *recording;
  unsigned segment;                         /* the live region's segment */
  /* Batchable loops: the bottom region's unit goes on past a loop
   * iteration's end, so the next begin of that region continues it. */
  int unit_open;
  /* The last loop entered (region_loop_enter), until its first begin. */
  pygraph_region *entered;
  long long entered_trips;
  /* The segment of the live region reserved at its last checked external
   * call (pygraph_rt.h, "Across files"): where a split goes on. */
  pygraph_region *split_region;
  unsigned split_segment;
};

static _Thread_local struct thread_regions tls_regions;

struct pygraph_segment *pygraph_recording_segment(void)
{
  return tls_regions.recording;
}

void pygraph_stop_recording(void)
{
  tls_regions.recording = NULL;
}

void pygraph_stop_live(struct pygraph_segment *seg, const char *reason)
{
  tls_regions.recording = NULL;
  if (pygraph_devices_held())
    pygraph_devices_stop(tls_regions.stack[0].owned, reason, 0);
  else
    pygraph_segment_flush(seg, reason);
}

void pygraph_yield_live(struct pygraph_segment *seg)
{
  tls_regions.recording = NULL;
  if (pygraph_devices_held())
    pygraph_devices_stop(tls_regions.stack[0].owned, NULL, 1);
  else
    pygraph_segment_yield_to_program_capture(seg);
}

void pygraph_region_device_changed(const struct pygraph_backend *backend, int prev, int device)
{
  struct thread_regions *t = &tls_regions;
  pygraph_devices_note_change(prev);
  if (!t->recording)
    return;                                 /* passing through: it stays so */
  pygraph_region *live = t->stack[0].region;
  const char *why = "device changed in a batchable loop's unit";
  struct pygraph_segment *next =
      live->kind == PYGRAPH_REGION_BATCH
          ? NULL
          : pygraph_devices_switch(backend, live, t->segment, t->stack[0].owned, prev, device,
                                   &why);
  if (next)
    t->recording = next;
  else
    pygraph_stop_live(t->recording, why);
}

static void (*_Atomic iteration_end_hook)(void);

void pygraph_set_iteration_end_hook(void (*hook)(void))
{
  atomic_store_explicit(&iteration_end_hook, hook, memory_order_release);
}

unsigned pygraph_open_region_depth(void)
{
  return tls_regions.depth;
}

pygraph_region *pygraph_live_region(void)
{
  return tls_regions.depth ? tls_regions.stack[0].region : NULL;
}

/* Ends the live iteration and forgets every nested entry above it. */
static void close_bottom(struct thread_regions *t)
{
  struct pygraph_segment *seg = t->stack[0].owned;
  t->depth = 0;
  t->recording = NULL;
  t->unit_open = 0;
  if (seg && pygraph_devices_held()) {
    pygraph_devices_end(seg);               /* each state on its device */
  } else if (seg) {
    pygraph_segment_end_iteration(seg);
    pygraph_segment_release(seg);
  }
  void (*hook)(void) = atomic_load_explicit(&iteration_end_hook, memory_order_acquire);
  if (hook)
    hook();
}

void pygraph_region_close_live(void)
{
  if (tls_regions.depth)
    close_bottom(&tls_regions);
}

/* The state a begin takes: the thread's, or, once the process changed
 * devices (devices.h), the thread's for the device it is on now. */
static struct pygraph_segment *segment_to_begin(const struct pygraph_backend *backend,
                                                pygraph_region *region, unsigned segment)
{
  int device = -1;
  if (__builtin_expect(pygraph_devices_changed(), 0) && backend->get_device &&
      backend->get_device(&device) == cudaSuccess && device >= 0) {
    pygraph_devices_begin(device);
    return pygraph_region_segment_on(backend, region, segment, device);
  }
  pygraph_devices_begin(-1);
  return pygraph_region_segment(backend, region, segment);
}

void pygraph_region_begin_with(const struct pygraph_backend *backend, pygraph_region *region,
                               unsigned segment)
{
  struct thread_regions *t = &tls_regions;
  if (t->depth > 0) {
    if (t->stack[0].region != region) {
      /* Nested: ignored, but remembered so its end pairs with it. */
      if (t->depth < MAX_OPEN_REGIONS)
        t->stack[t->depth++] = (struct open_region){region, NULL};
      return;
    }
    if (t->unit_open && t->depth == 1 && segment == 0) {
      t->unit_open = 0;   /* the next loop iteration of a batchable loop's unit */
      return;
    }
    /* The live region begins again (next iteration or next segment without
     * an end in between): finish the open iteration first. */
    close_bottom(t);
  }
  /* A region's first use (its state is created next): the report is armed
   * first, here, so that the state registry never calls back into the
   * report that walks it. */
  if (__builtin_expect(!__atomic_load_n(&region->state, __ATOMIC_RELAXED), 0) &&
      region->abi_version == PYGRAPH_ABI_VERSION)
    pygraph_report_arm();
  struct pygraph_segment *seg = segment_to_begin(backend, region, segment);
  if (seg && !pygraph_segment_try_acquire(seg))
    seg = NULL;   /* a shared state (region_state.h) another thread has: pass through */
  if (seg && t->entered == region)
    pygraph_segment_start_loop_run(seg, t->entered_trips);
  t->entered = NULL;
  t->split_region = NULL;
  t->stack[0] = (struct open_region){region, seg};
  t->segment = segment;
  t->depth = 1;
  t->recording = seg && pygraph_segment_begin_iteration(seg) ? seg : NULL;
  if (t->recording)
    pygraph_capture_cache_reset();   /* a capture may have begun at the barrier before */
}

void pygraph_region_end_impl(pygraph_region *region)
{
  struct thread_regions *t = &tls_regions;
  if (t->depth == 0 || t->stack[t->depth - 1].region != region)
    return;                                  /* not the innermost: no-op */
  if (t->depth > 1) {
    t->depth--;                              /* a nested, ignored region */
    return;
  }
  /* A batchable loop's iteration ends: its unit may go on recording. */
  if (region->kind == PYGRAPH_REGION_BATCH && t->recording &&
      !pygraph_segment_loop_iteration_end(t->recording)) {
    t->unit_open = 1;
    return;
  }
  close_bottom(t);
}

void pygraph_region_loop_enter_impl(const struct pygraph_backend *backend,
                                    pygraph_region *region, long long trips)
{
  (void)backend;     /* the segment is reached at the first begin */
  struct thread_regions *t = &tls_regions;
  t->entered = region;
  t->entered_trips = trips;
}

/* Every exit of a batchable loop (break, return, goto, an exception's
 * landing pad): the open unit ends here, its ops run exactly once.  Entries
 * a callee left open while unwinding are forgotten with it. */
void pygraph_region_exit_impl(pygraph_region *region)
{
  struct thread_regions *t = &tls_regions;
  if (t->depth == 0)
    return;
  if (t->stack[0].region == region) {
    close_bottom(t);
    return;
  }
  if (t->stack[t->depth - 1].region == region)
    t->depth--;                              /* a nested, ignored region */
}

/* Runs what the live iteration deferred and records the rest of it in the
 * segment reserved at the live region's last checked external call (a new
 * iteration of that segment), or lets it pass through when there is none.
 * Nested entries are forgotten as at any begin of the live region. */
static void split_live(const struct pygraph_backend *backend, const char *reason)
{
  struct thread_regions *t = &tls_regions;
  if (!t->recording)
    return;
  pygraph_region *live = t->stack[0].region;
  if (t->split_region == live && live->kind != PYGRAPH_REGION_BATCH) {
    unsigned segment = t->split_segment;
    t->unit_open = 0;
    pygraph_region_begin_with(backend, live, segment);
    t->split_region = live;             /* a later barrier of the same call splits again */
    t->split_segment = segment;
    return;
  }
  pygraph_stop_live(t->recording, reason);
}

void pygraph_external_call_impl(const struct pygraph_backend *backend, pygraph_region *region,
                                unsigned segment, const void *aware)
{
  struct thread_regions *t = &tls_regions;
  if (t->depth == 0)
    return;
  if (region && region == t->stack[0].region && segment < region->n_segments) {
    t->split_region = region;
    t->split_segment = segment;
  }
  if (!aware)
    split_live(backend, "call of a function not compiled with pygraph");
}

void pygraph_barrier_point_impl(const struct pygraph_backend *backend)
{
  if (tls_regions.recording)
    split_live(backend, "barrier in a function called from the region");
}

cudaError_t pygraph_region_set_device(const struct pygraph_backend *backend, int device)
{
  int prev = -1;
  if (!backend->set_device)
    return cudaErrorInvalidDevice;          /* a port of one device */
  if (backend->get_device(&prev) != cudaSuccess) {
    backend->clear_error();                 /* the program's call says what is wrong */
    prev = -1;
  }
  cudaError_t err = backend->set_device(device);
  if (err == cudaSuccess && prev != device)
    pygraph_region_device_changed(backend, prev, device);
  return err;
}
