/* options.c - parse -fplugin-arg-pygraph-* (clang hands us the text after
 * "-fplugin-arg-pygraph-"). */
#include "options.h"
#include "allow_names.h"
#include "pass_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pg_options g_opts = {0, 0, 2, 1, 1, 32, 1, 1, NULL, 0};

const pg_options *pg_opts(void) { return &g_opts; }

static int parse_int(const char *v, int lo, int hi, int *out) {
  char *end = NULL;
  long x = strtol(v, &end, 10);
  if (!v[0] || *end || x < lo || x > hi)
    return 0;
  *out = (int)x;
  return 1;
}

int pg_options_parse(const char *arg, char *err, size_t errlen) {
  const char *eq = strchr(arg, '=');
  size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
  const char *val = eq ? eq + 1 : NULL;
#define IS(name) (nlen == strlen(name) && strncmp(arg, name, nlen) == 0)
  if (IS("disable") && !val) { g_opts.disable = 1; return 1; }
  if (IS("analyze-only") && !val) { g_opts.analyze_only = 1; return 1; }
  if (IS("min-launches") && val) {
    if (parse_int(val, 1, 1000000, &g_opts.min_launches)) return 1;
    snprintf(err, errlen, "min-launches needs a positive integer, got '%s'", val);
    return 0;
  }
  if (IS("straight-line") && val) {
    if (parse_int(val, 0, 1, &g_opts.straight_line)) return 1;
    snprintf(err, errlen, "straight-line needs 0 or 1, got '%s'", val);
    return 0;
  }
  if (IS("indirection") && val) {
    if (parse_int(val, 0, 1, &g_opts.indirection)) return 1;
    snprintf(err, errlen, "indirection needs 0 or 1, got '%s'", val);
    return 0;
  }
  if (IS("batch") && val) {
    if (parse_int(val, 0, 1000000, &g_opts.batch)) return 1;
    snprintf(err, errlen, "batch needs a non-negative integer (0: no batching), got '%s'", val);
    return 0;
  }
  if (IS("whole-loops") && val) {
    if (parse_int(val, 0, 2, &g_opts.whole_loops)) return 1;
    snprintf(err, errlen, "whole-loops needs 0, 1 or 2, got '%s'", val);
    return 0;
  }
  if (IS("across-files") && val) {
    if (parse_int(val, 0, 1, &g_opts.across_files)) return 1;
    snprintf(err, errlen, "across-files needs 0 or 1, got '%s'", val);
    return 0;
  }
  if (IS("allow") && val) {
    if (pg_allow_split(val, &g_opts.allow, &g_opts.nallow)) return 1;
    snprintf(err, errlen, "allow needs function names separated by commas, got '%s'", val);
    return 0;
  }
#undef IS
  snprintf(err, errlen, "unknown option '%.*s'; known: disable, analyze-only, "
           "min-launches=N, straight-line=0|1, indirection=0|1, batch=N, whole-loops=0|1|2, "
           "across-files=0|1, allow=f,g",
           (int)nlen, arg);
  return 0;
}
