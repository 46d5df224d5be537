/* while_condition.h - the condition kernel of a whole-loop (WHILE) graph:
 * the device block it reads and writes (struct pygraph_while_state) and
 * the one step it takes at the end of every body iteration, as static
 * inline code that compiles as C11 and as CUDA C++.  The device runs it
 * (runtime/device/while_condition.cu, on a copy of the block in shared
 * memory, pygraph_while_stage, then
 * cudaGraphSetConditional with its answer); the CPU runs the same text on
 * a host image of the block (graphs/while_block.h fills the first
 * iteration's arguments with it; the unit tests run whole loops with it).
 *
 * The loop's graph (graphs/while_graph.h) is: the argument loaders, then a
 * conditional WHILE node whose handle defaults to 1 at every launch (the
 * body runs at least once) and whose body is one iteration's nodes, the
 * status copy turned into a device-to-device copy into state->status (or,
 * where it was the iteration's last node, made by this kernel from its
 * source: one node less an iteration, "folded"), and last this kernel,
 * after every other body node.  Where an exit test is made right after
 * the status copy and operations follow the copy, the body is split: the
 * operations up to the copy, then a first kernel (pygraph_while_after_copy,
 * the step pygraph_while_test_after_copy) that makes the copy (folded
 * there) and those tests and answers an IF node whose body holds the
 * operations after the copy, then this kernel after the IF node.  A folded
 * copy's source may change from iteration to iteration (a pointer
 * ping-pong, state->status_src_evolves): the kernel making the copy reads
 * the iteration's source from the descriptor's operand. */
#ifndef PYGRAPH_WHILE_CONDITION_H
#define PYGRAPH_WHILE_CONDITION_H

#include <stdint.h>

#include "recording/exit_eval.h"

/* The kernel's entry point in the module, and the module itself (PTX
 * text, built from runtime/device/while_condition.cu when the runtime is
 * built): pygraph_while_condition(struct pygraph_while_state *state,
 * cudaGraphConditionalHandle handle). */
#define PYGRAPH_WHILE_CONDITION_KERNEL "pygraph_while_condition"
/* The first kernel of a split body, in the same module:
 * pygraph_while_after_copy(struct pygraph_while_state *state,
 * cudaGraphConditionalHandle if_handle). */
#define PYGRAPH_WHILE_AFTER_COPY_KERNEL "pygraph_while_after_copy"
extern const char pygraph_while_condition_ptx[];
/* The same module as a fat binary: machine code for the architectures the
 * runtime was built for and the PTX (size 0: none was built, load the
 * PTX). */
extern const unsigned char pygraph_while_condition_ptx_fatbin[];
extern const unsigned long pygraph_while_condition_ptx_fatbin_size;
/* Both kernels' launch: this many threads in one block, which copy the
 * device block into shared memory together (pygraph_while_stage), with
 * the block's size as dynamic shared memory where it is at most
 * PYGRAPH_WHILE_STAGE_MAX_BYTES (what any kernel may get without asking);
 * a larger block is stepped where it is. */
#define PYGRAPH_WHILE_THREADS 128u
#define PYGRAPH_WHILE_STAGE_MAX_BYTES (48u * 1024u)

/* How the last launch of a WHILE graph ended (state->outcome). */
enum pygraph_while_outcome {
  PYGRAPH_WHILE_RUNNING = 0,   /* not ended (the block as the host starts a launch with it) */
  PYGRAPH_WHILE_LEFT = 1,      /* exit test `exit_test`, made at `exit_where`, said leave */
  PYGRAPH_WHILE_CAP = 2,       /* `max_iterations` was reached with no test saying leave: the
                                  caller goes on with the loop from `iteration` itself */
  PYGRAPH_WHILE_MALFORMED = 3  /* the block's descriptor or a slot failed a check (the host
                                  checks both before a launch: a fault); the iterations
                                  counted did run */
};

