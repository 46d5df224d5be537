/* signatures.h - selection's tables: per signature (its eager samples and
 * what was decided about it) and per graph of the cache (its verdict).
 * The cache is read, never written: a graph selection wants gone is marked
 * in sel->drop, and counts as gone from then on (pygraph_sel_live). */
#ifndef PYGRAPH_SIGNATURES_H
#define PYGRAPH_SIGNATURES_H

#include "selection/selection.h"

struct pygraph_sig_stats *pygraph_sel_sig_find(struct pygraph_selection *sel,
                                               unsigned long long hash);
/* Found, or a fresh entry (replacing the least recently used one whose
 * signature has no live graph). */
struct pygraph_sig_stats *pygraph_sel_sig_get(struct pygraph_selection *sel,
                                              unsigned long long hash);

/* The cache's variant in slot i, when it holds a graph selection has not
 * marked for dropping; else NULL. */
const struct pygraph_variant *pygraph_sel_live(const struct pygraph_selection *sel, unsigned i);
unsigned pygraph_sel_n_live(const struct pygraph_selection *sel);

/* The verdict on v (a live variant): a slot whose variant changed since
 * starts afresh, undecided. */
struct pygraph_graph_verdict *pygraph_sel_verdict(struct pygraph_selection *sel,
                                                  const struct pygraph_variant *v);

/* Marks v to be dropped by the segment (the outcome's reply). */
void pygraph_sel_drop(struct pygraph_selection *sel, const struct pygraph_variant *v);

/* The undecided live graph of v's signature other than v (its direct rival,
 * or the indirect graph it rivals), or NULL. */
const struct pygraph_variant *pygraph_sel_rival_of(struct pygraph_selection *sel,
                                                   const struct pygraph_variant *v);

/* Are all live graphs decided?  One whose signature has not come for
 * PYGRAPH_BEHAVIOUR_BLOCK iterations does not count: measuring resumes if
 * it comes back, rather than timing every iteration until then. */
int pygraph_sel_all_decided(struct pygraph_selection *sel);

#endif /* PYGRAPH_SIGNATURES_H */
