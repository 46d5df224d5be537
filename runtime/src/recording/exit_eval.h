/* exit_eval.h - the one evaluator of a whole-loop descriptor's exit tests
 * and operand evolutions (struct pygraph_whole_loop), as static inline
 * functions that compile as C11 for the host (recording/whole_loop.c) and
 * as CUDA C++ for the device (the WHILE graph's condition kernel,
 * runtime/device/while_condition.cu): both run this text, so the device's
 * answers are the host's.
 *
 * Nothing here trusts the descriptor: every index, offset, type and the
 * evaluation stack are checked as they are used, and a node that fails a
 * check makes the evaluation PYGRAPH_EVAL_MALFORMED.  No library call but
 * byte copies (memcpy, or the compiler's builtin on the device); NaN is
 * told by x != x (the runtime is built without fast-math).
 *
 * Values are their bits in a uint64_t: integers and pointers in the low
 * bits (any extension: only the type's width is read), F32 its IEEE bits
 * in the low 32 bits, F64 its bits. */
#ifndef PYGRAPH_EXIT_EVAL_H
#define PYGRAPH_EXIT_EVAL_H

#include <stdint.h>

#include "pygraph_whole_loop.h"

#if defined(__CUDA__) || defined(__CUDACC__)
/* Every evaluator function inlined into the condition kernels: the
 * compiler otherwise keeps the exit tests' loop as a call, and the WHILE
 * iteration costs 0.5 us more (bench/results.md). */
#define PYGRAPH_EVAL_FN static __host__ __device__ inline __attribute__((always_inline))
#define PYGRAPH_EVAL_COPY(dst, src, n) __builtin_memcpy(dst, src, n)
#else
#include <string.h>
#define PYGRAPH_EVAL_FN static inline
#define PYGRAPH_EVAL_COPY(dst, src, n) memcpy(dst, src, n)
#endif

#if defined(__CUDA_ARCH__)
/* Words that may alias any other type: the status is copied as 64-bit
 * words and read back as fields of other widths. */
typedef uint16_t __attribute__((may_alias)) pygraph_eval_u16a;
typedef uint32_t __attribute__((may_alias)) pygraph_eval_u32a;
typedef uint64_t __attribute__((may_alias)) pygraph_eval_u64a;
#endif

/* Little-endian loads and stores of `bytes` (at most 8; 1, 2, 4 and 8
 * aligned are single accesses on the device) at p, and a copy of n bytes.
 * On the device, where the condition kernel's one stepping thread makes
 * them every iteration, an aligned access is one instruction: a byte loop
 * through generic pointers reloads its bounds after every byte it stores
 * (a char store may alias anything) and cost the WHILE iteration thousands
 * of cycles (bench/results.md).  The host (little-endian, as the device)
 * keeps the portable byte loops. */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_load_le(const unsigned char *p, unsigned bytes)
{
#if defined(__CUDA_ARCH__)
  if (((uintptr_t)p & (bytes - 1)) == 0) {
    switch (bytes) {
    case 1: return *p;
    case 2: return *(const pygraph_eval_u16a *)p;
    case 4: return *(const pygraph_eval_u32a *)p;
    case 8: return *(const pygraph_eval_u64a *)p;
    }
  }
#endif
  uint64_t v = 0;
  for (unsigned k = 0; k < bytes; ++k)
    v |= (uint64_t)p[k] << (8 * k);
  return v;
}

PYGRAPH_EVAL_FN void pygraph_eval_store_le(unsigned char *p, uint64_t v, unsigned bytes)
{
#if defined(__CUDA_ARCH__)
  if (((uintptr_t)p & (bytes - 1)) == 0) {
    switch (bytes) {
    case 1: *p = (unsigned char)v; return;
    case 2: *(pygraph_eval_u16a *)p = (uint16_t)v; return;
    case 4: *(pygraph_eval_u32a *)p = (uint32_t)v; return;
    case 8: *(pygraph_eval_u64a *)p = v; return;
    }
  }
#endif
  for (unsigned k = 0; k < bytes; ++k)
    p[k] = (unsigned char)(v >> (8 * k));
}

