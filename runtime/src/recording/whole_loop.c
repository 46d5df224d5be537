/* whole_loop.c - whole-loop descriptors read on the CPU (whole_loop.h). */
#include "recording/whole_loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One entry of the evaluation stack. */
struct slot {
  uint64_t bits;
  unsigned type;
};

static unsigned width_of(unsigned type)
{
  static const unsigned widths[] = {1, 8, 16, 32, 64, 32, 64, 64};
  return type < sizeof widths / sizeof widths[0] ? widths[type] : 0;
}

static int is_int(unsigned type)
{
  return type <= PYGRAPH_TYPE_I64 || type == PYGRAPH_TYPE_PTR;
}

static int is_float(unsigned type)
{
  return type == PYGRAPH_TYPE_F32 || type == PYGRAPH_TYPE_F64;
}

/* The low bits of v that a value of `type` holds. */
static uint64_t mask(uint64_t v, unsigned type)
{
  unsigned w = width_of(type);
  return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1);
}

static int64_t sext(uint64_t v, unsigned type)
{
  unsigned w = width_of(type);
  if (w >= 64)
    return (int64_t)v;
  uint64_t sign = UINT64_C(1) << (w - 1);
  v = mask(v, type);
  return (int64_t)((v ^ sign) - sign);
}

static double to_double(struct slot s)
{
  if (s.type == PYGRAPH_TYPE_F32) {
    uint32_t u = (uint32_t)s.bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, &s.bits, sizeof d);
  return d;
}

