// mlp_train.cu - training a 3-layer MLP classifier on a synthetic data set:
// per mini-batch forward (tiled matmul + bias/ReLU), softmax cross-entropy,
// backward (matmuls with transposes, column sums, ReLU masks) and one SGD
// kernel over the packed parameters.  18 kernels per mini-batch; the batch
// pointers, the step index and the decaying learning rate change every step.
//
//   usage: mlp_train [steps=4000]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int IN = 64, H1 = 128, H2 = 128, OUT = 10;
constexpr int NS = 4096, BATCH = 64, NBATCH = NS / BATCH;
constexpr int TILE = 16;

// C[MxN] = op(A)[MxK] * op(B)[KxN]; op = transpose when ta/tb (A stored KxM / B stored NxK).
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K, int ta,
                       int tb) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE + 1];
  int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    As[threadIdx.y][threadIdx.x] =
        (r < M && ka < K) ? (ta ? A[(size_t)ka * M + r] : A[(size_t)r * K + ka]) : 0.0f;
    Bs[threadIdx.y][threadIdx.x] =
        (kb < K && c < N) ? (tb ? B[(size_t)c * K + kb] : B[(size_t)kb * N + c]) : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (r < M && c < N) C[(size_t)r * N + c] = acc;
}

__global__ void bias_act(float *Z, const float *b, float *A, int rows, int cols, int relu) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  float v = Z[i] + b[i % cols];
  A[i] = relu ? fmaxf(v, 0.0f) : v;
}

// dlogits = (softmax - onehot) / B; hist[step] = mean loss.  One block, thread per row.
__global__ void softmax_xent(const float *logits, const int *labels, float *dlogits, float *hist,
                             int step) {
  __shared__ float loss[BATCH];
  int r = threadIdx.x;
  if (r < BATCH) {
    const float *z = logits + r * OUT;
    float m = z[0];
    for (int j = 1; j < OUT; ++j) m = fmaxf(m, z[j]);
    float s = 0.0f;
    for (int j = 0; j < OUT; ++j) s += expf(z[j] - m);
    for (int j = 0; j < OUT; ++j)
      dlogits[r * OUT + j] = (expf(z[j] - m) / s - (j == labels[r] ? 1.0f : 0.0f)) / BATCH;
    loss[r] = logf(s) + m - z[labels[r]];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int i = 0; i < BATCH; ++i) t += loss[i];
    hist[step] = t / BATCH;
  }
}

__global__ void colsum(const float *dZ, float *db, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) s += dZ[r * cols + c];
  db[c] = s;
}

__global__ void relu_back(float *dA, const float *A, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && A[i] <= 0.0f) dA[i] = 0.0f;
}

__global__ void sgd(float *p, const float *g, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] -= lr * g[i];
}

static dim3 mm_grid(int M, int N) { return dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE); }

