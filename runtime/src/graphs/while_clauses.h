/* while_clauses.h - a whole loop's exit tests and argument slots compiled
 * on the host into a form one warp steps in a few dependent memory
 * accesses: the condition kernel's fast form (pygraph_while_condition_clauses,
 * runtime/device/while_condition.cu).
 *
 * The generic step (while_condition.h) interprets the descriptor's nodes
 * with an evaluation stack on one thread: each node a chain of dependent
 * loads, thousands of cycles an iteration.  But every check it makes is
 * over types, offsets and counts, never over values: the host can make
 * them once.  A compiled test is a set of atoms (a compare of two operands,
 * or an I1 operand's truth), each operand a leaf with at most one
 * conversion, and a truth table over its atoms (at most
 * PYGRAPH_CLAUSE_MAX_TEST_ATOMS).  The kernel gives each atom a lane, gathers their
 * answers in one ballot, gives each test a lane, and the first test (in
 * the generic step's order) that says leave is the lowest bit of a second
 * ballot.  A loop that does not fit (a conversion of a compare's answer, a
 * test of more atoms, more atoms, tests or slots than one warp has lanes,
 * a rotation of more members) runs the generic kernel: the form is an
 * optimisation of it, never a truncation.
 *
 * Values and conversions are exit_eval.h's functions, the same text as
 * the generic step's; pygraph_while_clauses_step is the step on the CPU
 * (the fake backend's WHILE graphs, the unit tests comparing it with the
 * generic step on random loops), the kernel the same parts run a lane
 * each.  C11 and CUDA C++. */
#ifndef PYGRAPH_WHILE_CLAUSES_H
#define PYGRAPH_WHILE_CLAUSES_H

#include <stdint.h>

#include "graphs/while_condition.h"

/* The fast kernels' entry points in the condition module
 * (while_condition.h), each one block of PYGRAPH_CLAUSE_LANES threads:
 * pygraph_while_condition_clauses(struct pygraph_while_state *state,
 * const struct pygraph_while_clauses *clauses, cudaGraphConditionalHandle
 * handle), the step; pygraph_while_after_copy_clauses(state, clauses,
 * if_handle), a split body's first kernel. */
#define PYGRAPH_WHILE_CLAUSES_KERNEL "pygraph_while_condition_clauses"
#define PYGRAPH_WHILE_AFTER_COPY_CLAUSES_KERNEL "pygraph_while_after_copy_clauses"
#define PYGRAPH_CLAUSE_LANES 32u         /* the kernel's one warp */
#define PYGRAPH_CLAUSE_MAX_TEST_ATOMS 6u /* a test's truth table: 2^6 bits */
#define PYGRAPH_CLAUSE_MAX_MEMBERS 4u    /* a rotation slot's members, held in the slot */
#define PYGRAPH_CLAUSE_TRUTH 0xffu       /* an atom's pred: operand a's low bit */
#define PYGRAPH_CLAUSE_NO_CAST 0xffu     /* an operand's cast: none */

/* A leaf of the descriptor (FIELD, CONST, INVARIANT or COUNTER, its
 * node's fields) and the conversion applied to it. */
struct pygraph_clause_operand {
  int64_t imm, step;        /* the node's: CONST its bits; COUNTER constant part and step */
  uint32_t arg;             /* the node's: FIELD byte offset; INVARIANT number; COUNTER
                               base invariant or PYGRAPH_WL_NONE */
  uint8_t leaf;             /* enum pygraph_exit_op of the leaf */
  uint8_t leaf_type;        /* enum pygraph_value_type the leaf pushes */
  uint8_t cast;             /* enum pygraph_cast applied to it, or PYGRAPH_CLAUSE_NO_CAST */
  uint8_t type;             /* the operand's type (the cast's, else the leaf's) */
};

/* One boolean of a test: a pred b, or a's truth. */
struct pygraph_clause_atom {
  struct pygraph_clause_operand a, b;
  uint32_t pred;            /* enum pygraph_cmp, or PYGRAPH_CLAUSE_TRUTH */
  uint32_t at_top;          /* 1: a test at the top of the next iteration (counters read
                               its number); 0: after the copy or at the end of the one
                               that ran */
};

/* One exit test: says leave when bit k of `truth` is set, k the values of
 * its atoms [first, first + n_atoms), atom first + j as bit j. */
struct pygraph_clause_test {
  uint64_t truth;
  uint32_t first, n_atoms;
  uint32_t number;          /* the test's number in the descriptor */
  uint32_t where;           /* enum pygraph_exit_where */
};

/* A slot (while_condition.h) with its operand and rotation members. */
struct pygraph_clause_slot {
  pygraph_loop_value value;
  unsigned members[PYGRAPH_CLAUSE_MAX_MEMBERS];   /* ROTATION: the set's invariants */
  uint64_t offset;          /* bytes into the argument block */
  uint32_t bytes;           /* 1, 2, 4 or 8 */
  uint32_t reserved;
};

