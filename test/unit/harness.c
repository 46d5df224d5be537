/* harness.c - see harness.h. */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/kernel_pointers.h"
#include "abi/record.h"

int harness_indirect_default = -1;
int harness_eager_before_capture_default = -1;

void harness_settings(enum pygraph_mode mode, unsigned warmup, unsigned max_captures)
{
  struct pygraph_settings s;
  pygraph_settings_defaults(&s);
  if (harness_indirect_default >= 0)
    s.indirect = harness_indirect_default;
  if (harness_eager_before_capture_default >= 0)
    s.eager_before_capture = (unsigned)harness_eager_before_capture_default;
  s.min_ops = 1;           /* most tests run one kernel an iteration */
  s.mode = mode;
  s.warmup = warmup;
  s.max_captures = max_captures;
  pygraph_settings_override(&s);
}

void harness_warmup_given(void)
{
  struct pygraph_settings s = *pygraph_settings();
  s.warmup_set = 1;
  pygraph_settings_override(&s);
}

void harness_variants(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.variants = n;
  pygraph_settings_override(&s);
}

void harness_measure(unsigned iters, unsigned margin_pct)
{
  struct pygraph_settings s = *pygraph_settings();
  s.measure_iters = iters;
  s.margin_pct = margin_pct;
  pygraph_settings_override(&s);
}

void harness_fake_timing(double eager_op_us, double graph_launch_us)
{
  fake.timing = 1;
  fake.eager_op_us = eager_op_us;
  fake.graph_launch_us = graph_launch_us;
}

void harness_launch_bound_host(double eager_launch_us, double graph_launch_us)
{
  fake_host_us += eager_launch_us * harness_count(fake_log(), "k") +
                  graph_launch_us * harness_count(fake_log(), "launch");
  if (fake_gpu_us < fake_host_us)
    fake_gpu_us = fake_host_us;
}

void harness_eager_before_capture(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.eager_before_capture = n;
  pygraph_settings_override(&s);
}

void harness_max_ops(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.max_ops = n;
  pygraph_settings_override(&s);
}

void harness_indirect(int on)
{
  struct pygraph_settings s = *pygraph_settings();
  s.indirect = on;
  pygraph_settings_override(&s);
}

pygraph_region *harness_region(const char *function, unsigned n_segments)
{
  pygraph_region *r = calloc(1, sizeof *r);
  r->abi_version = PYGRAPH_ABI_VERSION;
  r->kind = PYGRAPH_REGION_LOOP;
  r->n_segments = n_segments;
  r->n_static_launches = 1;
  r->function = function;
  r->file = "test.cu";
  r->line_begin = 10;
  r->line_end = 20;
  /* A long loop: a capture pays back (pygraph_decide's rent-or-buy rule,
   * table-tested in test_capture_policy) unless a test says otherwise. */
  r->trip_count = 100000;
  return r;   /* leaked on purpose: the registry keeps pointing at it */
}

pygraph_region *harness_batch_region(const char *function, unsigned batch_max)
{
  pygraph_region *r = harness_region(function, 1);
  r->kind = PYGRAPH_REGION_BATCH;
  r->batch_max = batch_max;
  return r;
}

void harness_batch(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.batch = n;
  pygraph_settings_override(&s);
}

void harness_verify(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.verify = n;
  pygraph_settings_override(&s);
}

static const struct pygraph_backend *harness_backend_in_use = &fake_backend;

void harness_backend(const struct pygraph_backend *backend)
{
  harness_backend_in_use = backend ? backend : &fake_backend;
}

struct pygraph_segment *harness_segment(pygraph_region *r, unsigned s)
{
  struct pygraph_region_state *state = r->state;
  return state && s < state->n_segments ? state->segments[s] : NULL;
}

const struct pygraph_segment *harness_thread_segment(pygraph_region *r, unsigned s,
                                                     unsigned slot)
{
  struct pygraph_region_state *state = r->state;
  return state ? pygraph_region_thread_segment(state, s, slot) : NULL;
}

void begin(pygraph_region *r, unsigned segment)
{
  pygraph_region_begin_with(harness_backend_in_use, r, segment);
}

void end(pygraph_region *r)
{
  pygraph_region_end_impl(r);
}

