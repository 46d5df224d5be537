/* arg_loader.c - loader classes, chunking, the host image, and the PTX. */
#include "graphs/arg_loader.h"

#include <stdlib.h>
#include <string.h>

static const size_t class_bytes[PYGRAPH_LOADER_CLASSES] = {256, 1024, 4096, 16384,
                                                           PYGRAPH_LOADER_MAX_BYTES};
static const char *const class_names[PYGRAPH_LOADER_CLASSES] = {
    "pygraph_load_256", "pygraph_load_1024", "pygraph_load_4096", "pygraph_load_16384",
    "pygraph_load_32752"};

/* One kernel per class; the blob is addressed through a register (a kernel
 * parameter's address taken with mov), 16 bytes per thread and step.
 * PTX 8.1 is the first with parameters above 4 KiB; sm_70 is the oldest
 * target that allows them, so the driver JIT-compiles it for any GPU the
 * CUDA 12+ runtime supports. */
#define LOADER(B)                                                                     \
  ".visible .entry pygraph_load_" #B "(.param .align 16 .b8 blob[" #B "],\n"         \
  "    .param .u64 dst, .param .u32 words)\n"                                         \
  "{\n"                                                                               \
  "  .reg .pred %p;\n"                                                                \
  "  .reg .b32 %r<8>;\n"                                                              \
  "  .reg .b64 %rd<6>;\n"                                                             \
  "  ld.param.u64 %rd1, [dst];\n"                                                     \
  "  cvta.to.global.u64 %rd1, %rd1;\n"                                                \
  "  ld.param.u32 %r1, [words];\n"                                                    \
  "  mov.u32 %r2, %tid.x;\n"                                                          \
  "  mov.u32 %r3, %ntid.x;\n"                                                         \
  "  mov.u64 %rd2, blob;\n"                                                           \
  "LOOP:\n"                                                                           \
  "  setp.ge.u32 %p, %r2, %r1;\n"                                                     \
  "  @%p bra DONE;\n"                                                                 \
  "  mul.wide.u32 %rd3, %r2, 16;\n"                                                   \
  "  add.s64 %rd4, %rd2, %rd3;\n"                                                     \
  "  ld.param.v4.u32 {%r4, %r5, %r6, %r7}, [%rd4];\n"                                 \
  "  add.s64 %rd5, %rd1, %rd3;\n"                                                     \
  "  st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n"                                \
  "  add.u32 %r2, %r2, %r3;\n"                                                        \
  "  bra LOOP;\n"                                                                     \
  "DONE:\n"                                                                           \
  "  ret;\n"                                                                          \
  "}\n"

const char pygraph_loader_ptx[] = ".version 8.1\n"
                                  ".target sm_70\n"
                                  ".address_size 64\n"
                                  "\n" LOADER(256) LOADER(1024) LOADER(4096) LOADER(16384)
                                      LOADER(32752);

size_t pygraph_loader_class_bytes(unsigned c)
{
  return c < PYGRAPH_LOADER_CLASSES ? class_bytes[c] : 0;
}

const char *pygraph_loader_class_name(unsigned c)
{
  return c < PYGRAPH_LOADER_CLASSES ? class_names[c] : NULL;
}

unsigned pygraph_loader_class_of(size_t bytes)
{
  unsigned c = 0;
  while (c + 1 < PYGRAPH_LOADER_CLASSES && class_bytes[c] < bytes)
    c++;
  return c;
}

static size_t round16(size_t n)
{
  return (n + 15) & ~(size_t)15;
}

size_t pygraph_loader_chunks(size_t size, struct pygraph_loader_chunk *out, size_t cap)
{
  size_t total = round16(size), n = 0;
  for (size_t off = 0; off < total; off += PYGRAPH_LOADER_MAX_BYTES, n++) {
    size_t bytes = total - off < PYGRAPH_LOADER_MAX_BYTES ? total - off : PYGRAPH_LOADER_MAX_BYTES;
    if (n < cap)
      out[n] = (struct pygraph_loader_chunk){off, bytes, pygraph_loader_class_of(bytes)};
  }
  return n;
}

cudaError_t pygraph_arg_block_create(struct pygraph_arg_block *ab,
                                     const struct pygraph_backend *backend, size_t size,
                                     const char **step)
{
  memset(ab, 0, sizeof *ab);
  *step = "argument block host alloc";
  if (size == 0)
    return cudaErrorInvalidValue;
  ab->size = size;
  ab->n_chunks = pygraph_loader_chunks(size, NULL, 0);      /* >= 1 */
  ab->chunks = calloc(ab->n_chunks, sizeof *ab->chunks);
  cudaError_t err = cudaErrorMemoryAllocation;
  if (!ab->chunks)
    goto fail;
  pygraph_loader_chunks(size, ab->chunks, ab->n_chunks);
  const struct pygraph_loader_chunk *last = &ab->chunks[ab->n_chunks - 1];
  ab->host_size = last->offset + class_bytes[last->cls];
  if (!(ab->host = calloc(1, ab->host_size)))
    goto fail;
  *step = "argument block device alloc";
  void *p = NULL;
  if ((err = backend->device_alloc(&p, round16(size))) != cudaSuccess)
    goto fail;
  ab->device_block = p;
  return cudaSuccess;
fail:
  pygraph_arg_block_free(ab, backend, NULL);   /* no device block yet: nothing waits */
  return err;
}

void pygraph_arg_block_free(struct pygraph_arg_block *ab, const struct pygraph_backend *backend,
                            void *graph)
{
  /* A graph whose launch stream the program is capturing cannot be waited
   * for: its block is left allocated (a small leak) rather than freed under
   * launches that may still read it. */
  if (ab->device_block && (!graph || backend->graph_synchronize(graph)))
    backend->device_free(ab->device_block);
  free(ab->host);
  free(ab->chunks);
  memset(ab, 0, sizeof *ab);
}
