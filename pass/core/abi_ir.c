/* abi_ir.c - descriptor types and constants (abi_ir.h). */
#include "abi_ir.h"
#include "ir_util.h"

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