void external_call(pygraph_region *r, unsigned segment, const void *aware)
{
  pygraph_external_call_impl(harness_backend_in_use, r, segment, aware);
}

void barrier_point(void)
{
  pygraph_barrier_point_impl(harness_backend_in_use);
}

void kernel_pointer_call(pygraph_region *r, unsigned segment, const void *fn,
                         const void *const *stubs, unsigned n)
{
  pygraph_kernel_pointer_call_impl(harness_backend_in_use, r, segment, fn, stubs, n);
}

void throw_point(void)
{
  pygraph_region_close_live();
}

void loop_enter(pygraph_region *r, long long trips)
{
  pygraph_region_loop_enter_impl(harness_backend_in_use, r, trips);
}

void loop_exit(pygraph_region *r)
{
  pygraph_region_exit_impl(r);
}

static void launch_at(const pygraph_site *site, int func, int arg0, dim3 grid, dim3 block,
                      size_t shmem, cudaStream_t stream)
{
  int a0 = arg0;
  long long a1 = 1000 + arg0;
  void *args[] = {&a0, &a1};
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_kernel(seg, site, FAKE_FUNC(func), grid, block, shmem, stream,
                                   args) == PYGRAPH_DEFERRED) {
    a0 = -1;   /* the runtime must have copied the arguments by value */
    return;
  }
  fake_log_append("p:k%d(%d) ", func, arg0);
}

void kernel_buf(int func, int value, void *buf)
{
  static pygraph_site sites[64];
  static char names[64][24];
  pygraph_site *site = &sites[func % 64];
  snprintf(names[func % 64], sizeof names[0], "fake_kernel_%d", func % 64);
  site->kernel = names[func % 64];
  site->file = "test.cu";
  site->line = 100u + (unsigned)(func % 64);
  int a0 = value;
  long long a1 = (long long)(uintptr_t)buf;
  void *args[] = {&a0, &a1};
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_kernel(seg, site, FAKE_FUNC(func), grid, block, 0, S1, args) ==
                 PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:k%d(%d) ", func, value);
  struct fake_node node = {.kind = PYGRAPH_OP_KERNEL, .has_args = 1, .arg0 = a0, .arg1 = a1};
  fake_memory_apply(&node);                   /* passed through: "CUDA" runs it */
}

void kernel_attrs(int func, int arg0, const cudaLaunchAttribute *attrs, unsigned n)
{
  int a0 = arg0;
  long long a1 = 1000 + arg0;
  void *args[] = {&a0, &a1};
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_kernel_attrs(seg, NULL, FAKE_FUNC(func), grid, block, 0, S1, args,
                                         attrs, n) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:k%d(%d) ", func, arg0);
}

int harness_count(const char *log, const char *token)
{
  int n = 0;
  for (const char *p = log; (p = strstr(p, token)) != NULL; p += strlen(token))
    n++;
  return n;
}

void kernel_at(const pygraph_site *site, int func, int arg0)
{
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  launch_at(site, func, arg0, grid, block, 0, S1);
}

void kernel_cfg(int func, int arg0, dim3 grid, dim3 block, size_t shmem, cudaStream_t stream)
{
  launch_at(NULL, func, arg0, grid, block, shmem, stream);
}

void kernel_twin_cfg(int func, int arg0, int twin, dim3 block, size_t shmem)
{
  /* Site descriptors are constant data with static lifetime in real code. */
  static pygraph_site sites[64][16];
  pygraph_site *site = &sites[func % 64][twin % 16];
  site->kernel = "fake_kernel";
  site->indirect_twin = twin ? FAKE_TWIN(twin) : NULL;
  dim3 grid = {1, 1, 1};
  launch_at(site, func, arg0, grid, block, shmem, S1);
}

void kernel_twin(int func, int arg0, int twin)
{
  dim3 block = {32, 1, 1};
  kernel_twin_cfg(func, arg0, twin, block, 0);
}

void kernel_on(int func, int arg0, cudaStream_t stream)
{
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  kernel_cfg(func, arg0, grid, block, 0, stream);
}

void kernel(int func, int arg0)
{
  kernel_on(func, arg0, S1);
}

