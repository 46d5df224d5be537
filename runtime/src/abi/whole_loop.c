/* whole_loop.c - the whole-loop protocol (abi/whole_loop.h): entering a
 * loop, the top of each iteration, the operations the iteration makes,
 * leaving it; and the checks of an execution run as written against the
 * loop's descriptor.
 *
 * What an execution run as written is checked for, in program order:
 *   - each operation (a routed call) is the descriptor's next one: at most
 *     n_ops an iteration, the status copy at status_op a device-to-host
 *     copy of status_bytes into the status destination, no other copy to
 *     or from the host, nothing a WHILE body cannot hold;
 *   - its AFFINE and ROTATION operands hold their values of that
 *     iteration; everything else about it is iteration 0's (the same
 *     execution's) - and, in a ready loop's iteration 0, the graph's;
 *   - at every place the program went on, the exit tests made there on
 *     the host say go on; where it left, the first test that says leave is
 *     made there and leads to that exit (the exit's mask).
 * The first difference turns the loop off for good (a wrong descriptor),
 * except a ready loop's iteration 0 that differs from the graph's without
 * contradicting the descriptor: that execution runs as written and, once
 * checked, gives the next graph. */
#include "abi/whole_loop_internal.h"

#include <string.h>

#include "abi/region_stack.h"
#include "abi/report.h"
#include "common/policy.h"
#include "common/settings.h"
#include "recording/param_cache.h"
#include "recording/whole_loop.h"

/* The loop execution the calling thread is in (entered, not yet left). */
static _Thread_local struct pygraph_wl_state *tls_current;

/* The most loops a region lists that are looked through for `wl`. */
#define MAX_LISTED 1024u

/* A check failed: off for good; returns 0. */
static int fail(struct pygraph_wl_state *st, const char *why)
{
  pygraph_wl_turn_off(st, why, NULL);
  return 0;
}

/* A library call began and its operation never came (abi/whole_loop.h):
 * the loop is off; 1 then. */
static int library_unseen(struct pygraph_wl_state *st)
{
  if (!st->library_open)
    return 0;
  st->library_open = 0;
  fail(st, "a library call that was not recorded (made at once)");
  return 1;
}

static void swap_lists(struct pygraph_op_list **a, struct pygraph_op_list **b)
{
  struct pygraph_op_list *t = *a;
  *a = *b;
  *b = t;
}

/* Is (r, wl) a loop this thread may run whole now? */
static int wanted(const pygraph_region *r, const pygraph_whole_loop *wl)
{
  const struct pygraph_settings *s = pygraph_settings();
  if (!s->whole_loops || s->mode == PYGRAPH_MODE_EAGER || !r || !wl ||
      r->abi_version != PYGRAPH_ABI_VERSION)
    return 0;
  /* its own region's loop: entered with no region open; a loop inside its
   * region's loop: entered inside that region, or with none open */
  if (pygraph_open_region_depth() && (!wl->nested || pygraph_live_region() != r))
    return 0;
  unsigned n = 0;
  for (const pygraph_whole_loop *w = r->whole_loop; w && n < MAX_LISTED; w = w->next, n++)
    if (w == wl)
      return 1;
  return 0;
}

/* Leaves the execution: nothing of it is checked any more. */
static void leave_execution(struct pygraph_wl_state *st)
{
  pygraph_wl_stop_observing(st);
  tls_current = NULL;
  pygraph_wl_release(st);
}

