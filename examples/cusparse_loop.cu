// cusparse_loop.cu - issue 18: a Richardson iteration on a sparse system,
// kernels around a cuSPARSE SpMV on a stream of its own, as iterative
// solvers and sparse time-stepping loops are written:
//
//   excite<<<...>>>(b, it)            a source term added to the right-hand side
//   cusparseSpMV(y = A x)             A: a tridiagonal CSR matrix (4 on the
//                                     diagonal, -1 beside it)
//   update<<<...>>>(x, y, b)          x += omega (b - y)
//
// The handle, its stream, the descriptors and the work buffer are made once,
// before the loop (with cusparseSpMV_preprocess).  Without pygraph each
// iteration is two launches and one cuSPARSE call (one or more launches);
// with it the loop is one region: the SpMV is recorded and becomes one node
// of the loop's graph, a graph captured from cuSPARSE.  The checksum hashes
// x after the loop.
//
//   usage: cusparse_loop [iterations=2000] [n=65536] [alg=1]
//   alg 1: CUSPARSE_SPMV_CSR_ALG2 (deterministic: the checksums of the
//   builds compare); alg 2: CUSPARSE_SPMV_ALG_DEFAULT.
// example-libs: cusparse
//
// With -fplugin-arg-pygraph-whole-loops=2 (the line below asks the example
// builds for it) the counted loop also carries the whole-loop protocol: the
// library calls are operations of the iteration, and its WHILE graph's body
// holds each as the graph captured from the call.
// pygraph-plugin-args: whole-loops=2
#include "common.h"

#include <cusparse.h>

#define CUSPARSE_CHECK(call)                                                   \
  do {                                                                         \
    cusparseStatus_t r_ = (call);                                              \
    if (r_ != CUSPARSE_STATUS_SUCCESS) {                                       \
      fprintf(stderr, "cuSPARSE error %d at %s:%d in %s\n", (int)r_, __FILE__, \
              __LINE__, #call);                                                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int T = 256;

__global__ void excite(float *b, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 97 == it % 97) b[i] += 0.5f;
}

__global__ void update(float *x, const float *y, const float *b, int n, float omega) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += omega * (b[i] - y[i]);
}

// The tridiagonal matrix's CSR arrays.
static void tridiagonal(int n, std::vector<int> &offsets, std::vector<int> &cols,
                        std::vector<float> &vals) {
  offsets.assign(1, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        cols.push_back(j);
        vals.push_back(j == i ? 4.0f : -1.0f);
      }
    offsets.push_back((int)cols.size());
  }
}

template <typename V> static V *to_device(const std::vector<V> &h) {
  V *d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(V)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(V), cudaMemcpyHostToDevice));
  return d;
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 2000);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  const cusparseSpMVAlg_t alg =
      arg_long(argc, argv, 3, 1) == 2 ? CUSPARSE_SPMV_ALG_DEFAULT : CUSPARSE_SPMV_CSR_ALG2;
  const int blocks = (n + T - 1) / T;
  std::vector<int> offsets, cols;
  std::vector<float> vals, hb(n), hx(n, 0.0f);
  tridiagonal(n, offsets, cols, vals);
  Rng rng(1414);
  for (int i = 0; i < n; ++i) hb[i] = rng.uniform(-1.0f, 1.0f);
  int *d_offsets = to_device(offsets), *d_cols = to_device(cols);
  float *d_vals = to_device(vals), *b = to_device(hb), *x = to_device(hx), *y;
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cusparseHandle_t handle;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  CUSPARSE_CHECK(cusparseSetStream(handle, s));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  CUSPARSE_CHECK(cusparseCreateCsr(&A, n, n, (int64_t)cols.size(), d_offsets, d_cols, d_vals,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f, omega = 0.2f;
  size_t bytes = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx,
                                         &beta, vy, CUDA_R_32F, alg, &bytes));
  void *buffer = nullptr;
  CHECK(cudaMalloc(&buffer, bytes ? bytes : 1));
  CUSPARSE_CHECK(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx,
                                         &beta, vy, CUDA_R_32F, alg, buffer));

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    excite<<<blocks, T, 0, s>>>(b, n, (int)it);
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta,
                                vy, CUDA_R_32F, alg, buffer));
    update<<<blocks, T, 0, s>>>(x, y, b, n, omega);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  const double t1 = now_ms();

  Fnv1a64 h;
  h.add_device(x, n);
  printf("cusparse_loop: %ld iterations, a %d-row SpMV between 2 kernels\n", iters, n);
  h.print();
  print_loop_ms(t1 - t0);

  CUSPARSE_CHECK(cusparseDestroySpMat(A));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
  CUSPARSE_CHECK(cusparseDestroy(handle));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(buffer));
  CHECK(cudaFree(d_offsets));
  CHECK(cudaFree(d_cols));
  CHECK(cudaFree(d_vals));
  CHECK(cudaFree(b));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
