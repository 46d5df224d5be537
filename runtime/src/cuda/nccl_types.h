/* nccl_types.h - the NCCL declarations the runtime's NCCL adapter uses:
 * nccl.h's own where the build finds it, else the few types and functions
 * of NCCL's stable C ABI (nccl.h of NCCL 2.x) written out, so that the
 * runtime builds without NCCL.  The functions are weak in the adapter
 * either way: a program that calls NCCL links it, one that does not
 * never reaches the adapter. */
#ifndef PYGRAPH_NCCL_TYPES_H
#define PYGRAPH_NCCL_TYPES_H

#include <cuda_runtime_api.h>

#if __has_include(<nccl.h>) && !defined(PYGRAPH_WITHOUT_NCCL_H)
#include <nccl.h>
#else
typedef struct ncclComm *ncclComm_t;
typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7
} ncclResult_t;
typedef int ncclDataType_t;            /* an enum in nccl.h: the same size */
typedef int ncclRedOp_t;               /* likewise (ncclRedOp_t covers custom ops) */
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError);
ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device);
const char *ncclGetErrorString(ncclResult_t result);
#define PYGRAPH_NCCL_DECLARE(symbol, params, fields, call) ncclResult_t symbol params;
#define PYGRAPH_NCCL_CALL PYGRAPH_NCCL_DECLARE
#include "pygraph_library.def"
#undef PYGRAPH_NCCL_DECLARE
#endif

#endif /* PYGRAPH_NCCL_TYPES_H */
