/* exit_test.c - exit conditions as postfix programs (exit_test.h). */
#include "exit_test.h"
#include "ir_util.h"
#include "loop_values.h"

#include <string.h>

typedef struct builder {
  pg_wl_ctx *c;
  LLVMValueRef br;         /* the exit branch, for remarks */
  unsigned where;
  unsigned stack;          /* entries on the evaluation stack after the nodes so far */
} builder;

/* Appends a node that takes `pops` entries and pushes `pushes`. */
static int push(builder *b, pg_wl_node n, unsigned pops, unsigned pushes) {
  pg_whole_loop *wl = b->c->wl;
  if (wl->nnodes >= PYGRAPH_EXIT_MAX_NODES) {
    wl->n = wl->nnodes + 1;
    return pg_wl_refuse(wl, PG_WL_EXIT_TOO_COMPLEX, b->br);
  }
  b->stack = b->stack - pops + pushes;
  if (b->stack > wl->depth)
    wl->depth = b->stack;
  if (wl->depth > PYGRAPH_EXIT_MAX_DEPTH) {
    wl->n = wl->depth;
    return pg_wl_refuse(wl, PG_WL_EXIT_TOO_COMPLEX, b->br);
  }
  PG_PUSH(wl->nodes, wl->nnodes, wl->capnodes, n);
  return 1;
}

static int leaf(builder *b, unsigned op, unsigned type, unsigned arg, long long imm) {
  pg_wl_node n = {op, type, arg, imm, 0};
  return push(b, n, 0, 1);
}

static int unary(builder *b, unsigned op, unsigned type, unsigned arg) {
  pg_wl_node n = {op, type, arg, 0, 0};
  return push(b, n, 1, 1);
}

static int binary(builder *b, unsigned op, unsigned arg) {
  pg_wl_node n = {op, PYGRAPH_TYPE_I1, arg, 0, 0};
  return push(b, n, 2, 1);
}

static int bad_form(builder *b, LLVMValueRef what) {
  b->c->wl->what = what;
  return pg_wl_refuse(b->c->wl, PG_WL_EXIT_FORM, b->br);
}

/* A constant: its bits (integers sign-extended), 0 for a type the form
 * does not hold. */
static int constant(builder *b, LLVMValueRef v) {
  unsigned type;
  if (!pg_wl_type_of(LLVMTypeOf(v), &type))
    return bad_form(b, v);
  if (LLVMIsAConstantInt(v))
    return leaf(b, PYGRAPH_EXIT_CONST, type, 0, LLVMConstIntGetSExtValue(v));
  if (LLVMIsAConstantPointerNull(v))
    return leaf(b, PYGRAPH_EXIT_CONST, type, 0, 0);
  LLVMBool loses;
  double d = LLVMConstRealGetDouble(v, &loses);
  long long bits = 0;
  if (type == PYGRAPH_TYPE_F32) {
    float f = (float)d;
    unsigned u;
    memcpy(&u, &f, sizeof u);
    bits = u;
  } else {
    memcpy(&bits, &d, sizeof bits);
  }
  return leaf(b, PYGRAPH_EXIT_CONST, type, 0, bits);
}

static const struct {
  LLVMOpcode opcode;
  unsigned cast;
} kCasts[] = {
    {LLVMZExt, PYGRAPH_CAST_ZEXT},       {LLVMSExt, PYGRAPH_CAST_SEXT},
    {LLVMTrunc, PYGRAPH_CAST_TRUNC},     {LLVMFPExt, PYGRAPH_CAST_FPEXT},
    {LLVMFPTrunc, PYGRAPH_CAST_FPTRUNC}, {LLVMSIToFP, PYGRAPH_CAST_SITOFP},
    {LLVMUIToFP, PYGRAPH_CAST_UITOFP},   {LLVMFPToSI, PYGRAPH_CAST_FPTOSI},
    {LLVMFPToUI, PYGRAPH_CAST_FPTOUI},
};

/* The enum pygraph_cast of instruction v, -1 when it is no such cast. */
static int cast_of(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return -1;
  for (size_t k = 0; k < sizeof kCasts / sizeof kCasts[0]; ++k)
    if (LLVMGetInstructionOpcode(v) == kCasts[k].opcode)
      return (int)kCasts[k].cast;
  return -1;
}

static int is_constant(LLVMValueRef v) {
  return LLVMIsAConstantInt(v) || LLVMIsAConstantFP(v) || LLVMIsAConstantPointerNull(v);
}

/* Pushes operand v: a constant, a status field, an invariant, a counter,
 * or a conversion of one of those. */
static int value(builder *b, LLVMValueRef v) {
  pg_wl_ctx *c = b->c;
  if (is_constant(v))
    return constant(b, v);
  unsigned off, type;
  if (pg_wl_in_loop(c, v) && pg_wl_status_field(c, v, &off, &type)) {
    if (b->where != PYGRAPH_EXIT_AT_TOP && !pg_wl_trace_after(c, c->copy_complete, v))
      return pg_wl_refuse(c->wl, PG_WL_EXIT_UNSYNCED, b->br);
    return leaf(b, PYGRAPH_EXIT_FIELD, type, off, 0);
  }
  pg_wl_value ev;
  pg_wl_value_why why;
  if (pg_wl_evolution(c, v, &ev, &why)) {
    if (ev.type == PYGRAPH_TYPE_BYTES || ev.evolution == PYGRAPH_EVOLVE_ROTATION ||
        ev.step_by != PYGRAPH_WL_NONE) /* a counter's step is a constant */
      return bad_form(b, v);
    if (ev.evolution == PYGRAPH_EVOLVE_INVARIANT)
      return leaf(b, PYGRAPH_EXIT_INVARIANT, ev.type, pg_wl_invariant(c, v), 0);
    pg_wl_node n = {PYGRAPH_EXIT_COUNTER, ev.type, ev.base, ev.a, ev.b};
    return push(b, n, 0, 1);
  }
  int cast = cast_of(v);
  if (cast >= 0 && pg_wl_type_of(LLVMTypeOf(v), &type))
    return value(b, LLVMGetOperand(v, 0)) && unary(b, PYGRAPH_EXIT_CAST, type, (unsigned)cast);
  c->wl->what = v;
  c->wl->value_why = why;
  return pg_wl_refuse(c->wl, PG_WL_EXIT_VALUE, b->br);
}

