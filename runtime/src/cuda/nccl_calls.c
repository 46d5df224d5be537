/* nccl_calls.c - NCCL calls made from what the runtime kept of them
 * (nccl_calls.h).  NCCL's functions are weak: the runtime links into
 * programs without NCCL, and only a program whose NCCL calls the pass
 * routed (so which links NCCL) makes an NCCL op. */
#include "cuda/nccl_calls.h"

#include <stdio.h>

#pragma weak ncclGroupStart
#pragma weak ncclGroupEnd
#pragma weak ncclCommGetAsyncError
#pragma weak ncclGetErrorString
#define PG_PRAGMA(text) _Pragma(#text)
#define PYGRAPH_NCCL_CALL(symbol, params, fields, call) PG_PRAGMA(weak symbol)
#include "pygraph_library.def"

ncclResult_t pygraph_nccl_missing(const char *symbol)
{
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "pygraph: error: %s is not loaded (link the program with NCCL)\n", symbol);
  return ncclInvalidUsage;
}

ncclResult_t pygraph_nccl_make(const struct pygraph_nccl_call *c, cudaStream_t s)
{
  switch (c->kind) {
#define PYGRAPH_NCCL_CALL(symbol, params, fields, call)                                          \
  case PYGRAPH_NCCL_##symbol:                                                                    \
    return symbol ? symbol call : pygraph_nccl_missing(#symbol);
#include "pygraph_library.def"
  default:
    return ncclInternalError;
  }
}

/* A non-blocking communicator's call may answer ncclInProgress before its
 * work is in the stream; NCCL's documented wait is to poll its async
 * error until it is no longer in progress. */
static ncclResult_t settled(const struct pygraph_nccl_args *args, ncclResult_t r)
{
  if (r != ncclInProgress || !ncclCommGetAsyncError)
    return r;
  for (size_t i = 0; i < args->n; i++) {
    ncclResult_t state;
    do
      r = ncclCommGetAsyncError(args->calls[i].comm, &state);
    while (r == ncclSuccess && state == ncclInProgress);
    if (r == ncclSuccess)
      r = state;
    if (r != ncclSuccess)
      return r;
  }
  return ncclSuccess;
}

ncclResult_t pygraph_nccl_run(const struct pygraph_nccl_args *args, cudaStream_t capture_stream)
{
  if (args->group && !ncclGroupStart)
    return pygraph_nccl_missing("ncclGroupStart");
  ncclResult_t r = args->group ? ncclGroupStart() : ncclSuccess;
  /* Every call is made once the group is open, failing or not: NCCL
   * reports a group's errors at its end, which is always reached. */
  for (size_t i = 0; i < args->n && (r == ncclSuccess || args->group); i++) {
    const struct pygraph_nccl_call *c = &args->calls[i];
    ncclResult_t ri = pygraph_nccl_make(c, capture_stream ? capture_stream : c->stream);
    if (r == ncclSuccess || r == ncclInProgress)
      r = ri;
  }
  if (args->group) {
    ncclResult_t end = ncclGroupEnd ? ncclGroupEnd() : pygraph_nccl_missing("ncclGroupEnd");
    if (r == ncclSuccess || r == ncclInProgress)
      r = end;
  }
  return settled(args, r);
}

static int run_op(const void *args, cudaStream_t capture_stream)
{
  return (int)pygraph_nccl_run(args, capture_stream);
}

const char *pygraph_nccl_status_name(int status)
{
  return ncclGetErrorString ? ncclGetErrorString((ncclResult_t)status) : NULL;
}

const struct pygraph_library_fn pygraph_nccl_fn = {"nccl", run_op, pygraph_nccl_status_name, 1};
