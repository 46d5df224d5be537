/* indirect_twins.h - device side of parameter indirection.
 *
 * For every kernel K defined in the device module, a kernel
 * "<mangled K>__pygraph_ind"(ptr %args, ptr byval([T x i8]) %tag) is added
 * that loads K's parameters from the argument block at %args and runs a
 * clone of K's body.  %tag is never read: its size T is the layout tag of
 * the block's layout (pygraph_layout_tag.h), which the runtime checks
 * against the layout the driver reports for K before using the twin.  The block
 * has the layout of K's own parameter buffer: parameter i sits at
 *   offset_i = align_up(end_{i-1}, align_i),  end_i = offset_i + size_i
 * where, for a byval(T) parameter, size and ABI alignment are T's (alignment
 * raised to the parameter's `align` attribute, as the PTX .param is) and
 * otherwise the parameter type's.  That is the layout cuFuncGetParamInfo
 * reports for K, so the host can fill the block from K's argument values.
 * %args must be aligned to the largest align_i (the twin's `align` attribute);
 * the block is only read.  Kernels without parameters get a twin too (it
 * ignores %args), so that every registered kernel has one.
 *
 * Programmatic dependent launch: a twin of a kernel compiled for sm_90 or
 * newer ("target-cpu" sm_NN, NN >= 90) starts with
 * `griddepcontrol.launch_dependents` (its successor may launch once all its
 * blocks run), then reads the block, then executes `griddepcontrol.wait`
 * (its predecessor grids have completed and their writes are visible)
 * before K's body.  So the block must be complete before the first twin of
 * a programmatic chain launches; no grid of the chain may write it.  Older
 * targets get no griddepcontrol (PTX has none there).
 */
#ifndef PYGRAPH_INDIRECT_TWINS_H
#define PYGRAPH_INDIRECT_TWINS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#define PG_TWIN_SUFFIX "__pygraph_ind"

typedef struct pg_param_slot {
  LLVMTypeRef type;               /* loaded type; T for byval(T) */
  unsigned long long offset, size;
  unsigned align;
  int byval;
} pg_param_slot;

/* Layout of kernel f's parameters; fills slots[0..n) when non-NULL and
 * returns the block size (the end of the last parameter).  *max_align, when
 * non-NULL, gets the largest alignment (1 without parameters). */
unsigned long long pg_param_layout(LLVMTargetDataRef dl, LLVMValueRef f, pg_param_slot *slots,
                                   unsigned *max_align);
/* 1 when f is a kernel (PTX kernel calling convention). */
int pg_is_device_kernel(LLVMValueRef f);
/* 1 when f is an indirect twin made by pg_make_indirect_twins. */
int pg_is_indirect_twin(LLVMValueRef f);
/* Adds the twins (with -Rpass-analysis=pygraph remarks); returns how many. */
unsigned pg_make_indirect_twins(LLVMModuleRef m);

#endif