int main(int argc, char **argv) {
  const long steps = arg_long(argc, argv, 1, 4000);

  // Synthetic data: 10 Gaussian-ish clusters in 64-D.
  Rng rng(555);
  std::vector<float> centers(OUT * IN), X((size_t)NS * IN);
  std::vector<int> y(NS);
  for (float &c : centers) c = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < NS; ++i) {
    y[i] = (int)(rng.next() % OUT);
    for (int j = 0; j < IN; ++j) X[(size_t)i * IN + j] = centers[y[i] * IN + j] + rng.uniform(-0.8f, 0.8f);
  }
  // Packed parameters: W1 b1 W2 b2 W3 b3.
  const int nW1 = IN * H1, nW2 = H1 * H2, nW3 = H2 * OUT;
  const int NP = nW1 + H1 + nW2 + H2 + nW3 + OUT;
  std::vector<float> P(NP);
  {
    int o = 0;
    for (int i = 0; i < nW1; ++i) P[o++] = rng.uniform(-1.0f, 1.0f) / sqrtf((float)IN);
    for (int i = 0; i < H1; ++i) P[o++] = 0.0f;
    for (int i = 0; i < nW2; ++i) P[o++] = rng.uniform(-1.0f, 1.0f) / sqrtf((float)H1);
    for (int i = 0; i < H2; ++i) P[o++] = 0.0f;
    for (int i = 0; i < nW3; ++i) P[o++] = rng.uniform(-1.0f, 1.0f) / sqrtf((float)H2);
    for (int i = 0; i < OUT; ++i) P[o++] = 0.0f;
  }
  float *dX, *dP, *dG, *Z1, *A1, *Z2, *A2, *Z3, *L, *dL, *dA2, *dA1, *hist;
  int *dy;
  CHECK(cudaMalloc(&dX, X.size() * sizeof(float)));
  CHECK(cudaMalloc(&dy, NS * sizeof(int)));
  CHECK(cudaMalloc(&dP, NP * sizeof(float)));
  CHECK(cudaMalloc(&dG, NP * sizeof(float)));
  float **acts[] = {&Z1, &A1, &Z2, &A2, &Z3, &L, &dL, &dA2, &dA1};
  for (float **a : acts) CHECK(cudaMalloc(a, BATCH * 128 * sizeof(float)));
  CHECK(cudaMalloc(&hist, steps * sizeof(float)));
  CHECK(cudaMemcpy(dX, X.data(), X.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), NS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dP, P.data(), NP * sizeof(float), cudaMemcpyHostToDevice));
  float *W1 = dP, *b1 = W1 + nW1, *W2 = b1 + H1, *b2 = W2 + nW2, *W3 = b2 + H2, *b3 = W3 + nW3;
  float *gW1 = dG, *gb1 = gW1 + nW1, *gW2 = gb1 + H1, *gb2 = gW2 + nW2, *gW3 = gb2 + H2,
        *gb3 = gW3 + nW3;

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int T = 256;
  auto nb = [](int n) { return (n + 255) / 256; };

