/* capture_mode.h - pygraph's own CUDA calls while the program captures a
 * stream.
 *
 * Calls CUDA deems "potentially unsafe" during stream capture (cudaMalloc,
 * cudaFree, event creation, cudaEventQuery / cudaEventElapsedTime, stream
 * synchronization, module loads, instantiation) invalidate a capture the
 * program has under way: in global mode (the default) any such call of the
 * capturing thread, or of any other thread not in relaxed mode; in
 * thread-local mode those of the capturing thread.  The runtime makes none
 * on a stream being captured (those iterations pass straight into the
 * capture, abi/capture_check.h).  Its own unsafe calls for other streams
 * run with the calling thread's interaction mode set to relaxed
 * (cudaThreadExchangeStreamCaptureMode, restored right after): "the local
 * thread is not prohibited from potentially unsafe API calls", and its
 * calls do not count against any capture, its own thread's included.  What
 * relaxed mode still forbids (querying an event last recorded inside a
 * capture, synchronizing a capturing stream) the runtime does not do: its
 * timing events are recorded only on streams found not captured, and a
 * graph's launch stream is checked before it is waited for.
 *
 * The relaxation is applied in one place: the port table (backend_cuda.c)
 * lists each entry once, marked RELAXED when it may make such a call, and
 * PYGRAPH_RELAXED below generates the one wrapper each marked entry gets.
 * The swap is a thread setting, no device work; the steady state (node
 * updates, graph launches, event records) makes no unsafe call and is not
 * wrapped, so it pays nothing. */
#ifndef PYGRAPH_CAPTURE_MODE_H
#define PYGRAPH_CAPTURE_MODE_H

#include "cuda/port_trace.h"

/* Sets the calling thread's capture interaction mode to relaxed; returns
 * what pygraph_capture_mode_restore needs to put the old one back. */
int pygraph_capture_mode_relax(void);
void pygraph_capture_mode_restore(int saved);

/* Defines `static ret pygraph_relaxed_<name> params`, which runs
 * `pygraph_cuda_<name> args` in relaxed capture mode (timed in the debug
 * log, port_trace.h). */
#define PYGRAPH_RELAXED(name, ret, params, args)                                                  \
  static ret pygraph_relaxed_##name params                                                       \
  {                                                                                              \
    double trace_ = pygraph_port_trace_start();                                                  \
    int saved_mode_ = pygraph_capture_mode_relax();                                              \
    ret result_ = pygraph_cuda_##name args;                                                      \
    pygraph_capture_mode_restore(saved_mode_);                                                   \
    pygraph_port_trace_end(#name, trace_);                                                       \
    return result_;                                                                              \
  }

/* The same for an entry that returns nothing. */
#define PYGRAPH_RELAXED_VOID(name, params, args)                                                  \
  static void pygraph_relaxed_##name params                                                      \
  {                                                                                              \
    double trace_ = pygraph_port_trace_start();                                                  \
    int saved_mode_ = pygraph_capture_mode_relax();                                              \
    pygraph_cuda_##name args;                                                                    \
    pygraph_capture_mode_restore(saved_mode_);                                                   \
    pygraph_port_trace_end(#name, trace_);                                                       \
  }

#endif /* PYGRAPH_CAPTURE_MODE_H */
