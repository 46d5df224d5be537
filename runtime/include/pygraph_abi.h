/* pygraph_abi.h - the constants of the pass/runtime ABI, without CUDA.
 *
 * The compiler pass includes this (and pygraph_abi.def) but not
 * pygraph_rt.h, which needs the CUDA headers.  Layout changes must bump
 * PYGRAPH_ABI_VERSION, because descriptors are emitted as constant data by
 * the compiler.
 */
#ifndef PYGRAPH_ABI_H
#define PYGRAPH_ABI_H

#define PYGRAPH_ABI_VERSION 4u

/* A routed call is "__pygraph_" + <CUDA symbol>. */
#define PYGRAPH_ROUTED_PREFIX "__pygraph_"

enum pygraph_region_kind {
  PYGRAPH_REGION_LOOP = 0,       /* one loop iteration (split at barriers) */
  PYGRAPH_REGION_STRAIGHT = 1,   /* a run of launches outside loops */
  PYGRAPH_REGION_BATCH = 2       /* a barrier-free loop: iterations recorded in batches,
                                    one graph launch per batch (pygraph_rt.h) */
};

/* The most bytes of a synchronous host-to-device copy (cudaMemcpy with
 * kind cudaMemcpyHostToDevice, cudaMemcpyToSymbol) the runtime reads from
 * pageable host memory at the call and delivers in stream order through a
 * copy kernel's parameters (runtime src/recording/host_bytes.h).  The pass
 * keeps a copy whose size is a constant above it a barrier; the runtime
 * flushes at a larger one and makes the real call.  4 KiB: the parameter
 * size every CUDA driver and GPU accepts for a kernel (more needs CUDA
 * 12.1 and Volta), and a graph's node update copies this much at most per
 * changed copy each replay; programs' parameter structs and small tables
 * fit, larger uploads are worth their own host wait. */
#define PYGRAPH_HOST_BYTES_MAX 4096u

/* ---- whole-loop descriptors (struct pygraph_whole_loop, pygraph_abi.def) ----
 * A convergence loop the pass found able to run as one conditional WHILE
 * graph: its exit tests as small postfix programs (struct
 * pygraph_exit_node) and how each operand of its operations changes from
 * one iteration to the next (struct pygraph_loop_value).  `i` below is the
 * iteration number: how many times the loop went back to its top before
 * (0 in the first iteration). */

/* "no invariant", "no operand": an index field that names nothing. */
#define PYGRAPH_WL_NONE 0xffffffffu
/* The largest status copy (bytes) a candidate may have: the condition
 * kernel keeps a copy of the status beside the loop's graph. */
#define PYGRAPH_WL_MAX_STATUS_BYTES 256u
/* The most nodes all exit tests of one loop have together, and the deepest
 * evaluation stack one test needs: a test beyond either is no candidate
 * (the pass says so); the evaluators keep their stack in a fixed array. */
#define PYGRAPH_EXIT_MAX_NODES 64u
#define PYGRAPH_EXIT_MAX_DEPTH 8u

/* The type of a value: exit-test stack entries, invariants, operands.
 * Integers are held as their bits, any signedness (the compare predicate
 * says how to read them); F32/F64 are IEEE-754 bits. */
enum pygraph_value_type {
  PYGRAPH_TYPE_I1 = 0,
  PYGRAPH_TYPE_I8 = 1,
  PYGRAPH_TYPE_I16 = 2,
  PYGRAPH_TYPE_I32 = 3,
  PYGRAPH_TYPE_I64 = 4,
  PYGRAPH_TYPE_F32 = 5,
  PYGRAPH_TYPE_F64 = 6,
  PYGRAPH_TYPE_PTR = 7,  /* a 64-bit host or device address */
  PYGRAPH_TYPE_BYTES = 8 /* an aggregate kernel argument (struct by value): invariant only */
};

/* The operations of an exit test (struct pygraph_exit_node.op).  Leaves
 * push one value, CMP/AND/OR pop two and push one, NOT/CAST pop one and
 * push one, EXIT pops one. */
enum pygraph_exit_op {
  PYGRAPH_EXIT_FIELD = 0,     /* the status field at byte `arg` of the copy's destination, of `type` */
  PYGRAPH_EXIT_CONST = 1,     /* `imm`: integers sign-extended to 64 bits, F32/F64 their bits */
  PYGRAPH_EXIT_INVARIANT = 2, /* invariant number `arg` (a value the loop does not change) */
  PYGRAPH_EXIT_COUNTER = 3,   /* an induction counter: (invariant `arg`, or 0 when PYGRAPH_WL_NONE)
                                 + imm + step * i, wrapping at the width of `type` */
  PYGRAPH_EXIT_CMP = 4,       /* compare predicate `arg` (enum pygraph_cmp) of the two values below:
                                 the deeper is the left operand; pushes an I1 */
  PYGRAPH_EXIT_AND = 5,       /* I1 && I1 */
  PYGRAPH_EXIT_OR = 6,        /* I1 || I1 */
  PYGRAPH_EXIT_NOT = 7,       /* !I1 */
  PYGRAPH_EXIT_CAST = 8,      /* conversion `arg` (enum pygraph_cast) of the value to `type` */
  PYGRAPH_EXIT_LEAVE = 9      /* ends one test: the loop leaves at position `arg`
                                 (enum pygraph_exit_where) when the value is true */
};

