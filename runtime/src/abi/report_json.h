/* report_json.h - PYGRAPH_REPORT=json:PATH: at exit, the report as one JSON
 * document (docs/user-guide.md, "Reading the report", shows one):
 *
 *   {"pygraph_report": 1, "pid": ..., "settings": {...},
 *    "segments": [{region, segment, thread, what ran, decision, counts,
 *                  timings, batch}, ...],
 *    "whole_loops": [{function, file, lines, state, why, counts}, ...],
 *    "totals": {"launches", "in_graphs", "share_pct", ...}}
 *
 * One entry per used (segment, thread) state, in the order of the lines
 * PYGRAPH_REPORT=1 prints, built from pygraph_segment_summarize; one per
 * whole loop entered (its `pygraph: whole loop` line); the totals are those
 * of the `pygraph: total` line (a WHILE graph's kernels count as launches
 * in graphs).  Touches no CUDA. */
#ifndef PYGRAPH_REPORT_JSON_H
#define PYGRAPH_REPORT_JSON_H

#include <stdio.h>

#include "common/settings.h"

/* The document version; it grows only by new members (a reader ignores
 * those it does not know). */
#define PYGRAPH_REPORT_JSON_VERSION 1

/* Writes the document of every segment state registered so far (launches:
 * every routed kernel launch) to f.  Returns 0, or -1 when f reported a
 * write error. */
int pygraph_report_write_json(FILE *f, const struct pygraph_settings *settings,
                              unsigned long long launches, long pid);

/* The path a pattern names: "%p" is the process id, "%%" a '%' (any other
 * character stays as it is).  malloc'ed; NULL when out of memory. */
char *pygraph_report_json_path(const char *pattern, long pid);

/* The exit report's JSON part: writes the document to the pattern's path;
 * a path that cannot be written is one warning line on stderr. */
void pygraph_report_json_at_exit(const char *pattern);

#endif /* PYGRAPH_REPORT_JSON_H */
