/* cublas_entry_points.c - the cuBLAS adapter: __pygraph_<symbol> for every
 * call of runtime/include/pygraph_library.def, with the argument struct
 * and the thunk (recording/op.h, struct pygraph_library_fn) of each.
 *
 * Outside a recording segment a call goes straight to cuBLAS.  Inside one
 * the handle's stream and pointer mode are read (cublas_handles.h), the
 * scalars cuBLAS reads at the call in host pointer mode (alpha, beta) are
 * copied into the struct, and the call is recorded: it returns
 * CUBLAS_STATUS_SUCCESS, and runs later in stream order with the region's
 * other work, eagerly or as one graph node captured from cuBLAS
 * (cuda/library_capture.h).  An argument error cuBLAS would have returned
 * at the call comes then, reported by the runtime (abi/library_calls.h),
 * not to the program.  A call that writes its result to host memory (a
 * dot, a norm in host pointer mode) is a real synchronization: what was
 * recorded runs, then the call, at once; so is a call the adapter cannot
 * keep (a handle whose state cuBLAS does not tell, a scalar it cannot
 * copy) or one on a stream the program is capturing.
 *
 * Every call counts as one launch in the report's share of launches in
 * graphs.  Only the pass's routed calls refer to this file: no other
 * runtime file does (ops hold the thunks), so the static archive's member
 * joins only programs that call cuBLAS, and cuBLAS symbols are weak (a
 * program without cuBLAS links the shared runtime too). */
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>

#include "pygraph_rt.h"
#include "abi/launch_counter.h"
#include "abi/record.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"
#include "cuda/cublas_handles.h"

#define PYGRAPH_EXPORT __attribute__((visibility("default")))
#define LIKELY(x) __builtin_expect(!!(x), 1)

/* ---- what every entry point does besides its own call ------------------ */

/* A routed call whose cuBLAS function is not there (its library was not
 * loaded: a program that calls cuBLAS links it, so this is a link that
 * went wrong): said once, answered as cuBLAS answers a call without a
 * usable library. */
static cublasStatus_t missing(const char *symbol)
{
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "pygraph: error: %s is not loaded (link the program with cuBLAS)\n", symbol);
  return CUBLAS_STATUS_NOT_INITIALIZED;
}

/* The segment recording this call, or NULL (the call is made at once). */
static struct pygraph_segment *enter(void)
{
  pygraph_count_launch();
  if (pygraph_whole_loop_observing())
    pygraph_whole_loop_library_call();
  return pygraph_recording_segment();
}

/* The handle's state into *head; 0 after a flush when the call cannot be
 * recorded: cuBLAS does not tell the state, or the call writes a result
 * to host memory (host pointer mode), which the program reads at once. */
static int read_head(struct pygraph_segment *seg, cublasHandle_t handle, int writes_result,
                     struct pygraph_cublas_head *head)
{
  if (pygraph_cublas_read_head(handle, head) != CUBLAS_STATUS_SUCCESS) {
    pygraph_record_undeferrable(seg, "cuBLAS handle state unknown");
    return 0;
  }
  if (writes_result && head->mode == CUBLAS_POINTER_MODE_HOST) {
    pygraph_record_undeferrable(seg, "cuBLAS result to host memory");
    return 0;
  }
  return 1;
}

/* A SCALAR parameter: in host pointer mode its `bytes` bytes at `src`
 * copied into `dst` now, as cuBLAS reads them at the call; 0 after a
 * flush when they cannot be (a null pointer, an unknown scale type). */
static int keep_scalar(struct pygraph_segment *seg, const struct pygraph_cublas_head *head,
                       unsigned char *dst, const void *src, size_t bytes)
{
  if (head->mode != CUBLAS_POINTER_MODE_HOST)
    return 1;                           /* a device pointer, kept as it is */
  if (!src || bytes == 0 || bytes > PYGRAPH_LIBRARY_SCALAR_MAX) {
    pygraph_record_undeferrable(seg, "cuBLAS scalar not copyable");
    return 0;
  }
  if (!pygraph_whole_loop_host_scalar(src)) {   /* a WHILE graph would keep one value */
    pygraph_record_undeferrable(seg, "cuBLAS host scalar in memory a kernel may write, in a "
                                     "whole loop being checked");
    return 0;
  }
  memcpy(dst, src, bytes);
  return 1;
}

