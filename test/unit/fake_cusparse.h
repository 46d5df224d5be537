/* fake_cusparse.h - a stand-in for cuSPARSE in test_cusparse_ops.c, linked
 * instead of it: the cuSPARSE adapter (cuda/cusparse_entry_points.c,
 * cuda/cusparse_descriptors.c) runs as it is against the fake backend.
 *
 * A handle has a stream (cusparseSetStream, logged ss(<stream id>)) and a
 * pointer mode (cusparseSetPointerMode, logged pm(<mode>)).  Descriptors
 * keep what they were made with and what their setters set (a sparse
 * matrix's fill mode and diagonal type through cusparseSpMatSetAttribute,
 * its index types, base and value type as made); host floats
 * stand for device memory.  A CSR matrix stands for the diagonal matrix of
 * its first `rows` values (offsets and indices are not read), so
 * cusparseSpMV (CUDA_R_32F only) computes y[i] = alpha * values[i] * x[i]
 * + beta * y[i], reading alpha and beta from their pointers as the handle's
 * pointer mode says (device memory is host memory here); cusparseSpMM does
 * the same column by column of column-major B and C.  On
 * FAKE_CAPTURE_STREAM a call is captured, not run (logged cap:spmv /
 * cap:spmm), else it runs (logged spmv / spmm); a graph's node replaying a
 * captured call (fake_graph_replaying) uses the descriptors' pointers and
 * sizes as they were at its capture, as a real node does.
 * fake_cusparse.fail_capture
 * makes a captured call answer CUSPARSE_STATUS_EXECUTION_FAILED. */
#ifndef PYGRAPH_TEST_FAKE_CUSPARSE_H
#define PYGRAPH_TEST_FAKE_CUSPARSE_H

#include <cusparse.h>

struct fake_cusparse_state {
  int runs, captures;                /* calls run / captured */
  int fail_capture;
  /* The workspace queries (cusparseSpMV_bufferSize, cusparseSpMM_bufferSize)
   * and the calls answer CUSPARSE_STATUS_NOT_SUPPORTED for the algorithm
   * unsupported_alg (0: none) and a compute type other than CUDA_R_32F and
   * CUDA_R_16F (the calls for CUDA_R_16F too: they compute in floats); the
   * queries ask for workspace_bytes; size_queries counts them. */
  int unsupported_alg;
  size_t workspace_bytes;
  int size_queries;
  int fail_set_mode;                 /* cusparseSetPointerMode fails (logged pm!) */
};
extern struct fake_cusparse_state fake_cusparse;

void fake_cusparse_reset(void);

#endif /* PYGRAPH_TEST_FAKE_CUSPARSE_H */
