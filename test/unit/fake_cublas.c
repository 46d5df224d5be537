/* fake_cublas.c - the cuBLAS and CUDA calls of the cuBLAS adapter, faked
 * (fake_cublas.h). */
#include "fake_cublas.h"

#include <stdlib.h>
#include <string.h>

#include "fake_backend.h"

struct fake_cublas_state fake_cublas;

void fake_cublas_reset(void)
{
  memset(&fake_cublas, 0, sizeof fake_cublas);
  fake_cublas.compute_major = 9;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream)
{
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream)
{
  fake_cublas.set_stream_calls++;
  handle->stream = stream;
  handle->workspace = NULL;          /* the default pool again */
  handle->workspace_bytes = 0;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode)
{
  *mode = handle->mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode)
{
  handle->mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t bytes)
{
  handle->workspace = workspace;
  handle->workspace_bytes = bytes;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
  (void)handle;
  return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status)
{
  return status == CUBLAS_STATUS_INVALID_VALUE ? "CUBLAS_STATUS_INVALID_VALUE"
                                               : "CUBLAS_STATUS_OTHER";
}

/* A call on `handle`: captured (logged cap:<name>) or run (logged <name>);
 * 1 when it runs, else its status in *st. */
static int runs(cublasHandle_t handle, const char *name, float alpha, int n,
                cublasStatus_t *st)
{
  int captured = handle->stream == FAKE_CAPTURE_STREAM;
  fake_log_append("%s%s(%g) ", captured ? "cap:" : "", name, (double)alpha);
  *st = CUBLAS_STATUS_SUCCESS;
  if (n < 0)
    *st = CUBLAS_STATUS_INVALID_VALUE;
  else if (captured && fake_cublas.fail_captures)
    *st = CUBLAS_STATUS_NOT_SUPPORTED;
  if (captured) {
    fake_cublas.captures++;
    fake_cublas.captured_workspace = handle->workspace;
    fake_cublas.captured_workspace_bytes = handle->workspace_bytes;
  }
  fake_cublas.runs += !captured && *st == CUBLAS_STATUS_SUCCESS;
  return !captured && *st == CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                              int incx, float *y, int incy)
{
  cublasStatus_t st;
  if (runs(handle, "saxpy", *alpha, n, &st))
    for (int i = 0; i < n; i++)
      y[i * incy] += *alpha * x[i * incx];
  return st;
}

cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float *alpha, float *x,
                              int incx)
{
  cublasStatus_t st;
  if (runs(handle, "sscal", *alpha, n, &st))
    for (int i = 0; i < n; i++)
      x[i * incx] *= *alpha;
  return st;
}

cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x, int incx,
                              float *result)
{
  cublasStatus_t st;
  if (runs(handle, "snrm2", 0.0f, n, &st)) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
      sum += x[i * incx] * x[i * incx];
    *result = sum;                     /* the square is enough for a test */
  }
  return st;
}

/* ---- the CUDA calls of the adapter's workspaces ------------------------- */

cudaError_t cudaMalloc(void **ptr, size_t size)
{
  fake_cublas.mallocs++;
  *ptr = malloc(size);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaFree(void *ptr)
{
  free(ptr);
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
  (void)device;
  *value = attr == cudaDevAttrComputeCapabilityMajor ? fake_cublas.compute_major : 0;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
  return cudaSuccess;
}
