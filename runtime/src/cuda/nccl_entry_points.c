/* nccl_entry_points.c - the NCCL adapter (issue 20): __pygraph_<symbol> for
 * every PYGRAPH_NCCL_CALL and PYGRAPH_NCCL_GROUP of
 * runtime/include/pygraph_library.def.
 *
 * Outside a recording segment a call goes straight to NCCL.  Inside one it
 * is recorded as one library op (nccl_calls.h) on its stream and answers
 * ncclSuccess; it runs later in stream order with the region's other work,
 * eagerly or as one child-graph node captured from NCCL
 * (cuda/library_capture.c), like a cuBLAS call.  An error NCCL would have
 * answered at the call is reported by the runtime when the call runs
 * (abi/library_calls.h).
 *
 * Groups: NCCL collects the calls between ncclGroupStart and ncclGroupEnd
 * and launches them at the end, so they are kept here (per host thread,
 * as NCCL keeps groups) and recorded as one op at the end, a unit in
 * every run and capture.  Kept calls are made by nobody until then, which
 * is exactly what NCCL does with them, so nothing moves in stream order.
 * A group started outside a recording segment passes through whole.  Kept
 * calls are handed to NCCL (a real ncclGroupStart, then the calls, still
 * collected by NCCL until the program's own ncclGroupEnd) when the live
 * iteration ends before the group does: the pass ends a region before
 * every barrier, and a barrier inside a group (ncclCommInitRank of a group
 * initialisation) must find the group open in NCCL.
 *
 * Not recorded (what was recorded runs, then the call, at once): a call on
 * a stream the program is capturing (record.c), one on a communicator of
 * another device than the current one (pygraph captures on the current
 * device's stream), a group whose calls use several streams, and a call
 * whose communicator an earlier op of the iteration used on another stream
 * (NCCL orders calls of one communicator across streams; separate graph
 * nodes would not be).  A collective makes its segment deterministic, or
 * eager (segment.h, pygraph_segment_note_collective).  No other runtime
 * file refers to this one: a program without NCCL calls never links it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pygraph_rt.h"
#include "abi/launch_counter.h"
#include "abi/record.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"
#include "common/grow.h"
#include "cuda/nccl_calls.h"
#include "segment/segment.h"

#define PYGRAPH_EXPORT __attribute__((visibility("default")))

#pragma weak ncclGroupStart
#pragma weak ncclGroupEnd
#pragma weak ncclCommCuDevice

/* ---- the group this thread holds ------------------------------------- */

struct held_group {
  int depth;                         /* ncclGroupStart calls not yet ended */
  int held;                          /* its calls are kept here (started while recording) */
  const pygraph_site *site;          /* the outermost ncclGroupStart's */
  struct pygraph_nccl_args *args;    /* the calls kept (n of them) */
  size_t cap;                        /* calls args has room for */
};

static _Thread_local struct held_group tls_group;

/* Room for one more kept call; 0 when out of memory. */
static int room_for_one(struct held_group *g)
{
  size_t n = g->args ? g->args->n : 0;
  if (g->args && n < g->cap)
    return 1;
  size_t cap = g->cap ? 2 * g->cap : 4;
  struct pygraph_nccl_args *grown = realloc(g->args, pygraph_nccl_args_size(cap));
  if (!grown)
    return 0;
  if (!g->args)
    memset(grown, 0, sizeof *grown);
  g->args = grown;
  g->cap = cap;
  return 1;
}

/* The kept calls given to NCCL inside a group of its own, open as deep as
 * the program's; from here the group passes through. */
static ncclResult_t hand_over(struct held_group *g)
{
  ncclResult_t r = ncclSuccess;
  for (int i = 0; i < g->depth; i++)
    if (r == ncclSuccess)
      r = ncclGroupStart();
  for (size_t i = 0; g->args && i < g->args->n; i++) {
    ncclResult_t ri = pygraph_nccl_make(&g->args->calls[i], g->args->calls[i].stream);
    r = r == ncclSuccess ? ri : r;
  }
  g->held = 0;
  if (g->args)
    g->args->n = 0;
  return r;
}

/* The live iteration ended (region_stack.h): a group still open is NCCL's. */
static void iteration_ended(void)
{
  if (tls_group.held)
    (void)hand_over(&tls_group);
}

/* ---- recording ----------------------------------------------------------- */

/* Why the calls of `a` on stream `s` cannot be recorded in `seg`'s
 * iteration, or NULL. */
static const char *refusal(struct pygraph_segment *seg, const struct pygraph_nccl_args *a,
                           cudaStream_t s)
{
  int device, comm_device;
  if (cudaGetDevice(&device) != cudaSuccess)
    return "NCCL call: current device unknown";
  for (size_t i = 0; i < a->n; i++) {
    if (pygraph_normalize_stream(a->calls[i].stream, 0) != s)
      return "NCCL group on several streams";
    if (!ncclCommCuDevice || ncclCommCuDevice(a->calls[i].comm, &comm_device) != ncclSuccess ||
        comm_device != device)
      return "NCCL communicator of another device than the current one";
  }
  const struct pygraph_op_list *cur = pygraph_segment_recorded(seg);
  for (size_t k = 0; k < cur->n_ops; k++) {
    const struct pygraph_op *op = &cur->ops[k];
    if (op->kind != PYGRAPH_OP_LIBRARY || op->library != &pygraph_nccl_fn || op->stream == s)
      continue;
    const struct pygraph_nccl_args *before =
        (const struct pygraph_nccl_args *)(const void *)pygraph_op_args(cur, op);
    for (size_t i = 0; i < before->n; i++)
      for (size_t j = 0; j < a->n; j++)
        if (before->calls[i].comm == a->calls[j].comm)
          return "NCCL communicator used on two streams in one iteration";
  }
  return pygraph_segment_note_collective(seg);
}

