/* selection.h - auto mode (selective deployment), in a struct of its own:
 * per-signature samples, what each measured iteration runs (eager, or
 * which graph: its turn), how it is timed (period or span), the verdicts
 * (keep a graph, which of an indirect graph and its direct rival, or run
 * eagerly), hysteresis and what a probe shows.
 *
 * Auto mode writes only its own state (struct pygraph_auto_mode) and its
 * verdict fields of the variants (variant_cache.h); it drops a variant that
 * lost through the cache.  It never writes the segment's phase: a verdict
 * that leaves no graph is returned to the state machine (segment.c), which
 * goes eager.  The policy's pure parts are in decide.c. */
#ifndef PYGRAPH_SELECTION_H
#define PYGRAPH_SELECTION_H

#include "port/backend.h"
#include "selection/decide.h"
#include "selection/measure.h"
#include "pygraph_rt.h"
#include "common/settings.h"
#include "graphs/variant_cache.h"

#define PYGRAPH_SIG_STATS (PYGRAPH_MAX_VARIANTS + 4u)

/* An indirect graph with more indirect nodes than this meets no direct
 * rival.  On the H200 a chain of 16 changing nodes updated node by node
 * costs 34 us a replay against 22 us through an argument block (NOTES.md's
 * table of chain costs); tiny_chain's 31 indirect nodes measured 30.2 us
 * indirect vs 34.0 us direct on an H100 (bench/results.md, 7298ca6's b0);
 * with more nodes the direct graph only loses more. */
#define PYGRAPH_RIVAL_MAX_INDIRECT 32u

struct pygraph_sig_stats {
  unsigned long long hash;
  unsigned long long last_used;              /* 0 = free entry */
  struct pygraph_samples eager;              /* graph spans are per variant */
  int challenged;                            /* a direct rival of its indirect graph
                                                was captured (once per signature) */
  unsigned turn, run_left;                   /* measuring: eager and its undecided
                                                graphs take turns, runs of
                                                PYGRAPH_TURN_RUN iterations */
  double capture_us;                         /* host time of capture + instantiate */
  int rejected;                              /* its graph did not pay: eager, never recaptured */
  int put_off;                               /* its capture could not pay back yet
                                                (pygraph_decide): timed only for
                                                the samples a capture waits for */
  long changed_ops;                          /* kernel ops with moving args (-1 unknown) */
};

enum pygraph_decision_state {
  PYGRAPH_UNDECIDED,
  PYGRAPH_DECIDED_GRAPH,
  PYGRAPH_DECIDED_EAGER
};

/* What runs a measured iteration of a signature with a graph.
 * TURN_WAIT: a graph, untimed (every side's samples are planned, in flight). */
enum pygraph_turn { TURN_GRAPH, TURN_EAGER, TURN_RIVAL, TURN_WAIT };

struct pygraph_auto_mode {
  /* What it reads (the segment's, set up by pygraph_auto_init). */
  const struct pygraph_backend *backend;
  const struct pygraph_settings *settings;
  const pygraph_region *region;              /* for messages and the trip count */
  unsigned index;
  struct pygraph_variant_cache *cache;       /* the graphs it measures */
  const unsigned long long *iters;           /* the segment's iteration count */

  /* Timing. */
  struct pygraph_measure measure;
  unsigned poll_backoff;                     /* iterations until the next poll */
  unsigned long long last_clock;             /* thread's iteration clock at our last end */
  unsigned long long timed_iter;             /* the last timed iteration ... */
  unsigned long long timed_hash;             /* ... its signature ... */
  enum pygraph_sample_kind timed_kind;       /* ... what it ran as ... */
  unsigned long long timed_variant;          /* ... and which graph */

  /* Samples and verdicts. */
  struct pygraph_sig_stats sigs[PYGRAPH_SIG_STATS];
  unsigned long long sig_clock;              /* LRU stamps of sigs */
  enum pygraph_decision_state decision;
  double eager_us, graph_us;                 /* of the last cost decision */
  char why[160];                             /* reason of the current decision */
  char eager_why[160];                       /* a verdict that left no graph: why */
  unsigned flips;                            /* decision changes */
  unsigned reevaluations;                    /* <= PYGRAPH_MAX_FLIPS */

  /* Hysteresis: behaviour per PYGRAPH_BEHAVIOUR_BLOCK iterations. */
  struct pygraph_behaviour baseline;
  int has_baseline;
  unsigned long long block_iters, block_updates, block_misses;
};

static inline int pygraph_auto_enabled(const struct pygraph_settings *settings)
{
  return settings->mode == PYGRAPH_MODE_AUTO;
}

void pygraph_auto_init(struct pygraph_auto_mode *am, const struct pygraph_backend *backend,
                       const struct pygraph_settings *settings, const pygraph_region *region,
                       unsigned index, struct pygraph_variant_cache *cache,
                       const unsigned long long *iters);

