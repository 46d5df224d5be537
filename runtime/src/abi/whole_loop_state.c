/* whole_loop_state.c - whole loops' states: made at a loop's first entry,
 * kept for the process (the report reads them at exit), one thread in
 * each at a time (whole_loop_internal.h). */
#include "abi/whole_loop_internal.h"

#include <pthread.h>
#include <stdlib.h>

#include "common/debug_log.h"
#include "common/settings.h"
#include "recording/whole_loop.h"

_Thread_local void *pygraph_whole_loop_observer;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_wl_state *registry_head, **registry_tail = &registry_head;

/* Thread ids for the owner field: 1, 2, ... never reused (0: none). */
static unsigned long next_thread_id;
static _Thread_local unsigned long tls_thread_id;

static unsigned long thread_id(void)
{
  if (!tls_thread_id)
    tls_thread_id = __atomic_add_fetch(&next_thread_id, 1, __ATOMIC_RELAXED);
  return tls_thread_id;
}

static struct pygraph_wl_state *create(const pygraph_region *r, const pygraph_whole_loop *wl)
{
  struct pygraph_wl_state *st = calloc(1, sizeof *st);
  if (!st)
    return NULL;
  int ok = pygraph_whole_loop_check(wl);
  st->inv = calloc(ok && wl->n_invariants ? wl->n_invariants : 1, sizeof *st->inv);
  if (!st->inv) {
    free(st);
    return NULL;
  }
  st->wl = wl;
  st->region = r;
  st->cur = &st->lists[0];
  st->first = &st->lists[1];
  st->ref = &st->lists[2];
  st->phase = ok ? PYGRAPH_WL_WARMING : PYGRAPH_WL_OFF;
  st->why = ok ? "-" : "malformed whole-loop descriptor";
  return st;
}

struct pygraph_wl_state *pygraph_wl_state_of(const pygraph_region *r,
                                             const pygraph_whole_loop *wl)
{
  pthread_mutex_lock(&registry_lock);
  struct pygraph_wl_state *st = registry_head;
  while (st && st->wl != wl)
    st = st->next;
  if (!st && (st = create(r, wl)) != NULL) {
    *registry_tail = st;
    registry_tail = &st->next;
  }
  pthread_mutex_unlock(&registry_lock);
  return st;
}

int pygraph_wl_claim(struct pygraph_wl_state *st)
{
  unsigned long me = thread_id(), expected = 0;
  if (__atomic_compare_exchange_n(&st->owner, &expected, me, 0, __ATOMIC_ACQUIRE,
                                  __ATOMIC_RELAXED))
    return 1;
  return expected == me;
}

void pygraph_wl_release(struct pygraph_wl_state *st)
{
  __atomic_store_n(&st->owner, 0ul, __ATOMIC_RELEASE);
}

void *pygraph_wl_status_dest(const struct pygraph_wl_state *st)
{
  if (!pygraph_whole_loop_has_status(st->wl))
    return NULL;               /* a counted loop: its tests read no status */
  return (char *)(uintptr_t)st->inv[st->wl->status_dest] + st->wl->status_dest_offset;
}

int pygraph_wl_eval(const struct pygraph_wl_state *st, unsigned where, uint64_t i)
{
  return pygraph_exit_test_eval(st->wl, where, pygraph_wl_status_dest(st), i, st->inv);
}

void pygraph_wl_stop_observing(struct pygraph_wl_state *st)
{
  st->observing = 0;
  if (pygraph_whole_loop_observer == st)
    pygraph_whole_loop_observer = NULL;
}

void pygraph_wl_turn_off(struct pygraph_wl_state *st, const char *why,
                         const struct pygraph_loop_mismatch *m)
{
  st->phase = PYGRAPH_WL_OFF;
  st->why = why;
  if (m)
    st->mismatch = *m;
  pygraph_wl_stop_observing(st);
  if (st->var.built)
    pygraph_while_variant_free(&st->var, st->backend);
  const pygraph_region *r = st->region;
  pygraph_debug_log(pygraph_settings(), "whole loop %s %s:%u-%u: runs as written: %s",
                    r->function ? r->function : "?", r->file ? r->file : "?",
                    st->wl->line_begin, st->wl->line_end, why);
}

static const char *verdict_name(enum pygraph_wl_verdict v)
{
  return v == PYGRAPH_WL_WHOLE ? "whole" : v == PYGRAPH_WL_WRITTEN ? "as written" : "undecided";
}

static const char *phase_name(enum pygraph_wl_phase phase)
{
  return phase == PYGRAPH_WL_READY ? "ready" : phase == PYGRAPH_WL_OFF ? "off" : "warming";
}

void pygraph_whole_loops_foreach(void (*visit)(const struct pygraph_whole_loop_summary *, void *),
                                 void *ctx)
{
  pthread_mutex_lock(&registry_lock);
  for (const struct pygraph_wl_state *st = registry_head; st; st = st->next) {
    struct pygraph_whole_loop_summary s = st->counts;
    s.region = st->region;
    s.wl = st->wl;
    s.state = phase_name(st->phase);
    s.why = st->why ? st->why : "-";
    s.busy = __atomic_load_n(&st->counts.busy, __ATOMIC_RELAXED);
    s.choice = verdict_name(st->choice.verdict);
    s.whole_us = pygraph_wl_side_us(&st->choice.whole);
    s.written_us = pygraph_wl_side_us(&st->choice.written);
    s.condition_why = st->var.built ? st->var.wg.block.clauses_refusal : NULL;
    s.condition = !st->var.built ? "-" : s.condition_why ? "generic" : "compiled";
    visit(&s, ctx);
  }
  pthread_mutex_unlock(&registry_lock);
}
