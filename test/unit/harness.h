/* harness.h - drives the runtime the way cuda_entry_points.c does, but on
 * the fake backend: a routed call is recorded when the thread has a
 * recording segment, otherwise it "goes to CUDA", logged as p:<token>. */
#ifndef PYGRAPH_TEST_HARNESS_H
#define PYGRAPH_TEST_HARNESS_H

#include "fake_backend.h"
#include "pygraph_rt.h"
#include "abi/region_stack.h"
#include "abi/region_state.h"
#include "segment/segment_internal.h"
#include "common/settings.h"

#define S1 FAKE_STREAM(1)
#define S2 FAKE_STREAM(2)

/* Settings for regions created from now on (report and debug off, every
 * other setting at its default: PYGRAPH_INDIRECT on, 4 variants, ...). */
void harness_settings(enum pygraph_mode mode, unsigned warmup, unsigned max_captures);
/* When >= 0, harness_settings() sets PYGRAPH_INDIRECT to it (indirection is
 * off by default; its tests turn it on). */
extern int harness_indirect_default;
/* >= 0: harness_settings uses it for PYGRAPH_EAGER_BEFORE_CAPTURE */
extern int harness_eager_before_capture_default;
void harness_indirect(int on);                         /* PYGRAPH_INDIRECT, same scope */
void harness_variants(unsigned n);                     /* PYGRAPH_VARIANTS, same scope */
void harness_warmup_given(void);                       /* as if PYGRAPH_WARMUP was set */
void harness_measure(unsigned iters, unsigned margin_pct);  /* PYGRAPH_MEASURE_ITERS, margin */
/* The fake GPU times its work (after fake_reset): eager_op_us per eager op,
 * graph_launch_us per graph launch. */
void harness_fake_timing(double eager_op_us, double graph_launch_us);
/* A launch-bound host after an iteration: the fake host clock advances by
 * eager_launch_us for each eager kernel in fake_log() and graph_launch_us for
 * each graph launch, and the fake GPU runs nothing before the host issued it
 * (its clock is at least the host's). */
void harness_launch_bound_host(double eager_launch_us, double graph_launch_us);
void harness_max_ops(unsigned n);                      /* PYGRAPH_MAX_OPS, same scope */
void harness_min_ops(unsigned n);                      /* PYGRAPH_MIN_OPS (harness: 1) */
void harness_eager_before_capture(unsigned n);         /* PYGRAPH_EAGER_BEFORE_CAPTURE */

/* A fresh region descriptor, as the pass would emit it. */
pygraph_region *harness_region(const char *function, unsigned n_segments);

/* A batchable loop's region (PYGRAPH_REGION_BATCH, one segment) whose
 * plugin option batch= was batch_max; trip_count as harness_region's. */
pygraph_region *harness_batch_region(const char *function, unsigned batch_max);
void harness_batch(unsigned n);                        /* PYGRAPH_BATCH, same scope */
void harness_verify(unsigned n);                       /* PYGRAPH_VERIFY, same scope */

/* The runtime state of segment s of r (after its first begin). */
/* Regions first used from now on run on `backend` (NULL: the fake). */
void harness_backend(const struct pygraph_backend *backend);

struct pygraph_segment *harness_segment(pygraph_region *r, unsigned s);

/* "graph", "eager" or "warmup": the phase the report shows. */
const char *harness_mode_name(const struct pygraph_segment *seg);
/* Thread slot `slot` of segment s (slot 0 = harness_segment), or NULL. */
const struct pygraph_segment *harness_thread_segment(pygraph_region *r, unsigned s,
                                                     unsigned slot);

void begin(pygraph_region *r, unsigned segment);
void end(pygraph_region *r);
void loop_enter(pygraph_region *r, long long trips);
/* __pygraph_external_call / __pygraph_barrier_point (pygraph_rt.h). */
void external_call(pygraph_region *r, unsigned segment, const void *aware);
void barrier_point(void);
/* __pygraph_kernel_pointer_call / __pygraph_throw_point (pygraph_abi.def). */
void kernel_pointer_call(pygraph_region *r, unsigned segment, const void *fn,
                         const void *const *stubs, unsigned n);
void throw_point(void);
void loop_exit(pygraph_region *r);

/* Occurrences of `token` in `log` (e.g. fake_log()), overlapping ones not. */
int harness_count(const char *log, const char *token);

void kernel(int func, int arg0);                       /* on S1, grid 1, block 32 */
void kernel_on(int func, int arg0, cudaStream_t stream);
void kernel_cfg(int func, int arg0, dim3 grid, dim3 block, size_t shmem, cudaStream_t stream);
/* A launch of fake kernel `func` from `site`, on S1, grid 1, block 32. */
void kernel_at(const pygraph_site *site, int func, int arg0);
/* A launch whose site has indirect twin FAKE_TWIN(twin) (0: no twin). */
void kernel_twin(int func, int arg0, int twin);
void kernel_twin_cfg(int func, int arg0, int twin, dim3 block, size_t shmem);
/* Fake kernel `func` (1..63) adding `value` to the int at `buf` (a
 * fake_buffer: fake_memory.h), on S1; its launch site names the kernel
 * "fake_kernel_<func>" at test.cu:<100 + func>. */
void kernel_buf(int func, int value, void *buf);
void memset_op(int value, size_t count);
void memset_to(void *dst, int value, size_t count);    /* on S1 */
void memcpy_op(unsigned long dst, size_t count, enum cudaMemcpyKind kind);
/* The synchronous cudaMemset / cudaMemcpy as __pygraph_cudaMemset and
 * __pygraph_cudaMemcpy record them (on the legacy default stream); when
 * refused, passed through (p:ms(<value>) / p:mc(<dst>)) and applied to
 * fake memory, as CUDA would. */
void sync_memset_to(void *dst, int value, size_t count);
void sync_memcpy_to(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
/* The synchronous cudaMemcpy of kind cudaMemcpyHostToDevice and
 * cudaMemcpyToSymbol (a symbol is its own fake device address:
 * fake_backend.h) as __pygraph_cudaMemcpy / __pygraph_cudaMemcpyToSymbol
 * record them; when refused, passed through (p:hb(<first byte>)) and
 * written to fake memory at once, as CUDA would. */
void h2d_copy(void *dst, const void *src, size_t count);
void to_symbol(const void *symbol, const void *src, size_t count, size_t offset);
/* cudaMalloc / cudaFree as the routed entry points make them (record.h):
 * the pool's answer in a recording iteration, else the real call, logged
 * p:malloc(<size>) / p:free (fake device_alloc / device_free). */
void *device_malloc(size_t size);
void device_free(void *ptr);
void harness_pool_mb(unsigned mb);
/* cudaFuncSetAttribute (attr >= 0) / cudaFuncSetCacheConfig (attr < 0) of
 * FAKE_FUNC(func) as the routed entry points make it: the segment's check
 * (record.h), then the real call, logged p:attr<func>. */
void func_setting(int func, int attr, int value);
/* A cudaLaunchKernelExC of FAKE_FUNC(func) on S1 with n launch attributes
 * (record.h, pygraph_record_kernel_attrs); passed through: p:k<func>(<arg0>). */
void kernel_attrs(int func, int arg0, const cudaLaunchAttribute *attrs, unsigned n);                     /* PYGRAPH_POOL_MB, same scope */
void event_record(int event, cudaStream_t stream);
void event_wait(cudaStream_t stream, int event);
void undeferrable(const char *what);                   /* e.g. a launch configuration missing */

#endif /* PYGRAPH_TEST_HARNESS_H */