/* An operand the kernel writes into the argument block before each
 * iteration but the first: the value of wl->values[value] (an AFFINE or
 * ROTATION operand) in that iteration, its low `bytes` bytes, little-endian
 * (as a kernel parameter of that size holds it). */
struct pygraph_while_slot {
  uint64_t offset;           /* bytes into the argument block */
  uint32_t value;            /* index into the descriptor's values */
  uint32_t bytes;            /* 1, 2, 4 or 8 */
};

/* One exit test of the descriptor: its nodes are loop->nodes[first ..
 * leave], nodes[leave] its LEAVE at position `where`.  The block lists
 * every test in node order (the k-th is test number k), so a step makes
 * only the tests of the position it is at, each over its own nodes. */
struct pygraph_while_test {
  uint32_t first, leave, where, reserved;
};

/* The table of wl's exit tests into out (room for wl->n_nodes of them, at
 * most PYGRAPH_EXIT_MAX_NODES; NULL: only counted): each test's nodes run
 * from the one after the previous LEAVE to its own.  Returns how many. */
PYGRAPH_EVAL_FN uint32_t pygraph_while_tests_of(const pygraph_whole_loop *wl,
                                                struct pygraph_while_test *out)
{
  struct pygraph_while_test t = {0, 0, 0, 0};
  uint32_t n = 0;
  for (unsigned k = 0; k < wl->n_nodes; k++) {
    if (wl->nodes[k].op != PYGRAPH_EXIT_LEAVE)
      continue;
    t.leave = k;
    t.where = wl->nodes[k].arg;
    if (out)
      out[n] = t;
    n++;
    t.first = k + 1;
  }
  return n;
}

/* The device block's head.  The host writes all of it before each launch
 * (graphs/while_block.h); the kernel writes only the second part. */
struct pygraph_while_state {
  const pygraph_whole_loop *loop;    /* the block's copy of the descriptor, its arrays
                                        in the block */
  const uint64_t *invariants;        /* loop->n_invariants, this launch's */
  const struct pygraph_while_slot *slots;
  const struct pygraph_while_test *tests;   /* every exit test, in order */
  unsigned char *args;               /* the argument block the slots are in (NULL: none) */
  const unsigned char *status_src;   /* the status copy's device source when the body
                                        holds no copy node for it (folded, see the top):
                                        the kernel that comes first after the copy's
                                        place (a split body's first kernel, else the
                                        step) reads the status from there itself (unless
                                        it is `status` itself: a staged block's kernel
                                        copied it in already); NULL and not evolving:
                                        the body's copy node writes `status` */
  uint64_t max_iterations;           /* stop (CAP) once `iteration` reaches it; 0: never */
  uint32_t n_slots;
  uint32_t n_tests;
  uint32_t after_copy_first;         /* 1: the body is split (see the top): its first
                                        kernel makes the exit tests after the status copy,
                                        the step does not make them again; 0: the step
                                        makes them */
  uint32_t block_bytes;              /* the block's size up to its compiled form (a
                                        multiple of 8; graphs/while_block.h): the generic
                                        condition kernels copy that many bytes into shared
                                        memory and step there (pygraph_while_stage) */
  uint32_t status_src_evolves;       /* 1: the folded copy's source in iteration i is the
                                        value then of loop->values[status_src_value] (a
                                        pointer; status_src unused) */
  uint32_t status_src_value;
  /* written by the kernel */
  uint64_t iteration;                /* the number of the iteration running (the loop's
                                        iterations count from 0 at its entry); after the
                                        launch, how many ran since the entry (LEFT at the
                                        top: the number of the iteration that did not
                                        start; else the one that left is one less) */
  int32_t exit_test;                 /* LEFT: the test's number; else -1 */
  uint32_t outcome;                  /* enum pygraph_while_outcome */
  uint32_t exit_where;               /* LEFT: enum pygraph_exit_where of the test */
  uint32_t reserved2;
  unsigned char status[PYGRAPH_WL_MAX_STATUS_BYTES] __attribute__((aligned(8)));
                                     /* the status as the last copy left it (the body's copy
                                        node writes it; the host's bytes at the entry until
                                        then): what the host destination must hold after
                                        the loop */
};

