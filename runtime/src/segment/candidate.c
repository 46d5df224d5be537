/* candidate.c - the capture candidate's bookkeeping (candidate.h). */
#include "segment/candidate.h"

void pygraph_candidate_forget(struct pygraph_candidate *c)
{
  c->present = 0;
  c->stable = 0;
  c->pinned = 0;
  c->capture_next = 0;
}

void pygraph_candidate_start_over(struct pygraph_candidate *c)
{
  pygraph_candidate_forget(c);
  c->n_recent = c->distinct_streak = 0;
}

unsigned pygraph_candidate_recent(const struct pygraph_candidate *c, unsigned long long hash)
{
  unsigned n = 0;
  for (unsigned i = 0; i < c->n_recent; i++)
    n += c->recent[i] == hash;
  return n;
}

int pygraph_candidate_note_miss(struct pygraph_candidate *c, unsigned long long hash)
{
  c->distinct_streak = pygraph_candidate_recent(c, hash) ? 0 : c->distinct_streak + 1;
  c->recent[c->recent_next] = hash;
  c->recent_next = (c->recent_next + 1) % PYGRAPH_NEVER_REPEATS;
  if (c->n_recent < PYGRAPH_NEVER_REPEATS)
    c->n_recent++;
  return c->distinct_streak >= PYGRAPH_NEVER_REPEATS;
}

void pygraph_candidate_note_hit(struct pygraph_candidate *c)
{
  c->distinct_streak = 0;
}

int pygraph_candidate_keeps_place(const struct pygraph_candidate *c, int same,
                                  unsigned long long iter)
{
  return !same && c->pinned && c->present && iter - c->seen <= PYGRAPH_PIN_PATIENCE;
}

unsigned pygraph_candidate_sightings(const struct pygraph_candidate *c, int same,
                                     unsigned long long hash)
{
  /* (note_miss noted this miss: at least 1 recent sighting.) */
  return same ? c->stable + 1 : pygraph_candidate_recent(c, hash);
}

void pygraph_candidate_take(struct pygraph_candidate *c, int same, unsigned sightings,
                            unsigned long long iter)
{
  if (!same)
    c->pinned = sightings >= 2;
  c->stable = sightings;
  c->capture_next = 0;
  c->present = 1;
  c->seen = iter;
}

void pygraph_candidate_reject(struct pygraph_candidate *c)
{
  c->present = 0;
  c->stable = 0;
}

void pygraph_candidate_unpin(struct pygraph_candidate *c)
{
  c->pinned = 0;
}
