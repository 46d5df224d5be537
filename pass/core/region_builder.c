/* region_builder.c - segments, barriers and begin/end points per scope. */
#include "region_builder.h"
#include "ir_util.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* First instruction after PHIs and EH pads. */
static LLVMValueRef first_insertion_point(LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && (LLVMIsAPHINode(i) || LLVMIsALandingPadInst(i)))
    i = LLVMGetNextInstruction(i);
  return i;
}

/* Every unique exit block of l, malloc'd (asked for the count first: a
 * switch may leave a loop in any number of places). */
static LLVMBasicBlockRef *loop_exits(pg_loop *l, unsigned *n) {
  *n = pg_loop_exit_blocks(l, NULL, 0);
  LLVMBasicBlockRef *exits = malloc((*n ? *n : 1) * sizeof *exits);
  pg_loop_exit_blocks(l, exits, *n);
  return exits;
}

/* Where execution resumes after barrier `b`, or NULL if it never returns. */
static LLVMValueRef resume_point(LLVMValueRef b) {
  if (LLVMIsAInvokeInst(b)) {
    LLVMBasicBlockRef normal = LLVMGetNormalDest(b);
    LLVMBasicBlockRef preds[2];
    return pg_block_preds(normal, preds, 2) == 1 ? first_insertion_point(normal) : NULL;
  }
  LLVMValueRef next = LLVMGetNextInstruction(b);
  return (next && LLVMIsAUnreachableInst(next)) ? NULL : next;
}

typedef struct walk_ctx {
  const pg_call_map *calls;
  const pg_classifier *c;
  pg_function_plan *plan;
  pg_scope *scope;
  pg_launch_sites *sites;
  pg_batch_memo *memo;
  LLVMBasicBlockRef *visited;
  unsigned nvisited, capvisited;
  struct loop_fact {        /* loop_launches() per loop of the function, so */
    pg_loop *loop;          /* a loop with many barriers is scanned once */
    int launches;
  } *facts;
  unsigned nfacts, capfacts;
} walk_ctx;

static int in_scope(walk_ctx *w, LLVMBasicBlockRef bb) {
  pg_loop *l = pg_loop_for_block(w->plan->loops, bb);
  if (w->scope->loop)
    return pg_loop_contains_block(w->scope->loop, bb);
  /* function scope: outside every region loop */
  for (unsigned i = 0; i < w->plan->nscopes; ++i)
    if (w->plan->scopes[i].loop && l && pg_loop_contains_block(w->plan->scopes[i].loop, bb))
      return 0;
  return 1;
}

static int repeated(walk_ctx *w, LLVMBasicBlockRef bb) {
  pg_loop *l = pg_loop_for_block(w->plan->loops, bb);
  return l && l != w->scope->loop;
}

static int seen(walk_ctx *w, LLVMBasicBlockRef bb) {
  for (unsigned i = 0; i < w->nvisited; ++i)
    if (w->visited[i] == bb)
      return 1;
  return 0;
}

/* A launch (or launching callee) the segment reaches, mult times per run. */
static void count_launch(walk_ctx *w, pg_segment *seg, const pg_call_info *ci, unsigned mult) {
  unsigned n = ci->kind == PG_CALL_LAUNCH ? 1 : pg_summary_of(w->c, ci->callee)->launches;
  seg->weight += mult * n;
  seg->sites += n;
  unsigned line, first_line;
  pg_inst_file(ci->inst, &line, NULL);
  if (seg->first_launch)
    pg_inst_file(seg->first_launch, &first_line, NULL);
  if (!seg->first_launch || (line && line < first_line))
    seg->first_launch = ci->inst; /* earliest in the source, whatever the CFG order */
}

/* A library call the runtime records (cuBLAS): it launches work like a
 * launch site, so a loop of one kernel and one such call is a region. */
static int is_library_call(const pg_call_info *ci) {
  return ci->kind == PG_CALL_ROUTED_OP && ci->api && ci->api->cls == PG_API_LIBRARY;
}