/* Writes the slots' values of iteration `iteration` into `args`; 0 (and
 * nothing more written) at the first slot that is malformed. */
PYGRAPH_EVAL_FN int pygraph_while_write_slots(const pygraph_whole_loop *wl,
                                              const uint64_t *invariants,
                                              const struct pygraph_while_slot *slots,
                                              uint32_t n_slots, unsigned char *args,
                                              uint64_t iteration)
{
  for (uint32_t k = 0; k < n_slots; ++k) {
    const struct pygraph_while_slot slot = slots[k];   /* read once: the store below may
                                                          alias it, as far as the compiler
                                                          knows */
    uint64_t v;
    if (!args || (slot.bytes != 1 && slot.bytes != 2 && slot.bytes != 4 && slot.bytes != 8) ||
        !pygraph_eval_value_at(wl, slot.value, iteration, invariants, &v))
      return 0;
    pygraph_eval_store_le(args + slot.offset, v, slot.bytes);
  }
  return 1;
}

/* The exit tests at `where` (enum pygraph_exit_where), in order, over the
 * environment e: the number of the first that says leave,
 * PYGRAPH_EVAL_CONTINUE when none does, PYGRAPH_EVAL_MALFORMED when one of
 * them or the table fails a check.  The tests at other positions are not
 * made (pygraph_eval_exit makes every test, for the host's checks). */
PYGRAPH_EVAL_FN int pygraph_while_exit(const struct pygraph_eval_env *e,
                                       const struct pygraph_while_state *s, uint32_t where)
{
  const pygraph_whole_loop *wl = e->wl;
  if (!pygraph_eval_descriptor_ok(wl) || !s->tests)
    return PYGRAPH_EVAL_MALFORMED;
  for (uint32_t k = 0; k < s->n_tests; ++k) {
    const struct pygraph_while_test *t = &s->tests[k];
    if (t->where != where)
      continue;
    if (t->first > t->leave || t->leave >= wl->n_nodes)
      return PYGRAPH_EVAL_MALFORMED;
    int r = pygraph_eval_test(e, t->first, t->leave, where);
    if (r != 0)
      return r > 0 ? (int)k : r;
  }
  return PYGRAPH_EVAL_CONTINUE;
}

/* The folded status copy's source in iteration `iteration` into *src:
 * status_src, or the evolving source's value then (NULL: the body's copy
 * node writes the status).  0: the evolving source fails a check. */
PYGRAPH_EVAL_FN int pygraph_while_status_source(const struct pygraph_while_state *s,
                                                uint64_t iteration, const unsigned char **src)
{
  *src = s->status_src;
  if (!s->status_src_evolves)
    return 1;
  uint64_t v = 0;
  if (!pygraph_eval_value_at(s->loop, s->status_src_value, iteration, s->invariants, &v) ||
      s->loop->values[s->status_src_value].type != PYGRAPH_TYPE_PTR || v == 0)
    return 0;
  *src = (const unsigned char *)(uintptr_t)v;
  return 1;
}

/* Does the kernel `in_after_copy` names (1: a split body's first kernel,
 * 0: the step) make a folded status copy? */
PYGRAPH_EVAL_FN int pygraph_while_folds_here(const struct pygraph_while_state *s,
                                             uint32_t in_after_copy)
{
  return s->after_copy_first == in_after_copy && (s->status_src || s->status_src_evolves);
}

/* The folded status copy of iteration s->iteration into s->status, made
 * by the kernel whose turn it is (pygraph_while_folds_here; the other one
 * does nothing).  0: the source fails a check or the status is larger
 * than the state holds. */
