/* dim3_value.h - launch dimensions known at the launch (remark text only). */
#ifndef PYGRAPH_DIM3_VALUE_H
#define PYGRAPH_DIM3_VALUE_H

#include <llvm-c/Core.h>

typedef struct pg_dim3 {
  unsigned v[3];   /* x, y, z where known */
  int known[3];    /* 1 when the IR proves that value reaches the launch */
} pg_dim3;

/* The components of the dim3 that `launch` passes as the pair (xy: i64 of
 * x and y << 32, z: i32); either may be NULL (unknown). */
void pg_dim3_value(LLVMValueRef launch, LLVMValueRef xy, LLVMValueRef z, pg_dim3 *d);

#endif