PYGRAPH_EVAL_FN void pygraph_eval_copy_bytes(unsigned char *dst, const unsigned char *src,
                                             unsigned n)
{
#if defined(__CUDA_ARCH__)
  if ((((uintptr_t)dst | (uintptr_t)src | n) & 7) == 0) {
    for (unsigned k = 0; k < n; k += 8)
      *(pygraph_eval_u64a *)(dst + k) = *(const pygraph_eval_u64a *)(src + k);
    return;
  }
#endif
  PYGRAPH_EVAL_COPY(dst, src, n);
}

enum {
  PYGRAPH_EVAL_CONTINUE = -1,  /* no test at that position says leave */
  PYGRAPH_EVAL_MALFORMED = -2  /* the descriptor fails a check */
};

/* One entry of the evaluation stack. */
struct pygraph_eval_slot {
  uint64_t bits;
  unsigned type;
};

/* 1 when the loop copies a status every iteration; 0 for a counted loop
 * (PYGRAPH_STATUS_NONE: no status operation, no status bytes, tests over
 * counters and invariants only). */
PYGRAPH_EVAL_FN int pygraph_eval_has_status(const pygraph_whole_loop *wl)
{
  return wl->status_copy != PYGRAPH_STATUS_NONE;
}

/* What one evaluation reads: the descriptor, the status bytes as the host
 * destination holds them (status_bytes of them), the iteration number and
 * the n_invariants invariants. */
struct pygraph_eval_env {
  const pygraph_whole_loop *wl;
  const unsigned char *status;
  uint64_t iteration;
  const uint64_t *invariants;
};

/* Bits of a value of `type` (0: not a scalar type). */
PYGRAPH_EVAL_FN unsigned pygraph_eval_width(unsigned type)
{
  switch (type) {
  case PYGRAPH_TYPE_I1: return 1;
  case PYGRAPH_TYPE_I8: return 8;
  case PYGRAPH_TYPE_I16: return 16;
  case PYGRAPH_TYPE_I32: case PYGRAPH_TYPE_F32: return 32;
  case PYGRAPH_TYPE_I64: case PYGRAPH_TYPE_F64: case PYGRAPH_TYPE_PTR: return 64;
  default: return 0;
  }
}

/* Bytes a value of `type` takes in memory (an I1 field: one byte). */
PYGRAPH_EVAL_FN unsigned pygraph_eval_bytes(unsigned type)
{
  unsigned w = pygraph_eval_width(type);
  return w == 1 ? 1 : w / 8;
}

PYGRAPH_EVAL_FN int pygraph_eval_is_int(unsigned type)
{
  return type <= PYGRAPH_TYPE_I64 || type == PYGRAPH_TYPE_PTR;
}

PYGRAPH_EVAL_FN int pygraph_eval_is_float(unsigned type)
{
  return type == PYGRAPH_TYPE_F32 || type == PYGRAPH_TYPE_F64;
}

/* The low bits of v that a value of `type` holds. */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_mask(uint64_t v, unsigned type)
{
  unsigned w = pygraph_eval_width(type);
  return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1);
}

PYGRAPH_EVAL_FN int64_t pygraph_eval_sext(uint64_t v, unsigned type)
{
  unsigned w = pygraph_eval_width(type);
  if (w >= 64 || w == 0)
    return (int64_t)v;
  uint64_t sign = UINT64_C(1) << (w - 1);
  v = pygraph_eval_mask(v, type);
  return (int64_t)((v ^ sign) - sign);
}

PYGRAPH_EVAL_FN double pygraph_eval_to_double(struct pygraph_eval_slot s)
{
  if (s.type == PYGRAPH_TYPE_F32) {
    uint32_t u = (uint32_t)s.bits;
    float f;
    PYGRAPH_EVAL_COPY(&f, &u, sizeof f);
    return f;
  }
  double d;
  PYGRAPH_EVAL_COPY(&d, &s.bits, sizeof d);
  return d;
}

/* The bits of d as a value of float type `type` (F32: rounded to float). */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_from_double(double d, unsigned type)
{
  if (type == PYGRAPH_TYPE_F32) {
    float f = (float)d;
    uint32_t u;
    PYGRAPH_EVAL_COPY(&u, &f, sizeof u);
    return u;
  }
  uint64_t bits;
  PYGRAPH_EVAL_COPY(&bits, &d, sizeof bits);
  return bits;
}

