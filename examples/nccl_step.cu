// nccl_step.cu - issue 20: a data-parallel training step on two GPUs, one
// process per GPU (forked before any CUDA call), NCCL between them: each
// rank computes the gradient of a least-squares loss on its own data
// (kernels), all-reduces the gradients (ncclAllReduce, sum), and applies
// the same update.  With pygraph each rank's step (kernels + the
// all-reduce) is one region: the collective is captured alone into a
// child-graph node, and every rank captures and replays at the same
// iterations (runtime/README.md, NCCL calls).  The sum of two ranks'
// floats is exact in any order, so the weights are bit-identical with and
// without pygraph.  NVLink SHARP is off (NCCL_NVLS_ENABLE=0, unless set).
//
//   usage: nccl_step [iterations=3000]
//   With fewer than 2 GPUs it prints a "skip:" line and exits 0.
// example-needs: nccl.h
// example-libs: nccl
#include "common.h"

#include "nccl_check.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

constexpr int RANKS = 2;
constexpr int N = 1024;        // weights
constexpr int M = 64;          // samples per rank

// What the ranks share: the unique id (rank 0 writes it, then sets ready),
// and rank 0's results.
struct Shared {
  ncclUniqueId id;
  volatile int ready;
  unsigned long long checksum;
  double loop_ms;
};

// residual r[m] = sum_k x[m, k] w[k] - y[m] (one thread per sample).
__global__ void residual(const float *x, const float *y, const float *w, float *r, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0.f;
  for (int k = 0; k < n; ++k) s += x[i * n + k] * w[k];
  r[i] = s - y[i];
}

// g[k] = sum_m x[m, k] r[m] / m (one thread per weight).
__global__ void gradient(const float *x, const float *r, float *g, int m, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float s = 0.f;
  for (int i = 0; i < m; ++i) s += x[i * n + k] * r[i];
  g[k] = s / (float)m;
}

__global__ void update(float *w, const float *g, int n, float lr) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) w[k] -= lr * g[k];
}

// A child that only counts the GPUs: the parent must not initialise CUDA
// before it forks the ranks.
static int count_gpus() {
  pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
    _exit(n > 100 ? 100 : n);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 0;
  return WEXITSTATUS(status);
}

static void run_rank(int rank, long iters, Shared *sh) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  CHECK(cudaSetDevice(rank));
  if (rank == 0) {
    NCCL_CHECK(ncclGetUniqueId(&sh->id));
    __sync_synchronize();
    sh->ready = 1;
  }
  while (!sh->ready) usleep(1000);
  __sync_synchronize();
  ncclComm_t comm;
  NCCL_CHECK(ncclCommInitRank(&comm, RANKS, sh->id, rank));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  Rng rng(1234 + rank);
  std::vector<float> hx(M * N), hy(M), hw(N, 0.f);
  for (auto &v : hx) v = rng.uniform(-1.f, 1.f);
  for (auto &v : hy) v = rng.uniform(-1.f, 1.f);
  float *x, *y, *w, *r, *g;
  CHECK(cudaMalloc(&x, M * N * sizeof(float)));
  CHECK(cudaMalloc(&y, M * sizeof(float)));
  CHECK(cudaMalloc(&w, N * sizeof(float)));
  CHECK(cudaMalloc(&r, M * sizeof(float)));
  CHECK(cudaMalloc(&g, N * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), M * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());

  double t0 = now_ms();
  for (long i = 0; i < iters; ++i) {
    float lr = 0.01f / (1.f + 0.001f * (float)(i % 100));
    residual<<<(M + 63) / 64, 64, 0, s>>>(x, y, w, r, M, N);
    gradient<<<(N + 255) / 256, 256, 0, s>>>(x, r, g, M, N);
    ncclAllReduce(g, g, N, ncclFloat32, ncclSum, comm, s);
    update<<<(N + 255) / 256, 256, 0, s>>>(w, g, N, lr / RANKS);
  }
  CHECK(cudaStreamSynchronize(s));
  double ms = now_ms() - t0;
  CHECK_LAUNCH();
  if (rank == 0) {
    Fnv1a64 sum;
    sum.add_device(w, N);
    sh->checksum = sum.h;
    sh->loop_ms = ms;
  }
  NCCL_CHECK(ncclCommDestroy(comm));
}

int main(int argc, char **argv) {
  long iters = arg_long(argc, argv, 1, 3000);
  int gpus = count_gpus();
  if (gpus < RANKS) {
    printf("skip: nccl_step needs %d GPUs, found %d\n", RANKS, gpus);
    return 0;
  }
  auto *sh = static_cast<Shared *>(mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE,
                                        MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (sh == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  memset(sh, 0, sizeof *sh);
  fflush(stdout);
  pid_t pids[RANKS];
  for (int rank = 0; rank < RANKS; ++rank) {
    pids[rank] = fork();
    if (pids[rank] == 0) {
      run_rank(rank, iters, sh);
      fflush(nullptr);
      _exit(0);
    }
  }
  int failed = 0;
  for (int rank = 0; rank < RANKS; ++rank) {
    int status = 0;
    if (pids[rank] < 0 || waitpid(pids[rank], &status, 0) != pids[rank] ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "nccl_step: rank %d failed\n", rank);
      failed = 1;
    }
  }
  if (failed) return 1;
  printf("checksum: %016llx\n", sh->checksum);
  print_loop_ms(sh->loop_ms);
  return 0;
}
