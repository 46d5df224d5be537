/* fake_cusparse.c - the cuSPARSE calls of the cuSPARSE adapter, faked
 * (fake_cusparse.h).  Handles and descriptors are taken from small pools
 * (a destroyed one is given again, at the same address). */
#include "fake_cusparse.h"

#include <stdlib.h>
#include <string.h>

#include "fake_backend.h"
#include "fake_memory.h"

#define POOL 4

struct fake_cusparse_state fake_cusparse;

struct cusparseContext {
  int live;
  cudaStream_t stream;
  cusparsePointerMode_t mode;
};
struct cusparseSpMatDescr {
  int live, batches;
  int64_t rows, cols, nnz;
  void *offsets, *indices, *values;
  cusparseIndexType_t offsets_type, indices_type;
  cusparseIndexBase_t base;
  cudaDataType type;
  cusparseFillMode_t fill;
  cusparseDiagType_t diag;
};
struct cusparseDnVecDescr {
  int live;
  int64_t size;
  void *values;
  cudaDataType type;
};
struct cusparseDnMatDescr {
  int live;
  int64_t rows, cols, ld;
  void *values;
  cudaDataType type;
};

static struct cusparseContext handles[POOL];
static struct cusparseSpMatDescr mats[POOL];
static struct cusparseDnVecDescr vecs[POOL];
static struct cusparseDnMatDescr dmats[POOL];

/* A captured call's descriptors as they were at its capture: a graph's
 * node keeps the pointers and sizes it was captured with, whatever
 * setters do after (the memory they point to is read when it runs). */
struct captured_call {
  cusparseHandle_t handle;
  const void *a, *in, *out;          /* the descriptors the call named */
  struct cusparseSpMatDescr a_then;
  union { struct cusparseDnVecDescr vec; struct cusparseDnMatDescr mat; } in_then, out_then;
};
static struct captured_call captured_calls[64];
static unsigned n_captured_calls;

void fake_cusparse_reset(void)
{
  memset(&fake_cusparse, 0, sizeof fake_cusparse);
  memset(handles, 0, sizeof handles);
  memset(mats, 0, sizeof mats);
  memset(vecs, 0, sizeof vecs);
  memset(dmats, 0, sizeof dmats);
  n_captured_calls = 0;
}

/* The first free entry of a pool, marked live; NULL when all are. */
#define TAKE(pool)                                                                               \
  for (int i_ = 0; i_ < POOL; i_++)                                                              \
    if (!pool[i_].live) {                                                                        \
      memset(&pool[i_], 0, sizeof pool[i_]);                                                     \
      pool[i_].live = 1;                                                                         \
      return &pool[i_];                                                                          \
    }                                                                                            \
  return NULL;

static struct cusparseContext *take_handle(void) { TAKE(handles) }
static struct cusparseSpMatDescr *take_mat(void) { TAKE(mats) }
static struct cusparseDnVecDescr *take_vec(void) { TAKE(vecs) }
static struct cusparseDnMatDescr *take_dmat(void) { TAKE(dmats) }

static unsigned long stream_id(cudaStream_t s) { return s ? (unsigned long)s - 0x100 : 0; }