/* Is a status field at `offset` of `type` inside the status (has_status:
 * the evaluation has one)? */
PYGRAPH_EVAL_FN int pygraph_eval_field_ok(const pygraph_whole_loop *wl, int has_status,
                                          unsigned offset, unsigned type)
{
  unsigned n = pygraph_eval_bytes(type);
  return !(!n || type > PYGRAPH_TYPE_PTR || !has_status || offset > wl->status_bytes ||
           n > wl->status_bytes - offset);
}

/* The status field at `offset` of `type`, read as the host holds it
 * (little-endian, unaligned allowed); 0 when it is not inside the status. */
PYGRAPH_EVAL_FN int pygraph_eval_field(const pygraph_whole_loop *wl, const unsigned char *status,
                                       unsigned offset, unsigned type, uint64_t *out)
{
  if (!pygraph_eval_field_ok(wl, status != 0, offset, type))
    return 0;
  *out = pygraph_eval_mask(pygraph_eval_load_le(status + offset, pygraph_eval_bytes(type)), type);
  return 1;
}

PYGRAPH_EVAL_FN int pygraph_eval_float_compare(unsigned pred, double x, double y)
{
  int uno = x != x || y != y;
  switch (pred) {
  case PYGRAPH_CMP_F_FALSE: return 0;
  case PYGRAPH_CMP_F_OEQ: return !uno && x == y;
  case PYGRAPH_CMP_F_OGT: return !uno && x > y;
  case PYGRAPH_CMP_F_OGE: return !uno && x >= y;
  case PYGRAPH_CMP_F_OLT: return !uno && x < y;
  case PYGRAPH_CMP_F_OLE: return !uno && x <= y;
  case PYGRAPH_CMP_F_ONE: return !uno && x != y;
  case PYGRAPH_CMP_F_ORD: return !uno;
  case PYGRAPH_CMP_F_UNO: return uno;
  case PYGRAPH_CMP_F_UEQ: return uno || x == y;
  case PYGRAPH_CMP_F_UGT: return uno || x > y;
  case PYGRAPH_CMP_F_UGE: return uno || x >= y;
  case PYGRAPH_CMP_F_ULT: return uno || x < y;
  case PYGRAPH_CMP_F_ULE: return uno || x <= y;
  case PYGRAPH_CMP_F_UNE: return uno || x != y;
  default: return 1; /* PYGRAPH_CMP_F_TRUE */
  }
}

PYGRAPH_EVAL_FN int pygraph_eval_int_compare(unsigned pred, struct pygraph_eval_slot a,
                                             struct pygraph_eval_slot b)
{
  uint64_t ua = pygraph_eval_mask(a.bits, a.type), ub = pygraph_eval_mask(b.bits, b.type);
  int64_t sa = pygraph_eval_sext(a.bits, a.type), sb = pygraph_eval_sext(b.bits, b.type);
  switch (pred) {
  case PYGRAPH_CMP_I_EQ: return ua == ub;
  case PYGRAPH_CMP_I_NE: return ua != ub;
  case PYGRAPH_CMP_I_UGT: return ua > ub;
  case PYGRAPH_CMP_I_UGE: return ua >= ub;
  case PYGRAPH_CMP_I_ULT: return ua < ub;
  case PYGRAPH_CMP_I_ULE: return ua <= ub;
  case PYGRAPH_CMP_I_SGT: return sa > sb;
  case PYGRAPH_CMP_I_SGE: return sa >= sb;
  case PYGRAPH_CMP_I_SLT: return sa < sb;
  default: return sa <= sb; /* PYGRAPH_CMP_I_SLE */
  }
}

/* a pred b into *out; 0 for operands of different types or a predicate
 * of the other kind. */
