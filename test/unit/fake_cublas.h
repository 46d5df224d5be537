/* fake_cublas.h - a stand-in for the few cuBLAS (and CUDA) calls the cuBLAS
 * adapter (cuda/cublas_entry_points.c, cuda/cublas_handles.c) makes in
 * test_library_ops.c, linked instead of cuBLAS: the adapter runs as it is
 * against the fake backend.  Its other cuBLAS functions stay unresolved
 * (weak: null), as in a program that does not call them.
 *
 * A handle keeps its stream, pointer mode and workspace as cuBLAS does
 * (cublasSetStream resets the workspace to the default pool, NULL here).
 * cublasSaxpy_v2 (y += alpha x), cublasSscal_v2 (x *= alpha) and
 * cublasSnrm2_v2 work on host floats standing for device memory; a call
 * made on FAKE_CAPTURE_STREAM is captured, not run: it changes nothing and
 * logs cap:<name>(<alpha>), else it runs and logs <name>(<alpha>)
 * (fake_backend.h's log; alpha read as the pointer mode says).  n < 0 is
 * CUBLAS_STATUS_INVALID_VALUE, as cuBLAS answers it. */
#ifndef PYGRAPH_TEST_FAKE_CUBLAS_H
#define PYGRAPH_TEST_FAKE_CUBLAS_H

#include <cublas_v2.h>

struct cublasContext {
  cudaStream_t stream;
  cublasPointerMode_t mode;
  void *workspace;                   /* NULL: cuBLAS's default pool */
  size_t workspace_bytes;
};

struct fake_cublas_state {
  int fail_captures;                 /* calls made into the capture stream fail */
  int runs, captures;                /* calls run / captured */
  int set_stream_calls;              /* cublasSetStream_v2 calls */
  void *captured_workspace;          /* the handle's workspace at the last capture */
  size_t captured_workspace_bytes;
  int mallocs;                       /* cudaMalloc calls (workspaces) */
  int compute_major;                 /* the device's compute capability (major) */
};
extern struct fake_cublas_state fake_cublas;

void fake_cublas_reset(void);

#endif /* PYGRAPH_TEST_FAKE_CUBLAS_H */
