/* cufft_entry_points.c - the cuFFT adapter (issue 18): __pygraph_<symbol>
 * for every PYGRAPH_CUFFT_CALL and PYGRAPH_CUFFT_OBSERVED of
 * runtime/include/pygraph_library.def.
 *
 * A cuFFT execution enqueues its transform on the plan's stream, which the
 * call does not name: the adapter keeps each plan's stream from the calls
 * it observes (cufftCreate and cufftPlan* make a plan on the legacy
 * stream, cufftSetStream moves it, cufftDestroy forgets it).  Inside a
 * recording segment an execution on a plan whose stream it knows is
 * recorded as one library op on that stream and answers CUFFT_SUCCESS; it
 * runs later in stream order with the region's other work, eagerly or as
 * one child-graph node captured from cuFFT (cuda/library_capture.c): for
 * the capture the plan is moved to pygraph's capturing stream and back to
 * the program's stream right after.  A plan whose stream the adapter did
 * not see set (made or moved in a file built without pygraph) is not
 * recorded: what was recorded runs, then the call, at once.  An error
 * cuFFT would have answered at the call is reported by the runtime when
 * the call runs (abi/library_calls.h).  cuFFT's functions are weak: the
 * runtime links into programs without cuFFT, and no other runtime file
 * refers to this one.  A graph captured from a plan is never replayed
 * after any cufftDestroy (its work area may be gone). */
#include <cufft.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "pygraph_rt.h"
#include "abi/launch_counter.h"
#include "abi/record.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"
#include "common/key_table.h"

#define PYGRAPH_EXPORT __attribute__((visibility("default")))

#define PG_PRAGMA(text) _Pragma(#text)
#define PYGRAPH_CUFFT_CALL(symbol, params, fields, call) PG_PRAGMA(weak symbol)
#define PYGRAPH_CUFFT_OBSERVED(symbol) PG_PRAGMA(weak symbol)
#include "pygraph_library.def"

/* Which execution (one per PYGRAPH_CUFFT_CALL). */
enum pygraph_cufft_kind {
#define PYGRAPH_CUFFT_CALL(symbol, params, fields, call) PYGRAPH_CUFFT_##symbol,
#include "pygraph_library.def"
  PYGRAPH_CUFFT_KINDS
};

/* One execution's values, zeroed before they are set: every byte is
 * signature. */
struct pygraph_cufft_call {
  enum pygraph_cufft_kind kind;
  cufftHandle plan;
  int direction;                     /* 0 for the real-to-complex kinds */
  void *in, *out;
  cudaStream_t stream;               /* the plan's, as the program set it (0: legacy) */
  /* cufftDestroy calls before this one: a graph captured from a plan uses
   * the plan's work area, freed with it, and a new plan may get the old
   * handle, so a call never matches one recorded before a destroy. */
  unsigned long long destroys;
};

static unsigned long long destroys;   /* atomic */

/* ---- the plans' streams ------------------------------------------------ */

struct plan_entry {
  struct pygraph_table_key key;      /* the plan handle, + 1 (never NULL) */
  int known;                         /* 0 once destroyed */
  cudaStream_t stream;
};

static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table plans = PYGRAPH_KEY_TABLE_INIT(struct plan_entry);

static struct pygraph_table_key plan_key(cufftHandle plan)
{
  struct pygraph_table_key k = {(const void *)((uintptr_t)(unsigned)plan + 1u), 0, 0};
  return k;
}

/* The plan is on `stream` (known = 1), or forgotten (known = 0).  Out of
 * memory, the plan stays unknown: its executions then run at once. */
static void plan_set(cufftHandle plan, int known, cudaStream_t stream)
{
  pthread_mutex_lock(&plans_lock);
  struct plan_entry *e = pygraph_key_table_find(&plans, plan_key(plan));
  if (!e && known)
    e = pygraph_key_table_insert(&plans, plan_key(plan));
  if (e) {
    e->known = known;
    e->stream = stream;
  }
  pthread_mutex_unlock(&plans_lock);
}

/* 1 and *stream when the plan's stream is known. */
static int plan_stream(cufftHandle plan, cudaStream_t *stream)
{
  pthread_mutex_lock(&plans_lock);
  const struct plan_entry *e = pygraph_key_table_find(&plans, plan_key(plan));
  int known = e && e->known;
  if (known)
    *stream = e->stream;
  pthread_mutex_unlock(&plans_lock);
  return known;
}

/* ---- making a call -------------------------------------------------------- */

static cufftResult missing(void) { return CUFFT_MISSING_DEPENDENCY; }

static cufftResult make(const struct pygraph_cufft_call *c)
{
  switch (c->kind) {
#define PYGRAPH_CUFFT_CALL(symbol, params, fields, call)                                         \
  case PYGRAPH_CUFFT_##symbol:                                                                   \
    return symbol ? symbol call : missing();
#include "pygraph_library.def"
  default:
    return CUFFT_INTERNAL_ERROR;
  }
}

/* The library op's run: on the program's stream, or inside pygraph's
 * capture on capture_stream, the plan moved there for the call and back. */
