/* candidate.h - the capture candidate of a segment: the last missed
 * iteration's signature, how often it came, whether it holds its place
 * against others (pinned: it recurs apart, a cycle), whether its capture is
 * planned; and the recent misses that tell a cycle from a launch sequence
 * that never repeats.  The op list the candidate stands for is the
 * segment's (seg->candidate); this unit keeps only the bookkeeping, changed
 * through the named transitions below. */
#ifndef PYGRAPH_CANDIDATE_H
#define PYGRAPH_CANDIDATE_H

#include "common/policy.h"

struct pygraph_candidate {
  int present;                               /* a candidate exists */
  unsigned stable;                           /* its sightings: consecutive, or recent
                                                ones when pinned */
  int pinned;                                /* it recurs: others' misses do not replace it */
  int capture_next;                          /* its next sighting is captured */
  unsigned long long seen;                   /* iteration it was last seen */
  unsigned long long recent[PYGRAPH_NEVER_REPEATS];   /* the last misses' signatures */
  unsigned n_recent, recent_next, distinct_streak;
};

/* No candidate, nothing planned (a flush, a capture, eager by decision). */
void pygraph_candidate_forget(struct pygraph_candidate *c);
/* The same, and the miss history too (the warm-up starts over). */
void pygraph_candidate_start_over(struct pygraph_candidate *c);

/* How often `hash` is among the last PYGRAPH_NEVER_REPEATS misses noted. */
unsigned pygraph_candidate_recent(const struct pygraph_candidate *c, unsigned long long hash);

/* Notes a miss of `hash`.  Returns 1 when signatures never repeat:
 * PYGRAPH_NEVER_REPEATS misses in a row, each with a signature not among
 * the last PYGRAPH_NEVER_REPEATS seen. */
int pygraph_candidate_note_miss(struct pygraph_candidate *c, unsigned long long hash);

/* A hit (a graph ran the iteration): the never-repeats streak ends. */
void pygraph_candidate_note_hit(struct pygraph_candidate *c);

/* A miss that is not the candidate's signature, while a pinned candidate
 * came within PYGRAPH_PIN_PATIENCE iterations: it keeps its place. */
int pygraph_candidate_keeps_place(const struct pygraph_candidate *c, int same,
                                  unsigned long long iter);

/* The sightings a miss of `hash` would have as the candidate. */
unsigned pygraph_candidate_sightings(const struct pygraph_candidate *c, int same,
                                     unsigned long long hash);

/* The miss (with that many sightings) becomes the candidate at `iter`; a
 * new signature seen twice recently is pinned. */
void pygraph_candidate_take(struct pygraph_candidate *c, int same, unsigned sightings,
                            unsigned long long iter);

/* The candidate's signature is known not to pay: no candidate. */
void pygraph_candidate_reject(struct pygraph_candidate *c);

/* Its capture was put off: another signature may take its place. */
void pygraph_candidate_unpin(struct pygraph_candidate *c);

#endif /* PYGRAPH_CANDIDATE_H */
