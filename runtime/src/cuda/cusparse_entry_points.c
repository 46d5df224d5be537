/* cusparse_entry_points.c - the cuSPARSE adapter (issue 18): __pygraph_<symbol>
 * for every PYGRAPH_CUSPARSE_CALL and PYGRAPH_CUSPARSE_OBSERVED of
 * runtime/include/pygraph_library.def.
 *
 * cusparseSpMV and cusparseSpMM enqueue their kernels on the handle's
 * stream, with a work buffer the program gives (no allocation, no
 * synchronization), and return.  Inside a recording segment such a call is
 * recorded as one library op on the handle's stream and answers
 * CUSPARSE_STATUS_SUCCESS; it runs later in stream order with the region's
 * other work, eagerly or as one child-graph node captured from cuSPARSE
 * (cuda/library_capture.c), the handle moved to pygraph's capturing stream
 * for the capture and back.  What the call reads at the call is kept then:
 * the handle's stream and pointer mode (cusparseGetStream/GetPointerMode),
 * alpha and beta in host pointer mode (their bytes, sized by computeType),
 * and the descriptors' pointers and sizes (cusparse_descriptors.h), all in
 * the recorded call's signature: a descriptor changed by a setter between
 * iterations (in any file) never matches a graph captured before.  A call
 * whose state cannot be read completely is made at once, after what was
 * recorded.  A graph captured before any observed call (a handle or
 * descriptor destroyed, a preprocessing step) is never replayed after it.
 * The call's arguments are checked at the call by cuSPARSE's workspace query,
 * once per thread for arguments it accepted before: a call it rejects, or
 * one missing the workspace it needs, is made at once and answers what
 * cuSPARSE answers; an error only the run shows is reported
 * by the runtime when the call runs (abi/library_calls.h).  cuSPARSE's
 * functions are weak (one the loaded library lacks makes the call run at
 * once), and no other runtime file refers to this one. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cusparse.h>

#include "pygraph_rt.h"
#include "abi/launch_counter.h"
#include "abi/record.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"
#include "cuda/cusparse_descriptors.h"

#define PYGRAPH_EXPORT __attribute__((visibility("default")))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define SCALAR_MAX 16u                 /* cuDoubleComplex, the largest compute type */

#define PG_PRAGMA(text) _Pragma(#text)
#define PYGRAPH_CUSPARSE_CALL(symbol) PG_PRAGMA(weak symbol)
#define PYGRAPH_CUSPARSE_OBSERVED(symbol) PG_PRAGMA(weak symbol)
#include "pygraph_library.def"
#pragma weak cusparseGetStream
#pragma weak cusparseSetStream
#pragma weak cusparseGetPointerMode
#pragma weak cusparseSetPointerMode
#pragma weak cusparseGetErrorName
#pragma weak cusparseSpMV_bufferSize
#pragma weak cusparseSpMM_bufferSize

enum pygraph_cusparse_kind { PYGRAPH_CUSPARSE_SPMV, PYGRAPH_CUSPARSE_SPMM };

/* One call's values, zeroed before they are set: every byte is signature. */
struct pygraph_cusparse_call {
  enum pygraph_cusparse_kind kind;
  cusparseHandle_t handle;
  cudaStream_t stream;               /* the handle's at the call (0: legacy) */
  cusparsePointerMode_t mode;        /* the handle's at the call */
  cusparseOperation_t op_a, op_b;    /* op_b 0 for SpMV */
  cudaDataType compute;
  int alg;                           /* cusparseSpMVAlg_t or cusparseSpMMAlg_t */
  const void *alpha, *beta;          /* as the program passed them */
  _Alignas(16) unsigned char alpha_host[SCALAR_MAX], beta_host[SCALAR_MAX];
  const void *mat_a, *in;            /* matA; vecX or matB */
  void *out;                         /* vecY or matC */
  void *buffer;                      /* externalBuffer */
  struct pygraph_cusparse_spmat a;   /* what the descriptors held at the call */
  struct pygraph_cusparse_dense x, y;
  unsigned long long changes;        /* observed calls before this one */
};

static unsigned long long changes;   /* atomic */

static void note_change(void) { __atomic_add_fetch(&changes, 1, __ATOMIC_RELEASE); }

/* A routed call whose cuSPARSE is not loaded (a link that went wrong). */
static cusparseStatus_t missing(const char *symbol)
{
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "pygraph: error: %s is not loaded (link the program with cuSPARSE)\n", symbol);
  return CUSPARSE_STATUS_NOT_INITIALIZED;
}

/* ---- making a call -------------------------------------------------------- */