PYGRAPH_EVAL_FN int pygraph_while_fold_copy(struct pygraph_while_state *s, uint32_t in_after_copy)
{
  const unsigned char *src = 0;
  if (!pygraph_while_folds_here(s, in_after_copy))
    return 1;
  if (!pygraph_while_status_source(s, s->iteration, &src))
    return 0;
  if (!src || src == s->status)        /* a copy node, or the staging kernel made it */
    return 1;
  if (s->loop->status_bytes > PYGRAPH_WL_MAX_STATUS_BYTES)
    return 0;
  pygraph_eval_copy_bytes(s->status, src, s->loop->status_bytes);
  return 1;
}

/* Records that the loop ends with outcome `outcome` (test `test` at
 * `where` for LEFT); returns 0, the handle's value. */
PYGRAPH_EVAL_FN unsigned pygraph_while_end(struct pygraph_while_state *s, uint32_t outcome,
                                           int test, uint32_t where)
{
  s->outcome = outcome;
  s->exit_test = outcome == PYGRAPH_WHILE_LEFT ? test : -1;
  s->exit_where = where;
  return 0;
}

/* The first kernel's step in a split body (s->after_copy_first), right
 * after the status copy's place in iteration number s->iteration: the
 * copy where it is folded, then the exit tests after it, over the copied
 * status.  One says leave: the iteration
 * is counted as the step would count it (after the launch the one that
 * left is s->iteration - 1), the loop ends LEFT there and 0 is returned:
 * the IF body (the operations after the copy) is skipped, and the step
 * that follows it does nothing more.  A malformed test: MALFORMED with
 * the iteration not counted (its operations after the copy did not run),
 * 0.  Else 1: the IF body runs, then the step. */
PYGRAPH_EVAL_FN unsigned pygraph_while_test_after_copy(struct pygraph_while_state *s)
{
  if (!pygraph_while_fold_copy(s, 1))
    return pygraph_while_end(s, PYGRAPH_WHILE_MALFORMED, -1, 0);
  struct pygraph_eval_env e = {s->loop, s->status, s->iteration, s->invariants};
  int r = pygraph_while_exit(&e, s, PYGRAPH_EXIT_AFTER_COPY);
  if (r == PYGRAPH_EVAL_MALFORMED)
    return pygraph_while_end(s, PYGRAPH_WHILE_MALFORMED, -1, 0);
  if (r < 0)
    return 1;
  s->iteration++;                      /* the iteration that left ran up to its copy */
  return pygraph_while_end(s, PYGRAPH_WHILE_LEFT, r, PYGRAPH_EXIT_AFTER_COPY);
}

/* The step after body iteration number s->iteration: it counts that
 * iteration (s->iteration becomes the next one's number: the iterations
 * run since the loop's entry), then makes the exit tests after the status
 * copy (unless the split body's first kernel made them) and at the end of
 * the iteration that ran (the status copy is the body's last node where
 * the step makes a test after it, graphs/while_graph.h), then those at the
 * top of the next one.  Returns 1 when the body is to run again (the
 * slots then hold the next iteration's operands), 0 when the loop ends
 * (s->outcome says why).  A loop the first kernel already ended: 0 and
 * nothing more (the state stays as that kernel left it). */