/* The bits of d as a value of float type `type` (F32: rounded to float). */
static uint64_t from_double(double d, unsigned type)
{
  if (type == PYGRAPH_TYPE_F32) {
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
  }
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

/* The status field at `offset` of `type`, read as the host holds it. */
static int field(const pygraph_whole_loop *wl, const unsigned char *status, unsigned offset,
                 unsigned type, uint64_t *out)
{
  static const unsigned bytes[] = {1, 1, 2, 4, 8, 4, 8, 8};
  if (type >= sizeof bytes / sizeof bytes[0] || !status || offset > wl->status_bytes ||
      bytes[type] > wl->status_bytes - offset)
    return 0;
  uint8_t b1;
  uint16_t b2;
  uint32_t b4;
  uint64_t b8;
  switch (bytes[type]) {
  case 1: memcpy(&b1, status + offset, 1); *out = b1; break;
  case 2: memcpy(&b2, status + offset, 2); *out = b2; break;
  case 4: memcpy(&b4, status + offset, 4); *out = b4; break;
  default: memcpy(&b8, status + offset, 8); *out = b8; break;
  }
  *out = mask(*out, type);
  return 1;
}

static int float_compare(unsigned pred, double x, double y)
{
  int uno = isnan(x) || isnan(y);
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

static int int_compare(unsigned pred, struct slot a, struct slot b)
{
  uint64_t ua = mask(a.bits, a.type), ub = mask(b.bits, b.type);
  int64_t sa = sext(a.bits, a.type), sb = sext(b.bits, b.type);
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
static int compare(unsigned pred, struct slot a, struct slot b, uint64_t *out)
{
  if (a.type != b.type)
    return 0;
  if (pred <= PYGRAPH_CMP_F_TRUE && is_float(a.type)) {
    *out = (uint64_t)float_compare(pred, to_double(a), to_double(b));
    return 1;
  }
  if (pred >= PYGRAPH_CMP_I_EQ && pred <= PYGRAPH_CMP_I_SLE && is_int(a.type)) {
    *out = (uint64_t)int_compare(pred, a, b);
    return 1;
  }
  return 0;
}

/* A float converted to an integer of `to`: out of range (or NaN), which
 * LLVM makes poison, it is 0, as on the device. */
static uint64_t float_to_int(double d, unsigned to, int is_signed)
{
  unsigned w = width_of(to);
  double lo = is_signed ? -ldexp(1.0, (int)w - 1) : 0.0;
  double hi = is_signed ? ldexp(1.0, (int)w - 1) : ldexp(1.0, (int)w);
  double t = trunc(d);
  if (isnan(d) || t < lo || t >= hi)
    return 0;
  return mask(is_signed ? (uint64_t)(int64_t)t : (uint64_t)t, to);
}

/* Conversion `kind` of x to type `to` into *out; 0 when the types do not
 * fit the conversion. */
static int cast(unsigned kind, struct slot x, unsigned to, uint64_t *out)
{
  unsigned wx = width_of(x.type), wt = width_of(to);
  int ints = is_int(x.type) && is_int(to), floats = is_float(x.type) && is_float(to);
  switch (kind) {
  case PYGRAPH_CAST_ZEXT: *out = mask(x.bits, x.type); return ints && wt >= wx;
  case PYGRAPH_CAST_SEXT: *out = mask((uint64_t)sext(x.bits, x.type), to); return ints && wt >= wx;
  case PYGRAPH_CAST_TRUNC: *out = mask(x.bits, to); return ints && wt <= wx;
  case PYGRAPH_CAST_FPEXT: *out = from_double(to_double(x), to); return floats && wt >= wx;
  case PYGRAPH_CAST_FPTRUNC: *out = from_double(to_double(x), to); return floats && wt <= wx;
  case PYGRAPH_CAST_SITOFP:
  case PYGRAPH_CAST_UITOFP: {
    if (!is_int(x.type) || !is_float(to))
      return 0;
    int64_t si = sext(x.bits, x.type);
    uint64_t ui = mask(x.bits, x.type);
    /* rounded once, from the integer, as the host rounds it */
    if (to == PYGRAPH_TYPE_F32)
      *out = from_double(kind == PYGRAPH_CAST_SITOFP ? (float)si : (float)ui, to);
    else
      *out = from_double(kind == PYGRAPH_CAST_SITOFP ? (double)si : (double)ui, to);
    return 1;
  }
  case PYGRAPH_CAST_FPTOSI:
  case PYGRAPH_CAST_FPTOUI:
    if (!is_float(x.type) || !is_int(to))
      return 0;
    *out = float_to_int(to_double(x), to, kind == PYGRAPH_CAST_FPTOSI);
    return 1;
  default:
    return 0;
  }
}

/* ---- evaluation ---------------------------------------------------------- */

typedef struct eval_env {
  const pygraph_whole_loop *wl;
  const unsigned char *status;
  uint64_t iteration;
  const uint64_t *invariants;
} eval_env;

/* A leaf's value; 0 when the node is malformed. */
static int leaf(const eval_env *e, const pygraph_exit_node *n, uint64_t *out)
{
  const pygraph_whole_loop *wl = e->wl;
  switch (n->op) {
  case PYGRAPH_EXIT_FIELD:
    return field(wl, e->status, n->arg, n->type, out);
  case PYGRAPH_EXIT_CONST:
    *out = mask((uint64_t)n->imm, n->type);
    return n->type <= PYGRAPH_TYPE_PTR;
  case PYGRAPH_EXIT_INVARIANT:
    if (n->arg >= wl->n_invariants || !e->invariants || !wl->invariant_types ||
        wl->invariant_types[n->arg] != n->type || n->type > PYGRAPH_TYPE_PTR)
      return 0;
    *out = mask(e->invariants[n->arg], n->type);
    return 1;
  case PYGRAPH_EXIT_COUNTER: {
    if (!is_int(n->type) || n->type == PYGRAPH_TYPE_I1 ||
        (n->arg != PYGRAPH_WL_NONE && (n->arg >= wl->n_invariants || !e->invariants)))
      return 0;
    uint64_t base = n->arg == PYGRAPH_WL_NONE ? 0 : e->invariants[n->arg];
    *out = mask(base + (uint64_t)n->imm + (uint64_t)n->step * e->iteration, n->type);
    return 1;
  }
  default:
    return 0;
  }
}

/* Applies node n (no LEAVE) to the stack st of *sp entries; 0 when it is
 * malformed. */
static int step(const eval_env *e, const pygraph_exit_node *n, struct slot *st, unsigned *sp)
{
  struct slot r = {0, n->type};
  unsigned pops = n->op <= PYGRAPH_EXIT_COUNTER ? 0
                  : n->op == PYGRAPH_EXIT_NOT || n->op == PYGRAPH_EXIT_CAST ? 1
                                                                          : 2;
  if (*sp < pops || (!pops && *sp >= PYGRAPH_EXIT_MAX_DEPTH))
    return 0;
  struct slot *a = pops ? &st[*sp - pops] : NULL, *b = pops ? &st[*sp - 1] : NULL;
  int ok;
  switch (n->op) {
  case PYGRAPH_EXIT_CMP: ok = n->type == PYGRAPH_TYPE_I1 && compare(n->arg, *a, *b, &r.bits); break;
  case PYGRAPH_EXIT_AND:
  case PYGRAPH_EXIT_OR:
    ok = n->type == PYGRAPH_TYPE_I1 && a->type == PYGRAPH_TYPE_I1 && b->type == PYGRAPH_TYPE_I1;
    r.bits = n->op == PYGRAPH_EXIT_AND ? (a->bits & b->bits & 1) : ((a->bits | b->bits) & 1);
    break;
  case PYGRAPH_EXIT_NOT:
    ok = n->type == PYGRAPH_TYPE_I1 && a->type == PYGRAPH_TYPE_I1;
    r.bits = ~a->bits & 1;
    break;
  case PYGRAPH_EXIT_CAST: ok = cast(n->arg, *a, n->type, &r.bits); break;
  default: ok = leaf(e, n, &r.bits); break;
  }
  if (!ok)
    return 0;
  *sp -= pops;
  st[(*sp)++] = r;
  return 1;
}

static int eval(const eval_env *e, unsigned where)
{
  const pygraph_whole_loop *wl = e->wl;
  if (!wl || !wl->nodes || !wl->n_nodes || wl->n_nodes > PYGRAPH_EXIT_MAX_NODES ||
      wl->status_bytes > PYGRAPH_WL_MAX_STATUS_BYTES)
    return PYGRAPH_EXIT_MALFORMED;
  struct slot st[PYGRAPH_EXIT_MAX_DEPTH];
  unsigned sp = 0;
  int test = 0, result = PYGRAPH_EXIT_CONTINUE;
  for (unsigned k = 0; k < wl->n_nodes; ++k) {
    const pygraph_exit_node *n = &wl->nodes[k];
    if (n->op != PYGRAPH_EXIT_LEAVE) {
      if (!step(e, n, st, &sp))
        return PYGRAPH_EXIT_MALFORMED;
      continue;
    }
    if (sp != 1 || st[0].type != PYGRAPH_TYPE_I1 || n->arg > PYGRAPH_EXIT_AT_END)
      return PYGRAPH_EXIT_MALFORMED;
    if (result == PYGRAPH_EXIT_CONTINUE && n->arg == where && (st[0].bits & 1))
      result = test;
    sp = 0;
    ++test;
  }
  return sp ? PYGRAPH_EXIT_MALFORMED : result; /* the last test must end */
}

int pygraph_exit_test_eval(const pygraph_whole_loop *wl, unsigned where, const void *status,
                           uint64_t iteration, const uint64_t *invariants)
{
  eval_env e = {wl, status, iteration, invariants};
  return eval(&e, where);
}

/* ---- operands ------------------------------------------------------------ */

static int value_ok(const pygraph_whole_loop *wl, const pygraph_loop_value *v)
{
  if (v->op >= wl->n_ops || v->type > PYGRAPH_TYPE_BYTES)
    return 0;
  switch (v->evolution) {
  case PYGRAPH_EVOLVE_INVARIANT:
    return 1;
  case PYGRAPH_EVOLVE_AFFINE:
    return is_int(v->type) && (v->base == PYGRAPH_WL_NONE || v->base < wl->n_invariants) &&
           (v->step_by == PYGRAPH_WL_NONE || v->step_by < wl->n_invariants);
  case PYGRAPH_EVOLVE_ROTATION:
    if (!v->count || v->base > wl->n_rotation_members ||
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

int pygraph_loop_value_at(const pygraph_whole_loop *wl, unsigned k, uint64_t iteration,
                          const uint64_t *invariants, uint64_t *out)
{
  if (!wl || k >= wl->n_values || !wl->values || !invariants)
    return 0;
  const pygraph_loop_value *v = &wl->values[k];
  if (!value_ok(wl, v) || v->evolution == PYGRAPH_EVOLVE_INVARIANT)
    return 0;
  if (v->evolution == PYGRAPH_EVOLVE_AFFINE) {
    uint64_t base = v->base == PYGRAPH_WL_NONE ? 0 : invariants[v->base];
    uint64_t by = v->step_by == PYGRAPH_WL_NONE ? 1 : invariants[v->step_by];
    *out = mask(base + (uint64_t)v->a + (uint64_t)v->b * by * iteration, v->type);
    return 1;
  }
  uint64_t pos = ((uint64_t)v->a + iteration % v->count) % v->count;
  *out = mask(invariants[wl->rotation_members[v->base + pos]], v->type);
  return 1;
}

/* ---- the whole descriptor -------------------------------------------------- */

static int header_ok(const pygraph_whole_loop *wl)
{
  if (!wl->n_ops || wl->status_op >= wl->n_ops || !wl->status_bytes ||
      wl->status_bytes > PYGRAPH_WL_MAX_STATUS_BYTES || wl->status_dest >= wl->n_invariants ||
      wl->status_copy > PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL || wl->nested > 1 ||
      !wl->invariant_types || (wl->n_values && !wl->values) ||
      (wl->n_rotation_members && !wl->rotation_members))
    return 0;
  for (unsigned k = 0; k < wl->n_invariants; ++k)
    if (wl->invariant_types[k] > PYGRAPH_TYPE_BYTES)
      return 0;
  for (unsigned k = 0; k < wl->n_values; ++k)
    if (!value_ok(wl, &wl->values[k]))
      return 0;
  return 1;
}

int pygraph_whole_loop_check(const pygraph_whole_loop *wl)
{
  if (!wl || !header_ok(wl))
    return 0;
  /* every test runs to its end on any status and invariants: evaluate
   * once on zeros (the checks do not depend on the values) */
  unsigned char status[PYGRAPH_WL_MAX_STATUS_BYTES] = {0};
  uint64_t *zeros = calloc(wl->n_invariants, sizeof *zeros);
  if (!zeros)
    return 0;
  eval_env e = {wl, status, 0, zeros};
  int ok = eval(&e, PYGRAPH_EXIT_AT_TOP) != PYGRAPH_EXIT_MALFORMED;
  free(zeros);
  return ok;
}