/* Launch sites reachable from `start` without crossing a barrier or leaving
 * the iteration (back edge) or the scope.  Fills seg->weight/first_launch. */
static void walk_segment(walk_ctx *w, pg_segment *seg, const pg_call_info ***reached,
                         unsigned *nreached, unsigned *capreached) {
  LLVMBasicBlockRef *stack = NULL;
  unsigned nstack = 0, capstack = 0;
  LLVMValueRef from = seg->begin_before;
  LLVMBasicBlockRef header = w->scope->loop ? pg_loop_header(w->scope->loop) : NULL;
  w->nvisited = 0;
  for (;;) {
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(from);
    int stopped = 0;
    for (LLVMValueRef i = from; i; i = LLVMGetNextInstruction(i)) {
      const pg_call_info *ci = pg_call_at(w->calls, i);
      if (pg_is_scope_barrier(w->c, ci, w->scope->loop != NULL)) {
        stopped = 1;
        if (!seg->before)
          seg->before = i; /* the nearest on the first path walked */
        break;
      }
      if (ci->kind == PG_CALL_EXTERNAL_CHECKED)
        PG_PUSH(*reached, *nreached, *capreached, ci); /* plan_scope reserves its split */
      if (is_library_call(ci) && !pg_capture_begun_at(&w->c->captures, i)) {
        seg->weight += repeated(w, bb) ? 2 : 1;
        seg->library_calls++;
      }
      if (ci->kind != PG_CALL_LAUNCH && ci->kind != PG_CALL_LAUNCHING_CALLEE)
        continue;
      if (!pg_capture_begun_at(&w->c->captures, i)) /* else it stays eager: plan_scope */
        count_launch(w, seg, ci, repeated(w, bb) ? 2 : 1);
      PG_PUSH(*reached, *nreached, *capreached, ci);
    }
    if (!stopped) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
      unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned s = 0; s < ns; ++s) {
        LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
        if (succ == header || !in_scope(w, succ) || seen(w, succ))
          continue;
        PG_PUSH(w->visited, w->nvisited, w->capvisited, succ);
        PG_PUSH(stack, nstack, capstack, succ);
      }
    }
    if (!nstack)
      break;
    from = LLVMGetFirstInstruction(stack[--nstack]);
  }
  free(stack);
}

static void add_segment(pg_scope *s, LLVMValueRef begin_before, LLVMValueRef after,
                        pg_loop *after_loop) {
  if (!begin_before)
    return;
  for (unsigned k = 0; k < s->nsegs; ++k)
    if (s->segs[k].begin_before == begin_before)
      return; /* the exit of a loop with several barriers */
  pg_segment seg = {.begin_before = begin_before, .after = after, .after_loop = after_loop,
                    .index = -1};
  PG_PUSH(s->segs, s->nsegs, s->capsegs, seg);
}

static void add_end(pg_scope *s, LLVMValueRef before) {
  if (before)
    PG_PUSH(s->ends, s->nends, s->capends, before);
}

static int loop_launches(const pg_call_map *calls, pg_loop *l);

static int loop_launches_memo(walk_ctx *w, pg_loop *l) {
  for (unsigned i = 0; i < w->nfacts; ++i)
    if (w->facts[i].loop == l)
      return w->facts[i].launches;
  struct loop_fact f = {l, loop_launches(w->calls, l)};
  PG_PUSH(w->facts, w->nfacts, w->capfacts, f);
  return f.launches;
}

/* The segment after barrier b begins right after it, unless b sits in a loop
 * without launches inside the scope (a poll of a flag, a retry loop): then it
 * begins at that loop's exits, not once per poll. */
static void add_segments_after(walk_ctx *w, pg_scope *s, LLVMValueRef b) {
  pg_loop *quiet = NULL;
  for (pg_loop *l = pg_loop_for_block(w->plan->loops, LLVMGetInstructionParent(b));
       l && l != s->loop && !loop_launches_memo(w, l); l = pg_loop_parent(l))
    quiet = l;
  if (!quiet) {
    add_segment(s, resume_point(b), b, NULL);
    return;
  }
  unsigned n;
  LLVMBasicBlockRef *exits = loop_exits(quiet, &n);
  for (unsigned i = 0; i < n; ++i)
    if (in_scope(w, exits[i]))
      add_segment(s, first_insertion_point(exits[i]), b, NULL);
  free(exits);
}