/* The compiled loop.  tests[] is in the generic step's order: the tests
 * after the status copy, then at the end, then at the top, each in
 * descriptor order.  source: the folded status copy's evolving source
 * (its bytes 8, offset unused), or bytes 0: the state's status_src. */
struct pygraph_while_clauses {
  uint32_t n_atoms, n_tests, n_slots, status_bytes;
  struct pygraph_clause_atom atoms[PYGRAPH_CLAUSE_LANES];
  struct pygraph_clause_test tests[PYGRAPH_CLAUSE_LANES];
  struct pygraph_clause_slot slots[PYGRAPH_CLAUSE_LANES];
  struct pygraph_clause_slot source;
};

/* Operand o's value in iteration `iteration` (exit_eval.h's leaf and
 * conversion; the host checked both). */
PYGRAPH_EVAL_FN struct pygraph_eval_slot
pygraph_clause_value(const struct pygraph_clause_operand *o, const unsigned char *status,
                     uint64_t iteration, const uint64_t *invariants)
{
  struct pygraph_eval_slot s = {pygraph_eval_leaf_bits(o->leaf, o->leaf_type, o->arg, o->imm,
                                                       o->step, status, iteration, invariants),
                                o->leaf_type};
  if (o->cast != PYGRAPH_CLAUSE_NO_CAST) {
    uint64_t c = 0;
    (void)pygraph_eval_cast(o->cast, s, o->type, &c);
    s.bits = c;
    s.type = o->type;
  }
  return s;
}

/* Atom a's value (0 or 1) after iteration number `ran` ran. */
PYGRAPH_EVAL_FN unsigned pygraph_clause_atom_value(const struct pygraph_clause_atom *a,
                                                   const unsigned char *status, uint64_t ran,
                                                   const uint64_t *invariants)
{
  uint64_t it = a->at_top ? ran + 1 : ran;
  struct pygraph_eval_slot x = pygraph_clause_value(&a->a, status, it, invariants);
  if (a->pred == PYGRAPH_CLAUSE_TRUTH)
    return (unsigned)(x.bits & 1);
  struct pygraph_eval_slot y = pygraph_clause_value(&a->b, status, it, invariants);
  uint64_t r = 0;
  (void)pygraph_eval_compare(a->pred, x, y, &r);
  return (unsigned)(r & 1);
}

/* The positions a step makes its tests at (bit 1 << enum
 * pygraph_exit_where): all, less those after the copy where the split
 * body's first kernel made them. */
PYGRAPH_EVAL_FN uint32_t pygraph_clause_step_positions(uint32_t after_copy_first)
{
  uint32_t all = 1u << PYGRAPH_EXIT_AT_TOP | 1u << PYGRAPH_EXIT_AFTER_COPY |
                 1u << PYGRAPH_EXIT_AT_END;
  return after_copy_first ? all & ~(1u << PYGRAPH_EXIT_AFTER_COPY) : all;
}

/* Does test t say leave, its atoms' values bits of `atoms`?  Never for a
 * test at a position not in `positions`. */
PYGRAPH_EVAL_FN unsigned pygraph_clause_test_says(const struct pygraph_clause_test *t,
                                                  uint32_t atoms, uint32_t positions)
{
  if (!(positions >> t->where & 1))
    return 0;
  uint32_t k = (atoms >> t->first) & ((1u << t->n_atoms) - 1);
  return (unsigned)((t->truth >> k) & 1);
}

/* Writes slot s's value of iteration `iteration` into `args`. */
PYGRAPH_EVAL_FN void pygraph_clause_write_slot(const struct pygraph_clause_slot *s,
                                               unsigned char *args, uint64_t iteration,
                                               const uint64_t *invariants)
{
  uint64_t v = pygraph_eval_evolve(&s->value, s->members, iteration, invariants);
  pygraph_eval_store_le(args + s->offset, v, s->bytes);
}

/* The folded status copy's source in iteration `iteration`: c's evolving
 * source, else `status_src` (the state's; NULL: a copy node writes the
 * status). */
PYGRAPH_EVAL_FN const unsigned char *pygraph_clauses_source(const struct pygraph_while_clauses *c,
                                                            const unsigned char *status_src,
                                                            uint64_t iteration,
                                                            const uint64_t *invariants)
{
  if (!c->source.bytes)
    return status_src;
  return (const unsigned char *)(uintptr_t)pygraph_eval_evolve(&c->source.value,
                                                               c->source.members, iteration,
                                                               invariants);
}

/* How the step after an iteration ends, `leaving` the tests that say leave
 * (bit k: tests[k]), `next` the next iteration's number. */
PYGRAPH_EVAL_FN uint32_t pygraph_clause_outcome(uint32_t leaving, uint64_t next, uint64_t cap)
{
  if (leaving)
    return PYGRAPH_WHILE_LEFT;
  return cap && next >= cap ? PYGRAPH_WHILE_CAP : PYGRAPH_WHILE_RUNNING;
}

