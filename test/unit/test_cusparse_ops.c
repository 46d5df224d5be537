/* test_cusparse_ops.c - cuSPARSE calls inside a region (issue 18): the
 * adapter (cuda/cusparse_entry_points.c, cuda/cusparse_descriptors.c) as it
 * is, against a fake cuSPARSE (fake_cusparse.h) and the fake backend.  A
 * cusparseSpMV or cusparseSpMM is recorded, answers success and runs later,
 * in order with the kernels around it, with the scalars it had at the call
 * (host pointer mode) or read through its pointers (device mode); a graph
 * holds it as one node captured with the handle moved to the capturing
 * stream and back; a descriptor changed by a setter (routed or not), a
 * destroy or a preprocessing step is never answered by a graph captured
 * before; what the adapter cannot read (a batched matrix, a compute type it
 * does not size) runs at once, after what was recorded; a failed capture
 * leaves the call to run eagerly. */
#include <string.h>

#include "check.h"
#include "fake_cusparse.h"
#include "harness.h"

cusparseStatus_t __pygraph_cusparseSpMV(const pygraph_site *site, cusparseHandle_t handle,
                                        cusparseOperation_t opA, const void *alpha,
                                        cusparseConstSpMatDescr_t matA,
                                        cusparseConstDnVecDescr_t vecX, const void *beta,
                                        cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                        cusparseSpMVAlg_t alg, void *externalBuffer);
cusparseStatus_t __pygraph_cusparseSpMM(const pygraph_site *site, cusparseHandle_t handle,
                                        cusparseOperation_t opA, cusparseOperation_t opB,
                                        const void *alpha, cusparseConstSpMatDescr_t matA,
                                        cusparseConstDnMatDescr_t matB, const void *beta,
                                        cusparseDnMatDescr_t matC, cudaDataType computeType,
                                        cusparseSpMMAlg_t alg, void *externalBuffer);
cusparseStatus_t __pygraph_cusparseDestroyDnVec(const pygraph_site *site,
                                                cusparseConstDnVecDescr_t d);
cusparseStatus_t __pygraph_cusparseSpMV_preprocess(
    const pygraph_site *site, cusparseHandle_t handle, cusparseOperation_t opA,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
    const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
    cusparseSpMVAlg_t alg, void *externalBuffer);

static const pygraph_site kSite = {NULL, "sparse.cu", 9, 0, NULL};

/* The program's objects: a handle on S1, A = diag(values), x, y. */
static struct {
  cusparseHandle_t h;
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t x, y;
  float values[2], xs[2], ys[2], other[2];
  float alpha, beta;
  int compute;                       /* cudaDataType of the calls */
  cusparseSpMVAlg_t alg;             /* spmv()'s algorithm */
} p;

