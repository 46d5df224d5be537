/* pygraph_shim.h - the C interface of the thin C++ shim.
 *
 * The pass core is C over the LLVM-C API.  What LLVM-C lacks (loop and
 * dominator analyses, CFG surgery, optimization remarks, demangling, function
 * cloning) is exposed here; the implementations live in pass/shim/ *.cpp and
 * only forward to LLVM's own code.
 */
#ifndef PYGRAPH_SHIM_H
#define PYGRAPH_SHIM_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- loops (llvm::DominatorTree + llvm::LoopInfo) ---------------------- */
typedef struct pg_loop_info pg_loop_info; /* owns DT + LI of one function */
typedef struct pg_loop pg_loop;           /* an llvm::Loop */

pg_loop_info *pg_loops_compute(LLVMValueRef fn);
void pg_loops_free(pg_loop_info *li);
unsigned pg_loops_num_top_level(pg_loop_info *li);
pg_loop *pg_loops_top_level(pg_loop_info *li, unsigned i);
pg_loop *pg_loop_for_block(pg_loop_info *li, LLVMBasicBlockRef bb); /* innermost or NULL */
int pg_loop_contains_block(pg_loop *l, LLVMBasicBlockRef bb);
LLVMBasicBlockRef pg_loop_header(pg_loop *l);
unsigned pg_loop_num_blocks(pg_loop *l);
LLVMBasicBlockRef pg_loop_block(pg_loop *l, unsigned i);
/* 1 when block a dominates block b (both of li's function). */
int pg_block_dominates(pg_loop_info *li, LLVMBasicBlockRef a, LLVMBasicBlockRef b);
/* Gives the loop a preheader, dedicated exit blocks and one latch
 * (llvm::simplifyLoop); keeps li up to date.  Returns 1 when the loop is in
 * that form afterwards. */
int pg_loop_simplify(pg_loop_info *li, pg_loop *l);
LLVMBasicBlockRef pg_loop_preheader(pg_loop *l);
LLVMBasicBlockRef pg_loop_latch(pg_loop *l);
/* Fills up to max unique exit blocks; returns how many there are. */
unsigned pg_loop_exit_blocks(pg_loop *l, LLVMBasicBlockRef *out, unsigned max);
/* Puts the loop in LCSSA form (llvm::formLCSSA): every value of the loop
 * used after it reaches that use through a phi in an exit block.  Adds
 * phis only (no blocks); li stays valid.  Returns 1 when the loop is in
 * that form afterwards. */
int pg_loop_form_lcssa(pg_loop_info *li, pg_loop *l);
/* Splits the block of `before` there (llvm::BasicBlock::splitBasicBlock):
 * `before` and what follows it move to a new block named `name`, the old
 * one branches to it, and the phis of the moved terminator's successors
 * name the new block.  Loop and dominator analyses of the function are
 * stale afterwards.  Returns the new block. */
LLVMBasicBlockRef pg_split_block_before(LLVMValueRef before, const char *name);
/* Source lines the loop statement spans: its loop metadata's start and end
 * where optimisation left them, else the lines of the loop's own code in its
 * blocks (inlined code at its call's line); 0 when unknown. */
void pg_loop_lines(pg_loop *l, unsigned *first, unsigned *last);
/* Constant trip count of the loop from ScalarEvolution, 0 when unknown. */
unsigned pg_loop_trip_count(pg_loop_info *li, pg_loop *l);
/* Constant upper bound of the trip count (early exits allowed), 0 if none. */
unsigned pg_loop_max_trip_count(pg_loop_info *li, pg_loop *l);
/* An i64 computed right before `before` (in the preheader) holding the
 * number of iterations the loop runs once entered there: its exact trip
 * count, or else an upper bound when there are early exits
 * (llvm::SCEVExpander over the backedge-taken count, exact or symbolic
 * maximum, plus one).  NULL when ScalarEvolution cannot express it or it is
 * not safe to compute there; nothing is inserted then. */
LLVMValueRef pg_loop_expand_trip_count(pg_loop_info *li, pg_loop *l, LLVMValueRef before);
/* ScalarEvolution of one function (llvm::ScalarEvolution), kept while the
 * IR of its loops does not change. */
typedef struct pg_scev pg_scev;
pg_scev *pg_scev_new(pg_loop_info *li, LLVMValueRef fn);
void pg_scev_free(pg_scev *se);
/* 1 when ScalarEvolution finds v unchanged in every iteration of l. */
int pg_scev_invariant(pg_scev *se, pg_loop *l, LLVMValueRef v);
/* v in iteration i of l (i: back edges taken so far), as ScalarEvolution
 * sees it: base + offset + step * step_by * i, wrapping at v's width
 * (pointers: bytes).  base and step_by are NULL (0 and 1) or IR values
 * defined outside l and available when it is entered (arguments, values
 * of blocks that dominate its header); offset and step are constants. */
typedef struct pg_affine {
  LLVMValueRef base, step_by;
  long long offset, step;
} pg_affine;
/* 1 and *out when v is an add recurrence of l of that form (an induction
 * counter, a pointer advanced by a fixed stride); 0 otherwise (no integer
 * or pointer type, over 64 bits, invariant in l, a start or step that is
 * not of the form). */
