/* loop_values.c - how a value evolves from iteration to iteration
 * (loop_values.h). */
#include "loop_values.h"
#include "ir_util.h"

#include <llvm-c/Target.h>

#include <string.h>

int pg_wl_type_of(LLVMTypeRef t, unsigned *out) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    switch (LLVMGetIntTypeWidth(t)) {
    case 1: *out = PYGRAPH_TYPE_I1; return 1;
    case 8: *out = PYGRAPH_TYPE_I8; return 1;
    case 16: *out = PYGRAPH_TYPE_I16; return 1;
    case 32: *out = PYGRAPH_TYPE_I32; return 1;
    case 64: *out = PYGRAPH_TYPE_I64; return 1;
    default: return 0;
    }
  case LLVMFloatTypeKind: *out = PYGRAPH_TYPE_F32; return 1;
  case LLVMDoubleTypeKind: *out = PYGRAPH_TYPE_F64; return 1;
  case LLVMPointerTypeKind:
    if (LLVMGetPointerAddressSpace(t) != 0)
      return 0;
    *out = PYGRAPH_TYPE_PTR;
    return 1;
  default:
    return 0;
  }
}

unsigned pg_wl_invariant(pg_wl_ctx *c, LLVMValueRef v) {
  pg_whole_loop *wl = c->wl;
  for (unsigned k = 0; k < wl->ninv; ++k)
    if (wl->invariants[k] == v)
      return k;
  PG_PUSH(wl->invariants, wl->ninv, wl->capinv, v);
  return wl->ninv - 1;
}

int pg_wl_writes(const pg_wl_ctx *c, LLVMValueRef ptr) {
  LLVMValueRef obj = pg_underlying_object(ptr);
  for (unsigned k = 0; k < c->nwritten; ++k)
    if (c->written[k] == obj)
      return 1;
  return 0;
}

int pg_wl_unwritten_load(pg_wl_ctx *c, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || LLVMGetVolatile(v) ||
      LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic)
    return 0;
  LLVMValueRef ptr = LLVMGetOperand(v, 0);
  return pg_wl_is_invariant(c, ptr) && !pg_wl_writes(c, ptr);
}

/* A load the loop cannot change: of a private stack slot it never writes. */
static int invariant_load(pg_wl_ctx *c, LLVMValueRef v) {
  return pg_wl_unwritten_load(c, v) && pg_batch_is_private(LLVMGetOperand(v, 0));
}

int pg_wl_is_invariant(pg_wl_ctx *c, LLVMValueRef v) {
  if (!pg_wl_in_loop(c, v))
    return 1;
  if (invariant_load(c, v))
    return 1;
  return pg_scev_invariant(c->se, c->loop, v);
}

int pg_wl_status_field(const pg_wl_ctx *c, LLVMValueRef v, unsigned *offset, unsigned *type) {
  const pg_whole_loop *wl = c->wl;
  if (!wl->copy || !LLVMIsALoadInst(v) || !pg_wl_type_of(LLVMTypeOf(v), type))
    return 0;
  long long off;
  LLVMValueRef base = pg_strip_constant_offsets(c->m, LLVMGetOperand(v, 0), &off);
  if (base != wl->dest_base)
    return 0;
  off -= wl->status_dest_offset;
  unsigned long long size = LLVMStoreSizeOfType(LLVMGetModuleDataLayout(c->m), LLVMTypeOf(v));
  if (off < 0 || (unsigned long long)off + size > wl->status_bytes)
    return 0;
  *offset = (unsigned)off;
  return 1;
}

/* The header phi p's value at the back edge, and the one from outside the
 * loop (NULL when several blocks outside enter it). */
static LLVMValueRef phi_incoming(pg_wl_ctx *c, LLVMValueRef p, LLVMValueRef *entry) {
  LLVMValueRef back = NULL;
  *entry = NULL;
  int entries = 0;
  for (unsigned k = 0; k < LLVMCountIncoming(p); ++k) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
    if (from == c->latch)
      back = LLVMGetIncomingValue(p, k);
    else if (!pg_loop_contains_block(c->loop, from) && LLVMGetIncomingValue(p, k) != *entry) {
      *entry = LLVMGetIncomingValue(p, k);
      ++entries;
    }
  }
  if (entries != 1)
    *entry = NULL;
  return back;
}

static int is_header_phi(pg_wl_ctx *c, LLVMValueRef v) {
  return v && LLVMIsAPHINode(v) && LLVMGetInstructionParent(v) == pg_loop_header(c->loop);
}

/* The cycle of header phis v is in, from the one first in the header:
 * member j takes member j+1's value at the back edge.  Returns its length,
 * 0 when v is in none (*bad set when it is one the rotation form cannot
 * hold: a member entered from several blocks). */
