/* cusparse_descriptors.c - a cuSPARSE call's descriptors read through
 * cuSPARSE's getters (cusparse_descriptors.h). */
#include "cuda/cusparse_descriptors.h"

#include <string.h>

#pragma weak cusparseSpMatGetFormat
#pragma weak cusparseSpMatGetStridedBatch
#pragma weak cusparseSpMatGetAttribute
#pragma weak cusparseConstCsrGet
#pragma weak cusparseConstCscGet
#pragma weak cusparseConstCooGet
#pragma weak cusparseConstDnVecGet
#pragma weak cusparseConstDnMatGet
#pragma weak cusparseDnMatGetStridedBatch

#define OK CUSPARSE_STATUS_SUCCESS

/* The format's pointers and sizes; 0 for a format pygraph does not read
 * (BSR, blocked ELL, sliced ELL: no getter gives all their pointers). */
static int read_format(cusparseConstSpMatDescr_t mat, struct pygraph_cusparse_spmat *m)
{
  cusparseIndexType_t off = 0, ind = 0;
  cusparseIndexBase_t base = 0;
  cudaDataType type = 0;
  cusparseStatus_t st;
  switch ((cusparseFormat_t)m->format) {
  case CUSPARSE_FORMAT_CSR:
    if (!cusparseConstCsrGet)
      return 0;
    st = cusparseConstCsrGet(mat, &m->rows, &m->cols, &m->nnz, &m->offsets, &m->indices,
                             &m->values, &off, &ind, &base, &type);
    break;
  case CUSPARSE_FORMAT_CSC:
    if (!cusparseConstCscGet)
      return 0;
    st = cusparseConstCscGet(mat, &m->rows, &m->cols, &m->nnz, &m->offsets, &m->indices,
                             &m->values, &off, &ind, &base, &type);
    break;
  case CUSPARSE_FORMAT_COO:
    if (!cusparseConstCooGet)
      return 0;
    st = cusparseConstCooGet(mat, &m->rows, &m->cols, &m->nnz, &m->offsets, &m->indices,
                             &m->values, &ind, &base, &type);
    off = ind;
    break;
  default:
    return 0;
  }
  m->offsets_type = (int)off;
  m->indices_type = (int)ind;
  m->base = (int)base;
  m->value_type = (int)type;
  return st == OK;
}

int pygraph_cusparse_read_spmat(cusparseConstSpMatDescr_t mat, struct pygraph_cusparse_spmat *out)
{
  memset(out, 0, sizeof *out);
  cusparseFormat_t format;
  int batches = 0;
  cusparseFillMode_t fill = 0;
  cusparseDiagType_t diag = 0;
  if (!mat || !cusparseSpMatGetFormat || !cusparseSpMatGetStridedBatch ||
      !cusparseSpMatGetAttribute || cusparseSpMatGetFormat(mat, &format) != OK)
    return 0;
  out->format = (int)format;
  /* A batched matrix's strides have no getter: only one batch is read. */
  if (cusparseSpMatGetStridedBatch(mat, &batches) != OK || batches != 1)
    return 0;
  if (cusparseSpMatGetAttribute(mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill) != OK ||
      cusparseSpMatGetAttribute(mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag) != OK)
    return 0;
  out->fill = (int)fill;
  out->diag = (int)diag;
  return read_format(mat, out);
}

int pygraph_cusparse_read_dnvec(cusparseConstDnVecDescr_t vec, struct pygraph_cusparse_dense *out)
{
  memset(out, 0, sizeof *out);
  cudaDataType type = 0;
  if (!vec || !cusparseConstDnVecGet ||
      cusparseConstDnVecGet(vec, &out->rows, &out->values, &type) != OK)
    return 0;
  out->type = (int)type;
  out->cols = 1;
  out->ld = out->rows;
  out->batch_count = 1;
  return 1;
}

int pygraph_cusparse_read_dnmat(cusparseConstDnMatDescr_t mat, struct pygraph_cusparse_dense *out)
{
  memset(out, 0, sizeof *out);
  cudaDataType type = 0;
  cusparseOrder_t order = 0;
  if (!mat || !cusparseConstDnMatGet || !cusparseDnMatGetStridedBatch ||
      cusparseConstDnMatGet(mat, &out->rows, &out->cols, &out->ld, &out->values, &type,
                            &order) != OK)
    return 0;
  out->type = (int)type;
  out->order = (int)order;
  return cusparseDnMatGetStridedBatch(mat, &out->batch_count, &out->batch_stride) == OK;
}

size_t pygraph_cusparse_scalar_bytes(cudaDataType compute)
{
  switch (compute) {
  case CUDA_R_32F: return 4;
  case CUDA_R_64F: return 8;
  case CUDA_C_32F: return 8;
  case CUDA_C_64F: return 16;
  default: return 0;
  }
}
