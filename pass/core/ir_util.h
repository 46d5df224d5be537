/* ir_util.h - small LLVM-C helpers shared by the pass core. */
#ifndef PYGRAPH_IR_UTIL_H
#define PYGRAPH_IR_UTIL_H

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdlib.h>

/* Appends v to the growable array arr (n used, cap allocated; both
 * unsigned).  Growth never fails quietly: pg_grow aborts when memory or the
 * count runs out. */
#define PG_PUSH(arr, n, cap, v)                                                \
  do {                                                                         \
    if ((n) == (cap))                                                          \
      (arr) = pg_grow((arr), &(cap), sizeof *(arr));                           \
    (arr)[(n)++] = (v);                                                        \
  } while (0)

/* arr (cap elements of elem bytes) reallocated to twice the room (8 at
 * first); *cap updated. */
void *pg_grow(void *arr, unsigned *cap, size_t elem);
/* Reports and aborts: the pass cannot go on with a partial table. */
_Noreturn void pg_out_of_memory(void);

/* qsort / bsearch order of an array of LLVM references (values, blocks:
 * pointers) by address: the pass's sorted sets of instructions and blocks. */
int pg_by_address(const void *a, const void *b);

/* printf into a new malloc'd string of whatever length it needs. */
char *pg_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The function a call instruction calls directly (casts stripped), or NULL. */
LLVMValueRef pg_called_function(LLVMValueRef call);
/* Name of the directly called function, or NULL. */
const char *pg_called_name(LLVMValueRef call);
int pg_is_call(LLVMValueRef inst); /* call or invoke */
/* Strips pointer casts and aliases. */
LLVMValueRef pg_strip(LLVMValueRef v);
/* The C string a global string constant holds, or NULL. */
const char *pg_global_cstring(LLVMValueRef v);
/* File and line of an instruction's debug location ("", 0 when none). */
const char *pg_inst_file(LLVMValueRef inst, unsigned *line, unsigned *col);
/* "file:line" or "<unknown location>", malloc'd (any file name length). */
char *pg_loc_dup(LLVMValueRef inst);
/* Functions the module defines (not declarations). */
unsigned pg_count_definitions(LLVMModuleRef m);
/* Number of predecessors of bb; fills up to max of them. */
unsigned pg_block_preds(LLVMBasicBlockRef bb, LLVMBasicBlockRef *out, unsigned max);
/* 1 when the module targets the GPU (nvptx/amdgcn). */
int pg_module_is_device(LLVMModuleRef m);
/* A new private, unnamed_addr constant global holding the C string s. */
LLVMValueRef pg_private_cstring(LLVMModuleRef m, const char *s, const char *name);
/* A call of fn (type ty) right before `before`, with before's debug location
 * (debuggers and remarks keep the neighbour's line); b is left there. */
LLVMValueRef pg_call_before(LLVMBuilderRef b, LLVMValueRef before, LLVMTypeRef ty, LLVMValueRef fn,
                            LLVMValueRef *args, unsigned nargs);
/* Constant integer value of v; returns 0 when v isn't one. */
int pg_const_int(LLVMValueRef v, long long *out);

#endif
