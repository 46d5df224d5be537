/* cublas_handles.c - a cuBLAS handle's state around recorded calls, and
 * the workspaces of captured ones (cublas_handles.h). */
#include "cuda/cublas_handles.h"

#include <pthread.h>

#include "abi/library_calls.h"
#include "common/key_table.h"
#include "common/settings.h"

/* Weak: the runtime links into programs without cuBLAS, and only a program
 * whose calls were routed here (so which links cuBLAS) reaches this file. */
#pragma weak cublasGetStream_v2
#pragma weak cublasSetStream_v2
#pragma weak cublasGetPointerMode_v2
#pragma weak cublasSetPointerMode_v2
#pragma weak cublasSetWorkspace_v2
#pragma weak cublasGetStatusName

cublasStatus_t pygraph_cublas_read_head(cublasHandle_t handle, struct pygraph_cublas_head *head)
{
  head->handle = handle;
  cublasStatus_t st = cublasGetStream_v2(handle, &head->stream);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasGetPointerMode_v2(handle, &head->mode);
  return st;
}

static int is_complex(cudaDataType t)
{
  switch (t) {
  case CUDA_C_16F: case CUDA_C_16BF: case CUDA_C_32F: case CUDA_C_64F: case CUDA_C_8I:
  case CUDA_C_8U: case CUDA_C_32I: case CUDA_C_32U:
    return 1;
  default:
    return 0;
  }
}

/* The compute types cuBLAS documents for cublasGemmEx; newer ones (the
 * emulated ones of CUDA 13) are made at once rather than guessed. */
size_t pygraph_cublas_scale_bytes(cublasComputeType_t compute, cudaDataType c_type)
{
  size_t scale;
  switch (compute) {
  case CUBLAS_COMPUTE_16F: case CUBLAS_COMPUTE_16F_PEDANTIC:
    return 2;                           /* __half, real only */
  case CUBLAS_COMPUTE_32I: case CUBLAS_COMPUTE_32I_PEDANTIC:
    return 4;                           /* int, real only */
  case CUBLAS_COMPUTE_32F: case CUBLAS_COMPUTE_32F_PEDANTIC: case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF: case CUBLAS_COMPUTE_32F_FAST_TF32:
    scale = 4;                          /* float, or cuComplex */
    break;
  case CUBLAS_COMPUTE_64F: case CUBLAS_COMPUTE_64F_PEDANTIC:
    scale = 8;                          /* double, or cuDoubleComplex */
    break;
  default:
    return 0;
  }
  return is_complex(c_type) ? 2 * scale : scale;
}

const char *pygraph_cublas_status_name(int status)
{
  return cublasGetStatusName ? cublasGetStatusName((cublasStatus_t)status) : NULL;
}

/* ---- workspaces --------------------------------------------------------- */

struct workspace {
  struct pygraph_table_key key;      /* pygraph's: (handle, stream); the program's:
                                        (handle, 0, 1) */
  void *ptr;                         /* NULL: none (the program's, forgotten) */
  size_t bytes;
  cudaStream_t stream;               /* the program's: the handle's stream when it was set */
};

static pthread_mutex_t workspaces_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table workspaces = PYGRAPH_KEY_TABLE_INIT(struct workspace);

static struct pygraph_table_key program_key(cublasHandle_t handle)
{
  return (struct pygraph_table_key){handle, 0, 1};
}

/* PYGRAPH_CUBLAS_WORKSPACE_MB, or its default for the current device. */
static size_t workspace_bytes(void)
{
  unsigned mb = pygraph_settings()->cublas_workspace_mb;
  int device, major = 0;
  if (mb == PYGRAPH_CUBLAS_WORKSPACE_AUTO) {
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
      (void)cudaGetLastError();         /* pygraph's own query: the smaller size */
    mb = major >= 9 ? 32 : 4;
  }
  return (size_t)mb << 20;
}

/* pygraph's workspace of (handle, stream), allocated at its first use:
 * 0 (*ptr NULL when PYGRAPH_CUBLAS_WORKSPACE_MB is 0), or -1 when it could
 * not be allocated (the capture fails; the call runs eagerly). */
static int own_workspace(const struct pygraph_cublas_head *head, void **ptr, size_t *bytes)
{
  struct pygraph_table_key key = {head->handle, (unsigned long long)(size_t)head->stream, 0};
  int failed = 0;
  pthread_mutex_lock(&workspaces_lock);
  struct workspace *w = pygraph_key_table_find(&workspaces, key);
  if (!w && (*bytes = workspace_bytes()) > 0) {
    void *p = NULL;
    if (cudaMalloc(&p, *bytes) != cudaSuccess) {
      (void)cudaGetLastError();         /* pygraph's own: the iteration runs eagerly */
      failed = 1;
    } else if (!(w = pygraph_key_table_insert(&workspaces, key))) {
      (void)cudaFree(p);
      failed = 1;
    } else {
      *w = (struct workspace){key, p, *bytes, NULL};
      pygraph_library_add_workspace(*bytes);
    }
  }
  *ptr = w ? w->ptr : NULL;
  *bytes = w ? w->bytes : 0;
  pthread_mutex_unlock(&workspaces_lock);
  return failed ? -1 : 0;
}

