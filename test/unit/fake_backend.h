/* fake_backend.h - a backend that logs every call as a short token and
 * fails on request, so tests can assert exactly what the runtime did.
 *
 * Tokens: k<func>(<arg0>) eager kernel (d<func>(<arg0>) a driver-API
 * launch's, recording/op.h `driver`; its node marked D in a plan), ms(<value>) memset, mc(<dst>)
 * memcpy, hb(<first byte>) host bytes (PYGRAPH_OP_HOST_BYTES), lib(<name>)
 * a library call (PYGRAPH_OP_LIBRARY: its run made, eagerly), er<event> /
 * ew<event> event record / wait, build(<plan>) (the
 * plan graph_build is given, as graph_plan.h describes it, a library op's
 * node marked L: its call is captured first, its run given
 * FAKE_CAPTURE_STREAM, and a failing one logs lib!(<name>) build! and
 * fails the build; a launch makes the captured call, its run eagerly;
 * updating a library node is refused, upd<node>!),
 * inst, xupd (in-place exec update), upd<node>, launch, destroy, clear.
 * Parameter indirection: a graph with indirect nodes logs as
 * build(<plan>; ind <op>@<offset>[w]... <bytes>B/<loaders>L), w marking a
 * twin that waits (programmatic edges from its kernel predecessors); args
 * (loader parameters updated), gsync (graph synchronized).  Like the real
 * update, args copies the host image when called: a launch's block holds
 * the image of the last build/args, not whatever the host buffer holds now.
 * WHILE graphs (graphs/while_graph.h): wbuild(<plan>; status <op>[ folded]
 * [ if]) (then inst etc. as for any graph); a launch runs the body and the
 * condition kernel's step (graphs/while_condition.h) on the fake's memory
 * until the step says stop and logs wloop(<iterations>) after launch.  A
 * body split after the status copy (` if`) runs the ops up to the copy,
 * the after-copy step, the ops after the copy only when that step says 1
 * (else it logs ifskip), then the step.
 * A failing call logs its token with '!'.  Test code logs pass-through
 * calls itself as p:<token>.
 * Timing (selective deployment) is off unless fake.timing: then events are
 * stamped with fake_gpu_us, which eager ops, graph launches and updates
 * advance by the configured costs; fake.events_pending holds them "not
 * ready".  Timing calls are never logged.
 * fake.captured_streams marks streams the "program" is capturing; the
 * runtime's capture-status queries are counted, not logged.
 * Timeline ranges are counted; with fake.log_ranges a push logs
 * [<name> and a pop ].
 * Device memory (verify mode) is fake_memory.h's: eager ops and graph
 * launches run their effect on it; cp / sync are its copies and stream
 * synchronizations. */
#ifndef PYGRAPH_TEST_FAKE_BACKEND_H
#define PYGRAPH_TEST_FAKE_BACKEND_H

#include "graphs/while_graph.h"
#include "port/backend.h"
#include "fake_memory.h"

struct fake_config {
  int fail_build;                 /* graph_build returns cudaErrorInvalidValue */
  const char *fail_while_step;    /* while_graph_build fails, naming this step */
  int fail_instantiate;
  int fail_update_at;             /* the n-th update call fails (1-based), 0 = none */
  int fail_launch;
  int launch_ran_before_failing;  /* failing launch reports the graph as enqueued */
  int exec_update_ok;             /* instantiate with a previous graph updates in place */
  int attribute_holds;             /* func_attribute_holds' answer (any kernel) */
  int driver_other_context;       /* driver_context_ok says no (a driver launch
                                     outside the current context) */
  int no_host_bytes;              /* host_bytes_source says no (the copy kernels
                                     did not load) */
  int memcpy_default_is_device;   /* answer of both_device_memory for pointers
                                     fake_memory.h does not know (its buffers
                                     answer for themselves: device or host) */
  int untimed_events;             /* every event was made with cudaEventDisableTiming
                                     (event_times says 0): its joined records are
                                     made after the graph */
  unsigned untimed_event_ids;     /* bit id: FAKE_EVENT(id) cannot time (ids < 32) */
  /* parameter indirection */
  int bad_twin;                   /* twin id that twin_check rejects */
  int twin_max_threads;           /* 0 = 1024 */
  int twin_max_smem;              /* 0 = 48 KiB */
  int fail_device_alloc;
  int fail_args_at;               /* n-th graph_set_args fails (1-based), 0 = none */
  long long resident_blocks;      /* blocks resident at once, any kernel; 0 = 1 << 20 */
  int fail_occupancy;             /* resident_blocks returns an error */
  /* selective deployment: timing events and clocks (none of it is logged) */
  int timing;                     /* timing events exist (else creating one fails) */
  int events_pending;             /* cudaEventQuery says cudaErrorNotReady */
  double events_lag_us;           /* ... until this much GPU time was queued after
                                     the event (a GPU that far behind) */
  double eager_op_us;             /* GPU time per eagerly executed op */
  double graph_launch_us;         /* GPU time per graph launch */
  double update_us;               /* GPU time per node update / argument refresh */
  double loader_us;               /* extra GPU time per launch of a graph with loaders */
  double capture_host_us;         /* host time per graph_build (capture cost) */
  double while_iteration_host_us; /* host time per body iteration of a WHILE graph
                                     launch (the runtime waits for it) */
  /* GPU time of fake kernel func id (< 64) itself, 0 for none: an eager
   * launch of it costs eager_op_us (the gap an eager launch leaves) plus
   * this, a graph launch graph_launch_us plus this for each of its kernels. */
  double kernel_us[64];
  /* Noisy timings: when set, the n-th eager op (graph launch) costs
   * eager_costs[n % n_eager_costs] (graph_costs[...]) instead of
   * eager_op_us (graph_launch_us); the counts restart at fake_reset. */
  const double *eager_costs, *graph_costs;
  unsigned n_eager_costs, n_graph_costs;
  /* the program's own stream captures */
  unsigned captured_streams;      /* bit id: FAKE_STREAM(id) is being captured */
  int launch_stream_captured;     /* graph_synchronize cannot wait (logs gsync!) */
  /* the timeline: range pushes and pops are counted; logged only when set */
  int log_ranges;                 /* push logs "[<name>", pop logs "]" */
  /* device memory (fake_memory.h) */
  int stale_updates;              /* a planted bug: graph_update_node logs and succeeds
                                     but the node keeps its old arguments */
  int fail_copy_at;               /* the n-th memory_copy fails (1-based), 0 = none */
  int fail_sync_at;               /* the n-th stream_synchronize fails, 0 = none */
  /* several devices: set_device accepts 0 .. devices - 1 (0: one device)
   * and logs dev<d> when the device changes (dev<d>! refused) */
  int devices;
  int buffer_device;              /* pointer_device's answer for fake buffers */
  int fail_on_device;             /* device + 1 on which graph launches fail (0: none) */
};

