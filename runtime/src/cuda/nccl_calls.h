/* nccl_calls.h - NCCL calls as the runtime keeps them (issue 20): one
 * recorded library op (recording/op.h, PYGRAPH_OP_LIBRARY) holds one call,
 * or every call of an ncclGroupStart..ncclGroupEnd group, which NCCL
 * launches together at the group's end and which is therefore made, and
 * captured, as one unit.
 *
 * The op's stream is the calls' stream: a group is recorded only when all
 * its calls are on one stream (cuda/nccl_entry_points.c).  Its library
 * function is pygraph_nccl_fn, a collective one (its `collective` is set:
 * whether a launch is graph-captured must be the same on every rank, NCCL
 * documents, see segment.h's pygraph_segment_note_collective). */
#ifndef PYGRAPH_NCCL_CALLS_H
#define PYGRAPH_NCCL_CALLS_H

#include <stddef.h>

#include "cuda/nccl_types.h"
#include "recording/op.h"

/* Which call (one per PYGRAPH_NCCL_CALL of pygraph_library.def). */
enum pygraph_nccl_kind {
#define PYGRAPH_NCCL_CALL(symbol, params, fields, call) PYGRAPH_NCCL_##symbol,
#include "pygraph_library.def"
  PYGRAPH_NCCL_KINDS
};

/* One call's values; 0 where the call has no such parameter.  Every byte
 * is signature (the struct is zeroed before it is filled). */
struct pygraph_nccl_call {
  enum pygraph_nccl_kind kind;
  const void *send;
  void *recv;
  size_t count;
  ncclDataType_t type;
  ncclRedOp_t op;
  int peer;                          /* the root of a broadcast or reduce */
  ncclComm_t comm;
  cudaStream_t stream;               /* as the program gave it (0: the legacy stream) */
};

/* A recorded op's arguments: n calls, a group when `group` (n may be 1). */
struct pygraph_nccl_args {
  size_t n;
  int group;
  struct pygraph_nccl_call calls[];
};

static inline size_t pygraph_nccl_args_size(size_t n)
{
  return sizeof(struct pygraph_nccl_args) + n * sizeof(struct pygraph_nccl_call);
}

/* The library function of every NCCL op: `run` makes its calls (a group
 * between ncclGroupStart and ncclGroupEnd) on their own streams, or all on
 * the capture stream it is given. */
extern const struct pygraph_library_fn pygraph_nccl_fn;

/* One call made on stream `s`: NCCL's answer.  A call of a function that
 * is not loaded answers ncclInvalidUsage, said once on stderr. */
ncclResult_t pygraph_nccl_make(const struct pygraph_nccl_call *c, cudaStream_t s);

/* The calls of `args` made as the program made them, a group between
 * ncclGroupStart and ncclGroupEnd, on their streams (capture_stream NULL)
 * or on capture_stream.  A communicator that answers ncclInProgress (a
 * non-blocking one) is waited for (ncclCommGetAsyncError) before this
 * returns, so that its work is in its stream before what follows. */
ncclResult_t pygraph_nccl_run(const struct pygraph_nccl_args *args, cudaStream_t capture_stream);

/* NCCL's name of a result, or NULL. */
const char *pygraph_nccl_status_name(int status);

/* Said once on stderr, answered as NCCL answers a misuse: a routed call
 * whose NCCL function is not loaded (a link that went wrong). */
ncclResult_t pygraph_nccl_missing(const char *symbol);

#endif /* PYGRAPH_NCCL_CALLS_H */