PYGRAPH_EVAL_FN int pygraph_eval_compare(unsigned pred, struct pygraph_eval_slot a,
                                         struct pygraph_eval_slot b, uint64_t *out)
{
  if (a.type != b.type)
    return 0;
  if (pred <= PYGRAPH_CMP_F_TRUE && pygraph_eval_is_float(a.type)) {
    double x = pygraph_eval_to_double(a), y = pygraph_eval_to_double(b);
    *out = (uint64_t)pygraph_eval_float_compare(pred, x, y);
    return 1;
  }
  if (pred >= PYGRAPH_CMP_I_EQ && pred <= PYGRAPH_CMP_I_SLE && pygraph_eval_is_int(a.type)) {
    *out = (uint64_t)pygraph_eval_int_compare(pred, a, b);
    return 1;
  }
  return 0;
}

/* A float converted to an integer of `to`, truncated toward zero: out of
 * range (or NaN), which LLVM makes poison, it is 0 on host and device
 * alike.  trunc(d) >= lo exactly when d > lo - 1 (or d >= lo where lo - 1
 * rounds to lo), trunc(d) < hi exactly when d < hi. */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_float_to_int(double d, unsigned to, int is_signed)
{
  unsigned w = pygraph_eval_width(to);
  double half = (double)(UINT64_C(1) << (w - 1)); /* 2^(w-1), exact */
  double lo = is_signed ? -half : 0.0;
  double hi = is_signed ? half : 2.0 * half;
  if (d != d || !(d > lo - 1.0 || d >= lo) || !(d < hi))
    return 0;
  return pygraph_eval_mask(is_signed ? (uint64_t)(int64_t)d : (uint64_t)d, to);
}

/* An integer converted to float type `to`, rounded once from the integer,
 * as the host rounds it. */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_int_to_float(struct pygraph_eval_slot x, unsigned to,
                                                   int is_signed)
{
  int64_t si = pygraph_eval_sext(x.bits, x.type);
  uint64_t ui = pygraph_eval_mask(x.bits, x.type);
  if (to == PYGRAPH_TYPE_F32)
    return pygraph_eval_from_double(is_signed ? (float)si : (float)ui, to);
  return pygraph_eval_from_double(is_signed ? (double)si : (double)ui, to);
}

/* Conversion `kind` of x to type `to` into *out; 0 when the types do not
 * fit the conversion. */
PYGRAPH_EVAL_FN int pygraph_eval_cast(unsigned kind, struct pygraph_eval_slot x, unsigned to,
                                      uint64_t *out)
{
  unsigned wx = pygraph_eval_width(x.type), wt = pygraph_eval_width(to);
  int ints = pygraph_eval_is_int(x.type) && pygraph_eval_is_int(to);
  int floats = pygraph_eval_is_float(x.type) && pygraph_eval_is_float(to);
  int i2f = pygraph_eval_is_int(x.type) && pygraph_eval_is_float(to);
  int f2i = pygraph_eval_is_float(x.type) && pygraph_eval_is_int(to);
  switch (kind) {
  case PYGRAPH_CAST_ZEXT: *out = pygraph_eval_mask(x.bits, x.type); return ints && wt >= wx;
  case PYGRAPH_CAST_SEXT:
    *out = pygraph_eval_mask((uint64_t)pygraph_eval_sext(x.bits, x.type), to);
    return ints && wt >= wx;
  case PYGRAPH_CAST_TRUNC: *out = pygraph_eval_mask(x.bits, to); return ints && wt <= wx;
  case PYGRAPH_CAST_FPEXT:
  case PYGRAPH_CAST_FPTRUNC:
    if (!floats || (kind == PYGRAPH_CAST_FPEXT ? wt < wx : wt > wx))
      return 0;
    *out = pygraph_eval_from_double(pygraph_eval_to_double(x), to);
    return 1;
  case PYGRAPH_CAST_SITOFP:
  case PYGRAPH_CAST_UITOFP:
    if (i2f)
      *out = pygraph_eval_int_to_float(x, to, kind == PYGRAPH_CAST_SITOFP);
    return i2f;
  case PYGRAPH_CAST_FPTOSI:
  case PYGRAPH_CAST_FPTOUI:
    if (f2i)
      *out = pygraph_eval_float_to_int(pygraph_eval_to_double(x), to,
                                       kind == PYGRAPH_CAST_FPTOSI);
    return f2i;
  default:
    return 0;
  }
}