/* ---- signatures and samples ---- */
struct pygraph_sig_stats *pygraph_auto_sig_find(struct pygraph_auto_mode *am,
                                                unsigned long long hash);
/* Found, or a fresh entry (evicting the least recently used one whose
 * signature has no live graph). */
struct pygraph_sig_stats *pygraph_auto_sig_get(struct pygraph_auto_mode *am,
                                               unsigned long long hash);
double pygraph_auto_period_us(const struct pygraph_samples *s);
/* The same with a cold first sample left out once later ones exist. */
double pygraph_auto_cost_us(const struct pygraph_samples *s);
/* measure.h's poll callback (ctx: the auto mode). */
void pygraph_auto_add_sample(void *ctx, const struct pygraph_sample_tag *tag, double us);
/* Eager samples of a signature read or still in flight. */
unsigned pygraph_auto_eager_planned(struct pygraph_auto_mode *am, unsigned long long hash);
int pygraph_auto_far_behind(const struct pygraph_auto_mode *am);

/* ---- what the state machine tells it ---- */
void pygraph_auto_set_decision(struct pygraph_auto_mode *am, enum pygraph_decision_state d,
                               const char *why);
/* A capture of hash's signature took `us` of host time; `decided`: its
 * graph is kept unmeasured (graph mode, or no timing events). */
void pygraph_auto_note_capture(struct pygraph_auto_mode *am, unsigned long long hash,
                               unsigned long n_ops, double us, int decided);
/* An undecided variant's replay changed `changed_ops` ops. */
void pygraph_auto_note_changed_ops(struct pygraph_variant *v, long changed_ops);
/* Hash's same-signature miss changed `changed_ops` ops (probes compare). */
void pygraph_auto_note_miss_changes(struct pygraph_sig_stats *s, long changed_ops);
/* Its capture was put off for cost (pygraph_decide), or not. */
void pygraph_auto_note_put_off(struct pygraph_sig_stats *s, int put_off);
/* Eager for good: timing stops for good. */
void pygraph_auto_stop(struct pygraph_auto_mode *am);

/* ---- verdicts and turns ---- */
/* Compares each undecided signature's graphs with each other and with its
 * eager runs.  Returns NULL, or why no graph is left: the segment is to
 * run eagerly by decision. */
const char *pygraph_auto_decide_variants(struct pygraph_auto_mode *am);
/* Hysteresis for a segment decided graph (iter_updates: node updates and
 * refreshes this iteration). */
void pygraph_auto_note_behaviour(struct pygraph_auto_mode *am, int miss,
                                 unsigned long long iter_updates);
/* Is this iteration (hash's signature, v its graph or NULL) worth timing? */
int pygraph_auto_wants_timing(struct pygraph_auto_mode *am, unsigned long long hash,
                              const struct pygraph_variant *v);
/* While v's signature is measured: what runs this iteration (*pv may
 * become its rival). */
enum pygraph_turn pygraph_auto_measuring_turn(struct pygraph_auto_mode *am,
                                              struct pygraph_variant **pv, int enabled,
                                              unsigned long long hash);

/* ---- probes of a decided-eager segment ---- */
/* The last samples are read and the events go. */
void pygraph_auto_end_probe_timing(struct pygraph_auto_mode *am);
/* What the probe's second iteration `cur` shows against the first, `prev`:
 * NULL, or the change in behaviour worth measuring again. */
const char *pygraph_auto_probe_change(struct pygraph_auto_mode *am,
                                      const struct pygraph_op_list *cur,
                                      const struct pygraph_op_list *prev);
/* Measuring starts afresh (bounded: PYGRAPH_MAX_FLIPS per segment). */
void pygraph_auto_restart(struct pygraph_auto_mode *am, const char *what);

/* ---- timing ---- */
/* Did this thread end no other segment iteration since am's last one?
 * (Called once per iteration end: it advances the thread's clock.) */
int pygraph_auto_solo(struct pygraph_auto_mode *am);
/* Before the work of a timed iteration. */
void pygraph_auto_start_timing(struct pygraph_auto_mode *am, cudaStream_t stream, int solo,
                               const struct pygraph_sample_tag *planned);
/* After the work of a timed iteration, `tag` what it ran as. */
void pygraph_auto_end_timing(struct pygraph_auto_mode *am, cudaStream_t stream,
                             const struct pygraph_sample_tag *tag);
/* Reads finished samples (an event not done yet is tried again
 * PYGRAPH_POLL_BACKOFF iterations later). */
void pygraph_auto_poll(struct pygraph_auto_mode *am);
/* Nothing timed for a while: the events go (timed: this iteration was). */
void pygraph_auto_release_idle(struct pygraph_auto_mode *am, int timed);

#endif /* PYGRAPH_SELECTION_H */