extern struct fake_config fake;
/* The calling thread's current device (get_device / set_device; 0 after
 * fake_reset on the thread that calls it), and get_device calls. */
extern _Thread_local int fake_device;
extern int fake_device_queries;
/* The spec of the last WHILE graph built. */
extern struct pygraph_while_spec fake_while_spec;
/* The most body iterations one launch of a fake WHILE graph runs. */
#define FAKE_WHILE_GUARD 100000ul
extern const struct pygraph_backend fake_backend;
extern int fake_live_graphs;      /* built and not yet destroyed */
extern int fake_layout_queries;
extern int fake_driver_layout_queries;   /* driver_param_layout calls (a CUfunction
                                            id describes as the func id does) */
extern unsigned fake_layout_last_slots;       /* arg_slots of the last layout query */
extern int fake_pointer_queries;  /* both_device_memory calls (not logged) */
extern int fake_attribute_queries;     /* func_attribute_holds calls (not logged) */
extern int fake_host_bytes_queries;   /* host_bytes_source calls (not logged): pageable is
                                         memory fake_memory.h does not know; device_range
                                         answers for fake_buffers (allocation_of) */
extern int fake_symbol_queries;   /* symbol_range calls (not logged): a symbol in a
                                     fake_buffer is its own device address, to the end of
                                     its buffer; FAKE_NO_SYMBOL and others have none */
extern int fake_twin_queries;
extern int fake_live_allocs;      /* device blocks not yet freed */
extern int fake_args_calls, fake_launch_calls;
extern int fake_live_timing_events;
extern int fake_timing_records, fake_timing_queries;
extern double fake_gpu_us;        /* the fake GPU clock: timing events record it */
extern double fake_host_us;       /* the fake host clock (now_us) */
extern int fake_clock_reads;      /* now_us calls */
extern int fake_capture_queries;  /* stream_captured calls (not logged) */
extern int fake_occupancy_queries;
extern int fake_event_times_queries;   /* event_times calls (not logged) */
/* Ranges (range_push / range_pop): open now, pushed in all, pops with none
 * open, and the colour of the last push. */
extern int fake_range_depth, fake_range_pushes, fake_range_underflows;
extern unsigned fake_range_last_colour;
/* 1: range_tool answers that no tool records ranges (as NVTX without one). */
extern int fake_range_no_tool;
/* The programmatic edges of the last graph built, as " <from>><to>" each,
 * in node order: what the plan it was given says (graph_plan.h). */
extern char fake_programmatic[1024];

/* Func ids: 1..63 have (int, long long) parameters, 64 has none,
 * FAKE_NO_LAYOUT cannot be described. */
#define FAKE_NO_LAYOUT 99
#define FAKE_NO_SYMBOL ((const void *)(unsigned long)0x9999)
#define FAKE_FUNC(id) ((const void *)(unsigned long)(id))
#define FAKE_STREAM(id) ((cudaStream_t)(unsigned long)(0x100 + (id)))
#define FAKE_EVENT(id) ((cudaEvent_t)(unsigned long)(0x200 + (id)))
/* The stream graph_build captures library calls on (graph_realise.c's own). */
#define FAKE_CAPTURE_STREAM FAKE_STREAM(30)
#define FAKE_TWIN(id) ((const void *)(unsigned long)(0x300 + (id)))
/* Twins FAKE_TWIN(FAKE_WAITING_TWINS) and up were "built for sm_90+": they
 * wait for their predecessors (fixed per id: the runtime caches twin facts). */
#define FAKE_WAITING_TWINS 20
/* Twins carrying a layout tag (others carry none, as an older plugin's):
 * TAGGED has the tag of the (int, long long) layout of funcs 1..63,
 * MISTAGGED another one. */
#define FAKE_TAGGED_TWIN 40
#define FAKE_MISTAGGED_TWIN 41

/* The int parameter (arg0) of the indirect node for op `op` of the last
 * graph launched, as the device block holds it after the fake loaders
 * ran; -999 when that op is not indirect. */
int fake_block_arg0(size_t op);

void fake_reset(void);            /* clears the log and the config */
const char *fake_log(void);
void fake_log_clear(void);
void fake_log_append(const char *fmt, ...);

#endif /* PYGRAPH_TEST_FAKE_BACKEND_H */
