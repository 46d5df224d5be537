/* pygraph_rt.h - the ABI between the pygraph compiler pass and its runtime.
 *
 * The pass emits calls to these entry points; nothing else in a user's
 * program refers to them.  Layout changes must bump PYGRAPH_ABI_VERSION,
 * because descriptors are emitted as constant data by the compiler.
 *
 * Routed calls: every CUDA stream operation the pass may defer is replaced by
 * "__pygraph_" + <CUDA symbol> with one extra leading `const pygraph_site *`
 * argument; the remaining arguments are exactly the CUDA function's.  Outside
 * an open region a routed call forwards to the CUDA function unchanged.
 */
#ifndef PYGRAPH_RT_H
#define PYGRAPH_RT_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PYGRAPH_ABI_VERSION 1u

/* One per routed call site (at -O0 the site lives in the kernel's stub, so
 * it names the kernel's declaration rather than the <<<>>> line). */
typedef struct pygraph_site {
  const char *kernel;            /* mangled kernel name, NULL for non-launch ops */
  const char *file;              /* may be NULL without debug info */
  unsigned line;
  unsigned flags;                /* reserved, 0 */
  const void *indirect_twin;     /* host handle of the kernel's indirect twin, or NULL */
} pygraph_site;

enum pygraph_region_kind {
  PYGRAPH_REGION_LOOP = 0,       /* one loop iteration (split at barriers) */
  PYGRAPH_REGION_STRAIGHT = 1    /* a run of launches outside loops */
};

/* One per region the pass formed.  `state` is owned by the runtime and
 * starts out NULL; everything else is read-only. */
typedef struct pygraph_region {
  unsigned abi_version;          /* PYGRAPH_ABI_VERSION */
  unsigned kind;                 /* enum pygraph_region_kind */
  unsigned n_segments;           /* segments are separated by barriers */
  unsigned n_static_launches;    /* launch sites the pass saw in the region */
  const char *function;          /* enclosing function, demangled */
  const char *file;
  unsigned line_begin, line_end;
  long long trip_count;          /* -1 when the compiler does not know it */
  void *state;                   /* runtime-owned */
} pygraph_region;

/* Region protocol.  The pass guarantees: every instruction that may
 * synchronize with the device or observe its results is preceded by
 * __pygraph_region_end for any region that may be open at that point.
 * begin(r, s) opens segment s of r; a begin while another region is open
 * nests (a callee's region inside its caller's) and is ignored; end(r)
 * closes r only when r is the innermost open region and is a no-op
 * otherwise. */
void __pygraph_region_begin(pygraph_region *r, unsigned segment);
void __pygraph_region_end(pygraph_region *r);

/* Routed launches. */
cudaError_t __pygraph_cudaLaunchKernel(const pygraph_site *site, const void *func,
                                       dim3 grid, dim3 block, void **args,
                                       size_t shmem, cudaStream_t stream);
cudaError_t __pygraph_cudaLaunchKernel_ptsz(const pygraph_site *site, const void *func,
                                            dim3 grid, dim3 block, void **args,
                                            size_t shmem, cudaStream_t stream);
cudaError_t __pygraph_cudaLaunchKernelExC(const pygraph_site *site,
                                          const cudaLaunchConfig_t *config,
                                          const void *func, void **args);
cudaError_t __pygraph_cudaLaunchKernelExC_ptsz(const pygraph_site *site,
                                               const cudaLaunchConfig_t *config,
                                               const void *func, void **args);
CUresult __pygraph_cuLaunchKernel(const pygraph_site *site, CUfunction f,
                                  unsigned gx, unsigned gy, unsigned gz,
                                  unsigned bx, unsigned by, unsigned bz,
                                  unsigned shmem, CUstream stream,
                                  void **params, void **extra);
CUresult __pygraph_cuLaunchKernel_ptsz(const pygraph_site *site, CUfunction f,
                                       unsigned gx, unsigned gy, unsigned gz,
                                       unsigned bx, unsigned by, unsigned bz,
                                       unsigned shmem, CUstream stream,
                                       void **params, void **extra);
CUresult __pygraph_cuLaunchKernelEx(const pygraph_site *site,
                                    const CUlaunchConfig *config, CUfunction f,
                                    void **params, void **extra);
CUresult __pygraph_cuLaunchKernelEx_ptsz(const pygraph_site *site,
                                         const CUlaunchConfig *config, CUfunction f,
                                         void **params, void **extra);

/* Routed stream operations a graph can hold. */
cudaError_t __pygraph_cudaMemsetAsync(const pygraph_site *site, void *dst, int value,
                                      size_t count, cudaStream_t stream);
cudaError_t __pygraph_cudaMemsetAsync_ptsz(const pygraph_site *site, void *dst, int value,
                                           size_t count, cudaStream_t stream);
cudaError_t __pygraph_cudaMemcpyAsync(const pygraph_site *site, void *dst, const void *src,
                                      size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream);
cudaError_t __pygraph_cudaMemcpyAsync_ptsz(const pygraph_site *site, void *dst,
                                           const void *src, size_t count,
                                           enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __pygraph_cudaEventRecord(const pygraph_site *site, cudaEvent_t event,
                                      cudaStream_t stream);
cudaError_t __pygraph_cudaEventRecord_ptsz(const pygraph_site *site, cudaEvent_t event,
                                           cudaStream_t stream);
cudaError_t __pygraph_cudaStreamWaitEvent(const pygraph_site *site, cudaStream_t stream,
                                          cudaEvent_t event, unsigned int flags);
cudaError_t __pygraph_cudaStreamWaitEvent_ptsz(const pygraph_site *site, cudaStream_t stream,
                                               cudaEvent_t event, unsigned int flags);

#ifdef __cplusplus
}
#endif
#endif /* PYGRAPH_RT_H */
