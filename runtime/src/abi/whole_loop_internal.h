/* whole_loop_internal.h - the state of one whole loop (abi/whole_loop.h),
 * shared by whole_loop.c (the protocol: entering, each iteration's top,
 * the observed operations, leaving), whole_loop_run.c (the WHILE graph's
 * run) and whole_loop_state.c (the registry, the owner, turning a loop
 * off, the report's numbers). */
#ifndef PYGRAPH_ABI_WHOLE_LOOP_INTERNAL_H
#define PYGRAPH_ABI_WHOLE_LOOP_INTERNAL_H

#include <stdint.h>

#include "abi/whole_loop.h"
#include "graphs/while_variant.h"
#include "recording/loop_observe.h"
#include "recording/op_list.h"

enum pygraph_wl_phase {
  PYGRAPH_WL_WARMING = 0,   /* executions run as written and are checked */
  PYGRAPH_WL_READY = 1,     /* a checked iteration (ref) is the WHILE graph's body */
  PYGRAPH_WL_OFF = 2        /* for good: the loop runs as written, unchecked */
};

/* The choice between the WHILE graph and the loop as written (auto mode,
 * whole_loop_choice.c). */
enum pygraph_wl_verdict {
  PYGRAPH_WL_UNDECIDED = 0,
  PYGRAPH_WL_WHOLE = 1,       /* the WHILE graph was faster: it runs, untimed */
  PYGRAPH_WL_WRITTEN = 2      /* it was not: the loop is off */
};

/* One side's timed executions: host time from iteration 1's top to the
 * exit, and the iterations run in it. */
struct pygraph_wl_side {
  double us;
  uint64_t iterations;
  unsigned samples;
};

/* A side's host time per iteration (0: none timed). */
static inline double pygraph_wl_side_us(const struct pygraph_wl_side *side)
{
  return side->iterations ? side->us / (double)side->iterations : 0.0;
}

struct pygraph_wl_choice {
  enum pygraph_wl_verdict verdict;
  struct pygraph_wl_side whole, written;
  int timing_written;         /* this execution runs as written for a sample ... */
  double written_since;       /* ... from this host time on */
};

struct pygraph_wl_state {
  const pygraph_whole_loop *wl;
  const pygraph_region *region;
  const struct pygraph_backend *backend; /* the last entry's (frees the graph) */
  struct pygraph_wl_state *next;        /* the registry, in order of first entry */
  unsigned long owner;                  /* atomic: the thread in the loop now, 0: none */
  enum pygraph_wl_phase phase;          /* written by the owner, read by the report */
  const char *why;                      /* OFF: why; else the last fallback's reason */
  struct pygraph_loop_mismatch mismatch;/* the difference that turned it off, if any */
  /* the checked iterations */
  struct pygraph_op_list lists[3];
  struct pygraph_op_list *cur;          /* the iteration running */
  struct pygraph_op_list *first;        /* iteration 0 of this execution */
  struct pygraph_op_list *ref;          /* READY: the graph's iteration */
  uint64_t verified;                    /* iterations checked, all executions */
  unsigned leaves;                      /* exits checked */
  unsigned rebuilds;                    /* refs replaced after READY */
  struct pygraph_while_variant var;     /* built from ref (var.built) */
  /* the execution the owner is in */
  uint64_t *inv;                        /* its invariants (wl->n_invariants) */
  uint64_t tries;                       /* tops of iterations so far: the running one
                                           is number tries - 1 */
  int observing;                        /* its operations are checked */
  int library_open;                     /* a library call began whose recorded operation
                                           the observer has not seen yet */
  int matches_ref;                      /* READY: its iteration 0 is ref's so far */
  struct pygraph_wl_choice choice;      /* the owner's */
  struct pygraph_whole_loop_summary counts;   /* the report's numbers */
};

/* The state of (r, wl), made at its first entry (the caller arms the
 * report first); NULL when out of memory. */
struct pygraph_wl_state *pygraph_wl_state_of(const pygraph_region *r,
                                             const pygraph_whole_loop *wl);
/* Takes the state for the calling thread (1), or sees another thread in
 * it (0); release gives it back. */
int pygraph_wl_claim(struct pygraph_wl_state *st);
void pygraph_wl_release(struct pygraph_wl_state *st);

/* The status copy's host destination in this execution; NULL for a
 * counted loop (no status copy). */
void *pygraph_wl_status_dest(const struct pygraph_wl_state *st);
/* The loop's exit tests at `where` of iteration `i` on the host (the
 * destination's bytes now): whole_loop.h's pygraph_exit_test_eval. */
int pygraph_wl_eval(const struct pygraph_wl_state *st, unsigned where, uint64_t i);

/* Its operations are not checked any more (this execution). */
void pygraph_wl_stop_observing(struct pygraph_wl_state *st);

/* Off for good: `why` (static text), `m` the difference (NULL: none);
 * stops checking and frees the graph.  The owner only. */
void pygraph_wl_turn_off(struct pygraph_wl_state *st, const char *why,
                         const struct pygraph_loop_mismatch *m);

/* Runs iterations `first` on as the WHILE graph (READY, ref checked in
 * this execution): the exit test that left (*left_in: the iteration it
 * left in), or -1 when nothing ran (the loop goes on as written; a fault
 * turns the state off). */
int pygraph_wl_run(struct pygraph_wl_state *st, const struct pygraph_backend *backend,
                   uint64_t first, unsigned long long *left_in);

/* whole_loop_choice.c.  At the top of iteration 1 of a ready loop whose
 * iteration 0 matched: 1 to run the rest whole, 0 to run this execution
 * as written (it is then timed, and no more checked). */
int pygraph_wl_choose_whole(struct pygraph_wl_state *st, const struct pygraph_backend *backend);
/* The host clock before a WHILE launch that is timed, else -1; after the
 * launch left by an exit test, note_whole takes it and the iterations it
 * ran (the loop may be off when it returns: the graph freed). */
double pygraph_wl_whole_clock(const struct pygraph_wl_state *st,
                              const struct pygraph_backend *backend);
void pygraph_wl_note_whole(struct pygraph_wl_state *st, const struct pygraph_backend *backend,
                           double since, uint64_t iterations);
/* The loop's exit, before leaving the execution: a timed execution as
 * written is a sample (the loop may be off when it returns). */
void pygraph_wl_note_leave(struct pygraph_wl_state *st);

#endif /* PYGRAPH_ABI_WHOLE_LOOP_INTERNAL_H */