/* The CPU's text of the kernels' ballots: the tests at `positions` that
 * say leave after iteration `ran` over `status` (bit k: tests[k]). */
PYGRAPH_EVAL_FN uint32_t pygraph_clauses_leaving(const struct pygraph_while_clauses *c,
                                                 const unsigned char *status, uint64_t ran,
                                                 const uint64_t *invariants, uint32_t positions)
{
  uint32_t atoms = 0, leaving = 0;
  for (uint32_t k = 0; k < c->n_atoms; k++)
    atoms |= pygraph_clause_atom_value(&c->atoms[k], status, ran, invariants) << k;
  for (uint32_t k = 0; k < c->n_tests; k++)
    leaving |= pygraph_clause_test_says(&c->tests[k], atoms, positions) << k;
  return leaving;
}

/* The first test that says leave: the lowest set bit of `leaving` (not 0). */
PYGRAPH_EVAL_FN const struct pygraph_clause_test *pygraph_clauses_first(
    const struct pygraph_while_clauses *c, uint32_t leaving)
{
  uint32_t first = 0;
  while (!(leaving >> first & 1))
    first++;
  return &c->tests[first];
}

/* pygraph_while_step's answer and writes, made from the compiled loop c:
 * the CPU's text of what the kernel's lanes do together. */
PYGRAPH_EVAL_FN unsigned pygraph_while_clauses_step(struct pygraph_while_state *s,
                                                    const struct pygraph_while_clauses *c)
{
  if (s->outcome != PYGRAPH_WHILE_RUNNING)
    return 0;
  const unsigned char *src =          /* a split body's first kernel made the copy */
      s->after_copy_first ? 0 : pygraph_clauses_source(c, s->status_src, s->iteration,
                                                       s->invariants);
  const unsigned char *status = src ? src : s->status;
  uint32_t leaving = pygraph_clauses_leaving(c, status, s->iteration, s->invariants,
                                             pygraph_clause_step_positions(s->after_copy_first));
  uint64_t next = s->iteration + 1;
  uint32_t outcome = pygraph_clause_outcome(leaving, next, s->max_iterations);
  if (outcome == PYGRAPH_WHILE_RUNNING)
    for (uint32_t k = 0; k < c->n_slots; k++)
      pygraph_clause_write_slot(&c->slots[k], s->args, next, s->invariants);
  else if (src)                        /* the last copy: what the host must see */
    pygraph_eval_copy_bytes(s->status, src, c->status_bytes);
  s->iteration = next;
  if (outcome == PYGRAPH_WHILE_RUNNING)
    return 1;
  if (!leaving)
    return pygraph_while_end(s, outcome, -1, 0);
  const struct pygraph_clause_test *t = pygraph_clauses_first(c, leaving);
  return pygraph_while_end(s, outcome, (int)t->number, t->where);
}

/* pygraph_while_test_after_copy's answer and writes, made from c: the
 * first kernel of a split body, right after the status copy's place in
 * iteration s->iteration (the CPU's text of
 * pygraph_while_after_copy_clauses).  A folded copy is read from its
 * source and copied into the state every iteration: the step after the IF
 * node reads it there, and the host after the loop. */
PYGRAPH_EVAL_FN unsigned pygraph_while_clauses_after_copy(struct pygraph_while_state *s,
                                                          const struct pygraph_while_clauses *c)
{
  const unsigned char *src = pygraph_clauses_source(c, s->status_src, s->iteration,
                                                    s->invariants);
  uint32_t leaving = pygraph_clauses_leaving(c, src ? src : s->status, s->iteration,
                                             s->invariants, 1u << PYGRAPH_EXIT_AFTER_COPY);
  if (src)
    pygraph_eval_copy_bytes(s->status, src, c->status_bytes);
  if (!leaving)
    return 1;
  s->iteration++;                      /* the iteration that left ran up to its copy */
  return pygraph_while_end(s, PYGRAPH_WHILE_LEFT, (int)pygraph_clauses_first(c, leaving)->number,
                           PYGRAPH_EXIT_AFTER_COPY);
}

#if !defined(__CUDA_ARCH__)
/* Compiles wl's exit tests and the n_slots slots (both checked as
 * while_block.c checks them) into *c: NULL, or why the loop does not fit
 * the form (the generic kernel then steps it). */
const char *pygraph_while_clauses_compile(const pygraph_whole_loop *wl,
                                          const struct pygraph_while_slot *slots, size_t n_slots,
                                          struct pygraph_while_clauses *c);

/* Gives *c (compiled from wl) the folded status copy's evolving source,
 * wl->values[value] (an AFFINE or ROTATION pointer): NULL, or why the form
 * cannot hold it (c then unchanged). */
const char *pygraph_while_clauses_fold_source(const pygraph_whole_loop *wl, unsigned value,
                                              struct pygraph_while_clauses *c);
#endif

#endif /* PYGRAPH_WHILE_CLAUSES_H */