void pygraph_whole_loop_enter_with(const struct pygraph_backend *backend, pygraph_region *r,
                                   const pygraph_whole_loop *wl,
                                   const unsigned long long *invariants)
{
  struct pygraph_wl_state *prev = tls_current;
  if (prev) {                  /* left without its exit: a longjmp, say */
    if (prev->observing)
      fail(prev, "the loop was left without passing an exit");
    leave_execution(prev);
  }
  if (!wanted(r, wl))
    return;
  pygraph_report_arm();      /* before the registry grows: the report walks it */
  struct pygraph_wl_state *st = pygraph_wl_state_of(r, wl);
  if (!st)
    return;
  if (!pygraph_wl_claim(st)) {
    __atomic_add_fetch(&st->counts.busy, 1, __ATOMIC_RELAXED);
    return;
  }
  st->backend = backend;
  if (st->phase != PYGRAPH_WL_OFF && wl->status_copy == PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL)
    fail(st, "a status copy from a symbol (not routed, not observed)");
  if (st->phase == PYGRAPH_WL_OFF) {
    pygraph_wl_release(st);
    return;
  }
  st->counts.executions++;
  for (unsigned k = 0; k < wl->n_invariants; k++)
    st->inv[k] = invariants[k];
  st->tries = 0;
  st->observing = 1;
  st->library_open = 0;
  st->matches_ref = st->phase == PYGRAPH_WL_READY;
  st->choice.timing_written = 0;
  pygraph_op_list_reset(st->cur);
  pygraph_op_list_reset(st->first);
  tls_current = st;
  pygraph_whole_loop_observer = st;
}

/* Iteration j was checked whole: counted; iteration 0 kept as `first`. */
static void complete_iteration(struct pygraph_wl_state *st, uint64_t j)
{
  st->verified++;
  st->counts.observed++;
  if (j == 0)
    swap_lists(&st->first, &st->cur);
  pygraph_op_list_reset(st->cur);
}

/* Iteration j ran all its operations and the program came back to the
 * top: its tests after the copy and at its end said go on. */
static int finish_iteration(struct pygraph_wl_state *st, uint64_t j)
{
  if (st->cur->n_ops != st->wl->n_ops)
    return fail(st, "an iteration made another number of operations than the descriptor's");
  for (unsigned where = PYGRAPH_EXIT_AFTER_COPY; where <= PYGRAPH_EXIT_AT_END; where++)
    if (pygraph_wl_eval(st, where, j) != PYGRAPH_EXIT_CONTINUE)
      return fail(st, "an exit test says leave where the program went on");
  complete_iteration(st, j);
  return 1;
}

int pygraph_whole_loop_try_with(const struct pygraph_backend *backend, pygraph_region *r,
                                const pygraph_whole_loop *wl, unsigned long long *left_in)
{
  struct pygraph_wl_state *st = tls_current;
  if (!st || st->wl != wl)
    return -1;
  uint64_t i = st->tries++;
  if (st->observing && library_unseen(st))
    return -1;
  if (i > 0 && st->observing && !finish_iteration(st, i - 1))
    return -1;
  if (st->phase != PYGRAPH_WL_READY || i == 0 || !st->observing || !st->matches_ref)
    return -1;
  if (!pygraph_wl_choose_whole(st, backend))
    return -1;
  /* a loop inside its region's loop: what the region deferred (the last
   * iteration's operations after the status copy) runs before the graph,
   * and the rest of the region's iteration passes through; a batchable
   * loop's own region (a counted loop): its open unit (iteration 0) ends
   * here and runs, as at the loop's exit, and the region_exit the program
   * then passes finds nothing open */
  if (wl->nested || pygraph_live_region() == r)
    pygraph_region_close_live();
  int k = pygraph_wl_run(st, backend, i, left_in);
  if (k >= 0)
    leave_execution(st);
  return k;
}

/* Is m operations into an iteration right after its status copy?  Never
 * in a counted loop (it has none). */
static int after_copy(const pygraph_whole_loop *wl, size_t m)
{
  return pygraph_whole_loop_has_status(wl) && m == (size_t)wl->status_op + 1;
}

/* The tests due before operation m of iteration i say go on (the program
 * makes the operation): those at the top before operation 0, those after
 * the copy before the operation after it. */
static int passes(struct pygraph_wl_state *st, size_t m, uint64_t i)
{
  unsigned where = m == 0 ? PYGRAPH_EXIT_AT_TOP : PYGRAPH_EXIT_AFTER_COPY;
  if ((m == 0 || after_copy(st->wl, m)) &&
      pygraph_wl_eval(st, where, i) != PYGRAPH_EXIT_CONTINUE)
    return fail(st, "an exit test says leave where the program went on");
  return 1;
}

