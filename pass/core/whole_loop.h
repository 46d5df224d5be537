/* whole_loop.h - a convergence loop judged as one conditional WHILE graph:
 * the verdict, and for a candidate the description the runtime reads
 * (struct pygraph_whole_loop of runtime/include/pygraph_abi.def).
 *
 * convergence_loops.c decides; loop_values.c says how a value evolves from
 * iteration to iteration; exit_test.c writes the exit tests as postfix
 * nodes; whole_loop_text.c formats remarks; whole_loop_emit.c emits the
 * descriptor.  Everything is filled while judging; no text is formatted
 * for a remark that is not printed.
 */
#ifndef PYGRAPH_WHOLE_LOOP_H
#define PYGRAPH_WHOLE_LOOP_H

#include "batchable.h"
#include "call_map.h"
#include "pygraph_abi.h"
#include "../shim/pygraph_shim.h"

/* Why a loop is no candidate; the fields of pg_whole_loop each names. */
typedef enum pg_wl_why {
  PG_WL_CANDIDATE = 0,
  PG_WL_NOT_OPTIMISED,   /* the function is compiled without optimisation (optnone) */
  PG_WL_INNER_LOOP,      /* inner: a loop inside the iteration */
  PG_WL_BRANCH,          /* at: a branch inside the iteration that is no exit test */
  PG_WL_LAUNCH_FORM,     /* at: a launch whose arguments the pass does not follow */
  PG_WL_LAUNCHING_CALL,  /* at: a call of a module function that launches */
  PG_WL_BARRIER,         /* at: a barrier that is neither the status copy nor a synchronize */
  PG_WL_HOST_ONLY_CALL,  /* at: a routed call a graph body cannot hold (an allocation the
                            pool serves, a kernel setting, a device switch, an NCCL
                            collective, whose kernels may span devices) */
  PG_WL_COPY_DIRECTION,  /* at: a synchronous copy, n: its cudaMemcpyKind (-1: not constant) */
  PG_WL_TWO_COPIES,      /* at: the second device-to-host copy, at2: the first */
  PG_WL_COPY_SIZE,       /* at: a status copy whose size is no constant */
  PG_WL_COPY_TOO_LARGE,  /* at: a status copy of n bytes */
  PG_WL_COPY_DEST,       /* at: a status copy whose destination changes in the loop */
  PG_WL_UNSYNCED_COPY,   /* at: an asynchronous status copy no synchronize completes */
  PG_WL_EFFECT,          /* batch: an effect the batchable rules refuse */
  PG_WL_CALL_EFFECT,     /* at: a call of callee, which has effects the loop would skip */
  PG_WL_STATUS_STORE,    /* at: a host write to the status */
  PG_WL_LOCAL_READ_AFTER,/* at: a store to a local variable that at2 reads outside the loop */
  PG_WL_NO_EXIT,         /* no exit test (only exits taken on a CUDA error) */
  PG_WL_EXIT_BETWEEN,    /* at: an exit test between two operations of the iteration */
  PG_WL_EXIT_FORM,       /* at: an exit test; what: a condition the form cannot express */
  PG_WL_EXIT_VALUE,      /* at: an exit test; what: an operand, value_why: why not */
  PG_WL_EXIT_UNSYNCED,   /* at: an exit test reading the status before its copy completes */
  PG_WL_EXIT_TOO_COMPLEX,/* n: nodes the tests need (or depth, when nodes fit) */
  PG_WL_ARG_PATTERN,     /* at: an operation; n: its operand, what: the value, value_why */
  PG_WL_LIBRARY_ARG,     /* at: a library call; n: its operand, which is no invariant
                            (value_why PG_WLV_HOST) or leads to host memory the loop
                            writes (PG_WLV_MEMORY_WRITTEN) */
  PG_WL_CONFIG_VARIES,   /* at: a launch whose configuration (n: 0 grid, 1 block, 2 shared
                            memory, 3 stream) changes; value_why */
  PG_WL_LIVE_OUT         /* what: a value the loop computes, at2: its use after the loop */
} pg_wl_why;

/* Why a value is neither invariant nor affine nor rotating. */
typedef enum pg_wl_value_why {
  PG_WLV_HOST = 0,       /* the iteration computes it on the host */
  PG_WLV_HOST_STATUS,    /* ... from the status */
  PG_WLV_MEMORY_WRITTEN, /* it is read from host memory the loop writes */
  PG_WLV_MEMORY,         /* it is read from host memory others may write */
  PG_WLV_ROTATION        /* a phi cycle that is no plain rotation (several entries) */
} pg_wl_value_why;

/* struct pygraph_exit_node / pygraph_loop_value of pygraph_abi.def. */
typedef struct pg_wl_node {
  unsigned op, type, arg;
  long long imm, step;
} pg_wl_node;

typedef struct pg_wl_value {
  unsigned op, operand, evolution, type, base, step_by, count;
  long long a, b;
} pg_wl_value;

/* A value of the loop used after it, and how the pass recomputes it at
 * an exit when the runtime ran the loop (whole_loop_instrument.c). */