/* Barriers, segment starts and end points of one scope. */
static void collect_scope(walk_ctx *w, pg_scope *s) {
  LLVMValueRef fn = s->fn;
  if (s->loop)
    add_segment(s, first_insertion_point(pg_loop_header(s->loop)), NULL, NULL);
  else
    add_segment(s, first_insertion_point(LLVMGetEntryBasicBlock(fn)), NULL, NULL);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    if (!in_scope(w, bb))
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (pg_is_scope_barrier(w->c, pg_call_at(w->calls, i), s->loop != NULL)) {
        add_end(s, i);
        add_segments_after(w, s, i);
      } else if (!s->loop && (LLVMIsAReturnInst(i) || LLVMIsAResumeInst(i))) {
        add_end(s, i);
      }
    }
  }
  if (s->loop) {
    add_end(s, LLVMGetBasicBlockTerminator(pg_loop_latch(s->loop)));
    unsigned n;
    LLVMBasicBlockRef *exits = loop_exits(s->loop, &n);
    for (unsigned i = 0; i < n; ++i)
      if (first_insertion_point(exits[i]))
        PG_PUSH(s->entry_ends, s->nentry_ends, s->capentry_ends, first_insertion_point(exits[i]));
    free(exits);
  } else {
    /* Leaving the function scope for a region loop ends its region; the
     * loop's exits may open a new straight-line segment. */
    for (unsigned k = 0; k < w->plan->nscopes; ++k) {
      pg_scope *ls = &w->plan->scopes[k];
      if (!ls->loop)
        continue;
      add_end(s, LLVMGetBasicBlockTerminator(pg_loop_preheader(ls->loop)));
      unsigned n;
      LLVMBasicBlockRef *exits = loop_exits(ls->loop, &n);
      for (unsigned i = 0; i < n; ++i)
        add_segment(s, first_insertion_point(exits[i]), NULL, ls->loop);
      free(exits);
    }
  }
}

/* What plan_scope tells the sites about one reached launch of seg. */
static void report_launch(walk_ctx *w, const pg_scope *s, const pg_segment *seg, int ok,
                          const pg_call_info *ci) {
  LLVMValueRef capture = pg_capture_begun_at(&w->c->captures, ci->inst);
  if (ok && pg_runs_in_caller_region(w->c, ci) && !capture)
    pg_sites_add_region_callee(w->sites, ci->callee);
  if (ci->kind != PG_CALL_LAUNCH)
    return;
  pg_eager_reason why;
  memset(&why, 0, sizeof why);
  if (capture) {
    why.kind = PG_EAGER_OWN_CAPTURE;
    why.capture = capture;
  } else if (ok) {
    pg_sites_cover(w->sites, ci);
    return;
  } else if (!s->loop && !pg_opts()->straight_line) {
    why.kind = PG_EAGER_STRAIGHT_LINE_OFF;
  } else {
    why.kind = PG_EAGER_TOO_FEW;
    why.weight = seg->weight;
    why.after = seg->after ? pg_call_at(w->calls, seg->after) : NULL;
    why.before = seg->before ? pg_call_at(w->calls, seg->before) : NULL;
    why.in_loop = s->loop != NULL;
    why.batch = s->batch;
  }
  pg_sites_keep_eager(w->sites, ci, &why);
}

/* A segment of s for the rest of the iteration after each checked external
 * call the instrumented segment reaches (once per call). */
