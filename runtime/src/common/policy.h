/* policy.h - every fixed bound of pygraph's runtime policy, in one place,
 * each with what it bounds.  The settings (settings.h) are the bounds a
 * user may move; these are not settings.  Where a figure comes from a
 * measurement, bench/results.md holds it. */
#ifndef PYGRAPH_POLICY_H
#define PYGRAPH_POLICY_H

/* ---- capacities ------------------------------------------------------------ */

/* Graph variants a segment can hold (PYGRAPH_VARIANTS is at most this). */
#define PYGRAPH_MAX_VARIANTS 16u
/* Samples a side can hold (PYGRAPH_MEASURE_ITERS is at most this). */
#define PYGRAPH_MAX_MEASURE_ITERS 64u
/* Signatures whose samples a segment keeps (least recently used replaced). */
#define PYGRAPH_SIG_STATS (PYGRAPH_MAX_VARIANTS + 4u)
/* Timing events recorded and not yet read (a full ring records nothing). */
#define PYGRAPH_MEASURE_RING 32u

/* ---- when a launch sequence is worth a graph -------------------------------- */

/* Misses in a row whose signatures were not among the last this many:
 * "signature never repeats", eager for good. */
#define PYGRAPH_NEVER_REPEATS 16u
/* Iterations a segment may record without ever capturing before it stops
 * recording ("launch sequence never settles"), counted from its start or
 * from a probe's restart of the warm-up. */
#define PYGRAPH_SETTLE_ITERS 256u
/* Iterations a pinned capture candidate may stay away before another
 * signature takes its place. */
#define PYGRAPH_PIN_PATIENCE 32u
/* Capture prior: host time of capture + instantiate of n ops, in us, before
 * this process has timed any (capture_cost.c scales it by what it sees,
 * within the bounds below). */
#define PYGRAPH_CAPTURE_BASE_US 80.0
#define PYGRAPH_CAPTURE_PER_OP_US 3.0
#define PYGRAPH_CAPTURE_SCALE_MIN 0.25
#define PYGRAPH_CAPTURE_SCALE_MAX 16.0
/* What a graph can save per op and iteration at most (an eager launch of a
 * tiny kernel against a graph node). */
#define PYGRAPH_GAIN_PER_OP_US 2.5
/* What measuring a new graph against eager runs costs, in us. */
#define PYGRAPH_MEASURE_COST_US 60.0

/* ---- batchable loops -------------------------------------------------------- */

/* Full units a known trip count must give, at least. */
#define PYGRAPH_BATCH_MIN_UNITS 8u
/* An iteration of this many ops is not batched: its graph keeps the GPU
 * busier than the graph launch that batching saves costs the host. */
#define PYGRAPH_BATCH_MAX_ITER_OPS 16u
/* Most iterations per unit when an iteration's ops use several streams: a
 * unit of many multi-stream iterations is one graph of many fork-join
 * stages, which ran slower on the GPU than the eager launches it replaced
 * (bench/results.md, issue 39: multistream.cu on an H100, loop ms by K). */
#define PYGRAPH_BATCH_MULTISTREAM_K 2u
/* GPU time per unit beyond this many host periods between units: the loop
 * is GPU-bound and a graph saves nothing the host waits for. */
#define PYGRAPH_GPU_BOUND_RATIO 1.25
/* What a graph can save per op of a GPU-bound iteration at most: the GPU's
 * idle time between two dependent kernels launched eagerly, which a graph
 * shortens (measured: 0.6-0.8 us an op on an H100).  Bounds the gain a
 * capture of a GPU-bound loop is weighed by; the samples decide. */
#define PYGRAPH_GPU_GAP_PER_OP_US 0.5

/* ---- measuring (auto mode) --------------------------------------------------- */

/* Iterations in a row per side while eager runs and graphs take turns. */
#define PYGRAPH_TURN_RUN 4u
/* The floor of samples per side (eager runs, a graph) before anything is
 * concluded from them: a verdict (a clear case by pygraph_clear_verdict
 * needs no more, a close one the full window), and an undecided graph run
 * outside its measuring turns.  Three, so that no single sample decides:
 * their median is two agreeing samples (one may be the cold first), and
 * every one of them must agree for a verdict by extremes.  The warm-up
 * takes eager's (PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE), so a clear case
 * runs eagerly only during the warm-up. */