/* Is leaf n (FIELD, CONST, INVARIANT or COUNTER) of wl well formed: its
 * type, and the field, invariant or counter base it reads within their
 * bounds?  has_status, has_invariants: the evaluation has them.  Types,
 * offsets and counts only: the host can make these checks once
 * (graphs/while_clauses.c). */
PYGRAPH_EVAL_FN int pygraph_eval_leaf_ok(const pygraph_whole_loop *wl, const pygraph_exit_node *n,
                                         int has_status, int has_invariants)
{
  switch (n->op) {
  case PYGRAPH_EXIT_FIELD:
    return pygraph_eval_field_ok(wl, has_status, n->arg, n->type);
  case PYGRAPH_EXIT_CONST:
    return n->type <= PYGRAPH_TYPE_PTR;
  case PYGRAPH_EXIT_INVARIANT:
    return !(n->arg >= wl->n_invariants || !has_invariants || !wl->invariant_types ||
             wl->invariant_types[n->arg] != n->type || n->type > PYGRAPH_TYPE_PTR);
  case PYGRAPH_EXIT_COUNTER:
    return !(!pygraph_eval_is_int(n->type) || n->type == PYGRAPH_TYPE_I1 ||
             (n->arg != PYGRAPH_WL_NONE && (n->arg >= wl->n_invariants || !has_invariants)));
  default:
    return 0;
  }
}

/* The bits of a well-formed leaf (pygraph_eval_leaf_ok) of operation `op`
 * and `type` with its node's arg, imm and step, in iteration `iteration`,
 * masked to the type's width.  The generic evaluator and the compiled
 * form (graphs/while_clauses.h) both read leaves here. */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_leaf_bits(unsigned op, unsigned type, unsigned arg,
                                                long long imm, long long step,
                                                const unsigned char *status, uint64_t iteration,
                                                const uint64_t *invariants)
{
  uint64_t v;
  switch (op) {
  case PYGRAPH_EXIT_FIELD:
    v = pygraph_eval_load_le(status + arg, pygraph_eval_bytes(type));
    break;
  case PYGRAPH_EXIT_CONST: v = (uint64_t)imm; break;
  case PYGRAPH_EXIT_INVARIANT: v = invariants[arg]; break;
  default: {                           /* PYGRAPH_EXIT_COUNTER */
    uint64_t base = arg == PYGRAPH_WL_NONE ? 0 : invariants[arg];
    v = base + (uint64_t)imm + (uint64_t)step * iteration;
    break;
  }
  }
  return pygraph_eval_mask(v, type);
}

/* A leaf's value; 0 when the node is malformed. */
PYGRAPH_EVAL_FN int pygraph_eval_leaf(const struct pygraph_eval_env *e, const pygraph_exit_node *n,
                                      uint64_t *out)
{
  if (!pygraph_eval_leaf_ok(e->wl, n, e->status != 0, e->invariants != 0))
    return 0;
  *out = pygraph_eval_leaf_bits(n->op, n->type, n->arg, n->imm, n->step, e->status, e->iteration,
                                e->invariants);
  return 1;
}

/* Applies node n (no LEAVE) to the stack st of *sp entries; 0 when it is
 * malformed. */
