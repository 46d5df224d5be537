// whole_loop_forms.cu - convergence loops in the shapes issue 17 names, each
// iteration 4 small kernels over n ints (clear the status, count every
// element down by one from one buffer into the other, count those still
// above zero into the status, judge it), the buffers swapped and the
// 8-byte status copied to the host:
//   drain_break   for (;;) { ...; if (!st.notconv) break; ++it; }
//   drain_capped  do { ... } while (st.notconv && ++it < cap), with a cap
//                 below the iterations the data needs: the cap is reached
//   drain_logged  drain_break that also keeps every iteration's count in a
//                 host array: a host side effect, so pygraph leaves it to
//                 per-iteration graphs (with a remark saying why)
//   drain_split   drain_break with a launch after the test (it counts the
//                 iterations that went on): the iteration that leaves must
//                 not run it, so a WHILE graph splits its body after the copy
// An element starts at a hashed value in [1, top]: a solve converges after
// the largest of them, about `top` iterations.  Each form runs `solves`
// times from fresh data; prints the iterations, then the checksum of every
// result, iteration count and log.
//
// pygraph-plugin-args: whole-loops=2
//
// usage: whole_loop_forms [n=16384] [solves=4] [top=1000]
#include <utility>

#include "common.h"

struct Status {
  int notconv;    // some element is still above zero
  int remaining;  // how many
};

__global__ void clear_status(Status *st) {
  st->notconv = 0;
  st->remaining = 0;
}

__global__ void count_down(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] > 0 ? in[i] - 1 : 0;
}

// One atomic per block: the block's elements still above zero.
__global__ void count_left(const int *x, Status *st, int n) {
  __shared__ int left[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  left[t] = i < n && x[i] > 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      left[t] += left[t + s];
    __syncthreads();
  }
  if (t == 0 && left[0])
    atomicAdd(&st->remaining, left[0]);
}

__global__ void judge(Status *st) { st->notconv = st->remaining > 0; }

__global__ void bump(int *count) { ++*count; }

__global__ void init(int *a, int *b, int n, unsigned seed, int top) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned h = ((unsigned)i * 2654435761u) ^ (seed * 2246822519u);
  h ^= h >> 15;
  a[i] = 1 + (int)(h % (unsigned)top);
  b[i] = 0;
}

// One iteration's launches, written out in each loop (a macro: a whole loop
// holds its launches itself, not through a function that launches).
#define ITERATION(x, y, d_st, n)                                   \
  do {                                                             \
    clear_status<<<1, 1>>>(d_st);                                  \
    count_down<<<((n) + 255) / 256, 256>>>(y, x, n);               \
    count_left<<<((n) + 255) / 256, 256>>>(y, d_st, n);            \
    judge<<<1, 1>>>(d_st);                                         \
  } while (0)

// Returns the buffer holding the result; the iterations in *iters.
__attribute__((noinline)) static int *drain_break(int *a, int *b, Status *d_st, int n,
                                                  int *iters) {
  Status st;
  int it = 0;
  for (;;) {
    ITERATION(a, b, d_st, n);
    std::swap(a, b);
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
    if (!st.notconv)
      break;
    ++it;
  }
  *iters = it + 1;
  return a;
}

__attribute__((noinline)) static int *drain_capped(int *a, int *b, Status *d_st, int n, int cap,
                                                   int *iters) {
  Status st;
  int it = 0;
  do {
    ITERATION(a, b, d_st, n);
    std::swap(a, b);
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
  } while (st.notconv && ++it < cap);
  *iters = it;
  return a;
}

// `log` holds an entry for every iteration the data can need.
__attribute__((noinline)) static int *drain_logged(int *a, int *b, Status *d_st, int n,
                                                   int *log, int *iters) {
  Status st;
  int it = 0;
  for (;;) {
    ITERATION(a, b, d_st, n);
    std::swap(a, b);
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
    log[it] = st.remaining;
    if (!st.notconv)
      break;
    ++it;
  }
  *iters = it + 1;
  return a;
}

__attribute__((noinline)) static int *drain_split(int *a, int *b, Status *d_st, int *d_count,
                                                  int n, int *iters) {
  Status st;
  int it = 0;
  for (;;) {
    ITERATION(a, b, d_st, n);
    std::swap(a, b);
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
    if (!st.notconv)
      break;
    bump<<<1, 1>>>(d_count);
    ++it;
  }
  *iters = it + 1;
  return a;
}

int main(int argc, char **argv) {
  const int n = (int)arg_long(argc, argv, 1, 16384);
  const int solves = (int)arg_long(argc, argv, 2, 4);
  const int top = (int)arg_long(argc, argv, 3, 1000);
  int *a, *b;
  Status *d_st;
  int *d_count;
  CHECK(cudaMalloc(&d_count, sizeof(int)));
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&d_st, sizeof(Status)));
  std::vector<int> result(n), log(top + 1);
  Fnv1a64 sum;
  double ms = 0.0;
  const char *forms[] = {"drain_break", "drain_capped", "drain_logged", "drain_split"};
  for (int f = 0; f < 4; ++f) {
    for (int s = 0; s < solves; ++s) {
      init<<<(n + 255) / 256, 256>>>(a, b, n, (unsigned)(s + 7 * f), top);
      CHECK_LAUNCH();
      CHECK(cudaMemset(d_count, 0, sizeof(int)));
      CHECK(cudaDeviceSynchronize());
      int iters = 0, count = 0;
      double t0 = now_ms();
      int *x = f == 0   ? drain_break(a, b, d_st, n, &iters)
               : f == 1 ? drain_capped(a, b, d_st, n, top / 2, &iters)
               : f == 2 ? drain_logged(a, b, d_st, n, log.data(), &iters)
                        : drain_split(a, b, d_st, d_count, n, &iters);
      CHECK(cudaDeviceSynchronize());
      ms += now_ms() - t0;
      printf("%s %d: %d iterations\n", forms[f], s, iters);
      CHECK(cudaMemcpy(result.data(), x, n * sizeof(int), cudaMemcpyDeviceToHost));
      sum.add_host(result);
      sum.add(&iters, sizeof iters);
      CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
      if (f == 3)
        printf("drain_split %d: %d launches after the test\n", s, count);
      sum.add(&count, sizeof count);
    }
  }
  sum.add_host(log);
  print_loop_ms(ms);
  sum.print();
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(d_st));
  CHECK(cudaFree(d_count));
  return 0;
}
