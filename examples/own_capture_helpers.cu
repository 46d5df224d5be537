// own_capture_helpers.cu - the other translation unit of own_capture.cu:
// stream captures begun and ended here, where the pygraph pass compiling
// own_capture.cu cannot see them (as in a library that captures the
// caller's stream).
#include "common.h"

__global__ void side_step(int *v, int n, int salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = (v[i] * 1103515245 + salt) & 0xffff;
}

void helper_begin_capture(cudaStream_t s, cudaStreamCaptureMode mode) {
  CHECK(cudaStreamBeginCapture(s, mode));
}

// Begins a capture and puts one kernel of its own into it.
void helper_begin_side_capture(cudaStream_t s, cudaStreamCaptureMode mode, int *v, int n,
                               int salt) {
  CHECK(cudaStreamBeginCapture(s, mode));
  side_step<<<(n + 255) / 256, 256, 0, s>>>(v, n, salt);
  CHECK_LAUNCH();
}

// Ends the capture on s, updates *exec in place when the topology allows
// (else instantiates anew), launches it and waits.
void helper_end_capture_and_run(cudaStream_t s, cudaGraphExec_t *exec) {
  cudaGraph_t g = nullptr;
  CHECK(cudaStreamEndCapture(s, &g));
  if (*exec) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(*exec, g, &info) != cudaSuccess) {
      (void)cudaGetLastError();
      CHECK(cudaGraphExecDestroy(*exec));
      *exec = nullptr;
    }
  }
  if (!*exec) CHECK(cudaGraphInstantiate(exec, g, 0));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphLaunch(*exec, s));
  CHECK(cudaStreamSynchronize(s));
}