#ifdef HAND_GRAPH
  GraphRec g(s);
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long step = 0; step < steps; ++step) {
    const float *xb = dX + (size_t)(step % NBATCH) * BATCH * IN;
    const int *yb = dy + (step % NBATCH) * BATCH;
    const float lr = 0.1f / (1.0f + 0.0005f * (float)step);
#ifndef HAND_GRAPH
    // forward
    matmul<<<mm_grid(BATCH, H1), dim3(TILE, TILE), 0, s>>>(xb, W1, Z1, BATCH, H1, IN, 0, 0);
    bias_act<<<nb(BATCH * H1), T, 0, s>>>(Z1, b1, A1, BATCH, H1, 1);
    matmul<<<mm_grid(BATCH, H2), dim3(TILE, TILE), 0, s>>>(A1, W2, Z2, BATCH, H2, H1, 0, 0);
    bias_act<<<nb(BATCH * H2), T, 0, s>>>(Z2, b2, A2, BATCH, H2, 1);
    matmul<<<mm_grid(BATCH, OUT), dim3(TILE, TILE), 0, s>>>(A2, W3, Z3, BATCH, OUT, H2, 0, 0);
    bias_act<<<nb(BATCH * OUT), T, 0, s>>>(Z3, b3, L, BATCH, OUT, 0);
    softmax_xent<<<1, BATCH, 0, s>>>(L, yb, dL, hist, (int)step);
    CHECK(cudaGetLastError());
    // backward
    matmul<<<mm_grid(H2, OUT), dim3(TILE, TILE), 0, s>>>(A2, dL, gW3, H2, OUT, BATCH, 1, 0);
    colsum<<<1, T, 0, s>>>(dL, gb3, BATCH, OUT);
    matmul<<<mm_grid(BATCH, H2), dim3(TILE, TILE), 0, s>>>(dL, W3, dA2, BATCH, H2, OUT, 0, 1);
    relu_back<<<nb(BATCH * H2), T, 0, s>>>(dA2, A2, BATCH * H2);
    matmul<<<mm_grid(H1, H2), dim3(TILE, TILE), 0, s>>>(A1, dA2, gW2, H1, H2, BATCH, 1, 0);
    colsum<<<1, T, 0, s>>>(dA2, gb2, BATCH, H2);
    matmul<<<mm_grid(BATCH, H1), dim3(TILE, TILE), 0, s>>>(dA2, W2, dA1, BATCH, H1, H2, 0, 1);
    relu_back<<<nb(BATCH * H1), T, 0, s>>>(dA1, A1, BATCH * H1);
    matmul<<<mm_grid(IN, H1), dim3(TILE, TILE), 0, s>>>(xb, dA1, gW1, IN, H1, BATCH, 1, 0);
    colsum<<<1, T, 0, s>>>(dA1, gb1, BATCH, H1);
    // update
    sgd<<<nb(NP), T, 0, s>>>(dP, dG, NP, lr);
    CHECK(cudaGetLastError());
#else
    // Same 18 kernels, same order, same stream; only xb, yb, step and lr
    // change between replays (patched with cudaGraphExecKernelNodeSetParams).
    g.begin();
    // forward
    g.kernel(matmul, mm_grid(BATCH, H1), dim3(TILE, TILE), 0, s, xb, W1, Z1, BATCH, H1, IN, 0, 0);
    g.kernel(bias_act, dim3(nb(BATCH * H1)), dim3(T), 0, s, Z1, b1, A1, BATCH, H1, 1);
    g.kernel(matmul, mm_grid(BATCH, H2), dim3(TILE, TILE), 0, s, A1, W2, Z2, BATCH, H2, H1, 0, 0);
    g.kernel(bias_act, dim3(nb(BATCH * H2)), dim3(T), 0, s, Z2, b2, A2, BATCH, H2, 1);
    g.kernel(matmul, mm_grid(BATCH, OUT), dim3(TILE, TILE), 0, s, A2, W3, Z3, BATCH, OUT, H2, 0, 0);
    g.kernel(bias_act, dim3(nb(BATCH * OUT)), dim3(T), 0, s, Z3, b3, L, BATCH, OUT, 0);
    g.kernel(softmax_xent, dim3(1), dim3(BATCH), 0, s, L, yb, dL, hist, (int)step);
    // backward
    g.kernel(matmul, mm_grid(H2, OUT), dim3(TILE, TILE), 0, s, A2, dL, gW3, H2, OUT, BATCH, 1, 0);
    g.kernel(colsum, dim3(1), dim3(T), 0, s, dL, gb3, BATCH, OUT);
    g.kernel(matmul, mm_grid(BATCH, H2), dim3(TILE, TILE), 0, s, dL, W3, dA2, BATCH, H2, OUT, 0, 1);
    g.kernel(relu_back, dim3(nb(BATCH * H2)), dim3(T), 0, s, dA2, A2, BATCH * H2);
    g.kernel(matmul, mm_grid(H1, H2), dim3(TILE, TILE), 0, s, A1, dA2, gW2, H1, H2, BATCH, 1, 0);
    g.kernel(colsum, dim3(1), dim3(T), 0, s, dA2, gb2, BATCH, H2);
    g.kernel(matmul, mm_grid(BATCH, H1), dim3(TILE, TILE), 0, s, dA2, W2, dA1, BATCH, H1, H2, 0, 1);
    g.kernel(relu_back, dim3(nb(BATCH * H1)), dim3(T), 0, s, dA1, A1, BATCH * H1);
    g.kernel(matmul, mm_grid(IN, H1), dim3(TILE, TILE), 0, s, xb, dA1, gW1, IN, H1, BATCH, 1, 0);
    g.kernel(colsum, dim3(1), dim3(T), 0, s, dA1, gb1, BATCH, H1);
    // update
    g.kernel(sgd, dim3(nb(NP)), dim3(T), 0, s, dP, dG, NP, lr);
    g.launch();
#endif
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<float> h_hist(steps);
  CHECK(cudaMemcpy(h_hist.data(), hist, steps * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(P.data(), dP, NP * sizeof(float), cudaMemcpyDeviceToHost));
  float first = 0, last = 0;
  const long w = std::min<long>(NBATCH, steps);
  for (long i = 0; i < w; ++i) first += h_hist[i] / w, last += h_hist[steps - 1 - i] / w;
  const bool ok = std::isfinite(last) && (steps < 2 * NBATCH || last < 0.5f * first);
  printf("mlp_train: %ld steps, mean loss first epoch %.4f, last epoch %.4f\n", steps,
         (double)first, (double)last);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(P);
  f.add_host(h_hist);
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
