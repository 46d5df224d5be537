/* options.h - the plugin's options (-fplugin-arg-pygraph-NAME[=VALUE]). */
#ifndef PYGRAPH_OPTIONS_H
#define PYGRAPH_OPTIONS_H

typedef struct pg_options {
  int disable;          /* disable: leave every module untouched */
  int analyze_only;     /* analyze-only: remarks, no instrumentation */
  int min_launches;     /* min-launches=N: fewest launch sites a region needs (2) */
  int straight_line;    /* straight-line=0|1: form regions outside loops (1) */
  int indirection;      /* indirection=0|1: indirect twins of kernels (1) */
  int batch;            /* batch=N: most iterations of a batchable loop per graph (32); 0: off */
  int whole_loops;      /* whole-loops=0|1|2: judge convergence loops as whole-loop graphs and
                           describe candidates (1); 2: also instrument them with the
                           whole-loop protocol, so the runtime can run them as one graph */
  int across_files;     /* across-files=0|1: a call of an external function that may be
                           pygraph-compiled code in another file leaves the region open, the
                           runtime splitting it there when the callee was not compiled with
                           pygraph (external_calls.h) (1) */
  char **allow;         /* allow=f,g: external functions known harmless (allow_names.h) */
  unsigned nallow;
} pg_options;

/* The options of this compile (one cc1 job loads the plugin once). */
const pg_options *pg_opts(void);

#endif
