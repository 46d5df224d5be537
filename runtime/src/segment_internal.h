/* segment_internal.h - what segment.c (the per-iteration state machine) and
 * selection.c (auto mode: measuring and deciding) share.  Not an API. */
#ifndef PYGRAPH_SEGMENT_INTERNAL_H
#define PYGRAPH_SEGMENT_INTERNAL_H

#include "segment.h"

#define SEG_FMT "%s %s:%u-%u seg %u"
#define SEG_ARGS(seg)                                                         \
  (seg)->region->function ? (seg)->region->function : "?",                   \
      (seg)->region->file ? (seg)->region->file : "?", (seg)->region->line_begin, \
      (seg)->region->line_end, (seg)->index

/* ---- segment.c ---- */
int pygraph_seg_measuring_mode(const struct pygraph_segment *seg);
void pygraph_seg_swap_lists(struct pygraph_op_list **a, struct pygraph_op_list **b);
void pygraph_seg_execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list);
void pygraph_seg_drop_variant(struct pygraph_segment *seg, struct pygraph_variant *v);
void pygraph_seg_drop_all_variants(struct pygraph_segment *seg);
long pygraph_seg_count_changed(const struct pygraph_op_list *a, const struct pygraph_op_list *b);

/* ---- selection.c ---- */
struct pygraph_sig_stats *pygraph_seg_sig_find(struct pygraph_segment *seg,
                                               unsigned long long hash);
struct pygraph_sig_stats *pygraph_seg_sig_get(struct pygraph_segment *seg,
                                              unsigned long long hash);
double pygraph_seg_period_us(const struct pygraph_samples *s);
/* The same with a cold first sample left out once later ones exist. */
double pygraph_seg_cost_us(const struct pygraph_samples *s);
void pygraph_seg_add_sample(void *ctx, const struct pygraph_sample_tag *tag, double us);
/* No graph can pay: drop the variants and pass through, decided eager
 * (probed again now and then, as after a measured verdict). */
void pygraph_seg_go_eager_decided(struct pygraph_segment *seg, const char *why);
void pygraph_seg_set_decision(struct pygraph_segment *seg, enum pygraph_decision_state d,
                              const char *why);
void pygraph_seg_decide_variants(struct pygraph_segment *seg);
int pygraph_seg_all_decided(const struct pygraph_segment *seg);
void pygraph_seg_note_behaviour(struct pygraph_segment *seg, int miss);
int pygraph_seg_wants_timing(struct pygraph_segment *seg, unsigned long long hash,
                             const struct pygraph_variant *v);
/* Eager samples of a signature read or still in flight. */
unsigned pygraph_seg_eager_planned(struct pygraph_segment *seg, unsigned long long hash);
int pygraph_seg_far_behind(const struct pygraph_segment *seg);

/* TURN_WAIT: a graph, untimed (every side's samples are planned, in flight). */
enum pygraph_turn { TURN_GRAPH, TURN_EAGER, TURN_RIVAL, TURN_WAIT };
enum pygraph_turn pygraph_seg_measuring_turn(struct pygraph_segment *seg,
                                             struct pygraph_variant **pv, unsigned long long hash);
void pygraph_seg_end_probe(struct pygraph_segment *seg);
/* Did this thread end no other segment iteration since seg's last one?
 * (Called once per iteration end: it advances the thread's clock.) */
int pygraph_seg_solo(struct pygraph_segment *seg);
void pygraph_seg_start_timing(struct pygraph_segment *seg, cudaStream_t stream, int solo,
                              const struct pygraph_sample_tag *planned);

#endif /* PYGRAPH_SEGMENT_INTERNAL_H */