PYGRAPH_EVAL_FN int pygraph_eval_step(const struct pygraph_eval_env *e, const pygraph_exit_node *n,
                                      struct pygraph_eval_slot *st, unsigned *sp)
{
  struct pygraph_eval_slot r = {0, n->type};
  unsigned pops = n->op <= PYGRAPH_EXIT_COUNTER ? 0
                  : n->op == PYGRAPH_EXIT_NOT || n->op == PYGRAPH_EXIT_CAST ? 1
                                                                          : 2;
  if (*sp < pops || (!pops && *sp >= PYGRAPH_EXIT_MAX_DEPTH))
    return 0;
  struct pygraph_eval_slot *a = pops ? &st[*sp - pops] : 0, *b = pops ? &st[*sp - 1] : 0;
  int ok;
  switch (n->op) {
  case PYGRAPH_EXIT_CMP:
    ok = n->type == PYGRAPH_TYPE_I1 && pygraph_eval_compare(n->arg, *a, *b, &r.bits);
    break;
  case PYGRAPH_EXIT_AND:
  case PYGRAPH_EXIT_OR:
    ok = n->type == PYGRAPH_TYPE_I1 && a->type == PYGRAPH_TYPE_I1 && b->type == PYGRAPH_TYPE_I1;
    r.bits = n->op == PYGRAPH_EXIT_AND ? (a->bits & b->bits & 1) : ((a->bits | b->bits) & 1);
    break;
  case PYGRAPH_EXIT_NOT:
    ok = n->type == PYGRAPH_TYPE_I1 && a->type == PYGRAPH_TYPE_I1;
    r.bits = ~a->bits & 1;
    break;
  case PYGRAPH_EXIT_CAST: ok = pygraph_eval_cast(n->arg, *a, n->type, &r.bits); break;
  default: ok = pygraph_eval_leaf(e, n, &r.bits); break;
  }
  if (!ok)
    return 0;
  *sp -= pops;
  st[(*sp)++] = r;
  return 1;
}

/* The descriptor's header as an evaluation needs it: tests to make, within
 * the bounds of nodes and status bytes. */
PYGRAPH_EVAL_FN int pygraph_eval_descriptor_ok(const pygraph_whole_loop *wl)
{
  return wl && wl->nodes && wl->n_nodes && wl->n_nodes <= PYGRAPH_EXIT_MAX_NODES &&
         wl->status_bytes <= PYGRAPH_WL_MAX_STATUS_BYTES;
}

/* One exit test: nodes [first, leave) pushed, nodes[leave] its LEAVE,
 * which must be at `where`: 1 when it says leave, 0 when not,
 * PYGRAPH_EVAL_MALFORMED when a node fails a check.  The caller checks
 * that first <= leave < wl->n_nodes. */
PYGRAPH_EVAL_FN int pygraph_eval_test(const struct pygraph_eval_env *e, unsigned first,
                                      unsigned leave, unsigned where)
{
#if defined(PYGRAPH_EVAL_STACK_SHARED) && defined(__CUDA_ARCH__)
  /* bench/while_cond_variants.sh's `noframe` variant: the stack in shared
   * memory (one stepping thread) instead of a local-memory frame */
  __shared__ struct pygraph_eval_slot st[PYGRAPH_EXIT_MAX_DEPTH];
#else
  struct pygraph_eval_slot st[PYGRAPH_EXIT_MAX_DEPTH];
#endif
  unsigned sp = 0;
  for (unsigned k = first; k < leave; ++k) {
    const pygraph_exit_node *n = &e->wl->nodes[k];
    if (n->op == PYGRAPH_EXIT_LEAVE || !pygraph_eval_step(e, n, st, &sp))
      return PYGRAPH_EVAL_MALFORMED;
  }
  const pygraph_exit_node *n = &e->wl->nodes[leave];
  if (n->op != PYGRAPH_EXIT_LEAVE || n->arg != where || sp != 1 || st[0].type != PYGRAPH_TYPE_I1)
    return PYGRAPH_EVAL_MALFORMED;
  return (int)(st[0].bits & 1);
}

/* The exit tests made at `where` (enum pygraph_exit_where), in descriptor
 * order: the number of the first that says leave (tests are numbered from
 * 0 over all positions), PYGRAPH_EVAL_CONTINUE when none does,
 * PYGRAPH_EVAL_MALFORMED when any test (at any position) is malformed. */
PYGRAPH_EVAL_FN int pygraph_eval_exit(const struct pygraph_eval_env *e, unsigned where)
{
  const pygraph_whole_loop *wl = e->wl;
  if (!pygraph_eval_descriptor_ok(wl))
    return PYGRAPH_EVAL_MALFORMED;
  int test = 0, result = PYGRAPH_EVAL_CONTINUE;
  unsigned first = 0;
  for (unsigned k = 0; k < wl->n_nodes; ++k) {
    if (wl->nodes[k].op != PYGRAPH_EXIT_LEAVE)
      continue;
    unsigned at = wl->nodes[k].arg;
    int r = at > PYGRAPH_EXIT_AT_END ? PYGRAPH_EVAL_MALFORMED : pygraph_eval_test(e, first, k, at);
    if (r == PYGRAPH_EVAL_MALFORMED)
      return r;
    if (result == PYGRAPH_EVAL_CONTINUE && at == where && r == 1)
      result = test;
    first = k + 1;
    ++test;
  }
  return first == wl->n_nodes ? result : PYGRAPH_EVAL_MALFORMED;   /* the last test must end */
}

