/* report.h - PYGRAPH_REPORT=1 summary.  Formatting is separate from
 * printing so tests can check the exact text. */
#ifndef PYGRAPH_REPORT_H
#define PYGRAPH_REPORT_H

#include <stddef.h>

#include "segment/segment.h"

/* One line (with '\n') for a segment; returns snprintf's length.
 * indirect=<n> block=<bytes>B describe the graph in use (else the last one
 * captured): its indirect nodes and the device block refreshed per replay
 * (indirect.h).
 * Then decision=<graph|eager> eager_us=<x> graph_us=<y> variants=<n>
 * why="<reason>": the selective-deployment verdict, the measured costs
 * it compared (0.0 when unmeasured; graph_us includes the amortized
 * capture cost only in why), the live graph variants, and why ("-" while
 * undecided without graphs). */
int pygraph_report_format_segment(char *buf, size_t cap, const struct pygraph_segment *seg);

/* The same, for one of a segment's per-thread states (region_state.h):
 * thread >= 0 appends " thread=<thread>" (its slot) at the end of the line,
 * device >= 0 then " device=<device>" (the device the state runs on); the
 * report does so only for segments with more than one thread state. */
int pygraph_report_format_segment_thread(char *buf, size_t cap,
                                         const struct pygraph_segment *seg, int thread,
                                         int device);

/* One line (with '\n') for a whole loop (abi/whole_loop.h): its state
 * (warming, ready, off), executions entered, iterations checked, WHILE
 * graph runs, the iterations and launches they made, graphs built,
 * executions run as written although ready, entries while another thread
 * held it, and why it is off (or the last fallback's reason, "-"). */
struct pygraph_whole_loop_summary;
int pygraph_report_format_whole_loop(char *buf, size_t cap,
                                     const struct pygraph_whole_loop_summary *s);

/* The closing line: total routed launches (library calls included, and
 * the kernels whole loops' WHILE graphs ran for calls never made) and how
 * many ran in graphs; then, when there are any, the library adapters'
 * workspace bytes and failed recorded calls (library_calls.h). */
int pygraph_report_format_total(char *buf, size_t cap, unsigned long long launches,
                                unsigned long long in_graphs);

/* atexit handler: prints the report to stderr when PYGRAPH_REPORT=1, and
 * writes it as JSON for PYGRAPH_REPORT=json:PATH (report_json.h).
 * Touches no CUDA (the CUDA runtime may already be torn down). */
void pygraph_report_at_exit(void);

/* Registers pygraph_report_at_exit with atexit, once per process; called
 * before the first region state is created (region_stack.c), which is
 * where the handler's place among the program's own atexit handlers has
 * always been. */
void pygraph_report_arm(void);

#endif /* PYGRAPH_REPORT_H */