void memset_op(int value, size_t count)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_memset(seg, (void *)0x5000, value, count, S1) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:ms(%d) ", value);
}

void memset_to(void *dst, int value, size_t count)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_memset(seg, dst, value, count, S1) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:ms(%d) ", value);
  struct fake_node node = {.kind = PYGRAPH_OP_MEMSET, .dst = dst, .value = value, .count = count};
  fake_memory_apply(&node);
}

void memcpy_op(unsigned long dst, size_t count, enum cudaMemcpyKind kind)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_memcpy(seg, (void *)dst, (const void *)0x6000, count, kind, S1) ==
                 PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:mc(%lu) ", dst);
}

void sync_memset_to(void *dst, int value, size_t count)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_sync_memset(seg, dst, value, count,
                                        pygraph_normalize_stream(NULL, 0)) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:ms(%d) ", value);
  struct fake_node node = {.kind = PYGRAPH_OP_MEMSET, .dst = dst, .value = value, .count = count};
  fake_memory_apply(&node);
}

void sync_memcpy_to(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_sync_memcpy(seg, dst, src, count, kind,
                                        pygraph_normalize_stream(NULL, 0)) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:mc(%lu) ", (unsigned long)dst);
  struct fake_node node = {.kind = PYGRAPH_OP_MEMCPY, .dst = dst, .src = src, .count = count};
  fake_memory_apply(&node);
}

/* A pass-through host-to-device copy, as CUDA makes it: the bytes now. */
static void host_bytes_now(void *dst, const void *src, size_t count)
{
  fake_log_append("p:hb(%u) ", (unsigned)*(const unsigned char *)src);
  struct fake_node node = {.kind = PYGRAPH_OP_HOST_BYTES, .dst = dst, .count = count,
                           .bytes = (unsigned char *)src};
  fake_memory_apply(&node);
}

void h2d_copy(void *dst, const void *src, size_t count)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_sync_memcpy(seg, dst, src, count, cudaMemcpyHostToDevice,
                                        pygraph_normalize_stream(NULL, 0)) == PYGRAPH_DEFERRED)
    return;
  host_bytes_now(dst, src, count);
}

void to_symbol(const void *symbol, const void *src, size_t count, size_t offset)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_sync_to_symbol(seg, symbol, src, count, offset,
                                           cudaMemcpyHostToDevice,
                                           pygraph_normalize_stream(NULL, 0)) == PYGRAPH_DEFERRED)
    return;
  host_bytes_now(symbol == FAKE_NO_SYMBOL ? NULL : (unsigned char *)symbol + offset, src, count);
}

void *device_malloc(size_t size)
{
  void *ptr = NULL;
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_malloc(seg, &ptr, size) == PYGRAPH_DEFERRED)
    return ptr;
  fake_log_append("p:malloc(%lu) ", (unsigned long)size);
  return fake_backend.device_alloc(&ptr, size) == cudaSuccess ? ptr : NULL;
}

void device_free(void *ptr)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_free(seg, ptr) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:free ");
  fake_backend.device_free(ptr);
}

void func_setting(int func, int attr, int value)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg)
    pygraph_record_func_setting(seg, FAKE_FUNC(func), attr, value);
  fake_log_append("p:attr%d ", func);
}

void harness_pool_mb(unsigned mb)
{
  struct pygraph_settings s = *pygraph_settings();
  s.pool_mb = mb;
  pygraph_settings_override(&s);
}

void event_record(int event, cudaStream_t stream)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_event_record(seg, FAKE_EVENT(event), stream) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:er%d ", event);
}

void event_wait(cudaStream_t stream, int event)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_event_wait(seg, stream, FAKE_EVENT(event), 0) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:ew%d ", event);
}

void undeferrable(const char *what)
{
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg)
    pygraph_record_undeferrable(seg, what);
  fake_log_append("p:%s ", what);
}

void harness_min_ops(unsigned n)
{
  struct pygraph_settings s = *pygraph_settings();
  s.min_ops = n;
  pygraph_settings_override(&s);
}

const char *harness_mode_name(const struct pygraph_segment *seg)
{
  struct pygraph_segment_summary sum;
  pygraph_segment_summarize(seg, &sum);
  return sum.mode;
}