int pg_scev_affine(pg_scev *se, pg_loop *l, LLVMValueRef v, pg_affine *out);
/* Number of immediate subloops, and the i-th one. */
unsigned pg_loop_num_subloops(pg_loop *l);
pg_loop *pg_loop_subloop(pg_loop *l, unsigned i);
/* The loop directly around l, NULL for a top-level loop. */
pg_loop *pg_loop_parent(pg_loop *l);

/* ---- remarks (llvm::OptimizationRemark*, shown by clang's -Rpass*) ----- */
typedef enum {
  PG_REMARK_PASSED,   /* -Rpass=pygraph */
  PG_REMARK_MISSED,   /* -Rpass-missed=pygraph */
  PG_REMARK_ANALYSIS  /* -Rpass-analysis=pygraph */
} pg_remark_kind;

/* 1 when clang would print a remark of this kind for pass "pygraph". */
int pg_remark_enabled(LLVMModuleRef m, pg_remark_kind kind);
/* 1 when a remark of this kind would be printed or saved (clang's
 * -fsave-optimization-record streams every remark): build the text of such
 * remarks only then. */
int pg_remark_wanted(LLVMModuleRef m, pg_remark_kind kind);
/* `at` is an instruction (its debug location is used) or a function. */
void pg_remark(pg_remark_kind kind, const char *name, LLVMValueRef at, const char *msg);
/* The device compile's remarks, under their own name "pygraph-device"
 * (-Rpass-analysis=pygraph-device; -Rpass-analysis=pygraph leaves them
 * out).  clang matches a -Rpass* pattern anywhere in a name, so they print
 * for a pattern that selects "pygraph-device" but not "pygraph", or one
 * that selects names beyond pygraph's too (".*", "pygraph|device"); clang's
 * -fsave-optimization-record saves them whatever the pattern. */
int pg_device_remark_wanted(LLVMModuleRef m, pg_remark_kind kind);
void pg_device_remark(pg_remark_kind kind, const char *name, LLVMValueRef at, const char *msg);
/* A remark at the loop statement's line (llvm::Loop::getStartLoc: its loop
 * metadata, else its header's location). */
void pg_remark_loop(pg_remark_kind kind, const char *name, pg_loop *l, const char *msg);
/* File, line and column the user wrote for inst ("" and 0 when unknown):
 * the debug location with inlined __device_stub__ frames peeled off. */
const char *pg_user_loc(LLVMValueRef inst, unsigned *line, unsigned *col);

/* ---- pointers (llvm::getUnderlyingObject, llvm::PointerMayBeCaptured) --- */
/* 1 when ptr points into a stack slot of its function whose address never
 * escapes: memory nothing else (no kernel, no other thread) can see. */
int pg_is_private_stack_slot(LLVMValueRef ptr);
/* 1 when `user` (an instruction using the slot's address, or a pointer
 * derived from it, as operand number `operand`) hands the address to no one
 * that keeps it, although LLVM's capture tracking says it may. */
typedef int (*pg_use_filter)(LLVMValueRef user, unsigned operand, void *ctx);
/* pg_is_private_stack_slot, where the uses `ok` accepts are no escapes. */
int pg_is_private_stack_slot_except(LLVMValueRef ptr, pg_use_filter ok, void *ctx);
/* The object ptr points into (casts, GEPs stripped): an alloca, a global,
 * an argument, a loaded pointer, ... */
LLVMValueRef pg_underlying_object(LLVMValueRef ptr);
/* The pointer ptr is a constant byte offset from (casts and GEPs with
 * constant indices stripped, m's data layout), and that offset in *off. */
LLVMValueRef pg_strip_constant_offsets(LLVMModuleRef m, LLVMValueRef ptr, long long *off);

/* ---- calls (llvm::CallBase attributes, call site and callee) ----------- */
/* 1 when the call or invoke may unwind (no nounwind on it or its callee). */
int pg_call_may_unwind(LLVMValueRef call);
/* 1 when the call never returns (noreturn, on the call or its callee). */
int pg_call_no_return(LLVMValueRef call);
/* 1 when it writes no memory (memory(none) or memory(read)). */
int pg_call_only_reads_memory(LLVMValueRef call);

/* The name of parameter `argno` (from 0) of fn in its debug info (a
 * variable of the function's own scope with that argument number), or
 * NULL when it has none. */
const char *pg_param_name(LLVMValueRef fn, unsigned argno);

/* ---- misc -------------------------------------------------------------- */
/* Demangled name (Itanium), malloc'd; the input copied when it isn't mangled. */
char *pg_demangle(const char *mangled);
/* The qualified name of a mangled function, without return or parameter
 * types ("ns::Timer<int>::start" for _ZN2ns5TimerIiE5startEv), malloc'd;
 * NULL when `mangled` is no mangled function name. */
char *pg_demangle_function_name(const char *mangled);

/* ---- cloning (llvm::CloneFunctionInto) -------------------------------- */
/* Clones the body of `from` into `into` (same module), after the
 * instructions of `prologue`, an unterminated block of `into`: the cloned
 * entry block is appended to the prologue, and parameter i of `from` is
 * replaced by arg_values[i] (same type).  Function attributes, alignment,
 * section, visibility and the subprogram (cloned) are copied; parameter
 * attributes of `into` are reset, so set them afterwards.  Returns 1 on
 * success, 0 (nothing changed) when the arguments don't fit. */
int pg_clone_body_into(LLVMValueRef from, LLVMValueRef into, const LLVMValueRef *arg_values,
                       LLVMBasicBlockRef prologue);

#ifdef __cplusplus
}
#endif
#endif