static int run_op(const void *args, cudaStream_t capture_stream)
{
  const struct pygraph_cufft_call *c = args;
  if (!capture_stream)
    return (int)make(c);
  if (!cufftSetStream)
    return (int)missing();
  cufftResult r = cufftSetStream(c->plan, capture_stream);
  if (r == CUFFT_SUCCESS)
    r = make(c);
  cufftResult back = cufftSetStream(c->plan, c->stream);
  return (int)(r == CUFFT_SUCCESS ? back : r);
}

static const char *status_name(int status)
{
  switch (status) {
  case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
  case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
  case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
  case CUFFT_MISSING_DEPENDENCY: return "CUFFT_MISSING_DEPENDENCY (cuFFT not loaded)";
  default: return NULL;
  }
}

static const struct pygraph_library_fn cufft_fn = {"cufft", run_op, status_name, 0};

/* An execution as the adapter takes it: recorded in the live segment when
 * its plan's stream is known, else made now (after what was recorded). */
static cufftResult route(const pygraph_site *site, struct pygraph_cufft_call *c)
{
  pygraph_count_launch();
  if (pygraph_whole_loop_observing())
    pygraph_whole_loop_library_call();
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (__builtin_expect(!seg, 1))
    return make(c);
  if (!plan_stream(c->plan, &c->stream)) {
    (void)pygraph_record_undeferrable(seg, "cuFFT plan whose stream pygraph did not see set");
    return make(c);
  }
  c->destroys = __atomic_load_n(&destroys, __ATOMIC_ACQUIRE);
  cudaStream_t s = pygraph_normalize_stream(c->stream, 0);
  if (pygraph_record_library(seg, site, &cufft_fn, c, sizeof *c, s) == PYGRAPH_DEFERRED)
    return CUFFT_SUCCESS;
  return make(c);
}

/* ---- the entry points ----------------------------------------------------- */

#define PG_UNPAREN(...) __VA_ARGS__
#define PG_SET(in_, out_, direction_)                                                            \
  c.in = (void *)(in_);                                                                          \
  c.out = (void *)(out_);                                                                        \
  c.direction = (direction_);
#define PYGRAPH_CUFFT_CALL(symbol, params, fields, call)                                         \
  PYGRAPH_EXPORT cufftResult __pygraph_##symbol(const pygraph_site *site, PG_UNPAREN params);   \
  PYGRAPH_EXPORT cufftResult __pygraph_##symbol(const pygraph_site *site, PG_UNPAREN params)    \
  {                                                                                              \
    struct pygraph_cufft_call c;                                                                 \
    memset(&c, 0, sizeof c);                                                                     \
    c.kind = PYGRAPH_CUFFT_##symbol;                                                             \
    c.plan = plan;                                                                               \
    PG_SET fields                                                                                \
    return route(site, &c);                                                                      \
  }
#include "pygraph_library.def"

/* The observed calls: made as the program made them; the plan's stream
 * noted when they succeed.  Each is a barrier (no segment records here).
 * A call that makes a plan leaves it on the legacy stream. */
#define PG_PLAN_MAKER(symbol, params, args)                                                       \
  PYGRAPH_EXPORT cufftResult __pygraph_##symbol(const pygraph_site *site, PG_UNPAREN params);   \
  PYGRAPH_EXPORT cufftResult __pygraph_##symbol(const pygraph_site *site, PG_UNPAREN params)    \
  {                                                                                              \
    (void)site;                                                                                  \
    if (!symbol)                                                                                 \
      return missing();                                                                          \
    cufftResult r = symbol args;                                                                 \
    if (r == CUFFT_SUCCESS && plan)                                                              \
      plan_set(*plan, 1, 0);                                                                     \
    return r;                                                                                    \
  }

PG_PLAN_MAKER(cufftCreate, (cufftHandle *plan), (plan))
PG_PLAN_MAKER(cufftPlan1d, (cufftHandle *plan, int nx, cufftType type, int batch),
              (plan, nx, type, batch))
PG_PLAN_MAKER(cufftPlan2d, (cufftHandle *plan, int nx, int ny, cufftType type),
              (plan, nx, ny, type))
PG_PLAN_MAKER(cufftPlan3d, (cufftHandle *plan, int nx, int ny, int nz, cufftType type),
              (plan, nx, ny, nz, type))
PG_PLAN_MAKER(cufftPlanMany,
              (cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist,
               int *onembed, int ostride, int odist, cufftType type, int batch),
              (plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch))

PYGRAPH_EXPORT cufftResult __pygraph_cufftSetStream(const pygraph_site *site, cufftHandle plan,
                                                    cudaStream_t stream);
PYGRAPH_EXPORT cufftResult __pygraph_cufftSetStream(const pygraph_site *site, cufftHandle plan,
                                                    cudaStream_t stream)
{
  (void)site;
  if (!cufftSetStream)
    return missing();
  cufftResult r = cufftSetStream(plan, stream);
  if (r == CUFFT_SUCCESS)
    plan_set(plan, 1, stream);
  return r;
}

PYGRAPH_EXPORT cufftResult __pygraph_cufftDestroy(const pygraph_site *site, cufftHandle plan);
PYGRAPH_EXPORT cufftResult __pygraph_cufftDestroy(const pygraph_site *site, cufftHandle plan)
{
  (void)site;
  plan_set(plan, 0, 0);
  __atomic_add_fetch(&destroys, 1, __ATOMIC_RELEASE);
  return cufftDestroy ? cufftDestroy(plan) : missing();
}