/* The call with these scalars (the program's pointers, or the kept bytes). */
static cusparseStatus_t make(const struct pygraph_cusparse_call *c, const void *alpha,
                             const void *beta)
{
  if (c->kind == PYGRAPH_CUSPARSE_SPMV)
    return cusparseSpMV(c->handle, c->op_a, alpha, (cusparseConstSpMatDescr_t)c->mat_a,
                        (cusparseConstDnVecDescr_t)c->in, beta, (cusparseDnVecDescr_t)c->out,
                        c->compute, (cusparseSpMVAlg_t)c->alg, c->buffer);
  return cusparseSpMM(c->handle, c->op_a, c->op_b, alpha, (cusparseConstSpMatDescr_t)c->mat_a,
                      (cusparseConstDnMatDescr_t)c->in, beta, (cusparseDnMatDescr_t)c->out,
                      c->compute, (cusparseSpMMAlg_t)c->alg, c->buffer);
}

/* The recorded call: its scalars as kept, in the mode and on the stream it
 * was recorded with; the handle put back as it is now. */
static cusparseStatus_t make_recorded(const struct pygraph_cusparse_call *c, cudaStream_t target)
{
  cudaStream_t now_stream;
  cusparsePointerMode_t now_mode;
  cusparseStatus_t st = cusparseGetStream(c->handle, &now_stream);
  if (st == CUSPARSE_STATUS_SUCCESS)
    st = cusparseGetPointerMode(c->handle, &now_mode);
  if (st == CUSPARSE_STATUS_SUCCESS && now_stream != target)
    st = cusparseSetStream(c->handle, target);
  if (st == CUSPARSE_STATUS_SUCCESS && now_mode != c->mode) {
    st = cusparseSetPointerMode(c->handle, c->mode);
    if (st != CUSPARSE_STATUS_SUCCESS && now_stream != target)
      (void)cusparseSetStream(c->handle, now_stream);   /* as the program left it */
  }
  if (st != CUSPARSE_STATUS_SUCCESS)
    return st;
  int host = c->mode == CUSPARSE_POINTER_MODE_HOST;
  cusparseStatus_t r = make(c, host ? c->alpha_host : c->alpha, host ? c->beta_host : c->beta);
  if (now_mode != c->mode)
    st = cusparseSetPointerMode(c->handle, now_mode);
  if (now_stream != target) {
    cusparseStatus_t back = cusparseSetStream(c->handle, now_stream);
    st = st == CUSPARSE_STATUS_SUCCESS ? back : st;
  }
  return r == CUSPARSE_STATUS_SUCCESS ? st : r;
}

/* The library op's run: on the recorded stream, or inside pygraph's
 * capture on capture_stream. */
static int run_op(const void *args, cudaStream_t capture_stream)
{
  const struct pygraph_cusparse_call *c = args;
  return (int)make_recorded(c, capture_stream ? capture_stream : c->stream);
}

static const char *status_name(int status)
{
  return cusparseGetErrorName ? cusparseGetErrorName((cusparseStatus_t)status) : NULL;
}

static const struct pygraph_library_fn cusparse_fn = {"cusparse", run_op, status_name, 0};

/* ---- recording a call ----------------------------------------------------- */

/* cuSPARSE checks a call's arguments when the call is made, and programs
 * act on its answer (an algorithm, format or type it does not support,
 * tried and then replaced): recorded, the call would answer success and
 * fail later, unseen.  Its workspace query takes the same arguments and
 * checks them the same way, on the host; NULL when it accepts them and the
 * call has the workspace it asks for, else why the call is made at once. */
static const char *rejected_arguments(const struct pygraph_cusparse_call *c)
{
  size_t need = 0;
  cusparseStatus_t st;
  if (c->kind == PYGRAPH_CUSPARSE_SPMV) {
    if (!cusparseSpMV_bufferSize)
      return "cuSPARSE's workspace query is not loaded";
    st = cusparseSpMV_bufferSize(c->handle, c->op_a, c->alpha, (cusparseConstSpMatDescr_t)c->mat_a,
                                 (cusparseConstDnVecDescr_t)c->in, c->beta,
                                 (cusparseDnVecDescr_t)c->out, c->compute,
                                 (cusparseSpMVAlg_t)c->alg, &need);
  } else {
    if (!cusparseSpMM_bufferSize)
      return "cuSPARSE's workspace query is not loaded";
    st = cusparseSpMM_bufferSize(c->handle, c->op_a, c->op_b, c->alpha,
                                 (cusparseConstSpMatDescr_t)c->mat_a,
                                 (cusparseConstDnMatDescr_t)c->in, c->beta,
                                 (cusparseDnMatDescr_t)c->out, c->compute,
                                 (cusparseSpMMAlg_t)c->alg, &need);
  }
  if (st != CUSPARSE_STATUS_SUCCESS)
    return "cuSPARSE rejects the call's arguments (its workspace query failed)";
  return need && !c->buffer ? "cuSPARSE call without the workspace it needs" : NULL;
}