/* ---- the handle --------------------------------------------------------- */

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle)
{
  return (*handle = take_handle()) ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t cusparseDestroy(cusparseHandle_t handle)
{
  handle->live = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t handle, cudaStream_t stream)
{
  fake_log_append("ss(%lu) ", stream_id(stream));
  handle->stream = stream;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetStream(cusparseHandle_t handle, cudaStream_t *stream)
{
  *stream = handle->stream;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t mode)
{
  if (fake_cusparse.fail_set_mode) {
    fake_log_append("pm! ");
    return CUSPARSE_STATUS_INTERNAL_ERROR;
  }
  fake_log_append("pm(%d) ", (int)mode);
  handle->mode = mode;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t *mode)
{
  *mode = handle->mode;
  return CUSPARSE_STATUS_SUCCESS;
}

/* ---- descriptors -------------------------------------------------------- */

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *mat, int64_t rows, int64_t cols,
                                   int64_t nnz, void *offsets, void *indices, void *values,
                                   cusparseIndexType_t offsets_type,
                                   cusparseIndexType_t indices_type, cusparseIndexBase_t base,
                                   cudaDataType type)
{
  struct cusparseSpMatDescr *m = take_mat();
  if (!m)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  *m = (struct cusparseSpMatDescr){1, 1, rows, cols, nnz, offsets, indices, values,
                                   offsets_type, indices_type, base, type, 0, 0};
  *mat = m;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t mat)
{
  ((struct cusparseSpMatDescr *)mat)->live = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetFormat(cusparseConstSpMatDescr_t mat, cusparseFormat_t *format)
{
  (void)mat;
  *format = CUSPARSE_FORMAT_CSR;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetStridedBatch(cusparseConstSpMatDescr_t mat, int *batches)
{
  *batches = mat->batches;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCsrSetStridedBatch(cusparseSpMatDescr_t mat, int batches,
                                            int64_t offsets_stride, int64_t values_stride)
{
  (void)offsets_stride, (void)values_stride;
  mat->batches = batches;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t mat,
                                           cusparseSpMatAttribute_t attribute, void *data,
                                           size_t size)
{
  int value = attribute == CUSPARSE_SPMAT_FILL_MODE ? (int)mat->fill : (int)mat->diag;
  if (size != sizeof value)
    return CUSPARSE_STATUS_INVALID_VALUE;
  memcpy(data, &value, size);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatSetAttribute(cusparseSpMatDescr_t mat,
                                           cusparseSpMatAttribute_t attribute, void *data,
                                           size_t size)
{
  int value;
  if (size != sizeof value)
    return CUSPARSE_STATUS_INVALID_VALUE;
  memcpy(&value, data, size);
  if (attribute == CUSPARSE_SPMAT_FILL_MODE)
    mat->fill = (cusparseFillMode_t)value;
  else
    mat->diag = (cusparseDiagType_t)value;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseConstCsrGet(cusparseConstSpMatDescr_t mat, int64_t *rows, int64_t *cols,
                                     int64_t *nnz, const void **offsets, const void **indices,
                                     const void **values, cusparseIndexType_t *offsets_type,
                                     cusparseIndexType_t *indices_type,
                                     cusparseIndexBase_t *base, cudaDataType *type)
{
  *rows = mat->rows;
  *cols = mat->cols;
  *nnz = mat->nnz;
  *offsets = mat->offsets;
  *indices = mat->indices;
  *values = mat->values;
  *offsets_type = mat->offsets_type;
  *indices_type = mat->indices_type;
  *base = mat->base;
  *type = mat->type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatSetValues(cusparseSpMatDescr_t mat, void *values)
{
  mat->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *vec, int64_t size, void *values,
                                     cudaDataType type)
{
  struct cusparseDnVecDescr *v = take_vec();
  if (!v)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  *v = (struct cusparseDnVecDescr){1, size, values, type};
  *vec = v;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t vec)
{
  ((struct cusparseDnVecDescr *)vec)->live = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseConstDnVecGet(cusparseConstDnVecDescr_t vec, int64_t *size,
                                       const void **values, cudaDataType *type)
{
  *size = vec->size;
  *values = vec->values;
  *type = vec->type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnVecSetValues(cusparseDnVecDescr_t vec, void *values)
{
  vec->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *mat, int64_t rows, int64_t cols,
                                     int64_t ld, void *values, cudaDataType type,
                                     cusparseOrder_t order)
{
  (void)order;
  struct cusparseDnMatDescr *m = take_dmat();
  if (!m)
    return CUSPARSE_STATUS_ALLOC_FAILED;
  *m = (struct cusparseDnMatDescr){1, rows, cols, ld, values, type};
  *mat = m;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseConstDnMatGet(cusparseConstDnMatDescr_t mat, int64_t *rows,
                                       int64_t *cols, int64_t *ld, const void **values,
                                       cudaDataType *type, cusparseOrder_t *order)
{
  *rows = mat->rows;
  *cols = mat->cols;
  *ld = mat->ld;
  *values = mat->values;
  *type = mat->type;
  *order = CUSPARSE_ORDER_COL;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGetStridedBatch(cusparseConstDnMatDescr_t mat, int *batches,
                                              int64_t *stride)
{
  (void)mat;
  *batches = 1;
  *stride = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

/* ---- the calls ---------------------------------------------------------- */

static void keep_captured(cusparseHandle_t handle, const struct cusparseSpMatDescr *a,
                          const void *in, const void *out, size_t dense_size)
{
  if (n_captured_calls == sizeof captured_calls / sizeof captured_calls[0])
    abort();                         /* a test capturing more: make the table larger */
  struct captured_call *c = &captured_calls[n_captured_calls++];
  *c = (struct captured_call){.handle = handle, .a = a, .in = in, .out = out, .a_then = *a};
  memcpy(&c->in_then, in, dense_size);
  memcpy(&c->out_then, out, dense_size);
}

/* The latest capture of a call on these objects (a graph's node replaying
 * it); NULL when the call is not a replay.  A replay of a call never
 * captured is a broken fake or runtime: abort. */
static const struct captured_call *replayed(cusparseHandle_t handle, const void *a,
                                            const void *in, const void *out)
{
  if (!fake_graph_replaying)
    return NULL;
  for (unsigned i = n_captured_calls; i-- > 0;) {
    const struct captured_call *c = &captured_calls[i];
    if (c->handle == handle && c->a == a && c->in == in && c->out == out)
      return c;
  }
  abort();
}

/* Captured (1: its descriptors kept as they are, keep_captured), failed
 * capture (-1), or to be run (0); logged.  dense_size: the size of the
 * dense descriptors in and out. */
static int captured(cusparseHandle_t handle, const char *name,
                    const struct cusparseSpMatDescr *a, const void *in, const void *out,
                    size_t dense_size)
{
  int cap = handle->stream == FAKE_CAPTURE_STREAM;
  fake_log_append("%s%s ", cap ? "cap:" : "", name);
  if (!cap)
    return 0;
  if (fake_cusparse.fail_capture)
    return -1;
  fake_cusparse.captures++;
  keep_captured(handle, a, in, out, dense_size);
  return 1;
}

/* y[i] = alpha values[i] x[i] + beta y[i] for the first n of them. */
static void diagonal(int64_t n, float alpha, const float *values, const float *x, float beta,
                     float *y)
{
  for (int64_t i = 0; i < n; i++)
    y[i] = alpha * values[i] * x[i] + beta * y[i];
}

/* What a workspace query says of a call's compute type and algorithm. */
static cusparseStatus_t supported(cudaDataType compute, int alg)
{
  if ((compute != CUDA_R_32F && compute != CUDA_R_16F) ||
      (fake_cusparse.unsupported_alg && alg == fake_cusparse.unsupported_alg))
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

/* What the call itself says: it computes in floats only. */
static cusparseStatus_t computable(cudaDataType compute, int alg)
{
  return compute == CUDA_R_32F ? supported(compute, alg) : CUSPARSE_STATUS_NOT_SUPPORTED;
}

cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t op,
                                         const void *alpha, cusparseConstSpMatDescr_t a,
                                         cusparseConstDnVecDescr_t x, const void *beta,
                                         cusparseDnVecDescr_t y, cudaDataType compute,
                                         cusparseSpMVAlg_t alg, size_t *bytes)
{
  (void)handle, (void)op, (void)alpha, (void)a, (void)x, (void)beta, (void)y;
  fake_cusparse.size_queries++;
  *bytes = fake_cusparse.workspace_bytes;
  return supported(compute, (int)alg);
}

cusparseStatus_t cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t op_a,
                                         cusparseOperation_t op_b, const void *alpha,
                                         cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b,
                                         const void *beta, cusparseDnMatDescr_t c,
                                         cudaDataType compute, cusparseSpMMAlg_t alg,
                                         size_t *bytes)
{
  (void)handle, (void)op_a, (void)op_b, (void)alpha, (void)a, (void)b, (void)beta, (void)c;
  fake_cusparse.size_queries++;
  *bytes = fake_cusparse.workspace_bytes;
  return supported(compute, (int)alg);
}

cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t op, const void *alpha,
                              cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x,
                              const void *beta, cusparseDnVecDescr_t y, cudaDataType compute,
                              cusparseSpMVAlg_t alg, void *buffer)
{
  (void)op, (void)buffer;
  int cap = captured(handle, "spmv", a, x, y, sizeof(struct cusparseDnVecDescr));
  if (cap)
    return cap < 0 ? CUSPARSE_STATUS_EXECUTION_FAILED : CUSPARSE_STATUS_SUCCESS;
  if (computable(compute, (int)alg) != CUSPARSE_STATUS_SUCCESS)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  const struct captured_call *then = replayed(handle, a, x, y);
  if (then) {
    a = &then->a_then;
    x = &then->in_then.vec;
    y = (cusparseDnVecDescr_t)&then->out_then.vec;
  }
  diagonal(a->rows, *(const float *)alpha, a->values, x->values, *(const float *)beta, y->values);
  fake_cusparse.runs++;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t op_a,
                              cusparseOperation_t op_b, const void *alpha,
                              cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b,
                              const void *beta, cusparseDnMatDescr_t c, cudaDataType compute,
                              cusparseSpMMAlg_t alg, void *buffer)
{
  (void)op_a, (void)op_b, (void)buffer;
  int cap = captured(handle, "spmm", a, b, c, sizeof(struct cusparseDnMatDescr));
  if (cap)
    return cap < 0 ? CUSPARSE_STATUS_EXECUTION_FAILED : CUSPARSE_STATUS_SUCCESS;
  if (computable(compute, (int)alg) != CUSPARSE_STATUS_SUCCESS)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  const struct captured_call *then = replayed(handle, a, b, c);
  if (then) {
    a = &then->a_then;
    b = &then->in_then.mat;
    c = (cusparseDnMatDescr_t)&then->out_then.mat;
  }
  for (int64_t j = 0; j < c->cols; j++)
    diagonal(a->rows, *(const float *)alpha, a->values, (const float *)b->values + j * b->ld,
             *(const float *)beta, (float *)c->values + j * c->ld);
  fake_cusparse.runs++;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t op,
                                         const void *alpha, cusparseConstSpMatDescr_t a,
                                         cusparseConstDnVecDescr_t x, const void *beta,
                                         cusparseDnVecDescr_t y, cudaDataType compute,
                                         cusparseSpMVAlg_t alg, void *buffer)
{
  (void)handle, (void)op, (void)alpha, (void)a, (void)x, (void)beta, (void)y, (void)compute;
  (void)alg, (void)buffer;
  fake_log_append("prep ");
  return CUSPARSE_STATUS_SUCCESS;
}
