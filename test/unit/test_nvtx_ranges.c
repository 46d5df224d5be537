/* test_nvtx_ranges.c - the CUDA layer's range entries (cuda/nvtx_ranges.c)
 * against NVTX itself, without a GPU:
 *
 *   pygraph_test_nvtx_ranges            two ranges, nested; with the tool
 *                                       of nvtx_tool.c attached it prints them
 *   pygraph_test_nvtx_ranges time N     ns per push + pop pair, N pairs
 *
 * Without a tool nothing is printed but this program's own lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/nvtx_ranges.h"

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  if (argc == 3 && strcmp(argv[1], "time") == 0) {
    long n = atol(argv[2]);
    pygraph_cuda_range_push("warm", 0);       /* NVTX looks for a tool at its first call */
    pygraph_cuda_range_pop();
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
      pygraph_cuda_range_push("f a.cu:1-2 seg 0 replay", 0xff4caf50u);
      pygraph_cuda_range_pop();
    }
    printf("%.1f ns per push + pop\n", (now_ns() - t0) / (double)n);
    return 0;
  }
  printf("tool %s\n", pygraph_cuda_range_tool() ? "found" : "none");
  pygraph_cuda_range_push("f a.cu:1-2 seg 0", 0);
  pygraph_cuda_range_push("f a.cu:1-2 seg 0 replay", 0xff4caf50u);
  pygraph_cuda_range_pop();
  pygraph_cuda_range_pop();
  printf("done\n");
  return 0;
}
