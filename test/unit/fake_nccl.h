/* fake_nccl.h - a stand-in for the NCCL calls of the NCCL adapter
 * (cuda/nccl_entry_points.c, cuda/nccl_calls.c) in test_nccl_ops.c, linked
 * instead of NCCL: the adapter runs as it is against the fake backend.
 *
 * A communicator is a struct fake_comm (its device).  ncclAllReduce (sum
 * of one rank with an identical peer: recv = 2 x send) and ncclBroadcast
 * (recv = send) work on host floats standing for device memory; a call
 * made on FAKE_CAPTURE_STREAM is captured, not run: it changes nothing and
 * logs cap:<name>(<count>), else it runs and logs <name>(<count>), ar for
 * ncclAllReduce, bc for ncclBroadcast (fake_backend.h's log); group
 * calls log gs / ge.  count 0 is ncclInvalidArgument; count 3 answers
 * ncclInProgress, as a non-blocking communicator may, and its async error
 * (ncclCommGetAsyncError, logged poll) says in progress twice more. */
#ifndef PYGRAPH_TEST_FAKE_NCCL_H
#define PYGRAPH_TEST_FAKE_NCCL_H

#include "cuda/nccl_types.h"

struct ncclComm {
  int device;
};

struct fake_nccl_state {
  int fail_captures;                 /* calls made into the capture stream fail */
  int runs, captures;                /* calls run / captured */
  int device;                        /* cudaGetDevice's answer */
  int in_progress;                   /* async error queries still answering in progress */
};
extern struct fake_nccl_state fake_nccl;

void fake_nccl_reset(void);

#endif /* PYGRAPH_TEST_FAKE_NCCL_H */
