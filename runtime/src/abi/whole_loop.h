/* whole_loop.h - whole loops at run time (issue 17): a loop the pass
 * described (struct pygraph_whole_loop) and instrumented with the
 * whole-loop protocol (pygraph_rt.h) runs its first executions as written
 * while the runtime checks them against the descriptor; once it has, each
 * later execution runs its first iteration as written, checked against
 * the graph's, and the rest as one WHILE graph (graphs/while_variant.h).
 * runtime/README.md, "Whole-loop graphs", gives the states and rules.
 *
 * The state of a loop belongs to one thread at a time: the thread that
 * entered it, until it leaves; another thread entering it meanwhile runs
 * it as written.  Everything unverified, and every fault before a launch,
 * leaves the loop as written; a state turned off stays off. */
#ifndef PYGRAPH_ABI_WHOLE_LOOP_H
#define PYGRAPH_ABI_WHOLE_LOOP_H

#include "port/backend.h"
#include "pygraph_rt.h"
#include "recording/op.h"

/* The protocol's logic; the entry points (cuda/cuda_entry_points.c) pass
 * the process backend. */
void pygraph_whole_loop_enter_with(const struct pygraph_backend *backend, pygraph_region *r,
                                   const pygraph_whole_loop *wl,
                                   const unsigned long long *invariants);
int pygraph_whole_loop_try_with(const struct pygraph_backend *backend, pygraph_region *r,
                                const pygraph_whole_loop *wl, unsigned long long *left_in);
void pygraph_whole_loop_exit_impl(pygraph_region *r, const pygraph_whole_loop *wl,
                                  unsigned long long tests);

/* The loop whose operations the calling thread's routed calls are checked
 * against now, or NULL: the launch path's one test. */
extern _Thread_local void *pygraph_whole_loop_observer;
static inline int pygraph_whole_loop_observing(void)
{
  return pygraph_whole_loop_observer != NULL;
}

/* A routed call the observed loop makes, before it is recorded or run:
 * `op` as the recording would make it (stream normalised; a kernel's
 * layout not needed: looked up here), `args` a kernel's arguments. */
void pygraph_whole_loop_observe(const struct pygraph_backend *backend,
                                const struct pygraph_op *op, void **args);
/* A routed call a whole loop cannot hold (an event record or wait, a
 * driver launch, launch attributes, an allocation): `what` names it. */
void pygraph_whole_loop_observe_other(const char *what);

/* A library call (cuBLAS, cuFFT, cuSPARSE) is observed as the operation
 * its adapter records, whose arguments the adapter makes first (host
 * scalars copied in, descriptors read): the adapter says the call began
 * (pygraph_whole_loop_library_call, observing only), the recording hands
 * the operation over (pygraph_whole_loop_observe_library, from
 * abi/record.c).  A call that began and is never recorded (it ran at once:
 * no segment recording, a state the adapter cannot keep) turns the loop
 * off at the observer's next event: its operation is missing. */
void pygraph_whole_loop_library_call(void);
/* May the observed loop's library call read its host scalar at p once, as
 * the WHILE graph captures it: is p host memory no kernel writes (the
 * backend's host_only_memory)?  0: the adapter makes the call at once
 * (which turns the loop off).  1 when no loop is observed. */
int pygraph_whole_loop_host_scalar(const void *p);
void pygraph_whole_loop_observe_library(const struct pygraph_backend *backend,
                                        const struct pygraph_op *op);

/* What the report says of one loop. */
struct pygraph_whole_loop_summary {
  const pygraph_region *region;
  const pygraph_whole_loop *wl;
  const char *state;               /* "warming", "ready" or "off" */
  const char *why;                 /* off: why; else the last fallback's reason, or "-" */
  unsigned long long executions;   /* entries by the thread that held the loop */
  unsigned long long observed;     /* iterations checked against the descriptor */
  unsigned long long graph_runs;   /* executions the WHILE graph finished */
  unsigned long long graph_iterations;  /* iterations it ran */
  unsigned long long graph_kernels;     /* kernel launches of those iterations */
  unsigned long long launches;     /* WHILE graph launches */
  unsigned long long builds;       /* WHILE graphs built */
  unsigned long long fallbacks;    /* executions that ran as written although ready */
  unsigned long long busy;         /* entries while another thread held it */
  const char *choice;              /* auto's choice: "undecided", "whole", "as written" */
  double whole_us;                 /* host time per iteration of its timed WHILE launches */
  double written_us;               /* ... and of its timed executions as written (0: none) */
  const char *condition;           /* its WHILE graph's step kernel: "compiled" (over the
                                      loop's compiled form, graphs/while_clauses.h),
                                      "generic", or "-" (no graph built) */
  const char *condition_why;       /* "generic": why the loop has no compiled form */
};

/* Visits every loop entered so far, in order of first entry (the report;
 * the counts are as their last writer left them). */
void pygraph_whole_loops_foreach(void (*visit)(const struct pygraph_whole_loop_summary *, void *),
                                 void *ctx);

#endif /* PYGRAPH_ABI_WHOLE_LOOP_H */
