/* verdicts.h - what the samples decide: keep a graph, which of an indirect
 * graph and its direct rival, or run the signature eagerly; hysteresis of a
 * segment decided graph, and what a probe of a decided-eager one shows.
 * Drops are marked in sel->drop (signatures.h), never made here. */
#ifndef PYGRAPH_VERDICTS_H
#define PYGRAPH_VERDICTS_H

#include "selection/selection.h"

void pygraph_verdicts_set_decision(struct pygraph_selection *sel, enum pygraph_decision_state d,
                                   const char *why);

/* Compares each undecided signature's graphs with each other and with its
 * eager runs.  Returns NULL, or why no graph is left: the segment is to run
 * eagerly by decision. */
const char *pygraph_verdicts_decide(struct pygraph_selection *sel);

/* Do the samples so far settle graph against eager, before full windows? */
int pygraph_verdicts_clear_case(struct pygraph_selection *sel, const struct pygraph_samples *eager,
                                const struct pygraph_samples *graph,
                                enum pygraph_verdict *verdict);

/* The graph of v's signature (v or its rival) that the samples show faster
 * than its eager runs, or NULL: at least PYGRAPH_MEASURE_MIN samples on
 * each side (samples.h, settled), medians apart by PYGRAPH_MARGIN.  While
 * undecided, such a graph runs outside its measuring turns, and so does one
 * running on a sibling's gain (below); no other graph does. */
const struct pygraph_variant *pygraph_verdicts_shown_faster(struct pygraph_selection *sel,
                                                            const struct pygraph_sig_stats *s,
                                                            const struct pygraph_variant *v);

/* The share of eager cost a graph of this segment was shown to save (decide.h:
 * sibling_gain_ratio): one a verdict kept, or an undecided one whose
 * settled samples show it faster; 0 while none is. */
double pygraph_verdicts_sibling_gain(const struct pygraph_selection *sel);

/* Does v, an undecided graph, run outside its measuring turns on a
 * sibling's gain?  A graph of another launch sequence of the segment was
 * kept by a verdict, the segment's kept costs show graphs faster by a clear
 * case's ratio (pygraph_sibling_clearly_faster), v's own floor of samples
 * is not read yet, and v's signature came fewer than
 * PYGRAPH_SIBLING_TRUST_ITERS times since its capture.  Its own samples
 * decide it as any other's once read; while they lag, eager's window of
 * turns waits for them too (turns.c). */
int pygraph_verdicts_runs_on_sibling(struct pygraph_selection *sel,
                                     const struct pygraph_variant *v);

/* An indirect graph that has not met its direct rival yet. */
int pygraph_verdicts_rival_pending(struct pygraph_selection *sel, const struct pygraph_variant *v,
                                   const struct pygraph_sig_stats *s);

/* Hysteresis for a segment decided graph (iter_updates: node updates and
 * refreshes this iteration). */
void pygraph_verdicts_note_behaviour(struct pygraph_selection *sel, int miss,
                                     unsigned long long iter_updates);

/* What the probe's second iteration `cur` shows against the first, `prev`:
 * NULL, or the change in behaviour worth measuring again (then measuring
 * starts afresh; bounded by PYGRAPH_MAX_FLIPS). */
const char *pygraph_verdicts_probe(struct pygraph_selection *sel,
                                   const struct pygraph_op_list *cur,
                                   const struct pygraph_op_list *prev);

#endif /* PYGRAPH_VERDICTS_H */