/* 1 when the call was recorded (its caller returns success). */
static int record(struct pygraph_segment *seg, const pygraph_site *site,
                  const struct pygraph_library_fn *fn, const void *args, size_t size,
                  const struct pygraph_cublas_head *head)
{
  cudaStream_t stream = pygraph_normalize_stream(head->stream, 0);
  return pygraph_record_library(seg, site, fn, args, size, stream) == PYGRAPH_DEFERRED;
}

/* ---- the generated calls ------------------------------------------------ */

/* PG_EACH_n(F, p...) is F p for each of the n parenthesised parameters,
 * PG_LIST_n the same separated by commas (pygraph_library.def's calls
 * have at most 23). */
#define PG_EACH_1(F, p) F p
#define PG_EACH_2(F, p, ...) F p PG_EACH_1(F, __VA_ARGS__)
#define PG_EACH_3(F, p, ...) F p PG_EACH_2(F, __VA_ARGS__)
#define PG_EACH_4(F, p, ...) F p PG_EACH_3(F, __VA_ARGS__)
#define PG_EACH_5(F, p, ...) F p PG_EACH_4(F, __VA_ARGS__)
#define PG_EACH_6(F, p, ...) F p PG_EACH_5(F, __VA_ARGS__)
#define PG_EACH_7(F, p, ...) F p PG_EACH_6(F, __VA_ARGS__)
#define PG_EACH_8(F, p, ...) F p PG_EACH_7(F, __VA_ARGS__)
#define PG_EACH_9(F, p, ...) F p PG_EACH_8(F, __VA_ARGS__)
#define PG_EACH_10(F, p, ...) F p PG_EACH_9(F, __VA_ARGS__)
#define PG_EACH_11(F, p, ...) F p PG_EACH_10(F, __VA_ARGS__)
#define PG_EACH_12(F, p, ...) F p PG_EACH_11(F, __VA_ARGS__)
#define PG_EACH_13(F, p, ...) F p PG_EACH_12(F, __VA_ARGS__)
#define PG_EACH_14(F, p, ...) F p PG_EACH_13(F, __VA_ARGS__)
#define PG_EACH_15(F, p, ...) F p PG_EACH_14(F, __VA_ARGS__)
#define PG_EACH_16(F, p, ...) F p PG_EACH_15(F, __VA_ARGS__)
#define PG_EACH_17(F, p, ...) F p PG_EACH_16(F, __VA_ARGS__)
#define PG_EACH_18(F, p, ...) F p PG_EACH_17(F, __VA_ARGS__)
#define PG_EACH_19(F, p, ...) F p PG_EACH_18(F, __VA_ARGS__)
#define PG_EACH_20(F, p, ...) F p PG_EACH_19(F, __VA_ARGS__)
#define PG_EACH_21(F, p, ...) F p PG_EACH_20(F, __VA_ARGS__)
#define PG_EACH_22(F, p, ...) F p PG_EACH_21(F, __VA_ARGS__)
#define PG_EACH_23(F, p, ...) F p PG_EACH_22(F, __VA_ARGS__)
#define PG_LIST_1(F, p) F p
#define PG_LIST_2(F, p, ...) F p, PG_LIST_1(F, __VA_ARGS__)
#define PG_LIST_3(F, p, ...) F p, PG_LIST_2(F, __VA_ARGS__)
#define PG_LIST_4(F, p, ...) F p, PG_LIST_3(F, __VA_ARGS__)
#define PG_LIST_5(F, p, ...) F p, PG_LIST_4(F, __VA_ARGS__)
#define PG_LIST_6(F, p, ...) F p, PG_LIST_5(F, __VA_ARGS__)
#define PG_LIST_7(F, p, ...) F p, PG_LIST_6(F, __VA_ARGS__)
#define PG_LIST_8(F, p, ...) F p, PG_LIST_7(F, __VA_ARGS__)
#define PG_LIST_9(F, p, ...) F p, PG_LIST_8(F, __VA_ARGS__)
#define PG_LIST_10(F, p, ...) F p, PG_LIST_9(F, __VA_ARGS__)
#define PG_LIST_11(F, p, ...) F p, PG_LIST_10(F, __VA_ARGS__)
#define PG_LIST_12(F, p, ...) F p, PG_LIST_11(F, __VA_ARGS__)
#define PG_LIST_13(F, p, ...) F p, PG_LIST_12(F, __VA_ARGS__)
#define PG_LIST_14(F, p, ...) F p, PG_LIST_13(F, __VA_ARGS__)
#define PG_LIST_15(F, p, ...) F p, PG_LIST_14(F, __VA_ARGS__)
#define PG_LIST_16(F, p, ...) F p, PG_LIST_15(F, __VA_ARGS__)
#define PG_LIST_17(F, p, ...) F p, PG_LIST_16(F, __VA_ARGS__)
#define PG_LIST_18(F, p, ...) F p, PG_LIST_17(F, __VA_ARGS__)
#define PG_LIST_19(F, p, ...) F p, PG_LIST_18(F, __VA_ARGS__)
#define PG_LIST_20(F, p, ...) F p, PG_LIST_19(F, __VA_ARGS__)
#define PG_LIST_21(F, p, ...) F p, PG_LIST_20(F, __VA_ARGS__)
#define PG_LIST_22(F, p, ...) F p, PG_LIST_21(F, __VA_ARGS__)
#define PG_LIST_23(F, p, ...) F p, PG_LIST_22(F, __VA_ARGS__)

