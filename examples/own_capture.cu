// own_capture.cu - a program that builds its own CUDA graphs by stream
// capture; pygraph must leave them intact (issue 14).  Three shapes:
//  (a) capture inside the loop, as CUDA samples do: BeginCapture (global),
//      memset, one of two kernels by parity, an async copy of a scalar to
//      the host, EndCapture, ExecUpdate or instantiate, launch, sync, and a
//      host test on the scalar that may end the loop;
//  (b) the capture begun and ended in another file (own_capture_helpers.cu)
//      around launches of this loop: the pass cannot see it, the runtime
//      must notice the captured stream;
//  (c) a capture on one stream (thread-local mode, begun in the other file)
//      left open while a plain launch loop runs on a second stream, and a
//      global-mode capture loop in another thread beside that launch loop:
//      pygraph's own work for the plain loop (allocation, events, queries)
//      must not invalidate either capture.
// The other file must be compiled into the same program.
#include "common.h"

#include <thread>

void helper_begin_capture(cudaStream_t s, cudaStreamCaptureMode mode);
void helper_begin_side_capture(cudaStream_t s, cudaStreamCaptureMode mode, int *v, int n,
                               int salt);
void helper_end_capture_and_run(cudaStream_t s, cudaGraphExec_t *exec);

__global__ void mix_even(int *v, unsigned *acc, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = (v[i] * 75 + it) % 65521;
    atomicAdd(acc, (unsigned)(v[i] & 0xff));
  }
}

__global__ void mix_odd(int *v, unsigned *acc, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = (v[i] * 31 + 7 * it) % 65521;
    atomicAdd(acc, (unsigned)(v[i] & 0x7f));
  }
}

__global__ void shuffle(int *v, int n, int salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = (v[i] ^ salt) + (i & 15);
}

static int blocks(int n) { return (n + 255) / 256; }

// (a) the CUDA-samples shape, entirely in this function.
static unsigned long long shape_a(int *v, unsigned *acc, unsigned *h_acc, int n, long iters,
                                  cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  unsigned long long sum = 0;
  for (long it = 0; it < iters; ++it) {
    cudaGraph_t g = nullptr;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(acc, 0, sizeof(unsigned), s));
    if (it & 1)
      mix_odd<<<blocks(n), 256, 0, s>>>(v, acc, n, (int)it);
    else
      mix_even<<<blocks(n), 256, 0, s>>>(v, acc, n, (int)it);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(h_acc, acc, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamEndCapture(s, &g));
    if (exec) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        (void)cudaGetLastError();
        CHECK(cudaGraphExecDestroy(exec));
        exec = nullptr;
      }
    }
    if (!exec) CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    sum = sum * 1000003ull + *h_acc;
    if (*h_acc == 0xffffffffu) break;   // the host test (never true here)
  }
  if (exec) CHECK(cudaGraphExecDestroy(exec));
  return sum;
}

// (b) launches of this loop inside a capture begun and ended elsewhere.
static void shape_b(int *v, unsigned *acc, int n, long iters, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  for (long it = 0; it < iters; ++it) {
    helper_begin_capture(s, cudaStreamCaptureModeGlobal);
    shuffle<<<blocks(n), 256, 0, s>>>(v, n, (int)it);
    CHECK_LAUNCH();
    mix_even<<<blocks(n), 256, 0, s>>>(v, acc, n, (int)it);
    CHECK_LAUNCH();
    helper_end_capture_and_run(s, &exec);
  }
  if (exec) CHECK(cudaGraphExecDestroy(exec));
}

// A plain launch loop pygraph graphs (arguments change every iteration, so
// graph mode allocates an argument block; auto mode times with events).
static void plain_loop(int *w, unsigned *acc, int n, long iters, int salt, cudaStream_t s) {
  for (long j = 0; j < iters; ++j) {
    shuffle<<<blocks(n), 256, 0, s>>>(w, n, salt + (int)j);
    CHECK_LAUNCH();
    mix_odd<<<blocks(n), 256, 0, s>>>(w, acc, n, (int)j);
    CHECK_LAUNCH();
    mix_even<<<blocks(n), 256, 0, s>>>(w, acc, n, (int)(j + 1));
    CHECK_LAUNCH();
  }
}

// Another thread: capture loops in global mode, launches in this file.
static void capture_thread(int *v, unsigned *acc, int n, long iters, cudaStream_t s) {
  shape_b(v, acc, n, iters, s);
}

// (c) a thread-local capture left open on s1 beside the plain loop on s2,
// then a global capture loop in another thread beside it.
static void shape_c(int *v, int *w, unsigned *acc_b, unsigned *acc_w, int n, long iters,
                    cudaStream_t s1, cudaStream_t s2, cudaStream_t s3, int *u) {
  cudaGraphExec_t exec = nullptr;
  for (long round = 0; round < 4; ++round) {
    helper_begin_side_capture(s1, cudaStreamCaptureModeThreadLocal, v, n, (int)round);
    plain_loop(w, acc_w, n, iters, (int)(round * 131), s2);
    helper_end_capture_and_run(s1, &exec);
  }
  if (exec) CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaStreamSynchronize(s2));
  std::thread other(capture_thread, u, acc_b, n, iters, s3);
  plain_loop(w, acc_w, n, iters, 7777, s2);
  other.join();
  CHECK(cudaStreamSynchronize(s2));
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 400);
  const int n = 8192;
  int *v, *w, *u;
  unsigned *acc_a, *acc_b, *acc_w, *acc_u, *h_acc;
  CHECK(cudaMalloc(&v, n * sizeof(int)));
  CHECK(cudaMalloc(&w, n * sizeof(int)));
  CHECK(cudaMalloc(&u, n * sizeof(int)));
  CHECK(cudaMalloc(&acc_a, sizeof(unsigned)));
  CHECK(cudaMalloc(&acc_b, sizeof(unsigned)));
  CHECK(cudaMalloc(&acc_w, sizeof(unsigned)));
  CHECK(cudaMalloc(&acc_u, sizeof(unsigned)));
  CHECK(cudaMallocHost(&h_acc, sizeof(unsigned)));
  std::vector<int> init(n);
  for (int i = 0; i < n; ++i) init[i] = (i * 37) % 1000;
  for (int *p : {v, w, u}) CHECK(cudaMemcpy(p, init.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  for (unsigned *p : {acc_a, acc_b, acc_w, acc_u}) CHECK(cudaMemset(p, 0, sizeof(unsigned)));
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  CHECK(cudaDeviceSynchronize());

  const double t0 = now_ms();
  unsigned long long sum_a = shape_a(v, acc_a, h_acc, n, iters, s1);
  shape_b(v, acc_b, n, iters, s1);
  shape_c(v, w, acc_u, acc_w, n, iters, s1, s2, s3, u);
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add(&sum_a, sizeof sum_a);
  f.add_device(v, n);
  f.add_device(w, n);
  f.add_device(u, n);
  f.add_device(acc_b, 1);
  f.add_device(acc_w, 1);
  f.add_device(acc_u, 1);
  printf("own_capture: %ld iterations per shape\n", iters);
  f.print();
  print_loop_ms(t1 - t0);
  return 0;
}