/* The operation, its kernel's or library call's arguments copied, as the
 * next of cur. */
static int append(struct pygraph_wl_state *st, const struct pygraph_backend *backend,
                  const struct pygraph_op *op, void **args)
{
  struct pygraph_op o = *op;
  if (o.kind == PYGRAPH_OP_LIBRARY && pygraph_op_list_copy_library(st->cur, &o))
    return fail(st, "out of memory");
  if (o.kind == PYGRAPH_OP_KERNEL) {
    o.layout = pygraph_param_layout_lookup(backend, o.func, o.driver,
                                           o.site ? o.site->arg_slots : 0, NULL, NULL);
    if (!o.layout)
      return fail(st, "a kernel whose parameter layout is unknown");
    if ((o.layout->n_params && !args) || pygraph_op_list_copy_args(st->cur, &o, args))
      return fail(st, "a kernel's arguments could not be kept");
  }
  if (!pygraph_op_list_append(st->cur, &o))
    return fail(st, "out of memory");
  return 1;
}

/* Operation m as the descriptor has it: the status copy where it says,
 * no other copy touching the host. */
static int copy_in_place(struct pygraph_wl_state *st, size_t m)
{
  const struct pygraph_op *o = &st->cur->ops[m];
  if (pygraph_whole_loop_has_status(st->wl) && m == st->wl->status_op) {
    if (o->kind != PYGRAPH_OP_MEMCPY || o->memcpy_kind != cudaMemcpyDeviceToHost ||
        o->dst != pygraph_wl_status_dest(st) || o->count != st->wl->status_bytes)
      return fail(st, "the status copy is not the descriptor's");
  } else if (o->kind == PYGRAPH_OP_MEMCPY && o->memcpy_kind != cudaMemcpyDeviceToDevice) {
    return fail(st, "a copy to or from the host besides the status copy");
  }
  return 1;
}

/* Operation m of iteration i against the descriptor and iteration 0 (the
 * graph's in a ready loop's iteration 0). */
static void compare(struct pygraph_wl_state *st, size_t m, uint64_t i)
{
  const struct pygraph_op_list *against = i > 0 ? st->first : st->matches_ref ? st->ref : NULL;
  struct pygraph_loop_mismatch mm;
  enum pygraph_loop_difference d =
      pygraph_loop_check_op(st->wl, st->inv, st->cur, m, i, against, &mm);
  if (d == PYGRAPH_LOOP_PATTERN || (d == PYGRAPH_LOOP_CHANGED && i > 0)) {
    pygraph_wl_turn_off(st, mm.what, &mm);
  } else if (d == PYGRAPH_LOOP_CHANGED) {   /* against ref: only while matches_ref */
    st->matches_ref = 0;       /* runs as written; checked, it makes the next graph */
    st->why = "the first iteration differs from the graph's";
    st->counts.fallbacks++;
  }
}

void pygraph_whole_loop_observe(const struct pygraph_backend *backend,
                                const struct pygraph_op *op, void **args)
{
  struct pygraph_wl_state *st = pygraph_whole_loop_observer;
  if (!st || !st->observing || library_unseen(st))
    return;
  if (st->tries == 0) {
    fail(st, "an operation before the loop's first iteration");
    return;
  }
  uint64_t i = st->tries - 1;
  size_t m = st->cur->n_ops;
  if (m >= st->wl->n_ops) {
    fail(st, "an iteration made more operations than the descriptor's");
    return;
  }
  if (passes(st, m, i) && append(st, backend, op, args) && copy_in_place(st, m))
    compare(st, m, i);
}

void pygraph_whole_loop_observe_other(const char *what)
{
  struct pygraph_wl_state *st = pygraph_whole_loop_observer;
  if (st && st->observing && !library_unseen(st))
    fail(st, what);
}

void pygraph_whole_loop_library_call(void)
{
  struct pygraph_wl_state *st = pygraph_whole_loop_observer;
  if (st && st->observing && !library_unseen(st))
    st->library_open = 1;
}