static void reserve_soft_splits(pg_scope *s, const pg_call_info **reached, unsigned n) {
  for (unsigned r = 0; r < n; ++r) {
    if (reached[r]->kind != PG_CALL_EXTERNAL_CHECKED)
      continue;
    int known = 0;
    for (unsigned k = 0; k < s->nsofts && !known; ++k)
      known = s->softs[k].call == reached[r]->inst;
    if (known)
      continue;
    pg_soft_split split = {reached[r]->inst, (int)s->n_instrumented++};
    PG_PUSH(s->softs, s->nsofts, s->capsofts, split);
  }
}

static void plan_scope(walk_ctx *w, pg_scope *s) {
  const pg_options *o = pg_opts();
  w->scope = s;
  collect_scope(w, s);
  if (s->loop && o->batch > 0)
    pg_batch_judge(w->memo, s->loop, &s->batch);
  /* a batched graph holds many iterations: one launch each is enough */
  unsigned need = s->batch.ok ? 1 : (unsigned)o->min_launches;
  for (unsigned k = 0; k < s->nsegs; ++k) {
    pg_segment *seg = &s->segs[k];
    const pg_call_info **reached = NULL;
    unsigned nreached = 0, capreached = 0;
    walk_segment(w, seg, &reached, &nreached, &capreached);
    int ok = need <= seg->weight && (s->loop || o->straight_line) &&
             !pg_capture_begun_at(&w->c->captures, seg->begin_before);
    if (ok) {
      seg->index = (int)s->n_instrumented++;
      reserve_soft_splits(s, reached, nreached);
    }
    for (unsigned r = 0; r < nreached; ++r)
      report_launch(w, s, seg, ok, reached[r]);
    free(reached);
  }
}

static int block_launches(const pg_call_map *calls, LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    pg_call_kind kind = pg_call_at(calls, i)->kind;
    if (kind == PG_CALL_LAUNCH || kind == PG_CALL_LAUNCHING_CALLEE)
      return 1;
  }
  return 0;
}

static int loop_launches(const pg_call_map *calls, pg_loop *l) {
  for (unsigned b = 0; b < pg_loop_num_blocks(l); ++b)
    if (block_launches(calls, pg_loop_block(l, b)))
      return 1;
  return 0;
}

/* Which loop is one region: a loop whose launching subloops either run a
 * small constant number of times or are innermost loops has a launch
 * sequence that is usually the same every iteration (the runtime checks).
 * A launching subloop that itself contains launching loops of unknown length
 * (a per-prompt loop around a per-token loop around the layers) would make
 * one huge, rarely repeating iteration: then the subloops are the
 * candidates, and the outer loop's own launches form straight-line runs. */
enum { kMaxStaticTrip = 64 };

static int has_launching_subloop(const pg_call_map *c, pg_loop *l) {
  for (unsigned i = 0; i < pg_loop_num_subloops(l); ++i)
    if (loop_launches(c, pg_loop_subloop(l, i)))
      return 1;
  return 0;
}

static int static_body(const pg_call_map *c, pg_loop_info *li, pg_loop *l) {
  for (unsigned i = 0; i < pg_loop_num_subloops(l); ++i) {
    pg_loop *sub = pg_loop_subloop(l, i);
    if (!loop_launches(c, sub))
      continue;
    /* an upper bound suffices: error paths may exit early, and the
     * runtime checks each iteration's launch sequence anyway */
    unsigned trip = pg_loop_max_trip_count(li, sub);
    if (trip && trip <= kMaxStaticTrip) {
      if (!static_body(c, li, sub))
        return 0;
    } else if (has_launching_subloop(c, sub)) {
      return 0;
    }
  }
  return 1;
}

/* 1 when a block of l itself (not of a subloop) launches. */
static int launches_outside_subloops(const pg_call_map *c, pg_loop_info *li, pg_loop *l) {
  for (unsigned b = 0; b < pg_loop_num_blocks(l); ++b) {
    LLVMBasicBlockRef bb = pg_loop_block(l, b);
    if (pg_loop_for_block(li, bb) == l && block_launches(c, bb))
      return 1;
  }
  return 0;
}

/* A loop that would be a region but not batch (convolution1D's block-size
 * loop: a repeat loop of one launch, then a synchronize), whose launches
 * all lie in batchable subloops of unknown or long trip count: those
 * subloops become the regions.  Each batches many iterations per graph,
 * where the loop as one region graphs one pass of its body, seen only as
 * often as the loop iterates. */