static unsigned phi_cycle(pg_wl_ctx *c, LLVMValueRef v, LLVMValueRef **out, int *bad) {
  LLVMValueRef *cyc = NULL;
  unsigned n = 0, cap = 0;
  LLVMValueRef p = v, entry;
  *bad = 0;
  do {
    for (unsigned k = 0; k < n; ++k)
      if (cyc[k] == p) { /* a cycle that does not come back to v */
        free(cyc);
        return 0;
      }
    LLVMValueRef next = phi_incoming(c, p, &entry);
    if (!is_header_phi(c, next)) {
      free(cyc);
      return 0;
    }
    *bad |= entry == NULL;
    PG_PUSH(cyc, n, cap, p);
    p = next;
  } while (p != v);
  unsigned start = 0;
  int found = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_header(c->loop));
       i && LLVMIsAPHINode(i) && !found; i = LLVMGetNextInstruction(i))
    for (unsigned k = 0; k < n && !found; ++k)
      if (cyc[k] == i) {
        start = k;
        found = 1;
      }
  /* rotated so that the member first in the header comes first */
  LLVMValueRef *rot = malloc(n * sizeof *rot);
  if (!rot)
    pg_out_of_memory();
  for (unsigned k = 0; k < n; ++k)
    rot[k] = cyc[(start + k) % n];
  free(cyc);
  *out = rot;
  return n;
}

/* The rotation set of cycle cyc (n members) in the loop's table: its first
 * member's index, the set added when new. */
static unsigned rotation_set(pg_wl_ctx *c, LLVMValueRef *cyc, unsigned n) {
  pg_whole_loop *wl = c->wl;
  for (unsigned k = 0; k < c->nrot_phis; ++k)
    if (c->rot_phis[k] == cyc[0])
      return k;
  unsigned base = wl->nrotation;
  for (unsigned k = 0; k < n; ++k) {
    LLVMValueRef entry;
    phi_incoming(c, cyc[k], &entry);
    unsigned inv = pg_wl_invariant(c, entry);
    PG_PUSH(wl->rotation, wl->nrotation, wl->caprotation, inv);
    PG_PUSH(c->rot_phis, c->nrot_phis, c->caprot_phis, cyc[k]);
  }
  return base;
}

/* v as a member of a rotation: 1 and out filled; 0 when it is none. */
static int rotation_of(pg_wl_ctx *c, LLVMValueRef v, pg_wl_value *out, pg_wl_value_why *why) {
  if (!is_header_phi(c, v) || !c->latch)
    return 0;
  LLVMValueRef *cyc = NULL;
  int bad;
  unsigned n = phi_cycle(c, v, &cyc, &bad);
  if (!n)
    return 0;
  int ok = !bad;
  if (ok) {
    out->evolution = PYGRAPH_EVOLVE_ROTATION;
    out->base = rotation_set(c, cyc, n);
    out->count = n;
    for (unsigned k = 0; k < n; ++k)
      if (cyc[k] == v)
        out->a = k;
  } else {
    *why = PG_WLV_ROTATION;
  }
  free(cyc);
  return ok;
}

/* Whether v (or what it is computed from, a few steps back) reads the
 * status. */
static int from_status(const pg_wl_ctx *c, LLVMValueRef v, unsigned depth) {
  unsigned off, type;
  if (!v || !LLVMIsAInstruction(v) || !pg_wl_in_loop(c, v) || depth > 8)
    return 0;
  if (pg_wl_status_field(c, v, &off, &type))
    return 1;
  if (LLVMIsAPHINode(v))
    return 0;
  for (int k = 0; k < LLVMGetNumOperands(v); ++k)
    if (from_status(c, LLVMGetOperand(v, (unsigned)k), depth + 1))
      return 1;
  return 0;
}

static pg_wl_value_why why_not(const pg_wl_ctx *c, LLVMValueRef v) {
  if (LLVMIsALoadInst(v))
    return pg_wl_writes(c, LLVMGetOperand(v, 0)) ? PG_WLV_MEMORY_WRITTEN : PG_WLV_MEMORY;
  return from_status(c, v, 0) ? PG_WLV_HOST_STATUS : PG_WLV_HOST;
}

int pg_wl_evolution(pg_wl_ctx *c, LLVMValueRef v, pg_wl_value *out, pg_wl_value_why *why) {
  out->evolution = PYGRAPH_EVOLVE_INVARIANT;
  out->base = out->step_by = PYGRAPH_WL_NONE;
  out->count = 0;
  out->a = out->b = 0;
  if (!pg_wl_type_of(LLVMTypeOf(v), &out->type))
    out->type = PYGRAPH_TYPE_BYTES;
  if (pg_wl_is_invariant(c, v))
    return 1;
  *why = why_not(c, v);
  if (out->type == PYGRAPH_TYPE_BYTES)
    return 0;
  pg_affine aff;
  if (pg_scev_affine(c->se, c->loop, v, &aff)) {
    out->evolution = PYGRAPH_EVOLVE_AFFINE;
    out->base = aff.base ? pg_wl_invariant(c, aff.base) : PYGRAPH_WL_NONE;
    out->step_by = aff.step_by ? pg_wl_invariant(c, aff.step_by) : PYGRAPH_WL_NONE;
    out->a = aff.offset;
    out->b = aff.step;
    return 1;
  }
  return rotation_of(c, v, out, why);
}