void pygraph_cublas_note_workspace(cublasHandle_t handle, void *workspace, size_t bytes)
{
  cudaStream_t stream = NULL;
  int known = cublasGetStream_v2(handle, &stream) == CUBLAS_STATUS_SUCCESS;
  pthread_mutex_lock(&workspaces_lock);
  struct workspace *w = pygraph_key_table_find(&workspaces, program_key(handle));
  if (!w)
    w = pygraph_key_table_insert(&workspaces, program_key(handle));
  if (w) {                              /* out of memory: not re-applied, cuBLAS's pool then */
    w->ptr = known ? workspace : NULL;
    w->bytes = bytes;
    w->stream = stream;
  }
  pthread_mutex_unlock(&workspaces_lock);
}

void pygraph_cublas_forget_workspace(cublasHandle_t handle)
{
  pthread_mutex_lock(&workspaces_lock);
  struct workspace *w = pygraph_key_table_find(&workspaces, program_key(handle));
  if (w)
    w->ptr = NULL;
  pthread_mutex_unlock(&workspaces_lock);
}

/* The program's workspace of handle (NULL: none it set).  Only while the
 * handle is on the stream it had then: a cublasSetStream the pass did not
 * route (a file without regions) reset the workspace, and the program may
 * have freed it since; on another stream it is known to have. */
static void *program_workspace(cublasHandle_t handle, cudaStream_t stream, size_t *bytes)
{
  pthread_mutex_lock(&workspaces_lock);
  struct workspace *w = pygraph_key_table_find(&workspaces, program_key(handle));
  void *ptr = w && w->stream == stream ? w->ptr : NULL;
  *bytes = w ? w->bytes : 0;
  pthread_mutex_unlock(&workspaces_lock);
  return ptr;
}

/* ---- a recorded call made ---------------------------------------------- */

/* call(args) in head->mode, the handle's mode put back after. */
static int in_mode(const struct pygraph_cublas_head *head, int (*call)(const void *),
                   const void *args)
{
  cublasPointerMode_t now;
  cublasStatus_t st = cublasGetPointerMode_v2(head->handle, &now);
  if (st == CUBLAS_STATUS_SUCCESS && now != head->mode)
    st = cublasSetPointerMode_v2(head->handle, head->mode);
  if (st != CUBLAS_STATUS_SUCCESS)
    return (int)st;
  int result = call(args);
  if (now != head->mode && (st = cublasSetPointerMode_v2(head->handle, now)) != 0 && !result)
    result = (int)st;
  return result;
}

/* The handle back on the program's stream, with the program's workspace
 * when it set one (cublasSetStream reset it). */
static cublasStatus_t restore(cublasHandle_t handle, cudaStream_t stream)
{
  size_t bytes;
  cublasStatus_t st = cublasSetStream_v2(handle, stream);
  void *ws = st == CUBLAS_STATUS_SUCCESS ? program_workspace(handle, stream, &bytes) : NULL;
  if (ws)
    st = cublasSetWorkspace_v2(handle, ws, bytes);
  return st;
}

static int captured(const struct pygraph_cublas_head *head, cudaStream_t capture_stream,
                    int (*call)(const void *), const void *args)
{
  cudaStream_t program_stream;
  void *ws;
  size_t bytes;
  cublasStatus_t st = cublasGetStream_v2(head->handle, &program_stream);
  if (st != CUBLAS_STATUS_SUCCESS)
    return (int)st;
  if (own_workspace(head, &ws, &bytes))
    return (int)CUBLAS_STATUS_ALLOC_FAILED;
  if ((st = cublasSetStream_v2(head->handle, capture_stream)) != CUBLAS_STATUS_SUCCESS)
    return (int)st;
  int result = ws ? (int)cublasSetWorkspace_v2(head->handle, ws, bytes) : 0;
  if (!result)
    result = in_mode(head, call, args);
  st = restore(head->handle, program_stream);
  return result ? result : (int)st;
}

int pygraph_cublas_run(const struct pygraph_cublas_head *head, cudaStream_t capture_stream,
                       int (*call)(const void *args), const void *args)
{
  if (!capture_stream)
    return in_mode(head, call, args);
  return captured(head, capture_stream, call, args);
}