#define PYGRAPH_MEASURE_MIN 3u
/* Iterations of its signature after which an undecided graph is decided
 * on what was read (eager when too little). */
#define PYGRAPH_VERDICT_ITERS 128u
/* Iterations of its signature a new launch sequence's graph may run on a
 * kept sibling's clear gain (verdicts.h) before its own floor of samples is
 * read: bounds what a slower one costs while its samples lag. */
#define PYGRAPH_SIBLING_TRUST_ITERS 64u
/* An indirect graph of more indirect nodes meets no direct rival: updating
 * each of them every replay only loses against one argument-block copy. */
#define PYGRAPH_RIVAL_MAX_INDIRECT 32u
/* Unread timing events that mean the GPU is far behind ... */
#define PYGRAPH_BACKLOG_EVENTS 3u
/* ... which matters in a segment's first this many iterations. */
#define PYGRAPH_YOUNG_ITERS 64u
/* Iterations skipped after polling an event that was not done. */
#define PYGRAPH_POLL_BACKOFF 3u

/* ---- after a decision -------------------------------------------------------- */

/* Re-evaluations (hence decision flips) per segment. */
#define PYGRAPH_MAX_FLIPS 3u
/* Iterations per behaviour sample (hysteresis), and the staleness after
 * which a variant no longer holds its cache slot or keeps measuring on. */
#define PYGRAPH_BEHAVIOUR_BLOCK 64u
/* A decided-eager segment records 2 consecutive iterations of every this many. */
#define PYGRAPH_PROBE_INTERVAL 64u

/* ---- host-to-device copies (recording/host_bytes.h) ----------------------------- */

/* The most bytes a synchronous host-to-device copy delivers from a snapshot
 * taken at its call: PYGRAPH_HOST_BYTES_MAX, in pygraph_abi.h because the
 * pass judges constant sizes by it too. */

/* ---- verify mode (segment/verify.h) ------------------------------------------ */

/* Bytes of device buffers one verification may shadow (their sum); beyond,
 * verification is off for the segment: it holds a device copy and a host
 * copy of each while it runs. */
#define PYGRAPH_VERIFY_MAX_BYTES (1ull << 30)
/* Bytes the graph's results are read back in, per host copy compared. */
#define PYGRAPH_VERIFY_CHUNK (16ull << 20)

/* ---- whole loops (abi/whole_loop.h) -------------------------------------------- */

/* Iterations checked against the descriptor (over all executions so far)
 * before a loop runs as one WHILE graph, at least; and more than its
 * largest rotation has members, so that every member was seen moving. */
#define PYGRAPH_WL_MIN_VERIFIED 3u
/* Times a ready loop's first iteration may differ from its graph's (other
 * buffers, another launch configuration: the graph is made again from a
 * checked execution) before the loop runs as written for good. */
#define PYGRAPH_WL_MAX_REBUILDS 4u
/* Executions of each side (the WHILE graph, the loop as written) timed
 * before auto keeps the faster for good (abi/whole_loop_choice.c): two,
 * so that the first WHILE launch's one-time costs (the graph's upload)
 * and one disturbed execution do not decide alone. */
#define PYGRAPH_WL_CHOICE_SAMPLES 2u
/* ...unless the first execution of each already shows the WHILE graph this
 * many times slower per iteration: each timed WHILE execution runs the
 * whole loop at that rate (measured on an H100: 8x for a counted loop of
 * two small kernels), and one-time costs cannot make up such a factor
 * in an execution of more than a few hundred microseconds. */
#define PYGRAPH_WL_CLEAR_LOSS 2.0
/* What a WHILE graph's body costs the GPU an iteration at the least, per
 * node (its operations and its condition kernel run one after another,
 * full edges, launched by the device): a hand-made WHILE loop of five
 * small nodes took 8.0-8.6 us an iteration on an H100
 * (bench/while_body_bench.cu, bench/results.md), 1.6-1.7 us a node; this
 * floor stays below it.  A loop as written whose timed execution already
 * takes no more than the floor times its body's nodes is not tried whole
 * (abi/whole_loop_choice.c). */
#define PYGRAPH_WL_NODE_FLOOR_US 1.2

#endif /* PYGRAPH_POLICY_H */
