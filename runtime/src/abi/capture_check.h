/* capture_check.h - is the program capturing a stream the region uses?
 *
 * A program may capture its own graphs, and the capture may begin where the
 * pass cannot see it (another translation unit, a library).  Before the
 * runtime defers, records or allocates anything for a stream it asks the
 * backend (cudaStreamGetCaptureInfo); a captured stream makes the rest of
 * the iteration pass straight into the program's capture (record.c).
 *
 * Per iteration, each stream is asked once: a launch on a stream already
 * found clear costs no CUDA call.  Why once is enough: within one segment
 * iteration a stream can start capturing only by
 *   - cudaStreamBeginCapture*, or any call the pass cannot see into: both
 *     are barriers, which end the segment (the next iteration asks again);
 *   - a cudaStreamWaitEvent on an event recorded inside a capture, which
 *     joins the waiting stream to that capture.  The wait itself is routed
 *     here; the one case not caught is an event recorded in a capture
 *     *before* the segment began, on a stream the segment never uses (a
 *     fork of a capture whose join is outside the segment): see
 *     runtime/README.md, "The program's own graphs";
 *   - another thread beginning a capture of the same stream while this one
 *     launches into it: only ordered by synchronization the pass treats as a
 *     barrier (or the program is racy anyway).
 * A stream once found captured needs no cache: the iteration stops
 * recording at once. */
#ifndef PYGRAPH_CAPTURE_CHECK_H
#define PYGRAPH_CAPTURE_CHECK_H

#include "port/backend.h"

/* Streams found clear in this many (per thread) are remembered; beyond,
 * a stream is simply asked again at each of its ops (slower, never wrong). */
#define PYGRAPH_CAPTURE_CACHE 8

/* A recording iteration begins on the calling thread: forget what was
 * known (a capture may have begun at the barrier before it). */
void pygraph_capture_cache_reset(void);

/* 1 when the program is capturing `stream` (or its status cannot be told). */
int pygraph_stream_captured(const struct pygraph_backend *backend, cudaStream_t stream);

#endif /* PYGRAPH_CAPTURE_CHECK_H */
