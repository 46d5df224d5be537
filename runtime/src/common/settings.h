/* settings.h - PYGRAPH_* environment settings, parsed once, lazily. */
#ifndef PYGRAPH_SETTINGS_H
#define PYGRAPH_SETTINGS_H

#include <stddef.h>

#include "common/policy.h"

enum pygraph_mode {
  PYGRAPH_MODE_AUTO,
  PYGRAPH_MODE_EAGER,
  PYGRAPH_MODE_GRAPH
};

enum pygraph_indirect_mode {
  PYGRAPH_INDIRECT_OFF = 0,     /* "0": per-node parameter updates only */
  PYGRAPH_INDIRECT_ON = 1,      /* "1": every changing kernel with a usable twin */
  PYGRAPH_INDIRECT_AUTO = 2     /* "auto" (default): only twins that start early
                                   (sm_90+); older ones measured slower than
                                   per-node updates */
};

/* PYGRAPH_* variables the runtime reads (settings.c's table). */
#define PYGRAPH_SETTINGS_COUNT 19u

/* pygraph's own graph steps that PYGRAPH_FAULT can make fail (port/fault_inject.h). */
enum pygraph_fault_step {
  PYGRAPH_FAULT_CAPTURE,        /* building a graph from a recorded iteration */
  PYGRAPH_FAULT_INSTANTIATE,
  PYGRAPH_FAULT_UPDATE,         /* node updates and argument-block refreshes */
  PYGRAPH_FAULT_LAUNCH,
  PYGRAPH_FAULT_STEPS
};

struct pygraph_settings {
  enum pygraph_mode mode;
  unsigned warmup;              /* identical iterations before a capture */
  int warmup_set;               /* PYGRAPH_WARMUP was given (graph mode then
                                   uses it instead of its 1) */
  unsigned max_captures;        /* per segment (all variants, re-captures
                                   included); a miss after that goes eager for
                                   good ("signature unstable") */
  int report;                   /* PYGRAPH_REPORT=1: summary lines on stderr at exit */
  const char *dot_dir;          /* PYGRAPH_DOT_DIR: a folder where every graph pygraph
                                   instantiates is written as DOT (cudaGraphDebugDotPrint,
                                   verbose); NULL or "": none.  Any text is a folder: it
                                   makes no warning (PYGRAPH_SETTINGS_COUNT counts those
                                   that can) */
  const char *report_json;      /* PYGRAPH_REPORT=json:PATH (or <flag>,json:PATH): the
                                   JSON report's path, "%p" standing for the process
                                   id (report_json.h); NULL: none */
  int nvtx;                     /* PYGRAPH_NVTX (default 1): NVTX ranges around region
                                   segments' iterations (segment/ranges.h) */
  int debug;                    /* PYGRAPH_DEBUG=1: log transitions */
  int indirect;                 /* PYGRAPH_INDIRECT (enum pygraph_indirect_mode):
                                   kernel nodes whose arguments change read them
                                   from a device block that one loader-node update
                                   per replay refreshes (indirect.h) */
  int mode_unknown;             /* PYGRAPH_MODE had an unrecognised value */

  /* Selective deployment (auto mode decides per segment, online): */
  unsigned max_ops;             /* PYGRAPH_MAX_OPS (default 4096): an iteration
                                   recording more ops flushes, and its segment
                                   goes eager for good ("iteration too long") */
  unsigned variants;            /* PYGRAPH_VARIANTS (default 8, 1..16): graph
                                   variants cached per segment, keyed by the
                                   launch-sequence signature; a full cache
                                   evicts only stale ones (segment.c) */
  unsigned measure_iters;       /* PYGRAPH_MEASURE_ITERS (default 12, 2..64):
                                   iteration spans measured per side (eager,
                                   graph) before a close decision */
  unsigned margin_pct;          /* PYGRAPH_MARGIN (default 3, 0..100): a graph
                                   is kept only if its period plus amortized
                                   capture cost is this many percent below eager */
  unsigned min_ops;             /* PYGRAPH_MIN_OPS (default 2): auto mode captures no
                                   iteration of fewer ops (decide.h) */
  unsigned pool_mb;             /* PYGRAPH_POOL_MB (default 1024, 0 off): most MiB a
                                   segment's allocation pool holds for cudaMalloc
                                   in its iterations (segment/alloc_pool.h) */
  unsigned batch;               /* PYGRAPH_BATCH (0: not set): most loop iterations
                                   per graph in batchable loops, below the
                                   plugin's batch=; 1 turns batching off */
  unsigned eager_before_capture; /* PYGRAPH_EAGER_BEFORE_CAPTURE (default 3,
                                   0..3): eager samples a signature needs before
                                   its first capture; the rest are taken in
                                   turns with the graph afterwards */
  int whole_loops;              /* PYGRAPH_WHOLE_LOOPS (default 1): loops the pass
                                   described run as one WHILE graph once verified
                                   (abi/whole_loop.h); 0: they run as written */
  unsigned cublas_workspace_mb; /* PYGRAPH_CUBLAS_WORKSPACE_MB (default
                                   PYGRAPH_CUBLAS_WORKSPACE_AUTO): MiB of the
                                   workspace pygraph gives a cuBLAS handle for
                                   each stream its calls are captured from
                                   (cuda/cublas_entry_points.c); 0: none, cuBLAS
                                   allocates one per captured graph */
  unsigned verify;              /* PYGRAPH_VERIFY (0: off): each graph variant's
                                   capture and first this many replays are also
                                   run eagerly and compared bit for bit
                                   (segment/verify.h) */

