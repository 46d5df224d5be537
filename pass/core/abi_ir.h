/* abi_ir.h - the descriptors of runtime/include/pygraph_abi.def as LLVM
 * types and constants, for every stage that emits one (instrumenter.c,
 * whole_loop_emit.c). */
#ifndef PYGRAPH_ABI_IR_H
#define PYGRAPH_ABI_IR_H

#include <llvm-c/Core.h>

/* The IR kinds a .def field or protocol parameter names (pygraph_abi.h);
 * VOID only as a protocol call's return kind. */
typedef enum pg_abi_ir { PG_IR_PTR, PG_IR_U32, PG_IR_I64, PG_IR_VOID } pg_abi_ir;

LLVMTypeRef pg_abi_ir_type(LLVMModuleRef m, pg_abi_ir k);

/* The plain (not packed) struct of these field kinds. */
LLVMTypeRef pg_abi_struct_type(LLVMModuleRef m, const pg_abi_ir *kinds, unsigned n);

/* A constant of `ty` (n fields).  Every field must be set: a field added to
 * the .def and not filled by the emitter stops the compile, naming `what`,
 * rather than emit a short descriptor. */
LLVMValueRef pg_abi_struct_const(LLVMTypeRef ty, LLVMValueRef *vals, unsigned n,
                                 const char *what);

/* The region protocol's calls (PYGRAPH_PROTOCOL_CALL), in .def order: each
 * `void __pygraph_<name>(...)`, declared in the module on first use. */
typedef enum pg_protocol_call {
#define PYGRAPH_PROTOCOL_CALL(name, n, ir, ...) PG_PROTOCOL_##name,
#include "pygraph_abi.def"
  PG_PROTOCOL_NCALLS
} pg_protocol_call;

LLVMTypeRef pg_protocol_type(LLVMModuleRef m, pg_protocol_call which);
LLVMValueRef pg_protocol_fn(LLVMModuleRef m, pg_protocol_call which);

#endif
