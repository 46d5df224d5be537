/* cusparse_descriptors.h - what a cuSPARSE generic-API call reads from its
 * handle and descriptors, read through cuSPARSE's own getters when the
 * call is recorded (cusparse_entry_points.c).
 *
 * A descriptor holds device pointers and sizes the program may change
 * between iterations (cusparseDnVecSetValues, cusparseCsrSetPointers, ...,
 * in any file, with or without pygraph): the values read here go into the
 * recorded call's signature, so a changed descriptor never matches a graph
 * captured before the change.  What cannot be read completely (a format
 * without a getter of all its pointers, a batched sparse matrix whose
 * strides cuSPARSE does not tell) is refused: the call is made at once.
 * cuSPARSE's functions are weak (the runtime links into programs without
 * cuSPARSE); only a routed call, so a program that links cuSPARSE, gets
 * here. */
#ifndef PYGRAPH_CUDA_CUSPARSE_DESCRIPTORS_H
#define PYGRAPH_CUDA_CUSPARSE_DESCRIPTORS_H

#include <stddef.h>
#include <stdint.h>

#include <cusparse.h>

/* A sparse matrix as a call sees it.  CSR: offsets are the row offsets,
 * indices the column indices; CSC: column offsets, row indices; COO: row
 * and column indices (offsets_type = indices_type). */
struct pygraph_cusparse_spmat {
  int format;                        /* cusparseFormat_t */
  int offsets_type, indices_type, base, value_type;
  int fill, diag;                    /* the two cusparseSpMatAttribute_t values */
  int64_t rows, cols, nnz;
  const void *offsets, *indices, *values;
};

/* A dense vector (rows = its size, cols = 1) or matrix. */
struct pygraph_cusparse_dense {
  int type, order;                   /* cudaDataType, cusparseOrder_t (0 for a vector) */
  int batch_count;                   /* 1 for a vector */
  int64_t rows, cols, ld, batch_stride;
  const void *values;
};

/* 1 and *out filled (every field, zeroed first) when cuSPARSE tells all of
 * what the call reads from the descriptor; 0 otherwise. */
int pygraph_cusparse_read_spmat(cusparseConstSpMatDescr_t mat, struct pygraph_cusparse_spmat *out);
int pygraph_cusparse_read_dnvec(cusparseConstDnVecDescr_t vec, struct pygraph_cusparse_dense *out);
int pygraph_cusparse_read_dnmat(cusparseConstDnMatDescr_t mat, struct pygraph_cusparse_dense *out);

/* The bytes of alpha and beta for a compute type (cuSPARSE: the scalars
 * are of the compute type): 4, 8, 8, 16 for CUDA_R_32F, CUDA_R_64F,
 * CUDA_C_32F, CUDA_C_64F; 0 for any other (the call is made at once rather
 * than a size guessed). */
size_t pygraph_cusparse_scalar_bytes(cudaDataType compute);

#endif /* PYGRAPH_CUDA_CUSPARSE_DESCRIPTORS_H */
