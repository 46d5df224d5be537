/* port_trace.h - PYGRAPH_DEBUG's timing of pygraph's own CUDA calls that may
 * be slow (the port's relaxed entries: memory, event creation, module loads,
 * kernel queries, synchronization, graph builds).  With the log on, each
 * such call that took 5 us or more is one debug line with its duration, so
 * a one-time cost of the runtime (a region's first iteration) can be read
 * off a real run; with it off a call pays a read of the settings (parsed
 * once) and a branch.  Used by capture_mode.h's wrappers. */
#ifndef PYGRAPH_PORT_TRACE_H
#define PYGRAPH_PORT_TRACE_H

/* The clock in microseconds when the debug log is on, else 0. */
double pygraph_port_trace_start(void);

/* Logs `name` with the time since `start_us`, unless start_us is 0. */
void pygraph_port_trace_end(const char *name, double start_us);

#endif /* PYGRAPH_PORT_TRACE_H */
