/* fake_cufft.c - the cuFFT calls of the cuFFT adapter, faked
 * (fake_cufft.h). */
#include "fake_cufft.h"

#include <string.h>

#include "fake_backend.h"

#define MAX_PLANS 8

struct fake_cufft_state fake_cufft;

static struct {
  int live, size;
  cudaStream_t stream;
} plans[MAX_PLANS + 1];

void fake_cufft_reset(void)
{
  memset(&fake_cufft, 0, sizeof fake_cufft);
  memset(plans, 0, sizeof plans);
}

/* Stream ids as the fake backend names streams (FAKE_STREAM(id)). */
static unsigned long stream_id(cudaStream_t s)
{
  return s ? (unsigned long)s - 0x100 : 0;
}

cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch)
{
  (void)type, (void)batch;
  for (int p = 1; p <= MAX_PLANS; p++)
    if (!plans[p].live) {
      plans[p].live = 1;
      plans[p].size = nx;
      plans[p].stream = 0;
      fake_cufft.live_plans++;
      *plan = p;
      return CUFFT_SUCCESS;
    }
  return CUFFT_ALLOC_FAILED;
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream)
{
  if (plan < 1 || plan > MAX_PLANS || !plans[plan].live)
    return CUFFT_INVALID_PLAN;
  fake_log_append("ss(%d,%lu) ", plan, stream_id(stream));
  plans[plan].stream = stream;
  return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle plan)
{
  if (plan < 1 || plan > MAX_PLANS || !plans[plan].live)
    return CUFFT_INVALID_PLAN;
  plans[plan].live = 0;
  fake_cufft.live_plans--;
  return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata,
                         int direction)
{
  (void)direction;
  if (plan < 1 || plan > MAX_PLANS || !plans[plan].live)
    return CUFFT_INVALID_PLAN;
  int captured = plans[plan].stream == FAKE_CAPTURE_STREAM;
  fake_log_append("%sfft(%d) ", captured ? "cap:" : "", plan);
  if (plans[plan].size == 0)
    return CUFFT_INVALID_VALUE;
  if (captured) {
    fake_cufft.captures++;
    return CUFFT_SUCCESS;
  }
  for (int i = 0; i < plans[plan].size; i++) {
    odata[i].x = 2 * idata[i].x;
    odata[i].y = 2 * idata[i].y;
  }
  fake_cufft.runs++;
  return CUFFT_SUCCESS;
}
