/* library_calls.h - what the library adapters (cuBLAS,
 * cuda/cublas_entry_points.c) and the driver-launch layer
 * (cuda/driver_launch.c) leave for the report: the workspace memory
 * pygraph allocated for library captures, and the recorded calls that
 * failed when they ran, whose errors the program never saw.  Process-wide; kept here, below the adapters, so that the
 * report never refers to an adapter (a program that does not call the
 * library must not link it). */
#ifndef PYGRAPH_LIBRARY_CALLS_H
#define PYGRAPH_LIBRARY_CALLS_H

#include <stddef.h>

#include "pygraph_rt.h"
#include "recording/op.h"

/* A workspace of `bytes` was allocated for a library's captures (kept for
 * the process: graphs captured with it may run until the end). */
void pygraph_library_add_workspace(size_t bytes);
unsigned long long pygraph_library_workspace_bytes(void);

/* The recorded call of `op` (PYGRAPH_OP_LIBRARY) returned `status`, not
 * success, when it ran: its call had returned success (it was deferred),
 * so the program never saw this error.  Counted; the first one is said on
 * stderr, with the call and its site. */
void pygraph_library_failed(const struct pygraph_op *op, int status);
unsigned long long pygraph_library_failures(void);

/* The same for a recorded driver-API launch (op->driver) that returned
 * the CUresult `status` when it ran eagerly: the driver API has no last
 * error the program could read later.  Counted; the first one said. */
void pygraph_driver_launch_failed(const struct pygraph_op *op, int status);
unsigned long long pygraph_driver_launch_failures(void);

#endif /* PYGRAPH_LIBRARY_CALLS_H */