/* Records `a` (copied) in seg's iteration: 1, or 0 after a flush (the
 * caller makes the calls). */
static int record(struct pygraph_segment *seg, const pygraph_site *site,
                  const struct pygraph_nccl_args *a)
{
  cudaStream_t s = pygraph_normalize_stream(a->calls[0].stream, 0);
  const char *refused = refusal(seg, a, s);
  if (refused) {
    (void)pygraph_record_undeferrable(seg, refused);
    return 0;
  }
  return pygraph_record_library(seg, site, &pygraph_nccl_fn, a, pygraph_nccl_args_size(a->n),
                                s) == PYGRAPH_DEFERRED;
}

/* One call (not ncclGroupStart/End) as the adapter takes it. */
static ncclResult_t route(const pygraph_site *site, const struct pygraph_nccl_call *c)
{
  pygraph_count_launch();
  if (pygraph_whole_loop_observing())
    pygraph_whole_loop_observe_other("an NCCL call");
  struct held_group *g = &tls_group;
  if (g->held) {
    if (!room_for_one(g))
      return hand_over(g) == ncclSuccess ? pygraph_nccl_make(c, c->stream) : ncclSystemError;
    g->args->calls[g->args->n++] = *c;
    return ncclSuccess;
  }
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (__builtin_expect(!seg || g->depth > 0, 1))
    return pygraph_nccl_make(c, c->stream);
  /* One call's arguments (nccl_calls.h), zeroed: the bytes, padding
   * included, are the signature. */
  _Alignas(max_align_t) unsigned char one[sizeof(struct pygraph_nccl_args) +
                                          sizeof(struct pygraph_nccl_call)];
  memset(one, 0, sizeof one);
  struct pygraph_nccl_args *a = (struct pygraph_nccl_args *)one;
  a->n = 1;
  a->calls[0] = *c;
  return record(seg, site, a) ? ncclSuccess : pygraph_nccl_make(c, c->stream);
}

/* ---- the entry points ----------------------------------------------------- */

/* Each call's values into a zeroed struct, in pygraph_nccl_call's order. */
#define PG_FIELDS(send_, recv_, count_, type_, op_, peer_, comm_, stream_)                      \
  c.send = send_;                                                                                \
  c.recv = recv_;                                                                                \
  c.count = count_;                                                                              \
  c.type = type_;                                                                                \
  c.op = op_;                                                                                    \
  c.peer = peer_;                                                                                \
  c.comm = comm_;                                                                                \
  c.stream = stream_;

#define PYGRAPH_NCCL_CALL(symbol, params, fields, call)                                          \
  PYGRAPH_EXPORT ncclResult_t __pygraph_##symbol(const pygraph_site *site,                       \
                                                 PG_UNPAREN params);                             \
  PYGRAPH_EXPORT ncclResult_t __pygraph_##symbol(const pygraph_site *site, PG_UNPAREN params)    \
  {                                                                                              \
    struct pygraph_nccl_call c;                                                                  \
    memset(&c, 0, sizeof c);                                                                     \
    c.kind = PYGRAPH_NCCL_##symbol;                                                              \
    PG_FIELDS fields                                                                             \
    return route(site, &c);                                                             \
  }
#define PG_UNPAREN(...) __VA_ARGS__
#include "pygraph_library.def"

PYGRAPH_EXPORT ncclResult_t __pygraph_ncclGroupStart(const pygraph_site *site);
PYGRAPH_EXPORT ncclResult_t __pygraph_ncclGroupEnd(const pygraph_site *site);

/* The outermost start inside a recording segment keeps the group here;
 * any other start passes through (or only nests a kept group). */
PYGRAPH_EXPORT ncclResult_t __pygraph_ncclGroupStart(const pygraph_site *site)
{
  if (!ncclGroupStart)
    return pygraph_nccl_missing("ncclGroupStart");
  struct held_group *g = &tls_group;
  if (g->depth++ > 0)
    return g->held ? ncclSuccess : ncclGroupStart();
  if (!pygraph_recording_segment())
    return ncclGroupStart();
  static int hooked;
  if (!__atomic_exchange_n(&hooked, 1, __ATOMIC_RELAXED))
    pygraph_set_iteration_end_hook(iteration_ended);
  g->held = 1;
  g->site = site;
  if (g->args)
    g->args->n = 0;
  return ncclSuccess;
}

/* The outermost end of a kept group records it as one op (an empty group
 * is nothing), or makes it at once when it cannot be recorded. */
PYGRAPH_EXPORT ncclResult_t __pygraph_ncclGroupEnd(const pygraph_site *site)
{
  (void)site;
  if (!ncclGroupEnd)
    return pygraph_nccl_missing("ncclGroupEnd");
  struct held_group *g = &tls_group;
  if (g->depth == 0 || !g->held) {
    g->depth -= g->depth > 0;
    return ncclGroupEnd();           /* NCCL's own answer to an unmatched end too */
  }
  if (--g->depth > 0)
    return ncclSuccess;
  g->held = 0;
  if (!g->args || g->args->n == 0)
    return ncclSuccess;
  g->args->group = 1;
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && record(seg, g->site, g->args))
    return ncclSuccess;
  g->depth = 1;                       /* made now, as NCCL would have at this end */
  g->held = 1;
  ncclResult_t r = hand_over(g);
  g->depth = 0;
  ncclResult_t end = ncclGroupEnd();
  return r == ncclSuccess ? end : r;
}
