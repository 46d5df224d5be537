/* capture_check.c - per-iteration cache of streams the program is not
 * capturing (see capture_check.h for why once per iteration suffices). */
#include "abi/capture_check.h"

struct clear_streams {
  cudaStream_t stream[PYGRAPH_CAPTURE_CACHE];
  unsigned n;
};

/* One recording segment per thread at a time, so one cache per thread. */
static _Thread_local struct clear_streams tls_clear;

void pygraph_capture_cache_reset(void)
{
  tls_clear.n = 0;
}

int pygraph_stream_captured(const struct pygraph_backend *backend, cudaStream_t stream)
{
  struct clear_streams *c = &tls_clear;
  for (unsigned i = 0; i < c->n; i++)
    if (c->stream[i] == stream)
      return 0;
  if (!backend->stream_captured)
    return 0;
  if (backend->stream_captured(stream))
    return 1;
  if (c->n < PYGRAPH_CAPTURE_CACHE)
    c->stream[c->n++] = stream;
  return 0;
}
