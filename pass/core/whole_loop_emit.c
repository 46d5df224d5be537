/* whole_loop_emit.c - whole-loop descriptors as constant data
 * (whole_loop_emit.h). */
#include "whole_loop_emit.h"
#include "abi_ir.h"
#include "ir_util.h"
#include "loop_values.h"
#include "pygraph_abi.h"

#include <stdlib.h>

enum wl_field {
#define PYGRAPH_WHOLE_LOOP_FIELD(type, name, ir) WL_##name,
#include "pygraph_abi.def"
  WL_NFIELDS
};
static const pg_abi_ir kWlKinds[WL_NFIELDS] = {
#define PYGRAPH_WHOLE_LOOP_FIELD(type, name, ir) PG_IR_##ir,
#include "pygraph_abi.def"
};
enum node_field {
#define PYGRAPH_EXIT_NODE_FIELD(type, name, ir) NODE_##name,
#include "pygraph_abi.def"
  NODE_NFIELDS
};
static const pg_abi_ir kNodeKinds[NODE_NFIELDS] = {
#define PYGRAPH_EXIT_NODE_FIELD(type, name, ir) PG_IR_##ir,
#include "pygraph_abi.def"
};
enum value_field {
#define PYGRAPH_LOOP_VALUE_FIELD(type, name, ir) VALUE_##name,
#include "pygraph_abi.def"
  VALUE_NFIELDS
};
static const pg_abi_ir kValueKinds[VALUE_NFIELDS] = {
#define PYGRAPH_LOOP_VALUE_FIELD(type, name, ir) PG_IR_##ir,
#include "pygraph_abi.def"
};

/* A private constant global holding `init`, aligned to 8. */
static LLVMValueRef global_const(LLVMModuleRef m, LLVMValueRef init, const char *name) {
  LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 8);
  return g;
}

static LLVMValueRef u32(LLVMModuleRef m, unsigned long long v) {
  return LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), v, 0);
}

static LLVMValueRef i64(LLVMModuleRef m, long long v) {
  return LLVMConstInt(LLVMInt64TypeInContext(LLVMGetModuleContext(m)), (unsigned long long)v, 1);
}

/* An array global of n elements of `ty` (a null pointer when n is 0). */
static LLVMValueRef array_of(LLVMModuleRef m, LLVMTypeRef ty, LLVMValueRef *elems, unsigned n,
                             const char *name) {
  if (!n)
    return LLVMConstNull(LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0));
  return global_const(m, LLVMConstArray2(ty, elems, n), name);
}

static LLVMValueRef nodes_array(LLVMModuleRef m, const pg_whole_loop *wl) {
  LLVMTypeRef ty = pg_abi_struct_type(m, kNodeKinds, NODE_NFIELDS);
  LLVMValueRef *elems = calloc(wl->nnodes ? wl->nnodes : 1, sizeof *elems);
  for (unsigned k = 0; k < wl->nnodes; ++k) {
    const pg_wl_node *n = &wl->nodes[k];
    LLVMValueRef f[NODE_NFIELDS] = {0};
    f[NODE_op] = u32(m, n->op);
    f[NODE_type] = u32(m, n->type);
    f[NODE_arg] = u32(m, n->arg);
    f[NODE_imm] = i64(m, n->imm);
    f[NODE_step] = i64(m, n->step);
    elems[k] = pg_abi_struct_const(ty, f, NODE_NFIELDS, "an exit-test node");
  }
  LLVMValueRef g = array_of(m, ty, elems, wl->nnodes, ".pygraph.exit_nodes");
  free(elems);
  return g;
}

