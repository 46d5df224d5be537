/* fake_memory.h - the fake backend's device memory, enough for verify
 * mode (segment/verify.h): buffers that stand for device allocations
 * (host memory, registered), what fake ops do to them, and the port's
 * memory entries (allocation_of, memory_copy, stream_synchronize).
 *
 * A fake kernel of funcs 1..63 (parameters int v, long long p) adds v to
 * the int at p when p points into a registered buffer (an accumulation:
 * running it twice shows); a memset or memcpy whose destination is in one
 * writes it, and so does a host-bytes node (its bytes).  Values that point nowhere registered (the harness's usual
 * arg1 = 1000 + arg0) do nothing.  Graphs keep one such node per op, as
 * built and updated, and run them at launch (fake_backend.c).
 * memory_copy logs "cp", stream_synchronize "sync"; both fail on request
 * (fake.fail_copy_at / fake.fail_sync_at, logged with '!'). */
#ifndef PYGRAPH_TEST_FAKE_MEMORY_H
#define PYGRAPH_TEST_FAKE_MEMORY_H

#include <stddef.h>

#include "port/backend.h"
#include "recording/op.h"

/* A fresh zeroed "device" buffer of `size` bytes (never freed). */
void *fake_buffer(size_t size);
/* The same, standing for pinned host memory (allocation_of says -1). */
void *fake_host_buffer(size_t size);
/* Device blocks of the fake's device_alloc are device memory too. */
void fake_memory_register(void *base, size_t size);
void fake_memory_forget(void *base);

/* What an op does to memory, taken from it now (a graph node's copy). */
struct fake_node {
  enum pygraph_op_kind kind;
  int has_args;                         /* a kernel of the (int, long long) layout */
  int arg0;
  long long arg1;
  void *dst;
  const void *src;
  int value;
  size_t count;
  unsigned char *bytes;                 /* a HOST_BYTES node's own copy of its bytes,
                                           a LIBRARY node's of its arguments
                                           (malloc'd: fake_node_release frees it) */
  const struct pygraph_library_fn *library;   /* a LIBRARY node: running it runs
                                                 the call (its thunk, eagerly) */
};
/* For a PYGRAPH_OP_HOST_BYTES op the node copies the bytes at op->src, as
 * the real node takes its parameters; for a PYGRAPH_OP_LIBRARY op, the
 * arguments at op->library_args (what the real node's captured graph
 * holds). */
struct fake_node fake_node_of(const struct pygraph_op *op);
void fake_node_release(struct fake_node *node);
/* Runs the node's effect on registered memory. */
void fake_memory_apply(const struct fake_node *node);
/* Set while a graph's library node runs its call: a library fake answers
 * it with what the call's objects held when it was captured, as a real
 * captured node keeps them (fake_cusparse.h). */
extern int fake_graph_replaying;

/* What a pointer is: 1 in a fake_buffer (device memory), -1 in a
 * fake_host_buffer, 0 anywhere else (not counted as an allocation query). */
int fake_memory_kind(const void *ptr);
int fake_allocation_of(const void *ptr, void **base, size_t *size);
cudaError_t fake_memory_copy(void *dst, const void *src, size_t size, cudaStream_t stream);
cudaError_t fake_stream_synchronize(cudaStream_t stream);

extern int fake_copy_calls, fake_sync_calls, fake_allocation_queries;
void fake_memory_reset_counts(void);

#endif /* PYGRAPH_TEST_FAKE_MEMORY_H */