PYGRAPH_EVAL_FN unsigned pygraph_while_step(struct pygraph_while_state *s)
{
  if (s->outcome != PYGRAPH_WHILE_RUNNING)
    return 0;
  if (!pygraph_while_fold_copy(s, 0))  /* a folded copy, made here after every body node */
    return pygraph_while_end(s, PYGRAPH_WHILE_MALFORMED, -1, 0);
  uint64_t ran = s->iteration++;       /* the iteration that just ran */
  struct pygraph_eval_env e = {s->loop, s->status, ran, s->invariants};
  for (uint32_t k = s->after_copy_first ? 1 : 0; k < 3; ++k) {
    uint32_t where = k == 0 ? PYGRAPH_EXIT_AFTER_COPY : k == 1 ? PYGRAPH_EXIT_AT_END
                                                              : PYGRAPH_EXIT_AT_TOP;
    e.iteration = where == PYGRAPH_EXIT_AT_TOP ? s->iteration : ran;
    int r = pygraph_while_exit(&e, s, where);
    if (r == PYGRAPH_EVAL_MALFORMED)
      return pygraph_while_end(s, PYGRAPH_WHILE_MALFORMED, -1, 0);
    if (r >= 0)
      return pygraph_while_end(s, PYGRAPH_WHILE_LEFT, r, where);
  }
  if (s->max_iterations && s->iteration >= s->max_iterations)
    return pygraph_while_end(s, PYGRAPH_WHILE_CAP, -1, 0);
  if (!pygraph_while_write_slots(s->loop, s->invariants, s->slots, s->n_slots, s->args,
                                 s->iteration))
    return pygraph_while_end(s, PYGRAPH_WHILE_MALFORMED, -1, 0);
  return 1;
}

/* The staged copy of a block.  A one-thread step through the device block
 * itself makes a chain of dependent global loads (the state, then the
 * descriptor, then each node of each test): tens of microseconds an
 * iteration.  The kernels instead copy the whole block (block_bytes, every
 * part of it inside) into shared memory with all their threads at once and
 * step there; this points the copy's pointers into the block at the copy
 * itself.  `staged` holds the block's bytes that were at address `from`;
 * pointers outside the block (args, status_src) stay.  0 when the copy's
 * descriptor is not inside it (the block is malformed: step the original). */
PYGRAPH_EVAL_FN int pygraph_while_stage(struct pygraph_while_state *staged, uintptr_t from)
{
  uintptr_t to = (uintptr_t)staged, n = staged->block_bytes;
#define PYGRAPH_WHILE_REBASE(p)                                                                  \
  do {                                                                                         \
    uintptr_t a_ = (uintptr_t)(p);                                                             \
    if (a_ >= from && a_ - from < n)                                                           \
      (p) = (__typeof__(p))(a_ - from + to);                                                   \
  } while (0)
  uintptr_t loop = (uintptr_t)staged->loop;
  if (loop < from || loop - from > n || n - (loop - from) < sizeof(pygraph_whole_loop))
    return 0;
  PYGRAPH_WHILE_REBASE(staged->loop);
  PYGRAPH_WHILE_REBASE(staged->invariants);
  PYGRAPH_WHILE_REBASE(staged->slots);
  PYGRAPH_WHILE_REBASE(staged->tests);
  pygraph_whole_loop *wl = (pygraph_whole_loop *)(uintptr_t)staged->loop;
  PYGRAPH_WHILE_REBASE(wl->nodes);
  PYGRAPH_WHILE_REBASE(wl->values);
  PYGRAPH_WHILE_REBASE(wl->invariant_types);
  PYGRAPH_WHILE_REBASE(wl->rotation_members);
#undef PYGRAPH_WHILE_REBASE
  return 1;
}

/* What kernel `in_after_copy` (pygraph_while_folds_here) wrote on the
 * staged copy, into the block `dst`: the second part of the state; the
 * status where that kernel made the folded copy, else the block's bytes
 * are what the copy read. */
PYGRAPH_EVAL_FN void pygraph_while_unstage(struct pygraph_while_state *dst,
                                           const struct pygraph_while_state *staged,
                                           uint32_t in_after_copy)
{
  dst->iteration = staged->iteration;
  dst->exit_test = staged->exit_test;
  dst->outcome = staged->outcome;
  dst->exit_where = staged->exit_where;
  if (pygraph_while_folds_here(staged, in_after_copy) &&
      staged->loop->status_bytes <= PYGRAPH_WL_MAX_STATUS_BYTES)
    pygraph_eval_copy_bytes(dst->status, staged->status, staged->loop->status_bytes);
}

#endif /* PYGRAPH_WHILE_CONDITION_H */
