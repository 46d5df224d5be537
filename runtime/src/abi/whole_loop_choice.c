/* whole_loop_choice.c - in auto mode, a ready loop's WHILE graph against
 * the loop as written (whole_loop_internal.h, "the choice").
 *
 * A WHILE graph takes the host out of the loop but is not always faster:
 * its body (the iteration's nodes, the status copy, the condition kernel,
 * twins reading their arguments) can cost the GPU more per iteration than
 * the host-bound loop it replaces.  So the two take turns by execution,
 * as written first, until each has PYGRAPH_WL_CHOICE_SAMPLES executions
 * timed (one each when the WHILE graph is PYGRAPH_WL_CLEAR_LOSS times
 * slower); the loop then runs whole for good if its time per iteration is
 * lower, else as written for good (off).  None is run whole at all when
 * the first execution as written took no more per iteration than a WHILE
 * body of its nodes can (PYGRAPH_WL_NODE_FLOOR_US a node): a trial would
 * run a whole execution slower.  Both are timed on the host clock from
 * the top of iteration 1 to the loop's exit (the WHILE graph's launch is
 * waited for there; its build is not counted): what the program waits
 * for.  An execution run as written for a sample is not checked (the
 * checks would slow it); a ready loop needs no more checking.
 * PYGRAPH_MODE=graph runs whole without a choice, and so does a backend
 * without a clock.
 *
 * A counted loop (no status copy) as written does not wait for the GPU:
 * a batchable one queues its batched graphs and leaves while they run,
 * whereas the WHILE launch is waited for.  So its timed execution as
 * written ends once its stream's work is done (a stream synchronize at
 * its exit, after the batch's region exit issued what the batch held
 * back; not while the program captures that stream): both sides are then
 * timed to the GPU's end, and the batched graphs are what the WHILE graph
 * is compared with. */
#include "abi/whole_loop_internal.h"

#include "common/debug_log.h"
#include "common/policy.h"
#include "common/settings.h"
#include "recording/whole_loop.h"

static int choosing(const struct pygraph_wl_state *st, const struct pygraph_backend *backend)
{
  return pygraph_settings()->mode == PYGRAPH_MODE_AUTO && backend->now_us &&
         st->choice.verdict == PYGRAPH_WL_UNDECIDED;
}

static void log_choice(const struct pygraph_wl_state *st, const char *what)
{
  const pygraph_region *r = st->region;
  pygraph_debug_log(pygraph_settings(),
                    "whole loop %s %s:%u-%u: %s (whole %.2f us vs as written %.2f us per "
                    "iteration, %u and %u executions)",
                    r->function ? r->function : "?", r->file ? r->file : "?",
                    st->wl->line_begin, st->wl->line_end, what,
                    pygraph_wl_side_us(&st->choice.whole), pygraph_wl_side_us(&st->choice.written),
                    st->choice.whole.samples, st->choice.written.samples);
}

/* A clear loss after one execution of each side (PYGRAPH_WL_CLEAR_LOSS). */
static int clear_loss(const struct pygraph_wl_choice *c)
{
  return c->whole.samples >= 1 && c->written.samples >= 1 &&
         pygraph_wl_side_us(&c->whole) >= PYGRAPH_WL_CLEAR_LOSS * pygraph_wl_side_us(&c->written);
}

/* The least a WHILE graph's iteration can take: its body's nodes (the
 * iteration's operations, the condition kernel, and where a test follows
 * the status copy the after-copy kernel and the IF node) one after
 * another, PYGRAPH_WL_NODE_FLOOR_US each. */
static double whole_floor_us(const pygraph_whole_loop *wl)
{
  return PYGRAPH_WL_NODE_FLOOR_US * (double)(wl->n_ops + 1);
}

/* The loop as written, timed once, already as fast as a WHILE graph of its
 * nodes could be: none is tried. */
static int written_beats_floor(const struct pygraph_wl_state *st)
{
  const struct pygraph_wl_choice *c = &st->choice;
  return c->whole.samples == 0 && c->written.samples >= 1 &&
         pygraph_wl_side_us(&c->written) <= whole_floor_us(st->wl);
}

/* Both sides timed often enough, or a clear loss: the faster one for good
 * (a tie, to a millionth, the sums' rounding, goes to the loop as written:
 * the WHILE graph must earn its place). */
static void decide(struct pygraph_wl_state *st)
{
  const struct pygraph_wl_choice *c = &st->choice;
  if (written_beats_floor(st)) {
    st->choice.verdict = PYGRAPH_WL_WRITTEN;
    log_choice(st, "not tried whole: as written already at a WHILE body's floor");
    pygraph_wl_turn_off(st, "the loop as written is as fast as a WHILE graph of its nodes can be",
                        NULL);
    return;
  }
  if (!clear_loss(c) && (c->whole.samples < PYGRAPH_WL_CHOICE_SAMPLES ||
                         c->written.samples < PYGRAPH_WL_CHOICE_SAMPLES))
    return;
  if (pygraph_wl_side_us(&c->whole) < pygraph_wl_side_us(&c->written) * (1.0 - 1e-6)) {
    st->choice.verdict = PYGRAPH_WL_WHOLE;
    log_choice(st, "runs whole: faster");
    return;
  }
  st->choice.verdict = PYGRAPH_WL_WRITTEN;
  log_choice(st, "slower whole");
  pygraph_wl_turn_off(st, "the WHILE graph is slower than the loop as written", NULL);
}

static void add_sample(struct pygraph_wl_side *side, double us, uint64_t iterations)
{
  if (iterations == 0 || us < 0.0)
    return;
  side->us += us;
  side->iterations += iterations;
  side->samples++;
}

int pygraph_wl_choose_whole(struct pygraph_wl_state *st, const struct pygraph_backend *backend)
{
  if (!choosing(st, backend) || st->choice.whole.samples < st->choice.written.samples)
    return 1;
  st->choice.written_since = backend->now_us();
  st->choice.timing_written = 1;
  pygraph_wl_stop_observing(st);
  return 0;
}

double pygraph_wl_whole_clock(const struct pygraph_wl_state *st,
                              const struct pygraph_backend *backend)
{
  return choosing(st, backend) ? backend->now_us() : -1.0;
}

void pygraph_wl_note_whole(struct pygraph_wl_state *st, const struct pygraph_backend *backend,
                           double since, uint64_t iterations)
{
  if (since < 0.0)               /* not timed: no choice being made */
    return;
  add_sample(&st->choice.whole, backend->now_us() - since, iterations);
  decide(st);
}

/* A timed counted loop as written: its work done before the clock is read
 * (see the top).  Iteration 0's first operation names the stream. */
static void wait_written(const struct pygraph_wl_state *st)
{
  const struct pygraph_backend *b = st->backend;
  if (pygraph_whole_loop_has_status(st->wl) || !st->first->n_ops || !b->stream_synchronize)
    return;
  cudaStream_t stream = st->first->ops[0].stream;
  if (b->stream_captured && b->stream_captured(stream))
    return;
  (void)b->stream_synchronize(stream);   /* an error here stays the program's to see */
}

void pygraph_wl_note_leave(struct pygraph_wl_state *st)
{
  if (!st->choice.timing_written)
    return;
  st->choice.timing_written = 0;
  wait_written(st);
  /* set by pygraph_wl_choose_whole in this execution, whose backend has a
   * clock; iterations 1 .. tries - 1 ran (the last maybe in part, as the
   * WHILE graph's last does) */
  add_sample(&st->choice.written, st->backend->now_us() - st->choice.written_since,
             st->tries ? st->tries - 1 : 0);
  decide(st);
}
