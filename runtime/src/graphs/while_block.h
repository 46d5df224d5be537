/* while_block.h - the device block the WHILE graph's condition kernel
 * works on (graphs/while_condition.h), made on the host: one allocation
 * holding the kernel's state (struct pygraph_while_state, first), a copy
 * of the whole-loop descriptor whose array pointers point into the block
 * (its nodes, values, invariant types and rotation members), this
 * launch's invariants and the argument slots.  The host image is laid out
 * exactly as the device block, its pointers already the device's, so a
 * launch needs one copy up (pygraph_while_block_upload) and its result one
 * copy of the state down (pygraph_while_block_read_state).  Last, where
 * the loop fits it, its compiled form (graphs/while_clauses.h).
 *
 * Every slot is checked here (inside the argument block, of 1, 2, 4 or 8
 * bytes, naming an AFFINE or ROTATION operand): the kernel trusts them.
 * CUDA-free: memory goes through the port. */
#ifndef PYGRAPH_WHILE_BLOCK_H
#define PYGRAPH_WHILE_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "graphs/while_condition.h"
#include "port/backend.h"

struct pygraph_while_block {
  void *device;                  /* the block (backend->device_alloc) */
  unsigned char *image;          /* its host image, `size` bytes */
  size_t size;
  size_t n_invariants;
  size_t status_bytes;           /* the descriptor's (<= PYGRAPH_WL_MAX_STATUS_BYTES) */
  size_t invariants_at;          /* byte offsets in the block */
  size_t slots_at;
  size_t clauses_at;             /* the compiled form (graphs/while_clauses.h), last */
  const char *clauses_refusal;   /* why the loop has no compiled form, or NULL */
  int uploaded;                  /* the block went up once: the compiled form is there */
  unsigned *source_members;      /* an evolving status source's rotation members (invariant
                                    numbers): each launch's must not be NULL */
  size_t n_source_members;
};

/* Lays out, fills and allocates the block for `wl` (one that passes
 * pygraph_whole_loop_check) and `n_slots` slots of the argument block
 * `args` (a device address, `args_size` bytes; NULL and 0 without slots).
 * The state starts as pygraph_while_block_start would leave it for
 * iteration 0 with zero invariants and no cap.  cudaErrorInvalidValue for
 * a malformed descriptor or slot, else the allocation's error; on failure
 * nothing stays allocated and *step names what failed. */
cudaError_t pygraph_while_block_create(struct pygraph_while_block *b,
                                       const struct pygraph_backend *backend,
                                       const pygraph_whole_loop *wl,
                                       const struct pygraph_while_slot *slots, size_t n_slots,
                                       void *args, size_t args_size, const char **step);

/* A condition kernel makes the status copy itself (folded: the body holds
 * no copy node, while_condition.h), from `src` (a device address), or,
 * where `value` is not PYGRAPH_WL_NONE, from the value of wl->values[value]
 * (wl: the block's descriptor) in each iteration: an evolving source, a
 * ROTATION pointer (a ping-pong of buffers), whose members
 * pygraph_while_block_start checks in each launch's invariants.  0, and
 * nothing changed, when that value is none such or out of memory.  A
 * compiled form that cannot hold the source is dropped (b->clauses_refusal
 * says why: the generic kernels then). */
int pygraph_while_block_fold_status(struct pygraph_while_block *b, const pygraph_whole_loop *wl,
                                    const void *src, unsigned value);

/* The body is split after the status copy (graphs/while_graph.h): its
 * first kernel makes the exit tests after the copy, the step does not. */
void pygraph_while_block_split_after_copy(struct pygraph_while_block *b);

/* The image's state for the next launch: the loop's invariants as captured
 * at its entry (n_invariants of them), the status bytes its host
 * destination holds now (status_bytes of them), the number of the first
 * iteration the graph runs (the iterations before it ran some other way),
 * and the cap (0: none; else the graph stops before iteration number
 * max_iterations).  0 when the cap would not let the first iteration run,
 * or an evolving status source would be NULL in some iteration. */
int pygraph_while_block_start(struct pygraph_while_block *b, const uint64_t *invariants,
                              const void *status, uint64_t first, uint64_t max_iterations);

/* The image's state: as started, or as the device left it once
 * pygraph_while_block_read_state returned cudaSuccess. */
const struct pygraph_while_state *pygraph_while_block_state(const struct pygraph_while_block *b);

/* The image's slots and invariants (the host fills the first iteration's
 * operands into the argument block's image with pygraph_while_write_slots
 * and these). */
const struct pygraph_while_slot *pygraph_while_block_slots(const struct pygraph_while_block *b);
const uint64_t *pygraph_while_block_invariants(const struct pygraph_while_block *b);

/* The device address of the loop's compiled form (graphs/while_clauses.h,
 * in the block after its other parts), or NULL where the loop does not fit
 * it (b->clauses_refusal says why): the generic condition kernel then. */
const void *pygraph_while_block_clauses(const struct pygraph_while_block *b);

/* The image to the device block, in `stream`'s order (before the graph's
 * launch there): the whole of it the first time, later all but the
 * compiled form, which does not change.  The image may be rewritten when
 * it returns. */
cudaError_t pygraph_while_block_upload(struct pygraph_while_block *b,
                                       const struct pygraph_backend *backend, cudaStream_t stream);

/* The device's state back into the image, waiting for `stream` (after the
 * graph's launch there). */
cudaError_t pygraph_while_block_read_state(struct pygraph_while_block *b,
                                           const struct pygraph_backend *backend,
                                           cudaStream_t stream);

/* Frees it; `graph` (NULL: no launch can be queued) is the live graph
 * whose queued launches may still use the block: waited for first (and the
 * block left allocated when that cannot be, as arg_loader.h does). */
void pygraph_while_block_free(struct pygraph_while_block *b, const struct pygraph_backend *backend,
                              void *graph);

#endif /* PYGRAPH_WHILE_BLOCK_H */
