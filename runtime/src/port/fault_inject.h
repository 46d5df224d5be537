/* fault_inject.h - PYGRAPH_FAULT: pygraph's own graph steps made to fail on
 * purpose, to show that every fallback holds on a real GPU (the work of the
 * failing iteration runs exactly once, the segment goes eager for good and
 * the report says why).  A decorator of the port: the chosen entries of a
 * copy of the real backend fail at their N-th call with cudaErrorUnknown,
 * without calling CUDA; every other call goes through unchanged. */
#ifndef PYGRAPH_FAULT_INJECT_H
#define PYGRAPH_FAULT_INJECT_H

#include "common/settings.h"
#include "port/backend.h"

/* Configures the one decorator of the process (counts start at 0) and
 * returns it, or `real` itself when `fault_at` (PYGRAPH_FAULT_STEPS counts,
 * 0: never) names no fault.  Not thread-safe: called once, before the
 * backend it returns is used (the CUDA entry points do it under a
 * pthread_once; tests between runs). */
const struct pygraph_backend *pygraph_fault_install(const struct pygraph_backend *real,
                                                    const unsigned *fault_at);

/* Faults injected so far (tests and the report). */
unsigned long pygraph_faults_injected(void);

#endif /* PYGRAPH_FAULT_INJECT_H */
