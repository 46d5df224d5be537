/* event_kinds.h - which of the program's events cannot time.
 *
 * A graph plan may move the record of an event that cannot time to after
 * the graph launch (graphs/graph_plan.h); CUDA offers no query for an
 * event's flags that does not fail for such events.  The pass routes the
 * program's cudaEventCreate / cudaEventCreateWithFlags / cudaEventDestroy
 * calls (pygraph_abi.def) here, so the answer is known without asking. */
#ifndef PYGRAPH_EVENT_KINDS_H
#define PYGRAPH_EVENT_KINDS_H

#include <cuda_runtime_api.h>

/* The program made `event` with `flags` (cudaEventCreateWithFlags). */
void pygraph_event_kinds_created(cudaEvent_t event, unsigned flags);

/* The program destroyed `event`: its handle may come back for another. */
void pygraph_event_kinds_destroyed(cudaEvent_t event);

/* 0 when `event` is known to have been made with cudaEventDisableTiming
 * and not destroyed since; 1 otherwise (an event made where the pass did
 * not route the call is taken to time: its record stays in the graph,
 * which is right for either kind). */
int pygraph_event_kinds_times(cudaEvent_t event);

#endif /* PYGRAPH_EVENT_KINDS_H */