  unsigned fault_at[PYGRAPH_FAULT_STEPS];   /* PYGRAPH_FAULT=step[:N],...: the step's
                                               N-th call fails (0: never) */

  /* Values the parser did not take (each setting at most once, so the
   * table cannot overflow): the default was used instead. */
  struct pygraph_setting_problem {
    const char *name;           /* "PYGRAPH_VARIANTS" */
    const char *value;          /* what was given (the environment's string) */
    const char *expected;       /* "a number from 1 to 16", "0/1, on/off, ..." */
    const char *used;           /* the default used, as text */
  } problems[PYGRAPH_SETTINGS_COUNT];
  unsigned n_problems;
};

#define PYGRAPH_DEFAULT_WARMUP 2u
#define PYGRAPH_DEFAULT_MAX_CAPTURES 16u
#define PYGRAPH_DEFAULT_MAX_OPS 4096u
#define PYGRAPH_DEFAULT_VARIANTS 8u
#define PYGRAPH_DEFAULT_MEASURE_ITERS 12u
#define PYGRAPH_DEFAULT_MARGIN_PCT 3u
/* The warm-up takes the floor of eager samples (PYGRAPH_MEASURE_MIN). */
#define PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE 3u
#define PYGRAPH_DEFAULT_MIN_OPS 2u
#define PYGRAPH_DEFAULT_POOL_MB 1024u
/* PYGRAPH_CUBLAS_WORKSPACE_MB not given: 32 MiB on devices of compute
 * capability 9.0 and newer, 4 MiB before (what cuBLAS's documentation
 * recommends for cublasSetWorkspace on those architectures). */
#define PYGRAPH_CUBLAS_WORKSPACE_AUTO 0xffffffffu
#define PYGRAPH_CUBLAS_WORKSPACE_MAX_MB 4096u
/* PYGRAPH_VERIFY=1 (or on): replays verified per graph variant. */
#define PYGRAPH_DEFAULT_VERIFY_REPLAYS 2u

/* Fills in the defaults of every field (mode auto, NVTX ranges and whole
 * loops on). */
void pygraph_settings_defaults(struct pygraph_settings *out);

/* Pure parser; `lookup` plays getenv.  Never prints: a value it cannot take
 * (not understood, or out of range) gives the default and a problem entry.
 * Flags take 0/1, on/off, true/false, yes/no (any case). */
void pygraph_settings_parse(struct pygraph_settings *out, const char *(*lookup)(const char *name));

/* The process settings: parsed from the environment on first use; each
 * problem is one warning on stderr, naming the default used. */
const struct pygraph_settings *pygraph_settings(void);

/* "pygraph: warning: PYGRAPH_X=\"v\" is not <expected>; using <used>". */
int pygraph_settings_format_problem(char *buf, size_t cap,
                                    const struct pygraph_setting_problem *p);

/* Tests: replace the process settings (takes effect for regions first used
 * afterwards, since segments copy the settings when created); fields out of
 * their bounds are brought inside them. */
void pygraph_settings_override(const struct pygraph_settings *settings);

/* The warm-up length a segment actually uses (graph mode: 1). */
unsigned pygraph_effective_warmup(const struct pygraph_settings *settings);

/* Samples per side before any verdict: PYGRAPH_MEASURE_MIN, at most the
 * window (PYGRAPH_MEASURE_ITERS). */
unsigned pygraph_measure_first(const struct pygraph_settings *settings);
/* Eager samples needed before a signature's first capture (auto mode). */
unsigned pygraph_eager_before_capture(const struct pygraph_settings *settings);

#endif /* PYGRAPH_SETTINGS_H */
