/* measure.c - a FIFO of timing events, read without blocking. */
#include "selection/measure.h"

#include <string.h>

/* The event of `slot`, created on first use; 0 when that fails (measuring
 * then stops for good). */
static int slot_ready(struct pygraph_measure *m, const struct pygraph_backend *backend,
                      unsigned slot)
{
  for (; m->n_events <= slot; m->n_events++)   /* slots are reached in order */
    if (backend->timing_event_create(&m->events[m->n_events]) != cudaSuccess) {
      pygraph_measure_free(m, backend);
      m->state = -1;
      return 0;
    }
  return 1;
}

int pygraph_measure_available(struct pygraph_measure *m, const struct pygraph_backend *backend)
{
  if (m->state)
    return m->state > 0;
  if (!backend->timing_event_create || !backend->event_record || !backend->event_query ||
      !backend->event_elapsed_ms) {
    m->state = -1;
    return 0;
  }
  /* One event now (can this context time at all?), the others as the FIFO
   * first reaches their slots: a segment decided after a dozen samples
   * creates, and later destroys, a dozen events, not the whole ring (in a
   * 10 ms program the whole ring was ~1% of its time). */
  if (!slot_ready(m, backend, 0))
    return 0;
  m->state = 1;
  return 1;
}

void pygraph_measure_record(struct pygraph_measure *m, const struct pygraph_backend *backend,
                            cudaStream_t stream, const struct pygraph_sample_tag *tag)
{
  if (!pygraph_measure_available(m, backend))
    return;
  if (m->count == PYGRAPH_MEASURE_RING) {
    m->chain = 0;
    return;
  }
  unsigned slot = (m->head + m->count) % PYGRAPH_MEASURE_RING;
  if (!slot_ready(m, backend, slot))
    return;
  cudaError_t err = backend->event_record(m->events[slot], stream);
  if (err != cudaSuccess) {
    /* Left as CUDA's last error (it is most likely a sticky one of the
     * program's); measuring stops for good. */
    pygraph_measure_free(m, backend);
    m->state = -1;
    return;
  }
  m->tags[slot] = *tag;
  m->has_prev[slot] = (unsigned char)(m->chain && m->count > 0);
  m->count++;
  m->chain = 1;
}

unsigned pygraph_measure_in_flight(const struct pygraph_measure *m,
                                   const struct pygraph_sample_tag *tag)
{
  unsigned n = 0;
  /* The head's own sample (with the event before it) was already read. */
  for (unsigned i = 1; i < m->count; i++) {
    unsigned slot = (m->head + i) % PYGRAPH_MEASURE_RING;
    const struct pygraph_sample_tag *t = &m->tags[slot];
    n += m->has_prev[slot] && t->hash == tag->hash && t->kind == tag->kind &&
         (t->kind != PYGRAPH_SAMPLE_GRAPH || t->variant == tag->variant);
  }
  return n;
}

void pygraph_measure_break(struct pygraph_measure *m)
{
  m->chain = 0;
}

unsigned pygraph_measure_poll(struct pygraph_measure *m, const struct pygraph_backend *backend,
                              pygraph_sample_sink sink, void *ctx)
{
  unsigned read = 0;
  while (m->state > 0 && m->count > 0) {
    unsigned first = m->head;
    cudaError_t err = backend->event_query(m->events[first]);
    if (err == cudaErrorNotReady)
      break;
    if (err != cudaSuccess)
      goto unavailable;
    if (m->count == 1) {
      /* Done, but it may start the next period: keep it unless the chain
       * is already broken. */
      if (!m->chain) {
        m->head = (first + 1) % PYGRAPH_MEASURE_RING;
        m->count = 0;
      }
      break;
    }
    unsigned second = (first + 1) % PYGRAPH_MEASURE_RING;
    if (m->has_prev[second]) {
      err = backend->event_query(m->events[second]);
      if (err == cudaErrorNotReady)
        break;
      if (err != cudaSuccess)
        goto unavailable;
      float ms = 0;
      if (backend->event_elapsed_ms(&ms, m->events[first], m->events[second]) != cudaSuccess)
        goto unavailable;
      if (ms >= 0) {       /* different streams may not be ordered */
        sink(ctx, &m->tags[second], (double)ms * 1000.0);
        read++;
      }
    }
    m->head = second;
    m->count--;
  }
  return read;
unavailable:
  pygraph_measure_free(m, backend);
  m->state = -1;
  return read;
}

int pygraph_measure_possible(const struct pygraph_measure *m, const struct pygraph_backend *backend)
{
  if (m->state)
    return m->state > 0;
  return backend->timing_event_create && backend->event_record && backend->event_query &&
         backend->event_elapsed_ms;
}

int pygraph_measure_release(struct pygraph_measure *m, const struct pygraph_backend *backend)
{
  if (m->state <= 0 || m->count)
    return 0;
  pygraph_measure_free(m, backend);
  m->state = 0;
  return 1;
}

void pygraph_measure_free(struct pygraph_measure *m, const struct pygraph_backend *backend)
{
  for (unsigned i = 0; i < m->n_events; i++)
    backend->event_destroy(m->events[i]);
  int state = m->state;
  memset(m, 0, sizeof *m);
  m->state = state;
}
