/* fake_nccl.c - the NCCL and CUDA calls of the NCCL adapter, faked
 * (fake_nccl.h). */
#include "fake_nccl.h"

#include <string.h>

#include "fake_backend.h"

struct fake_nccl_state fake_nccl;

void fake_nccl_reset(void)
{
  memset(&fake_nccl, 0, sizeof fake_nccl);
}

/* A call on `stream`: captured (logged cap:<name>) or run (logged <name>);
 * 1 when it runs, else its result in *r. */
static int runs(cudaStream_t stream, const char *name, size_t count, ncclResult_t *r)
{
  int captured = stream == FAKE_CAPTURE_STREAM;
  fake_log_append("%s%s(%zu) ", captured ? "cap:" : "", name, count);
  *r = ncclSuccess;
  if (count == 0)
    *r = ncclInvalidArgument;
  else if (count == 3 && !captured) {
    *r = ncclInProgress;              /* a non-blocking communicator's answer */
    fake_nccl.in_progress = 2;
  }
  else if (captured && fake_nccl.fail_captures)
    *r = ncclInvalidUsage;
  fake_nccl.captures += captured;
  fake_nccl.runs += !captured && *r == ncclSuccess;
  return !captured && (*r == ncclSuccess || *r == ncclInProgress);
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream)
{
  (void)datatype, (void)op, (void)comm;
  ncclResult_t r;
  if (runs(stream, "ar", count, &r))
    for (size_t i = 0; i < count; i++)
      ((float *)recvbuff)[i] = 2 * ((const float *)sendbuff)[i];
  return r;
}

ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, int root, ncclComm_t comm,
                           cudaStream_t stream)
{
  (void)datatype, (void)root, (void)comm;
  ncclResult_t r;
  if (runs(stream, "bc", count, &r))
    memmove(recvbuff, sendbuff, count * sizeof(float));
  return r;
}

ncclResult_t ncclGroupStart(void)
{
  fake_log_append("gs ");
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void)
{
  fake_log_append("ge ");
  return ncclSuccess;
}

ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device)
{
  *device = comm->device;
  return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *state)
{
  (void)comm;
  fake_log_append("poll ");
  *state = fake_nccl.in_progress > 0 ? ncclInProgress : ncclSuccess;
  fake_nccl.in_progress -= fake_nccl.in_progress > 0;
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result)
{
  return result == ncclInvalidArgument ? "invalid argument" : "other";
}

cudaError_t cudaGetDevice(int *device)
{
  *device = fake_nccl.device;
  return cudaSuccess;
}