static pygraph_region *region_in(const char *name)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 2, 8);
  pygraph_region *r = harness_region(name, 1);
  if (p.x)                            /* the last test's program ends: what its calls */
    (void)__pygraph_cusparseDestroyDnVec(&kSite, p.x);   /* were found cannot carry over */
  fake_reset();
  fake_cusparse_reset();
  memset(&p, 0, sizeof p);
  p.values[0] = 2, p.values[1] = 3;
  p.xs[0] = 1, p.xs[1] = 1;
  p.alpha = 1, p.beta = 0;
  p.compute = CUDA_R_32F;
  CHECK(cusparseCreate(&p.h) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseSetStream(p.h, S1) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseCreateCsr(&p.a, 2, 2, 2, NULL, NULL, p.values, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                          CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseCreateDnVec(&p.x, 2, p.xs, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseCreateDnVec(&p.y, 2, p.ys, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS);
  fake_log_clear();
  return r;
}

static cusparseStatus_t spmv(void)
{
  return __pygraph_cusparseSpMV(&kSite, p.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &p.alpha, p.a,
                                p.x, &p.beta, p.y, (cudaDataType)p.compute, p.alg, NULL);
}

/* One step: a kernel, y = alpha A x + beta y, a kernel. */
static void step(pygraph_region *r)
{
  begin(r, 0);
  kernel(1, 5);
  CHECK(spmv() == CUSPARSE_STATUS_SUCCESS);
  kernel(2, 3);
  end(r);
}

static void test_spmv_recorded_and_captured(void)
{
  pygraph_region *r = region_in("spmv_step");
  step(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) spmv k2(3)");
  CHECK(p.ys[1] == 3.0f);
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "ss(30) cap:spmv ss(1) build(0 1L<0 2<1) inst launch spmv");
  fake_log_clear();
  p.xs[1] = 10;                       /* device data: read when the graph runs */
  step(r);
  CHECK_STR(fake_log(), "launch spmv");
  CHECK(p.ys[1] == 30.0f);
  CHECK(fake_cusparse.captures == 1);
  CHECK(harness_segment(r, 0)->stats.library_calls == 3);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  cudaStream_t s;
  CHECK(cusparseGetStream(p.h, &s) == CUSPARSE_STATUS_SUCCESS && s == S1);
  /* outside a region: made at once */
  fake_log_clear();
  CHECK(spmv() == CUSPARSE_STATUS_SUCCESS);
  CHECK_STR(fake_log(), "spmv");
}

/* Host pointer mode: alpha is read at the call (a change after it is not
 * seen, and a new value is a new graph); device mode: its pointer is kept
 * and read when the call runs, with the handle's mode put back after. */
static void test_scalars_by_pointer_mode(void)
{
  pygraph_region *r = region_in("spmv_scalars");
  begin(r, 0);
  CHECK(spmv() == CUSPARSE_STATUS_SUCCESS);
  p.alpha = 100;                      /* after the call: not what cuSPARSE read */
  end(r);
  CHECK(p.ys[0] == 2.0f);
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 1);
  CHECK(p.ys[0] == 200.0f);
  p.alpha = 7;                        /* a new scalar: not the captured graph */
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) spmv k2(3)");
  CHECK(p.ys[0] == 14.0f);
  step(r);
  CHECK(fake_cusparse.captures == 2);

  /* the same scalar at another address: the same call, the same graph */
  float alpha_copy = p.alpha;
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_cusparseSpMV(&kSite, p.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_copy, p.a,
                               p.x, &p.beta, p.y, CUDA_R_32F, p.alg, NULL) ==
        CUSPARSE_STATUS_SUCCESS);
  kernel(2, 3);
  fake_log_clear();
  end(r);
  CHECK_STR(fake_log(), "launch spmv");
  CHECK(fake_cusparse.captures == 2);

  CHECK(cusparseSetPointerMode(p.h, CUSPARSE_POINTER_MODE_DEVICE) == CUSPARSE_STATUS_SUCCESS);
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 3);
  p.alpha = 5;                        /* device memory: the same graph reads it */
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "launch spmv");
  CHECK(p.ys[1] == 15.0f);
  /* recorded in device mode, run while the handle is in host mode */
  begin(r, 0);
  kernel(1, 5);
  CHECK(spmv() == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseSetPointerMode(p.h, CUSPARSE_POINTER_MODE_HOST) == CUSPARSE_STATUS_SUCCESS);
  fake_log_clear();
  end(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) pm(1) spmv pm(0)");
  cusparsePointerMode_t mode;
  CHECK(cusparseGetPointerMode(p.h, &mode) == CUSPARSE_STATUS_SUCCESS &&
        mode == CUSPARSE_POINTER_MODE_HOST);
}

/* A descriptor set to new values by a setter pygraph never sees (from any
 * file): the next iteration is not answered by the old graph. */
static void test_descriptor_setters_recapture(void)
{
  pygraph_region *r = region_in("spmv_setter");
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 1);
  CHECK(cusparseDnVecSetValues(p.y, p.other) == CUSPARSE_STATUS_SUCCESS);
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(p.other[1] == 3.0f);
  CHECK(fake_cusparse.captures == 2);
  float values2[2] = {4, 5};
  CHECK(cusparseSpMatSetValues(p.a, values2) == CUSPARSE_STATUS_SUCCESS);
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) spmv k2(3)");
  CHECK(p.other[1] == 5.0f);
}

/* A matrix attribute set between iterations (the fill mode; any file may
 * set it, and cuSPARSE reads it when the call runs) is part of what the
 * call read: the old graph does not answer the next iteration. */
static void test_matrix_attribute_recaptures(void)
{
  pygraph_region *r = region_in("spmv_attribute");
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 1);
  cusparseFillMode_t upper = CUSPARSE_FILL_MODE_UPPER;
  CHECK(cusparseSpMatSetAttribute(p.a, CUSPARSE_SPMAT_FILL_MODE, &upper, sizeof upper) ==
        CUSPARSE_STATUS_SUCCESS);
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) spmv k2(3)");
  step(r);
  CHECK(fake_cusparse.captures == 2);
}

/* No graph captured before a destroy or a preprocessing step is replayed
 * after it, even when the new descriptor has the old one's address and
 * values. */
