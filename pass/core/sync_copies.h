/* sync_copies.h - what a synchronous copy (cudaMemcpy, cudaMemcpyToSymbol
 * and their _ptds forms) is to a graph region, by its kind and size.
 *
 * CUDA's runtime API reference, "API synchronization behavior": a copy
 * from device memory to device memory makes the host wait for nothing; a
 * copy to the host returns once the copy is done; a copy from pageable host
 * memory to device memory first waits for the stream, then returns once the
 * bytes are staged, before they reach the device.  So a device copy is
 * deferred (the runtime checks the pointers), and a host-to-device one is
 * deferred with the bytes the runtime reads at the call
 * (runtime/include/pygraph_abi.h, PYGRAPH_HOST_BYTES_MAX), unless only the
 * wait could matter: in a file that makes host memory kernels can write,
 * the host may read device results the copy's wait waited for.  A
 * device-to-host copy waits for its result: a barrier. */
#ifndef PYGRAPH_SYNC_COPIES_H
#define PYGRAPH_SYNC_COPIES_H

#include "cuda_api_table.h"

#include <llvm-c/Core.h>

typedef enum pg_sync_copy {
  PG_COPY_NONE,         /* not a synchronous cudaMemcpy / cudaMemcpyToSymbol call */
  PG_COPY_DEVICE,       /* routed: device-to-device or default kind, the runtime checks the
                           pointers */
  PG_COPY_SNAPSHOT,     /* routed: host-to-device (for cudaMemcpyToSymbol also a kind that is
                           no constant), the runtime reads the bytes at the call */
  PG_COPY_HOST,         /* barrier: host-to-host, device-to-host or no known kind */
  PG_COPY_KIND_UNKNOWN, /* barrier: a cudaMemcpy whose kind is no constant (a wrapper's
                           parameter, mostly host copies: at run time each would cut the
                           iteration where the pass can split it into two regions) */
  PG_COPY_TOO_LARGE,    /* barrier: host-to-device of a constant size over
                           PYGRAPH_HOST_BYTES_MAX */
  PG_COPY_HOST_VISIBLE  /* barrier: host-to-device in a file that makes host memory kernels
                           can write */
} pg_sync_copy;

/* `call` calls `api` (its table row, NULL: none); `host_visible` is the
 * first call of the file that makes host memory kernels can write
 * (pg_classifier.host_visible_memory), or NULL. */
pg_sync_copy pg_sync_copy_judge(LLVMValueRef call, const pg_api_entry *api,
                                const char *host_visible);

/* Why a barrier of the above is one ("a device-to-host copy", "a
 * host-to-device copy of 8192 bytes, more than the 4096 ..."), malloc'd;
 * NULL for a routed copy or any other call. */
char *pg_sync_copy_why(LLVMValueRef call, const pg_api_entry *api, const char *host_visible);

/* 1 when the synchronous copy `call` (to `f`) has read its source when it
 * returns, whatever the runtime does with it: a host-to-device copy (a
 * snapshot, or the real call, which stages or copies before returning). */
int pg_sync_copy_reads_source_at_call(LLVMValueRef call, LLVMValueRef f);

#endif /* PYGRAPH_SYNC_COPIES_H */
