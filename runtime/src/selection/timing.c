/* timing.c - what is timed and how, host clocks, samples read (timing.h). */
#include "selection/timing.h"

#include "common/debug_log.h"
#include "selection/signatures.h"

/* Segment iterations ended by this thread: a segment whose previous
 * iteration was the thread's previous one runs back to back (solo). */
static _Thread_local unsigned long long iteration_clock;

int pygraph_timing_solo(const struct pygraph_selection *sel)
{
  return sel->last_clock == iteration_clock;
}

void pygraph_timing_iteration_ends(struct pygraph_selection *sel)
{
  sel->last_clock = ++iteration_clock;
}

double pygraph_timing_now_us(const struct pygraph_selection *sel)
{
  return sel->backend->now_us ? sel->backend->now_us() : 0.0;
}

int pygraph_timing_possible(struct pygraph_selection *sel)
{
  return pygraph_measure_possible(&sel->measure, sel->backend);
}

void pygraph_timing_break(struct pygraph_selection *sel)
{
  pygraph_measure_break(&sel->measure);
}

void pygraph_timing_shadow_start(struct pygraph_selection *sel, cudaStream_t stream)
{
  sel->shadow_timed = 0;
  if (!pygraph_measure_possible(&sel->measure, sel->backend))
    return;
  struct pygraph_sample_tag start = {.kind = PYGRAPH_SAMPLE_NONE};
  pygraph_measure_break(&sel->measure);
  pygraph_measure_record(&sel->measure, sel->backend, stream, &start);
  sel->shadow_timed = 1;
}

/* Back to back with a timed iteration of the same signature and kind (and
 * graph), the sample is the period between their end events: what an
 * iteration costs in steady state, host work between iterations included -
 * unless the host spent longer outside the region than inside it since the
 * last timed end (its own work would be timed).  Otherwise it is a span:
 * an event before its work, one after, so other segments' or signatures'
 * work never counts - except when only the kind changed (a new run of
 * measuring turns): that iteration gives no sample, its end event starts
 * the next periods. */
void pygraph_timing_start(struct pygraph_selection *sel, cudaStream_t stream, int solo,
                          const struct pygraph_sample_tag *planned, int clocked, double begin_us)
{
  double t0 = sel->now.t0;
  if (solo && clocked && begin_us - sel->timed_end_us > t0 - begin_us)
    solo = 0;                                 /* the host works outside: a span */
  int run = solo && sel->measure.chain && sel->timed_iter + 1 == sel->iters &&
            sel->timed_hash == planned->hash;
  if (run && planned->kind != PYGRAPH_SAMPLE_NONE && sel->timed_kind == planned->kind &&
      sel->timed_variant == planned->variant)
    return;                                   /* a period */
  pygraph_measure_break(&sel->measure);
  if (!run) {                                 /* a span */
    struct pygraph_sample_tag start = {.hash = planned->hash, .kind = PYGRAPH_SAMPLE_NONE};
    pygraph_measure_record(&sel->measure, sel->backend, stream, &start);
  }
}

void pygraph_timing_end(struct pygraph_selection *sel, cudaStream_t stream,
                        struct pygraph_sample_tag *tag)
{
  sel->timed++;
  sel->timed_end_us = pygraph_timing_now_us(sel);
  tag->host_us = (float)(sel->timed_end_us - sel->now.t0);
  pygraph_measure_record(&sel->measure, sel->backend, stream, tag);
  sel->timed_iter = sel->iters;
  sel->timed_hash = tag->hash;
  sel->timed_kind = tag->kind;
  sel->timed_variant = tag->variant;
}

/* measure.h's sink: a finished sample goes to its signature's eager side
 * or to its graph's verdict. */
static void add_sample(void *ctx, const struct pygraph_sample_tag *tag, double us)
{
  struct pygraph_selection *sel = ctx;
  struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, tag->hash);
  if (!s || tag->kind == PYGRAPH_SAMPLE_NONE)
    return;
  struct pygraph_samples *smp = tag->kind == PYGRAPH_SAMPLE_EAGER ? &s->eager : NULL;
  for (unsigned i = 0; !smp && i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (v && v->id == tag->variant)
      smp = &pygraph_sel_verdict(sel, v)->samples;
  }
  if (!smp || smp->n >= sel->settings->measure_iters)
    return;
  smp->us[smp->n++] = (float)us;
  smp->host_sum += tag->host_us;
  if (smp == &s->eager)
    pygraph_debug_log(sel->settings, SEG_FMT ": sample eager %.1f us (runtime host %.1f us)",
                      SEG_ARGS(sel), us, (double)tag->host_us);
  else
    pygraph_debug_log(sel->settings,
                      SEG_FMT ": sample graph #%llu %.1f us (runtime host %.1f us)",
                      SEG_ARGS(sel), tag->variant, us, (double)tag->host_us);
}

void pygraph_timing_poll(struct pygraph_selection *sel)
{
  if (!sel->measure.count)
    return;
  if (sel->poll_backoff)
    sel->poll_backoff--;
  else if (!pygraph_measure_poll(&sel->measure, sel->backend, add_sample, sel) &&
           sel->measure.count > 1)
    sel->poll_backoff = PYGRAPH_POLL_BACKOFF;
}

void pygraph_timing_release_idle(struct pygraph_selection *sel, int timed)
{
  if (!timed && sel->iters - sel->timed_iter > PYGRAPH_BEHAVIOUR_BLOCK &&
      pygraph_measure_release(&sel->measure, sel->backend))
    pygraph_debug_log(sel->settings, SEG_FMT ": timing events released", SEG_ARGS(sel));
}

void pygraph_timing_end_probe(struct pygraph_selection *sel)
{
  if (sel->measure.count)
    pygraph_measure_poll(&sel->measure, sel->backend, add_sample, sel);
  pygraph_measure_release(&sel->measure, sel->backend);
}

void pygraph_timing_stop(struct pygraph_selection *sel)
{
  pygraph_measure_free(&sel->measure, sel->backend);
}

void pygraph_timing_unit_end(struct pygraph_selection *sel, int eager_unit)
{
  if (!eager_unit) {
    sel->unit_end_iter = 0;
    return;
  }
  double t = pygraph_timing_now_us(sel);
  /* The shortest period seen: the host does not run its own work faster
   * than it is, and an interruption only lengthens one, which would make a
   * GPU-bound loop look host-bound (and decide on where it fell). */
  double p = t - sel->unit_end_us;
  if (sel->unit_end_iter && sel->unit_end_iter + 1 == sel->iters &&
      (sel->host_period_us <= 0 || p < sel->host_period_us))
    sel->host_period_us = p;
  sel->unit_end_us = t;
  sel->unit_end_iter = sel->iters;
}
