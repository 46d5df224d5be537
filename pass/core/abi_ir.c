/* abi_ir.c - descriptor types and constants (abi_ir.h). */
#include "abi_ir.h"
#include "ir_util.h"
#include "pygraph_abi.h"

#include <stdio.h>
#include <stdlib.h>

LLVMTypeRef pg_abi_ir_type(LLVMModuleRef m, pg_abi_ir k) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  switch (k) {
  case PG_IR_PTR: return LLVMPointerTypeInContext(ctx, 0);
  case PG_IR_U32: return LLVMInt32TypeInContext(ctx);
  case PG_IR_I64: return LLVMInt64TypeInContext(ctx);
  case PG_IR_VOID: return LLVMVoidTypeInContext(ctx);
  }
  return NULL;
}

LLVMTypeRef pg_abi_struct_type(LLVMModuleRef m, const pg_abi_ir *kinds, unsigned n) {
  LLVMTypeRef *fields = malloc((n ? n : 1) * sizeof *fields);
  if (!fields)
    pg_out_of_memory();
  for (unsigned i = 0; i < n; ++i)
    fields[i] = pg_abi_ir_type(m, kinds[i]);
  LLVMTypeRef ty = LLVMStructTypeInContext(LLVMGetModuleContext(m), fields, n, 0);
  free(fields);
  return ty;
}

LLVMValueRef pg_abi_struct_const(LLVMTypeRef ty, LLVMValueRef *vals, unsigned n,
                                 const char *what) {
  for (unsigned i = 0; i < n; ++i)
    if (!vals[i]) {
      fprintf(stderr, "pygraph: field %u of %s not set (pygraph_abi.def changed?)\n", i, what);
      abort();
    }
  return LLVMConstNamedStruct(ty, vals, n);
}

/* Parameter kinds of each protocol call (a call with more parameters needs
 * a PG_IR_KINDS_<n> and a larger params[]). */
#define PG_IR_KINDS_0() {PG_IR_VOID}
#define PG_IR_KINDS_1(a) {PG_IR_##a}
#define PG_IR_KINDS_2(a, b) {PG_IR_##a, PG_IR_##b}
#define PG_IR_KINDS_3(a, b, c) {PG_IR_##a, PG_IR_##b, PG_IR_##c}
#define PG_IR_KINDS_5(a, b, c, d, e) {PG_IR_##a, PG_IR_##b, PG_IR_##c, PG_IR_##d, PG_IR_##e}
enum { kMaxProtocolParams = 5 };
typedef struct protocol_row {
  const char *name;
  unsigned nparams;
  pg_abi_ir params[kMaxProtocolParams];
} protocol_row;
static const protocol_row kProtocol[PG_PROTOCOL_NCALLS] = {
#define PYGRAPH_PROTOCOL_CALL(name, n, ir, ...) \
  {PYGRAPH_ROUTED_PREFIX #name, n, PG_IR_KINDS_##n ir},
#include "pygraph_abi.def"
};

LLVMTypeRef pg_protocol_type(LLVMModuleRef m, pg_protocol_call which) {
  const protocol_row *p = &kProtocol[which];
  LLVMTypeRef params[kMaxProtocolParams];
  for (unsigned i = 0; i < p->nparams; ++i)
    params[i] = pg_abi_ir_type(m, p->params[i]);
  return LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetModuleContext(m)), params, p->nparams,
                          0);
}

LLVMValueRef pg_protocol_fn(LLVMModuleRef m, pg_protocol_call which) {
  LLVMValueRef f = LLVMGetNamedFunction(m, kProtocol[which].name);
  return f ? f : LLVMAddFunction(m, kProtocol[which].name, pg_protocol_type(m, which));
}