typedef enum pg_wl_liveout_kind {
  PG_WLO_CUDA = 0,            /* a CUDA call's result: cudaSuccess */
  PG_WLO_FIELD,               /* a status field: loaded again from the destination */
  PG_WLO_EVOLUTION            /* invariant, affine or rotating: from the iteration */
} pg_wl_liveout_kind;

typedef struct pg_wl_liveout {
  LLVMValueRef v;
  pg_wl_liveout_kind kind;
  unsigned offset, type;      /* FIELD: from the destination, enum pygraph_value_type */
  int after_copy;             /* FIELD: loaded after the status copy completed */
  pg_wl_value val;            /* EVOLUTION (its invariant numbers are not the descriptor's) */
  LLVMValueRef base, step_by; /* AFFINE: the values added and multiplying (NULL: none) */
  LLVMValueRef *members;      /* ROTATION: val.count values, in set order */
} pg_wl_liveout;

/* An exit branch the trace passed (exits taken only on a CUDA error are
 * not recorded). */
typedef struct pg_wl_exit {
  LLVMValueRef br, cond;
  int leave_when;             /* the loop leaves when cond is this */
  unsigned ops_before;        /* operations of the iteration before it */
  int after_copy;             /* the status copy had completed */
} pg_wl_exit;

typedef struct pg_whole_loop {
  pg_loop *loop;
  int nested;                 /* a loop inside the region's loop */
  unsigned line_begin, line_end;
  /* the verdict */
  pg_wl_why why;
  LLVMValueRef at, at2, what, callee;
  pg_loop *inner;
  long long n;
  pg_wl_value_why value_why;
  pg_batch_verdict batch;
  /* the description (complete only for a candidate) */
  LLVMValueRef copy;          /* the status copy; NULL: a counted loop (PYGRAPH_STATUS_NONE) */
  unsigned n_ops, status_op, status_copy, status_bytes, status_dest;
  long long status_dest_offset;
  LLVMValueRef dest_base;     /* the object the destination is an offset of */
  LLVMValueRef *invariants;   /* values captured at loop entry, by number */
  unsigned ninv, capinv;
  pg_wl_node *nodes;
  unsigned nnodes, capnodes, depth;
  pg_wl_value *values;
  unsigned nvalues, capvalues;
  unsigned *rotation;         /* invariant numbers: the rotation sets' members */
  unsigned nrotation, caprotation;
  /* what instrumenting it needs (complete only for a candidate) */
  pg_wl_exit *exits;          /* the exit tests' branches, in test order */
  unsigned nexits;
  pg_wl_liveout *liveouts;    /* the loop's values used after it */
  unsigned nliveouts, capliveouts;
  const char *not_run;        /* why it is not instrumented (whole-loops=2), or NULL */
  LLVMValueRef desc;          /* its descriptor, once emitted */
  int instrumented;           /* the whole-loop protocol was emitted for it */
  struct pg_whole_loop *next; /* the next loop judged in the same scope */
} pg_whole_loop;

/* What the parts share while one loop is judged. */
typedef struct pg_wl_ctx {
  LLVMModuleRef m;
  const pg_call_map *calls;
  pg_batch_memo *memo;
  pg_loop_info *li;
  pg_loop *loop;
  pg_scev *se;
  LLVMValueRef *written;      /* objects the loop writes: stores, calls given their address */
  unsigned nwritten, capwritten;
  LLVMValueRef *rot_phis;     /* the header phi of each rotation member (wl->rotation's order) */
  unsigned nrot_phis, caprot_phis;
  LLVMBasicBlockRef *trace;   /* the iteration's blocks, in the order it runs them */
  unsigned ntrace, captrace;
  LLVMBasicBlockRef latch;    /* the trace's last block: it goes back to the header */
  LLVMValueRef copy_complete; /* where the status copy has completed (the copy, or the
                                 synchronize after an asynchronous one) */
  LLVMValueRef pending;       /* an asynchronous status copy no synchronize completed yet */
  LLVMValueRef *ops;          /* launches, stream operations and the copy, in order */
  unsigned nops, capops;
  pg_wl_exit *exits;
  unsigned nexits, capexits;
  LLVMValueRef *writes;       /* host writes the trace passed (all to private stack slots) */
  unsigned nwrites, capwrites;
  pg_whole_loop *wl;
} pg_wl_ctx;

/* Sets the verdict (the first reason found wins); returns 0, so that a
 * judging step can `return pg_wl_refuse(...)`. */
int pg_wl_refuse(pg_whole_loop *wl, pg_wl_why why, LLVMValueRef at);
/* 1 when the instruction v is inside the loop being judged. */
int pg_wl_in_loop(const pg_wl_ctx *c, LLVMValueRef v);
/* 1 when instruction b runs after instruction a in an iteration (both in
 * the trace; b == a counts as after). */
int pg_wl_trace_after(const pg_wl_ctx *c, LLVMValueRef a, LLVMValueRef b);

#endif