/* Per parameter (kind, C type, name, bytes), by kind (pygraph_library.def). */
#define PG_PARAM(kind, type, name, bytes) type name
#define PG_NAME(kind, type, name, bytes) name
/* Its field of the argument struct (the handle is in the head). */
#define PG_FIELD(kind, type, name, bytes) PG_FIELD_##kind(type, name)
#define PG_FIELD_HANDLE(type, name)
#define PG_FIELD_VALUE(type, name) type name;
#define PG_FIELD_RESULT(type, name) type name;
#define PG_FIELD_SCALAR(type, name)                                                              \
  type name;                                                                                     \
  _Alignas(16) unsigned char name##_host[PYGRAPH_LIBRARY_SCALAR_MAX];
/* What the thunk passes: a host scalar as the struct's copy of it. */
#define PG_ARG(kind, type, name, bytes) PG_ARG_##kind(type, name)
#define PG_ARG_HANDLE(type, name) a->head.handle
#define PG_ARG_VALUE(type, name) a->name
#define PG_ARG_RESULT(type, name) a->name
#define PG_ARG_SCALAR(type, name)                                                                \
  (a->head.mode == CUBLAS_POINTER_MODE_HOST ? (type)(const void *)a->name##_host : a->name)
/* What the entry point keeps of it (`ok` turns 0 after a flush). */
#define PG_KEEP(kind, type, name, bytes) PG_KEEP_##kind(type, name, bytes)
#define PG_KEEP_HANDLE(type, name, bytes)
#define PG_KEEP_VALUE(type, name, bytes) a.name = name;
#define PG_KEEP_RESULT(type, name, bytes) a.name = name;
#define PG_KEEP_SCALAR(type, name, bytes)                                                        \
  a.name = name;                                                                                 \
  ok = ok && keep_scalar(seg, &a.head, a.name##_host, (const void *)name, (size_t)(bytes));
/* `|| 1` for a RESULT parameter. */
#define PG_WRITES(kind, type, name, bytes) || PG_WRITES_##kind
#define PG_WRITES_HANDLE 0
#define PG_WRITES_VALUE 0
#define PG_WRITES_SCALAR 0
#define PG_WRITES_RESULT 1

#define PYGRAPH_CUBLAS_SCALE_BYTES(compute, c_type) pygraph_cublas_scale_bytes(compute, c_type)
#define PG_PRAGMA(text) _Pragma(#text)

/* One call: the weak symbol, its argument struct, the call from it, the
 * thunk, the thunk's descriptor, the entry point. */
#define PYGRAPH_LIBRARY_CALL(ret, symbol, n, ...)                                                \
  PG_PRAGMA(weak symbol)                                                                         \
  struct pg_args_##symbol {                                                                      \
    struct pygraph_cublas_head head;                                                             \
    PG_EACH_##n(PG_FIELD, __VA_ARGS__)                                                           \
  };                                                                                             \
  static int pg_call_##symbol(const void *p)                                                     \
  {                                                                                              \
    const struct pg_args_##symbol *a = p;                                                        \
    return (int)symbol(PG_LIST_##n(PG_ARG, __VA_ARGS__));                                        \
  }                                                                                              \
  static int pg_run_##symbol(const void *p, cudaStream_t capture_stream)                         \
  {                                                                                              \
    const struct pg_args_##symbol *a = p;                                                        \
    return pygraph_cublas_run(&a->head, capture_stream, pg_call_##symbol, p);                    \
  }                                                                                              \
  static const struct pygraph_library_fn pg_fn_##symbol = {#symbol, pg_run_##symbol,             \
                                                           pygraph_cublas_status_name, 0};       \
  PYGRAPH_EXPORT ret __pygraph_##symbol(const pygraph_site *site,                                \
                                        PG_LIST_##n(PG_PARAM, __VA_ARGS__))                      \
  {                                                                                              \
    if (!symbol)                                                                                 \
      return missing(#symbol);                                                                   \
    struct pygraph_segment *seg = enter();                                                       \
    if (LIKELY(!seg))                                                                            \
      return symbol(PG_LIST_##n(PG_NAME, __VA_ARGS__));                                          \
    struct pg_args_##symbol a;                                                                   \
    memset(&a, 0, sizeof a); /* padding too: the bytes are the signature */                     \
    int ok = read_head(seg, handle, 0 PG_EACH_##n(PG_WRITES, __VA_ARGS__), &a.head);             \
    PG_EACH_##n(PG_KEEP, __VA_ARGS__)                                                            \
    if (ok && record(seg, site, &pg_fn_##symbol, &a, sizeof a, &a.head))                         \
      return CUBLAS_STATUS_SUCCESS;                                                              \
    return symbol(PG_LIST_##n(PG_NAME, __VA_ARGS__));                                            \
  }
#include "pygraph_library.def"

/* ---- observed: the handle's workspace, stream and end ------------------ */

#pragma weak cublasSetWorkspace_v2
#pragma weak cublasSetStream_v2
#pragma weak cublasDestroy_v2

/* Their declarations, from the list the pass routes by. */
#define PYGRAPH_LIBRARY_OBSERVED(ret, symbol, ...)                                               \
  PYGRAPH_EXPORT ret __pygraph_##symbol(const pygraph_site *site, __VA_ARGS__);
#include "pygraph_library.def"

PYGRAPH_EXPORT cublasStatus_t __pygraph_cublasSetWorkspace_v2(const pygraph_site *site,
                                                              cublasHandle_t handle,
                                                              void *workspace,
                                                              size_t workspaceSizeInBytes)
{
  (void)site;
  if (!cublasSetWorkspace_v2)
    return missing("cublasSetWorkspace_v2");
  cublasStatus_t st = cublasSetWorkspace_v2(handle, workspace, workspaceSizeInBytes);
  if (st == CUBLAS_STATUS_SUCCESS)
    pygraph_cublas_note_workspace(handle, workspace, workspaceSizeInBytes);
  return st;
}

/* The handle's workspace is cuBLAS's default pool again (whatever the
 * outcome: not re-applying a workspace is never wrong, re-applying one the
 * program may have freed would be). */
PYGRAPH_EXPORT cublasStatus_t __pygraph_cublasSetStream_v2(const pygraph_site *site,
                                                           cublasHandle_t handle,
                                                           cudaStream_t streamId)
{
  (void)site;
  if (!cublasSetStream_v2)
    return missing("cublasSetStream_v2");
  pygraph_cublas_forget_workspace(handle);
  return cublasSetStream_v2(handle, streamId);
}

/* Forgotten first: once destroyed, a new handle may get the address. */
PYGRAPH_EXPORT cublasStatus_t __pygraph_cublasDestroy_v2(const pygraph_site *site,
                                                         cublasHandle_t handle)
{
  (void)site;
  if (!cublasDestroy_v2)
    return missing("cublasDestroy_v2");
  pygraph_cublas_forget_workspace(handle);
  return cublasDestroy_v2(handle);
}