static int is_i1(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1;
}

static int is_bool_const(LLVMValueRef v, int which) {
  return LLVMIsAConstantInt(v) && is_i1(v) && (int)LLVMConstIntGetZExtValue(v) == which;
}

static int condition(builder *b, LLVMValueRef v, int neg);

/* x op y (op AND or OR), negated by De Morgan. */
static int logic(builder *b, LLVMValueRef x, LLVMValueRef y, int is_and, int nx, int ny,
                 int neg) {
  int as_and = is_and != neg;
  return condition(b, x, nx != neg) && condition(b, y, ny != neg) &&
         binary(b, as_and ? PYGRAPH_EXIT_AND : PYGRAPH_EXIT_OR, 0);
}

/* select i1 s, x, y with a constant x or y: && and || as LLVM writes them. */
static int select_logic(builder *b, LLVMValueRef v, int neg) {
  LLVMValueRef s = LLVMGetOperand(v, 0), x = LLVMGetOperand(v, 1), y = LLVMGetOperand(v, 2);
  if (is_bool_const(y, 0))
    return logic(b, s, x, 1, 0, 0, neg);   /* s && x */
  if (is_bool_const(x, 1))
    return logic(b, s, y, 0, 0, 0, neg);   /* s || y */
  if (is_bool_const(y, 1))
    return logic(b, s, x, 0, 1, 0, neg);   /* !s || x */
  if (is_bool_const(x, 0))
    return logic(b, s, y, 1, 1, 0, neg);   /* !s && y */
  return bad_form(b, v);
}

static int compare(builder *b, LLVMValueRef v, int neg) {
  unsigned pred;
  if (LLVMIsAICmpInst(v)) {
    static const unsigned kInverse[] = {PYGRAPH_CMP_I_NE,  PYGRAPH_CMP_I_EQ,  PYGRAPH_CMP_I_ULE,
                                        PYGRAPH_CMP_I_ULT, PYGRAPH_CMP_I_UGE, PYGRAPH_CMP_I_UGT,
                                        PYGRAPH_CMP_I_SLE, PYGRAPH_CMP_I_SLT, PYGRAPH_CMP_I_SGE,
                                        PYGRAPH_CMP_I_SGT};
    pred = (unsigned)LLVMGetICmpPredicate(v);
    if (neg)
      pred = kInverse[pred - PYGRAPH_CMP_I_EQ];
  } else {
    pred = (unsigned)LLVMGetFCmpPredicate(v);
    if (neg)
      pred = PYGRAPH_CMP_F_TRUE - pred; /* the unordered/ordered complement */
  }
  unsigned t;
  if (!pg_wl_type_of(LLVMTypeOf(LLVMGetOperand(v, 0)), &t))
    return bad_form(b, v); /* vectors */
  return value(b, LLVMGetOperand(v, 0)) && value(b, LLVMGetOperand(v, 1)) &&
         binary(b, PYGRAPH_EXIT_CMP, pred);
}

/* Pushes i1 v (negated when neg). */
static int condition(builder *b, LLVMValueRef v, int neg) {
  if (LLVMIsAConstantInt(v))
    return leaf(b, PYGRAPH_EXIT_CONST, PYGRAPH_TYPE_I1, 0,
                (long long)(LLVMConstIntGetZExtValue(v) != 0) ^ neg);
  if (LLVMIsAICmpInst(v) || LLVMIsAFCmpInst(v))
    return compare(b, v, neg);
  if (LLVMIsAInstruction(v) && pg_wl_in_loop(b->c, v)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    LLVMValueRef x = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    if (op == LLVMAnd || op == LLVMOr)
      return logic(b, x, y, op == LLVMAnd, 0, 0, neg);
    if (op == LLVMXor && (is_bool_const(x, 1) || is_bool_const(y, 1)))
      return condition(b, is_bool_const(x, 1) ? y : x, !neg);
    if (op == LLVMSelect)
      return select_logic(b, v, neg);
    if (op != LLVMTrunc && op != LLVMLoad)
      return bad_form(b, v);
  }
  /* an i1 invariant, a truncation to i1, a bool status field */
  if (!value(b, v))
    return 0;
  return !neg || unary(b, PYGRAPH_EXIT_NOT, PYGRAPH_TYPE_I1, 0);
}

int pg_wl_exit_test(pg_wl_ctx *c, LLVMValueRef br, LLVMValueRef cond, int leave_when,
                    unsigned where) {
  builder b = {c, br, where, 0};
  if (!is_i1(cond))
    return bad_form(&b, cond);
  pg_wl_node leave = {PYGRAPH_EXIT_LEAVE, PYGRAPH_TYPE_I1, where, 0, 0};
  return condition(&b, cond, !leave_when) && push(&b, leave, 1, 0);
}