/* Arguments the workspace query accepted lately, per thread.  The query
 * costs the host as much as a small call itself (about 23 us on an H100,
 * bench/results.md) and a loop repeats its arguments (or cycles through a
 * few: rotated vectors), so accepted arguments, as read at the call, are
 * asked about once; a miss (new arguments, or evicted) asks again.  The key
 * is what the query reads (the call without its scalars and stream) and the
 * count of observed calls: after a destroy or a preprocessing step (a new
 * handle or descriptor may come at an old address) every call is asked
 * about again. */
#define ACCEPTED_MEMO 8u
static _Thread_local struct pygraph_cusparse_call accepted[ACCEPTED_MEMO];
static _Thread_local unsigned accepted_used, accepted_next;

static void query_key(const struct pygraph_cusparse_call *c, struct pygraph_cusparse_call *key)
{
  memcpy(key, c, sizeof *key);       /* the call's zeroed padding included */
  /* only whether a scalar was given: cuSPARSE checks that, not its value */
  key->alpha = (const void *)(uintptr_t)(c->alpha != NULL);
  key->beta = (const void *)(uintptr_t)(c->beta != NULL);
  memset(key->alpha_host, 0, sizeof key->alpha_host);
  memset(key->beta_host, 0, sizeof key->beta_host);
  key->stream = 0;
  key->changes = __atomic_load_n(&changes, __ATOMIC_ACQUIRE);
}

static int accepted_before(const struct pygraph_cusparse_call *key)
{
  for (unsigned i = 0; i < accepted_used; i++)
    if (memcmp(&accepted[i], key, sizeof *key) == 0)
      return 1;
  return 0;
}

static void remember_accepted(const struct pygraph_cusparse_call *key)
{
  memcpy(&accepted[accepted_next], key, sizeof *key);
  accepted_next = (accepted_next + 1) % ACCEPTED_MEMO;
  if (accepted_used < ACCEPTED_MEMO)
    accepted_used++;
}

/* rejected_arguments, asked once for arguments it accepted before. */
static const char *checked_arguments(const struct pygraph_cusparse_call *c)
{
  struct pygraph_cusparse_call key;
  query_key(c, &key);
  if (accepted_before(&key))
    return NULL;
  const char *why = rejected_arguments(c);
  if (!why)
    remember_accepted(&key);
  return why;
}

/* What the call reads at the call kept in *c; NULL, or why it cannot be. */
static const char *keep(struct pygraph_cusparse_call *c)
{
  if (!cusparseGetStream || !cusparseGetPointerMode || !cusparseSetStream ||
      !cusparseSetPointerMode)
    return "cuSPARSE's handle functions are not loaded";
  if (cusparseGetStream(c->handle, &c->stream) != CUSPARSE_STATUS_SUCCESS ||
      cusparseGetPointerMode(c->handle, &c->mode) != CUSPARSE_STATUS_SUCCESS)
    return "cuSPARSE handle state unknown";
  if (c->mode == CUSPARSE_POINTER_MODE_HOST) {
    size_t bytes = pygraph_cusparse_scalar_bytes(c->compute);
    if (bytes == 0 || bytes > SCALAR_MAX || !c->alpha || !c->beta)
      return "cuSPARSE scalar not copyable (compute type pygraph does not size)";
    if (!pygraph_whole_loop_host_scalar(c->alpha) || !pygraph_whole_loop_host_scalar(c->beta))
      return "cuSPARSE host scalar in memory a kernel may write, in a whole loop being checked";
    memcpy(c->alpha_host, c->alpha, bytes);
    memcpy(c->beta_host, c->beta, bytes);
  }
  if (!pygraph_cusparse_read_spmat(c->mat_a, &c->a))
    return "cuSPARSE sparse matrix pygraph cannot read (its format, or batched)";
  int dense = c->kind == PYGRAPH_CUSPARSE_SPMV
                  ? pygraph_cusparse_read_dnvec(c->in, &c->x) &&
                        pygraph_cusparse_read_dnvec(c->out, &c->y)
                  : pygraph_cusparse_read_dnmat(c->in, &c->x) &&
                        pygraph_cusparse_read_dnmat(c->out, &c->y);
  if (!dense)
    return "cuSPARSE dense descriptor pygraph cannot read";
  return checked_arguments(c);
}

/* A call as the adapter takes it: recorded in the live segment when all it
 * reads could be kept, else made now (after what was recorded). */
