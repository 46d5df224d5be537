/* signatures.c - selection's tables of signatures and graph verdicts. */
#include "selection/signatures.h"

#include <string.h>

struct pygraph_sig_stats *pygraph_sel_sig_find(struct pygraph_selection *sel,
                                               unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++)
    if (sel->sigs[i].last_used && sel->sigs[i].hash == hash)
      return &sel->sigs[i];
  return NULL;
}

const struct pygraph_variant *pygraph_sel_live(const struct pygraph_selection *sel, unsigned i)
{
  const struct pygraph_variant *v = &sel->cache->variants[i];
  return v->graph && !(sel->drop & (1u << i)) ? v : NULL;
}

unsigned pygraph_sel_n_live(const struct pygraph_selection *sel)
{
  unsigned n = 0;
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    n += pygraph_sel_live(sel, i) != NULL;
  return n;
}

static int has_live_variant(const struct pygraph_selection *sel, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (v && v->hash == hash)
      return 1;
  }
  return 0;
}

struct pygraph_sig_stats *pygraph_sel_sig_get(struct pygraph_selection *sel,
                                              unsigned long long hash)
{
  struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, hash), *victim = NULL;
  if (!s) {
    for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++) {
      struct pygraph_sig_stats *c = &sel->sigs[i];
      if (!c->last_used) {
        victim = c;
        break;
      }
      if (has_live_variant(sel, c->hash))
        continue;
      if (!victim || c->last_used < victim->last_used)
        victim = c;
    }
    if (!victim)
      victim = &sel->sigs[0];
    s = victim;
    memset(s, 0, sizeof *s);
    s->hash = hash;
    s->changed_ops = -1;
  }
  s->last_used = ++sel->sig_clock;
  return s;
}

struct pygraph_graph_verdict *pygraph_sel_verdict(struct pygraph_selection *sel,
                                                  const struct pygraph_variant *v)
{
  struct pygraph_graph_verdict *g = &sel->graphs[v - sel->cache->variants];
  if (g->id != v->id) {
    memset(g, 0, sizeof *g);
    g->id = v->id;
    g->changed_ops = -1;
  }
  return g;
}

void pygraph_sel_drop(struct pygraph_selection *sel, const struct pygraph_variant *v)
{
  unsigned slot = (unsigned)(v - sel->cache->variants);
  sel->drop |= 1u << slot;
  memset(&sel->graphs[slot], 0, sizeof sel->graphs[slot]);
}

const struct pygraph_variant *pygraph_sel_rival_of(struct pygraph_selection *sel,
                                                   const struct pygraph_variant *v)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *r = pygraph_sel_live(sel, i);
    if (r && r != v && !pygraph_sel_verdict(sel, r)->decided && r->hash == v->hash)
      return r;
  }
  return NULL;
}

int pygraph_sel_all_decided(struct pygraph_selection *sel)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (v && !pygraph_sel_verdict(sel, v)->decided &&
        sel->iters - v->seen_iter <= PYGRAPH_BEHAVIOUR_BLOCK)
      return 0;
  }
  return 1;
}
