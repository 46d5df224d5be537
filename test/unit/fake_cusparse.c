/* fake_cusparse.c - the cuSPARSE calls of the cuSPARSE adapter, faked
 * (fake_cusparse.h).  Handles and descriptors are taken from small pools
 * (a destroyed one is given again, at the same address). */
#include "fake_cusparse.h"

#include <string.h>

#include "fake_backend.h"

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

void fake_cusparse_reset(void)
{
  memset(&fake_cusparse, 0, sizeof fake_cusparse);
  memset(handles, 0, sizeof handles);
  memset(mats, 0, sizeof mats);
  memset(vecs, 0, sizeof vecs);
  memset(dmats, 0, sizeof dmats);
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

/* Captured (1), failed capture (-1), or to be run (0); logged. */
static int captured(cusparseHandle_t handle, const char *name)
{
  int cap = handle->stream == FAKE_CAPTURE_STREAM;
  fake_log_append("%s%s ", cap ? "cap:" : "", name);
  if (!cap)
    return 0;
  if (fake_cusparse.fail_capture)
    return -1;
  fake_cusparse.captures++;
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
  int cap = captured(handle, "spmv");
  if (cap)
    return cap < 0 ? CUSPARSE_STATUS_EXECUTION_FAILED : CUSPARSE_STATUS_SUCCESS;
  if (computable(compute, (int)alg) != CUSPARSE_STATUS_SUCCESS)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
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
  int cap = captured(handle, "spmm");
  if (cap)
    return cap < 0 ? CUSPARSE_STATUS_EXECUTION_FAILED : CUSPARSE_STATUS_SUCCESS;
  if (computable(compute, (int)alg) != CUSPARSE_STATUS_SUCCESS)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
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
