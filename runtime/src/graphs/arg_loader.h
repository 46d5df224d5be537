/* arg_loader.h - refreshing the indirect nodes' device argument block.
 *
 * The graph's first node is a tiny "loader" kernel whose kernel parameters
 * *are* the argument block: it copies them into the device block the
 * indirect twins read.  Refreshing every indirect node's arguments is then
 * one kernel-node parameter update per loader.  The update copies the
 * parameters when it is called, so the host image can be rewritten at once:
 * no staging ring, no completion events, and no race with replays still
 * queued (graph launches of one exec run one after the other).
 *
 * Kernel parameters are limited to 32764 bytes, so a block is cut into
 * chunks of at most PYGRAPH_LOADER_MAX_BYTES, one loader each; the loaders
 * come in a few fixed parameter sizes (classes) so that an update copies
 * little more than the block itself.  The loaders are PTX text, built into
 * the runtime and JIT-compiled once by the driver.
 *
 * This file is CUDA-free: the backend loads the PTX and adds the nodes. */
#ifndef PYGRAPH_ARG_LOADER_H
#define PYGRAPH_ARG_LOADER_H

#include "port/backend.h"

#define PYGRAPH_LOADER_CLASSES 5u
#define PYGRAPH_LOADER_MAX_BYTES 32752u      /* 32764 minus dst and word count */
#define PYGRAPH_LOADER_THREADS 256u
#define PYGRAPH_LOADER_MAX_EXTRA 32u         /* loaders per graph: a block of ~1 MiB */
#define PYGRAPH_ARG_BLOCK_MAX ((size_t)PYGRAPH_LOADER_MAX_EXTRA * PYGRAPH_LOADER_MAX_BYTES)

/* The PTX module, with one kernel per class:
 *   pygraph_load_<bytes>(.align 16 .b8 blob[bytes], .u64 dst, .u32 words)
 * copies `words` 16-byte words from blob to dst. */
extern const char pygraph_loader_ptx[];

/* Parameter bytes of class c, and its kernel's name. */
size_t pygraph_loader_class_bytes(unsigned c);
const char *pygraph_loader_class_name(unsigned c);

/* The smallest class holding `bytes` (<= PYGRAPH_LOADER_MAX_BYTES). */
unsigned pygraph_loader_class_of(size_t bytes);

/* One loader's share of a block. */
struct pygraph_loader_chunk {
  size_t offset;                     /* in the block and in the host image */
  size_t bytes;                      /* copied: a multiple of 16 */
  unsigned cls;                      /* its kernel's parameter class */
};

/* Chunks of a block of `size` bytes (rounded up to 16): at most `cap`
 * written to `out`; returns how many there are. */
size_t pygraph_loader_chunks(size_t size, struct pygraph_loader_chunk *out, size_t cap);

/* The host side of one segment variant's indirection. */
struct pygraph_arg_block {
  void *device_block;                /* NULL: no indirect nodes */
  unsigned char *host;               /* parameter image of the loaders: each
                                        chunk at its offset, padded to its class */
  size_t size;                       /* packed arguments (bytes refreshed) */
  size_t host_size;
  struct pygraph_loader_chunk *chunks;
  size_t n_chunks;
};

/* Allocates the device block and the zeroed host image.  On failure nothing
 * stays allocated and *step names what failed. */
cudaError_t pygraph_arg_block_create(struct pygraph_arg_block *ab,
                                     const struct pygraph_backend *backend, size_t size,
                                     const char **step);

/* Frees it; `graph` (NULL: no launch can be queued) is the live graph whose
 * queued launches may still read the device block: waited for first. */
void pygraph_arg_block_free(struct pygraph_arg_block *ab, const struct pygraph_backend *backend,
                            void *graph);

#endif /* PYGRAPH_ARG_LOADER_H */
