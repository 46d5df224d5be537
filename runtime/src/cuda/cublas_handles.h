/* cublas_handles.h - a cuBLAS handle's state around the calls pygraph
 * records (cublas_entry_points.c): what a recorded call keeps of it, the
 * call made again eagerly or captured, the workspaces its captures use.
 *
 * cuBLAS reads three things of a handle's state at a call that a recorded
 * call must keep: its stream (where the work goes), its pointer mode
 * (whether alpha, beta and results are host or device memory) and its
 * workspace.  Other state (math mode, atomics) can only change through
 * calls that are barriers, so it is the same when the call runs.
 *
 * Only the cuBLAS adapter refers to this file: a program that calls no
 * cuBLAS never links it, nor cuBLAS (cuBLAS symbols are weak here). */
#ifndef PYGRAPH_CUBLAS_HANDLES_H
#define PYGRAPH_CUBLAS_HANDLES_H

#include <stddef.h>

#include <cublas_v2.h>

/* Bytes of a scalar kept from host memory: the largest scale type,
 * cuDoubleComplex (pygraph_library.def, SCALAR). */
#define PYGRAPH_LIBRARY_SCALAR_MAX 16u

/* What every recorded call keeps besides its own arguments (the head of
 * its argument struct). */
struct pygraph_cublas_head {
  cublasHandle_t handle;
  cudaStream_t stream;               /* the handle's stream at the call, as cuBLAS holds it */
  cublasPointerMode_t mode;          /* its pointer mode at the call */
};

/* The handle's stream and pointer mode into *head: CUBLAS_STATUS_SUCCESS,
 * or cuBLAS's status when it cannot tell (a handle not initialized). */
cublasStatus_t pygraph_cublas_read_head(cublasHandle_t handle, struct pygraph_cublas_head *head);

/* The scale type's bytes of a cublasGemmEx-style call (alpha, beta) for
 * computeType and Ctype (cuBLAS documentation, cublasGemmEx: the scale
 * type follows the compute type, complex with a complex Ctype); 0 for a
 * compute type this runtime does not know: the call is then made at once
 * (pygraph_library.def, PYGRAPH_CUBLAS_SCALE_BYTES). */
size_t pygraph_cublas_scale_bytes(cublasComputeType_t compute, cudaDataType c_type);

/* A recorded call made: `call(args)` with the handle in head->mode (set
 * for the call and restored after when it changed since).  With
 * capture_stream NULL on the handle's stream as it is, touching neither
 * stream nor workspace.  Else into capture_stream, which the caller
 * captures: the handle's stream set to it, the workspace pygraph keeps
 * for (handle, head->stream) given to the handle (see below), and after
 * the call the handle's stream put back and, when the program had given
 * the handle a workspace of its own, that one again (cublasSetStream
 * resets the workspace to cuBLAS's default pool).  Returns the call's
 * status, else the first failing step's (CUBLAS_STATUS_ALLOC_FAILED for a
 * workspace that could not be allocated). */
int pygraph_cublas_run(const struct pygraph_cublas_head *head, cudaStream_t capture_stream,
                       int (*call)(const void *args), const void *args);

/* Workspaces: a captured call is given a workspace of pygraph's own,
 * allocated once per (handle, stream of the call) and kept for the
 * process (graphs holding it may run until the end; counted in the
 * report, abi/library_calls.h): PYGRAPH_CUBLAS_WORKSPACE_MB MiB, by
 * default 32 on devices of compute capability 9.0 and newer, else 4; 0
 * gives none.  Without one, cuBLAS allocates a workspace for every graph
 * it is captured into (PyTorch met this, pytorch#83461).  One per stream:
 * calls on one stream run in stream order, as the graphs holding them,
 * launched after the work before them on that stream; calls on two
 * streams may run at once, and must not share one. */

/* The program's own workspace of a handle (an observed cublasSetWorkspace
 * that succeeded), re-applied after captures while the handle is on the
 * stream it was on then; forgotten when the program sets the handle's
 * stream (cuBLAS then resets it) or destroys the handle. */
void pygraph_cublas_note_workspace(cublasHandle_t handle, void *workspace, size_t bytes);
void pygraph_cublas_forget_workspace(cublasHandle_t handle);

/* cublasGetStatusName of a status (library_fn.status_name). */
const char *pygraph_cublas_status_name(int status);

#endif /* PYGRAPH_CUBLAS_HANDLES_H */