/* Compare predicates: LLVM's numbering (llvm::CmpInst::Predicate). */
enum pygraph_cmp {
  PYGRAPH_CMP_F_FALSE = 0, PYGRAPH_CMP_F_OEQ = 1, PYGRAPH_CMP_F_OGT = 2, PYGRAPH_CMP_F_OGE = 3,
  PYGRAPH_CMP_F_OLT = 4, PYGRAPH_CMP_F_OLE = 5, PYGRAPH_CMP_F_ONE = 6, PYGRAPH_CMP_F_ORD = 7,
  PYGRAPH_CMP_F_UNO = 8, PYGRAPH_CMP_F_UEQ = 9, PYGRAPH_CMP_F_UGT = 10, PYGRAPH_CMP_F_UGE = 11,
  PYGRAPH_CMP_F_ULT = 12, PYGRAPH_CMP_F_ULE = 13, PYGRAPH_CMP_F_UNE = 14, PYGRAPH_CMP_F_TRUE = 15,
  PYGRAPH_CMP_I_EQ = 32, PYGRAPH_CMP_I_NE = 33, PYGRAPH_CMP_I_UGT = 34, PYGRAPH_CMP_I_UGE = 35,
  PYGRAPH_CMP_I_ULT = 36, PYGRAPH_CMP_I_ULE = 37, PYGRAPH_CMP_I_SGT = 38, PYGRAPH_CMP_I_SGE = 39,
  PYGRAPH_CMP_I_SLT = 40, PYGRAPH_CMP_I_SLE = 41
};

/* Conversions (LLVM's cast instructions of the same names). */
enum pygraph_cast {
  PYGRAPH_CAST_ZEXT = 0, PYGRAPH_CAST_SEXT = 1, PYGRAPH_CAST_TRUNC = 2,
  PYGRAPH_CAST_FPEXT = 3, PYGRAPH_CAST_FPTRUNC = 4, PYGRAPH_CAST_SITOFP = 5,
  PYGRAPH_CAST_UITOFP = 6, PYGRAPH_CAST_FPTOSI = 7, PYGRAPH_CAST_FPTOUI = 8
};

/* Where in an iteration a test is made. */
enum pygraph_exit_where {
  PYGRAPH_EXIT_AT_TOP = 0,     /* before the iteration's first operation (also in iteration 0):
                                  status fields are those of the last copy, or the destination's
                                  bytes when the loop was entered */
  PYGRAPH_EXIT_AFTER_COPY = 1, /* right after the status copy has completed, before any
                                  operation that follows it */
  PYGRAPH_EXIT_AT_END = 2      /* after the iteration's last operation */
};

/* How an operand of the iteration's operations changes (struct
 * pygraph_loop_value.evolution). */
enum pygraph_evolution {
  PYGRAPH_EVOLVE_INVARIANT = 0, /* the same in every iteration */
  PYGRAPH_EVOLVE_AFFINE = 1,    /* (invariant `base`, or 0) + a + b * (invariant `step_by`, or 1)
                                   * i, wrapping at the width of `type` (pointers: bytes) */
  PYGRAPH_EVOLVE_ROTATION = 2   /* invariant rotation_members[base + (a + i) % count]: pointers
                                   (or integers) swapped among a fixed set every iteration */
};

/* How the status reaches the host. */
enum pygraph_status_copy {
  PYGRAPH_STATUS_MEMCPY = 0,       /* cudaMemcpy(dst, src, status_bytes, cudaMemcpyDeviceToHost) */
  PYGRAPH_STATUS_MEMCPY_ASYNC = 1, /* cudaMemcpyAsync(..., cudaMemcpyDeviceToHost, stream), then
                                      cudaStreamSynchronize(stream) or cudaDeviceSynchronize() */
  PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL = 2, /* cudaMemcpyFromSymbol(dst, symbol, status_bytes, offset,
                                           cudaMemcpyDeviceToHost) */
  PYGRAPH_STATUS_NONE = 3          /* no status copy: a counted loop, whose exit tests read only
                                      counters and invariants; status_op and status_dest are
                                      PYGRAPH_WL_NONE, status_bytes 0 */
};

/* The IR kinds of descriptor fields and protocol parameters in
 * pygraph_abi.def, as the pass emits them: PTR is an address-space-0
 * pointer, U32 an i32, I64 an i64, laid out like a plain (not packed)
 * struct of the host's data layout. */

#endif /* PYGRAPH_ABI_H */