static void test_observed_calls_forget_graphs(void)
{
  pygraph_region *r = region_in("spmv_destroy");
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 1);
  cusparseDnVecDescr_t old = p.y;
  CHECK(__pygraph_cusparseDestroyDnVec(&kSite, p.y) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseCreateDnVec(&p.y, 2, p.ys, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS);
  CHECK(p.y == old);                  /* the address is given again */
  for (int i = 0; i < 3; i++)
    step(r);
  CHECK(fake_cusparse.captures == 2);
  CHECK(__pygraph_cusparseSpMV_preprocess(&kSite, p.h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          &p.alpha, p.a, p.x, &p.beta, p.y, CUDA_R_32F,
                                          CUSPARSE_SPMV_ALG_DEFAULT,
                                          NULL) == CUSPARSE_STATUS_SUCCESS);
  fake_log_clear();
  step(r);
  CHECK_STR(fake_log(), "k1(5) lib(cusparse) spmv k2(3)");
}

/* One step whose call cuSPARSE refuses: its answer reaches the program at
 * the call, made at once after the kernel recorded before it; the rest of
 * the iteration goes to CUDA. */
static void refused_step(pygraph_region *r)
{
  begin(r, 0);
  kernel(1, 5);
  CHECK(spmv() == CUSPARSE_STATUS_NOT_SUPPORTED);   /* cuSPARSE's own answer, at the call */
  kernel(2, 3);
  end(r);
  CHECK_STR(fake_log(), "k1(5) spmv p:k2(3)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
}

/* What the adapter cannot keep is made at once, after the kernel recorded
 * before it; the rest of the iteration goes to CUDA. */
static void test_unreadable_calls_run_at_once(void)
{
  pygraph_region *r = region_in("spmv_batched");
  CHECK(cusparseCsrSetStridedBatch(p.a, 2, 0, 0) == CUSPARSE_STATUS_SUCCESS);
  step(r);
  CHECK_STR(fake_log(), "k1(5) spmv p:k2(3)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
  CHECK(p.ys[1] == 3.0f);

  r = region_in("spmv_half");
  p.compute = CUDA_R_16F;             /* a compute type pygraph does not size */
  refused_step(r);
}

/* Arguments cuSPARSE rejects at the call (an algorithm it does not support
 * for the matrix, a workspace it needs and did not get) are not recorded:
 * the call is made at once and the program gets cuSPARSE's answer, as a
 * program trying one algorithm and falling back to another needs. */
static void test_rejected_arguments_run_at_once(void)
{
  pygraph_region *r = region_in("spmv_rejected");
  p.alg = CUSPARSE_SPMV_COO_ALG1;       /* not for a CSR matrix */
  fake_cusparse.unsupported_alg = (int)CUSPARSE_SPMV_COO_ALG1;
  refused_step(r);
  CHECK(fake_cusparse.size_queries == 1 && fake_cusparse.runs == 0);

  r = region_in("spmv_no_workspace");
  fake_cusparse.workspace_bytes = 64;   /* spmv() passes no buffer */
  step(r);
  CHECK_STR(fake_log(), "k1(5) spmv p:k2(3)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
  CHECK(p.ys[1] == 3.0f && fake_cusparse.runs == 1);
}

/* Arguments the workspace query accepted are asked about once (the query
 * costs the host as much as a call): a loop rotating its vectors asks once
 * per rotation, a changed descriptor is asked about again, and arguments
 * rejected once are asked about at every call. */
static void test_accepted_arguments_queried_once(void)
{
  pygraph_region *r = region_in("spmv_query_once");
  for (int i = 0; i < 4; i++)
    step(r);
  CHECK(fake_cusparse.size_queries == 1);
  cusparseDnVecDescr_t x = p.x;
  p.x = p.y, p.y = x;                 /* ping-pong: new arguments, then the old ones */
  for (int i = 0; i < 2; i++)
    step(r);
  p.y = p.x, p.x = x;
  step(r);
  CHECK(fake_cusparse.size_queries == 2);
  CHECK(cusparseDnVecSetValues(p.y, p.other) == CUSPARSE_STATUS_SUCCESS);
  step(r);
  CHECK(fake_cusparse.size_queries == 3);
  CHECK(fake_cusparse.runs == 8);

  /* A descriptor destroyed and made again at the same address: asked again. */
  cusparseDnVecDescr_t old = p.y;
  CHECK(__pygraph_cusparseDestroyDnVec(&kSite, p.y) == CUSPARSE_STATUS_SUCCESS);
  CHECK(cusparseCreateDnVec(&p.y, 2, p.other, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS);
  CHECK(p.y == old);
  step(r);
  CHECK(fake_cusparse.size_queries == 4);

  r = region_in("spmv_query_rejected");
  fake_cusparse.unsupported_alg = (int)CUSPARSE_SPMV_COO_ALG1;
  p.alg = CUSPARSE_SPMV_COO_ALG1;
  refused_step(r);
  begin(r, 0);
  CHECK(spmv() == CUSPARSE_STATUS_NOT_SUPPORTED);
  end(r);
  CHECK(fake_cusparse.size_queries == 2);
}

/* The recorded call runs on its stream in its mode; when the mode cannot be
 * set (here while its graph is captured) the call is not made there and the
 * handle is left on the program's stream. */
static void test_handle_restored_when_mode_fails(void)
{
  pygraph_region *r = region_in("spmv_mode_fails");
  CHECK(cusparseSetPointerMode(p.h, CUSPARSE_POINTER_MODE_DEVICE) == CUSPARSE_STATUS_SUCCESS);
  step(r);                                      /* warm-up: made as it comes */
  begin(r, 0);
  kernel(1, 5);
  CHECK(spmv() == CUSPARSE_STATUS_SUCCESS);     /* recorded in device mode, captured at the end */
  kernel(2, 3);
  CHECK(cusparseSetPointerMode(p.h, CUSPARSE_POINTER_MODE_HOST) == CUSPARSE_STATUS_SUCCESS);
  fake_cusparse.fail_set_mode = 1;
  fake_log_clear();
  end(r);
  CHECK(strncmp(fake_log(), "ss(30) pm! ss(1) ", 17) == 0);
  CHECK(fake_cusparse.captures == 0);
  cudaStream_t s;
  cusparsePointerMode_t mode;
  CHECK(cusparseGetStream(p.h, &s) == CUSPARSE_STATUS_SUCCESS && s == S1);
  CHECK(cusparseGetPointerMode(p.h, &mode) == CUSPARSE_STATUS_SUCCESS &&
        mode == CUSPARSE_POINTER_MODE_HOST);
}

/* A capture cuSPARSE refuses: the call still runs, eagerly, and the handle
 * is back on the program's stream. */
static void test_failed_capture_runs_eagerly(void)
{
  pygraph_region *r = region_in("spmv_fail");
  fake_cusparse.fail_capture = 1;
  for (int i = 0; i < 3; i++) {
    p.ys[1] = 0;
    step(r);
    CHECK(p.ys[1] == 3.0f);
  }
  CHECK(harness_count(fake_log(), "lib!(cusparse)") >= 1);
  CHECK(fake_cusparse.runs == 3);
  cudaStream_t s;
  CHECK(cusparseGetStream(p.h, &s) == CUSPARSE_STATUS_SUCCESS && s == S1);
}

/* SpMM: recorded and captured like SpMV, column by column. */
static void test_spmm_recorded_and_captured(void)
{
  pygraph_region *r = region_in("spmm_step");
  float bs[4] = {1, 1, 2, 2}, cs[4] = {0, 0, 0, 0};
  cusparseDnMatDescr_t b, c;
  CHECK(cusparseCreateDnMat(&b, 2, 2, 2, bs, CUDA_R_32F, CUSPARSE_ORDER_COL) == 0);
  CHECK(cusparseCreateDnMat(&c, 2, 2, 2, cs, CUDA_R_32F, CUSPARSE_ORDER_COL) == 0);
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 5);
    CHECK(__pygraph_cusparseSpMM(&kSite, p.h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 CUSPARSE_OPERATION_NON_TRANSPOSE, &p.alpha, p.a, b, &p.beta, c,
                                 CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, NULL) == 0);
    end(r);
  }
  CHECK(harness_count(fake_log(), "cap:spmm") == 1);
  CHECK(fake_cusparse.runs == 3);     /* the eager iteration and the graph's two launches */
  CHECK(cs[3] == 6.0f);
}

int main(void)
{
  test_spmv_recorded_and_captured();
  test_scalars_by_pointer_mode();
  test_descriptor_setters_recapture();
  test_matrix_attribute_recaptures();
  test_observed_calls_forget_graphs();
  test_unreadable_calls_run_at_once();
  test_rejected_arguments_run_at_once();
  test_accepted_arguments_queried_once();
  test_handle_restored_when_mode_fails();
  test_failed_capture_runs_eagerly();
  test_spmm_recorded_and_captured();
  return check_finish();
}
