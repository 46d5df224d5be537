/* capture_mode.c - the calling thread's capture interaction mode, relaxed
 * around pygraph's own unsafe calls (capture_mode.h). */
#include "cuda/capture_mode.h"

#include <cuda_runtime_api.h>

#define NO_MODE_TO_RESTORE (-1)

int pygraph_capture_mode_relax(void)
{
  enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  if (cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess)
    return NO_MODE_TO_RESTORE;                /* unchanged: nothing to undo */
  return (int)mode;
}

void pygraph_capture_mode_restore(int saved)
{
  if (saved == NO_MODE_TO_RESTORE)
    return;
  enum cudaStreamCaptureMode mode = (enum cudaStreamCaptureMode)saved;
  (void)cudaThreadExchangeStreamCaptureMode(&mode);
}