static LLVMValueRef values_array(LLVMModuleRef m, const pg_whole_loop *wl) {
  LLVMTypeRef ty = pg_abi_struct_type(m, kValueKinds, VALUE_NFIELDS);
  LLVMValueRef *elems = calloc(wl->nvalues ? wl->nvalues : 1, sizeof *elems);
  for (unsigned k = 0; k < wl->nvalues; ++k) {
    const pg_wl_value *v = &wl->values[k];
    LLVMValueRef f[VALUE_NFIELDS] = {0};
    f[VALUE_op] = u32(m, v->op);
    f[VALUE_operand] = u32(m, v->operand);
    f[VALUE_evolution] = u32(m, v->evolution);
    f[VALUE_type] = u32(m, v->type);
    f[VALUE_base] = u32(m, v->base);
    f[VALUE_step_by] = u32(m, v->step_by);
    f[VALUE_count] = u32(m, v->count);
    f[VALUE_a] = i64(m, v->a);
    f[VALUE_b] = i64(m, v->b);
    elems[k] = pg_abi_struct_const(ty, f, VALUE_NFIELDS, "a loop value");
  }
  LLVMValueRef g = array_of(m, ty, elems, wl->nvalues, ".pygraph.loop_values");
  free(elems);
  return g;
}

/* An array of u32: the invariants' types (types != 0) or the rotation. */
static LLVMValueRef u32_array(LLVMModuleRef m, const pg_whole_loop *wl, int types) {
  unsigned n = types ? wl->ninv : wl->nrotation;
  LLVMValueRef *elems = calloc(n ? n : 1, sizeof *elems);
  for (unsigned k = 0; k < n; ++k) {
    unsigned t = PYGRAPH_TYPE_BYTES;
    if (types)
      pg_wl_type_of(LLVMTypeOf(wl->invariants[k]), &t);
    elems[k] = u32(m, types ? t : wl->rotation[k]);
  }
  LLVMValueRef g = array_of(m, LLVMInt32TypeInContext(LLVMGetModuleContext(m)), elems, n,
                            types ? ".pygraph.invariant_types" : ".pygraph.rotation");
  free(elems);
  return g;
}

static LLVMValueRef descriptor(LLVMModuleRef m, pg_whole_loop *wl, LLVMValueRef next) {
  unsigned line = 0;
  if (wl->copy)
    pg_inst_file(wl->copy, &line, NULL);
  LLVMValueRef f[WL_NFIELDS] = {0};
  f[WL_next] = next;
  f[WL_line_begin] = u32(m, wl->line_begin);
  f[WL_line_end] = u32(m, wl->line_end);
  f[WL_nested] = u32(m, (unsigned)wl->nested);
  f[WL_n_ops] = u32(m, wl->n_ops);
  f[WL_status_op] = u32(m, wl->status_op);
  f[WL_status_copy] = u32(m, wl->status_copy);
  f[WL_status_bytes] = u32(m, wl->status_bytes);
  f[WL_status_line] = u32(m, line);
  f[WL_status_dest] = u32(m, wl->status_dest);
  f[WL_status_dest_offset] = i64(m, wl->status_dest_offset);
  f[WL_n_invariants] = u32(m, wl->ninv);
  f[WL_invariant_types] = u32_array(m, wl, 1);
  f[WL_n_nodes] = u32(m, wl->nnodes);
  f[WL_nodes] = nodes_array(m, wl);
  f[WL_n_values] = u32(m, wl->nvalues);
  f[WL_values] = values_array(m, wl);
  f[WL_n_rotation_members] = u32(m, wl->nrotation);
  f[WL_rotation_members] = u32_array(m, wl, 0);
  LLVMTypeRef ty = pg_abi_struct_type(m, kWlKinds, WL_NFIELDS);
  LLVMValueRef init = pg_abi_struct_const(ty, f, WL_NFIELDS, "a whole-loop descriptor");
  return wl->desc = global_const(m, init, ".pygraph.whole_loop");
}

LLVMValueRef pg_whole_loop_emit(LLVMModuleRef m, pg_whole_loop *list) {
  pg_whole_loop *wl = list;
  while (wl && wl->why != PG_WL_CANDIDATE)
    wl = wl->next;
  if (!wl)
    return LLVMConstNull(LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0));
  return descriptor(m, wl, pg_whole_loop_emit(m, wl->next));
}