static cusparseStatus_t route(const pygraph_site *site, struct pygraph_cusparse_call *c)
{
  pygraph_count_launch();
  if (pygraph_whole_loop_observing())
    pygraph_whole_loop_library_call();
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (LIKELY(!seg))
    return make(c, c->alpha, c->beta);
  const void *alpha = c->alpha, *beta = c->beta;   /* the program's, for a call made now */
  const char *why = keep(c);
  if (why) {
    (void)pygraph_record_undeferrable(seg, why);
    return make(c, alpha, beta);
  }
  if (c->mode == CUSPARSE_POINTER_MODE_HOST)
    c->alpha = c->beta = NULL;       /* their bytes are what the call reads: a scalar at
                                        another address is the same call */
  c->changes = __atomic_load_n(&changes, __ATOMIC_ACQUIRE);
  cudaStream_t s = pygraph_normalize_stream(c->stream, 0);
  if (pygraph_record_library(seg, site, &cusparse_fn, c, sizeof *c, s) == PYGRAPH_DEFERRED)
    return CUSPARSE_STATUS_SUCCESS;
  return make(c, alpha, beta);
}

/* ---- the entry points ----------------------------------------------------- */

PYGRAPH_EXPORT cusparseStatus_t __pygraph_cusparseSpMV(
    const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
    const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
    cusparseSpMVAlg_t alg, void *externalBuffer);
PYGRAPH_EXPORT cusparseStatus_t __pygraph_cusparseSpMV(
    const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
    const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
    cusparseSpMVAlg_t alg, void *externalBuffer)
{
  if (!cusparseSpMV)
    return missing("cusparseSpMV");
  struct pygraph_cusparse_call c;
  memset(&c, 0, sizeof c);           /* padding too: the bytes are the signature */
  c.kind = PYGRAPH_CUSPARSE_SPMV;
  c.handle = handle;
  c.op_a = opA;
  c.alpha = alpha;
  c.beta = beta;
  c.mat_a = matA;
  c.in = vecX;
  c.out = vecY;
  c.compute = computeType;
  c.alg = (int)alg;
  c.buffer = externalBuffer;
  return route(site, &c);
}

PYGRAPH_EXPORT cusparseStatus_t __pygraph_cusparseSpMM(
    const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
    cusparseOperation_t opB, const void *alpha, cusparseConstSpMatDescr_t matA,
    cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
    cudaDataType computeType, cusparseSpMMAlg_t alg, void *externalBuffer);
PYGRAPH_EXPORT cusparseStatus_t __pygraph_cusparseSpMM(
    const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
    cusparseOperation_t opB, const void *alpha, cusparseConstSpMatDescr_t matA,
    cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
    cudaDataType computeType, cusparseSpMMAlg_t alg, void *externalBuffer)
{
  if (!cusparseSpMM)
    return missing("cusparseSpMM");
  struct pygraph_cusparse_call c;
  memset(&c, 0, sizeof c);
  c.kind = PYGRAPH_CUSPARSE_SPMM;
  c.handle = handle;
  c.op_a = opA;
  c.op_b = opB;
  c.alpha = alpha;
  c.beta = beta;
  c.mat_a = matA;
  c.in = matB;
  c.out = matC;
  c.compute = computeType;
  c.alg = (int)alg;
  c.buffer = externalBuffer;
  return route(site, &c);
}

/* The observed calls: barriers (no segment records here), made as the
 * program made them; each counts as a change, so that no graph captured
 * before it is replayed after: a destroyed handle or descriptor may take
 * state a captured graph uses (a new one may get its address), and a
 * preprocessing step rewrites the work buffer the captured kernels read. */
#define PG_OBSERVED(symbol, params, args)                                                        \
  PYGRAPH_EXPORT cusparseStatus_t __pygraph_##symbol params;                                    \
  PYGRAPH_EXPORT cusparseStatus_t __pygraph_##symbol params                                     \
  {                                                                                              \
    (void)site;                                                                                  \
    if (!symbol)                                                                                 \
      return missing(#symbol);                                                                   \
    note_change();                                                                               \
    return symbol args;                                                                          \
  }

PG_OBSERVED(cusparseDestroy, (const pygraph_site *site, cusparseHandle_t handle), (handle))
PG_OBSERVED(cusparseDestroySpMat, (const pygraph_site *site, cusparseConstSpMatDescr_t d), (d))
PG_OBSERVED(cusparseDestroyDnVec, (const pygraph_site *site, cusparseConstDnVecDescr_t d), (d))
PG_OBSERVED(cusparseDestroyDnMat, (const pygraph_site *site, cusparseConstDnMatDescr_t d), (d))
PG_OBSERVED(cusparseSpMV_preprocess,
            (const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
             const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
             const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
             cusparseSpMVAlg_t alg, void *externalBuffer),
            (handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, externalBuffer))
PG_OBSERVED(cusparseSpMM_preprocess,
            (const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
             cusparseOperation_t opB, const void *alpha, cusparseConstSpMatDescr_t matA,
             cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
             cudaDataType computeType, cusparseSpMMAlg_t alg, void *externalBuffer),
            (handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, externalBuffer))
