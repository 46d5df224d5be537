/* staging.c - pinned staging ring with per-slot completion events. */
#include "staging.h"

#include <string.h>

cudaError_t pygraph_staging_create(struct pygraph_staging *st,
                                   const struct pygraph_backend *backend, size_t size,
                                   const char **step)
{
  memset(st, 0, sizeof *st);
  st->size = size;
  st->stride = (size + PYGRAPH_STAGING_SLOT_ALIGN - 1) & ~(size_t)(PYGRAPH_STAGING_SLOT_ALIGN - 1);
  cudaError_t err;
  void *p = NULL;
  *step = "staging device alloc";
  if ((err = backend->device_alloc(&p, size)) != cudaSuccess)
    goto fail;
  st->device_block = p;
  *step = "staging host alloc";
  p = NULL;
  if ((err = backend->host_alloc(&p, st->stride * PYGRAPH_STAGING_SLOTS)) != cudaSuccess)
    goto fail;
  st->host = p;
  memset(st->host, 0, st->stride * PYGRAPH_STAGING_SLOTS);
  *step = "staging event create";
  for (; st->n_events < PYGRAPH_STAGING_SLOTS; st->n_events++)
    if ((err = backend->event_create(&st->events[st->n_events])) != cudaSuccess)
      goto fail;
  st->current = 0;
  return cudaSuccess;
fail:
  pygraph_staging_free(st, backend, NULL);
  return err;
}

unsigned char *pygraph_staging_slot(const struct pygraph_staging *st, unsigned slot)
{
  return st->host + (size_t)slot * st->stride;
}

cudaError_t pygraph_staging_advance(struct pygraph_staging *st,
                                    const struct pygraph_backend *backend)
{
  unsigned next = (st->current + 1) % PYGRAPH_STAGING_SLOTS;
  if (st->in_flight[next]) {
    cudaError_t err = backend->event_synchronize(st->events[next]);
    if (err != cudaSuccess)
      return err;
    st->in_flight[next] = 0;
  }
  st->current = next;
  return cudaSuccess;
}

cudaError_t pygraph_staging_launched(struct pygraph_staging *st,
                                     const struct pygraph_backend *backend, void *graph)
{
  cudaError_t err = backend->graph_record_event(graph, st->events[st->current]);
  if (err != cudaSuccess) {
    st->launch_unrecorded = 1;
    return err;
  }
  st->in_flight[st->current] = 1;
  return cudaSuccess;
}

void pygraph_staging_free(struct pygraph_staging *st, const struct pygraph_backend *backend,
                          void *graph)
{
  /* Errors are ignored: this also runs on the fault path, and the memory
   * must not be handed back while a queued launch may still read it. */
  if (st->launch_unrecorded && graph)
    backend->graph_synchronize(graph);
  for (unsigned i = 0; i < st->n_events; i++) {
    if (st->in_flight[i])
      (void)backend->event_synchronize(st->events[i]);
    backend->event_destroy(st->events[i]);
  }
  if (st->host)
    backend->host_free(st->host);
  if (st->device_block)
    backend->device_free(st->device_block);
  memset(st, 0, sizeof *st);
}