/* ---- operands ------------------------------------------------------------ */

/* Is operand v of wl well formed (its operation, type, evolution and every
 * invariant it names within their counts)? */
PYGRAPH_EVAL_FN int pygraph_eval_value_ok(const pygraph_whole_loop *wl, const pygraph_loop_value *v)
{
  if (v->op >= wl->n_ops || v->type > PYGRAPH_TYPE_BYTES)
    return 0;
  switch (v->evolution) {
  case PYGRAPH_EVOLVE_INVARIANT:
    return 1;
  case PYGRAPH_EVOLVE_AFFINE:
    return pygraph_eval_is_int(v->type) &&
           (v->base == PYGRAPH_WL_NONE || v->base < wl->n_invariants) &&
           (v->step_by == PYGRAPH_WL_NONE || v->step_by < wl->n_invariants);
  case PYGRAPH_EVOLVE_ROTATION:
    if (!v->count || v->base > wl->n_rotation_members || !wl->rotation_members ||
        v->count > wl->n_rotation_members - v->base || v->a < 0 || v->a >= (long long)v->count)
      return 0;
    for (unsigned k = 0; k < v->count; ++k)
      if (wl->rotation_members[v->base + k] >= wl->n_invariants)
        return 0;
    return 1;
  default:
    return 0;
  }
}

/* The bits of operand v (a well-formed AFFINE or ROTATION one) in
 * iteration `iteration`, masked to its type's width; `members` holds its
 * rotation's `count` invariant numbers (ROTATION only: the descriptor's
 * rotation_members from v->base, or the condition kernel's copy of them). */
PYGRAPH_EVAL_FN uint64_t pygraph_eval_evolve(const pygraph_loop_value *v, const unsigned *members,
                                             uint64_t iteration, const uint64_t *invariants)
{
  if (v->evolution == PYGRAPH_EVOLVE_AFFINE) {
    uint64_t base = v->base == PYGRAPH_WL_NONE ? 0 : invariants[v->base];
    uint64_t by = v->step_by == PYGRAPH_WL_NONE ? 1 : invariants[v->step_by];
    return pygraph_eval_mask(base + (uint64_t)v->a + (uint64_t)v->b * by * iteration, v->type);
  }
  /* a < count: one subtraction wraps; 32-bit remainders where they do
   * (far fewer instructions on the GPU, whose condition kernel makes them
   * every iteration) */
  uint64_t r = iteration <= UINT32_MAX ? (uint32_t)iteration % v->count : iteration % v->count;
  uint64_t pos = (uint64_t)v->a + r;
  if (pos >= v->count)
    pos -= v->count;
  return pygraph_eval_mask(invariants[members[pos]], v->type);
}

/* The value of operand values[k] in iteration `iteration`: 1 and *out (its
 * bits, masked to its type's width) for an AFFINE or ROTATION operand; 0
 * for an INVARIANT one (its value is the one the program passes every
 * iteration) or when k or the operand is out of range. */
PYGRAPH_EVAL_FN int pygraph_eval_value_at(const pygraph_whole_loop *wl, unsigned k,
                                          uint64_t iteration, const uint64_t *invariants,
                                          uint64_t *out)
{
  if (!wl || k >= wl->n_values || !wl->values || !invariants)
    return 0;
  const pygraph_loop_value *v = &wl->values[k];
  if (!pygraph_eval_value_ok(wl, v) || v->evolution == PYGRAPH_EVOLVE_INVARIANT)
    return 0;
  const unsigned *members =
      v->evolution == PYGRAPH_EVOLVE_ROTATION ? wl->rotation_members + v->base : 0;
  *out = pygraph_eval_evolve(v, members, iteration, invariants);
  return 1;
}

#endif /* PYGRAPH_EXIT_EVAL_H */