int pygraph_whole_loop_host_scalar(const void *p)
{
  struct pygraph_wl_state *st = pygraph_whole_loop_observer;
  if (!st || !st->observing)
    return 1;
  return st->backend && st->backend->host_only_memory && st->backend->host_only_memory(p);
}

void pygraph_whole_loop_observe_library(const struct pygraph_backend *backend,
                                        const struct pygraph_op *op)
{
  struct pygraph_wl_state *st = pygraph_whole_loop_observer;
  if (!st || !st->observing)
    return;
  if (!st->library_open) {             /* no adapter said it began: not one to observe */
    fail(st, "a library call whose adapter is not observed");
    return;
  }
  st->library_open = 0;
  pygraph_whole_loop_observe(backend, op, NULL);
}

/* The iterations to check before a loop runs whole (policy.h). */
static uint64_t needed(const pygraph_whole_loop *wl)
{
  uint64_t n = PYGRAPH_WL_MIN_VERIFIED;
  for (unsigned k = 0; k < wl->n_values; k++)
    if (wl->values[k].evolution == PYGRAPH_EVOLVE_ROTATION && wl->values[k].count + 1u > n)
      n = wl->values[k].count + 1u;
  return n;
}

/* A checked execution ended: its iteration 0 becomes the graph's when the
 * loop has been checked enough (the graph is made at its next use). */
static void promote(struct pygraph_wl_state *st)
{
  if (st->first->n_ops != st->wl->n_ops || st->verified < needed(st->wl) || !st->leaves)
    return;
  if (st->phase == PYGRAPH_WL_READY && ++st->rebuilds > PYGRAPH_WL_MAX_REBUILDS) {
    fail(st, "the loop's operations change between executions");
    return;
  }
  swap_lists(&st->ref, &st->first);
  if (st->var.built)
    pygraph_while_variant_free(&st->var, st->backend);
  st->phase = PYGRAPH_WL_READY;
}

/* The places the program may have left at after m operations of an
 * iteration (in the order the tests are made there); 0: none. */
static unsigned places(const pygraph_whole_loop *wl, size_t m, unsigned where[2])
{
  unsigned n = 0;
  if (m == 0)
    where[n++] = PYGRAPH_EXIT_AT_TOP;
  if (after_copy(wl, m))
    where[n++] = PYGRAPH_EXIT_AFTER_COPY;
  if (m == wl->n_ops)
    where[n++] = PYGRAPH_EXIT_AT_END;
  return n;
}

/* The program left iteration tries - 1 after m operations, by an exit
 * `tests` says which tests lead to: the first test that says leave must
 * be made there and be one of them. */
static void check_leave(struct pygraph_wl_state *st, unsigned long long tests)
{
  if (st->tries == 0) {
    fail(st, "the loop was left before its first iteration");
    return;
  }
  uint64_t i = st->tries - 1;
  size_t m = st->cur->n_ops;
  unsigned where[2];
  unsigned n = places(st->wl, m, where);
  for (unsigned k = 0; k < n; k++) {
    int t = pygraph_wl_eval(st, where[k], i);
    if (t == PYGRAPH_EXIT_CONTINUE)
      continue;
    if (t < 0 || t >= 64 || !(tests >> t & 1ull)) {
      fail(st, "the loop left by another exit than its exit tests say");
      return;
    }
    st->leaves++;
    if (m == st->wl->n_ops)
      complete_iteration(st, i);
    if (!(st->phase == PYGRAPH_WL_READY && st->matches_ref))
      promote(st);
    return;
  }
  fail(st, n ? "the loop left where no exit test says leave"
             : "the loop left between two operations (an error path)");
}

void pygraph_whole_loop_exit_impl(pygraph_region *r, const pygraph_whole_loop *wl,
                                  unsigned long long tests)
{
  (void)r;
  struct pygraph_wl_state *st = tls_current;
  if (!st || st->wl != wl)
    return;
  if (st->observing && !library_unseen(st))
    check_leave(st, tests);
  pygraph_wl_note_leave(st);
  leave_execution(st);
}