static int prefer_batchable_subloops(const pg_call_map *c, pg_batch_memo *memo,
                                     pg_loop_info *li, pg_loop *l) {
  if (pg_opts()->batch <= 0 || !memo || launches_outside_subloops(c, li, l))
    return 0;
  pg_batch_verdict v;
  pg_batch_judge(memo, l, &v);
  if (v.ok)
    return 0;
  int any = 0;
  for (unsigned i = 0; i < pg_loop_num_subloops(l); ++i) {
    pg_loop *sub = pg_loop_subloop(l, i);
    if (!loop_launches(c, sub))
      continue;
    unsigned trip = pg_loop_max_trip_count(li, sub);
    if (trip && trip <= kMaxStaticTrip)
      return 0;                      /* part of the body's launch sequence */
    pg_batch_judge(memo, sub, &v);
    if (!v.ok)
      return 0;
    any = 1;
  }
  return any;
}

static void choose_region_loops(const pg_call_map *c, pg_batch_memo *memo,
                                pg_function_plan *plan, pg_loop *l, LLVMValueRef fn) {
  if (!loop_launches(c, l))
    return;
  if (!static_body(c, plan->loops, l) || prefer_batchable_subloops(c, memo, plan->loops, l)) {
    unsigned n = pg_loop_num_subloops(l);
    pg_loop **subs = malloc((n ? n : 1) * sizeof *subs);
    for (unsigned i = 0; i < n; ++i)
      subs[i] = pg_loop_subloop(l, i);
    for (unsigned i = 0; i < n; ++i)
      choose_region_loops(c, memo, plan, subs[i], fn);
    free(subs);
    return;
  }
  if (!pg_loop_simplify(plan->loops, l) || !pg_loop_preheader(l) || !pg_loop_latch(l))
    return; /* stays part of the function scope */
  plan->scopes = realloc(plan->scopes, (plan->nscopes + 1) * sizeof *plan->scopes);
  pg_scope *s = &plan->scopes[plan->nscopes++];
  memset(s, 0, sizeof *s);
  s->fn = fn;
  s->loop = l;
  s->trip_count = pg_loop_trip_count(plan->loops, l);
  pg_loop_lines(l, &s->line_begin, &s->line_end);
}

void pg_plan_function(const pg_call_map *calls, LLVMValueRef fn, pg_launch_sites *sites,
                      pg_batch_memo *memo, pg_function_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->loops = pg_loops_compute(fn);
  unsigned ntop = pg_loops_num_top_level(plan->loops);
  pg_loop **tops = malloc((ntop ? ntop : 1) * sizeof *tops);
  for (unsigned i = 0; i < ntop; ++i)
    tops[i] = pg_loops_top_level(plan->loops, i);
  for (unsigned i = 0; i < ntop; ++i)
    choose_region_loops(calls, memo, plan, tops[i], fn);
  free(tops);
  plan->scopes = realloc(plan->scopes, (plan->nscopes + 1) * sizeof *plan->scopes);
  pg_scope *fs = &plan->scopes[plan->nscopes++];
  memset(fs, 0, sizeof *fs);
  fs->fn = fn;
  walk_ctx w = {calls, calls->cls, plan, NULL, sites, memo, NULL, 0, 0, NULL, 0, 0};
  for (unsigned i = 0; i < plan->nscopes; ++i)
    plan_scope(&w, &plan->scopes[i]);
  free(w.visited);
  free(w.facts);
}

void pg_plan_free(pg_function_plan *plan) {
  for (unsigned i = 0; i < plan->nscopes; ++i) {
    free(plan->scopes[i].segs);
    free(plan->scopes[i].ends);
    free(plan->scopes[i].entry_ends);
    free(plan->scopes[i].softs);
  }
  free(plan->scopes);
  pg_loops_free(plan->loops);
  memset(plan, 0, sizeof *plan);
}
