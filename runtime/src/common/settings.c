/* settings.c - the PYGRAPH_* environment, parsed and validated here only:
 * every value is taken or replaced by its default with a warning; the rest
 * of the runtime trusts the result. */
#include "common/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct pygraph_settings process_settings;
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

#define FLAG_WORDS "0/1, on/off, true/false or yes/no"

/* Notes that `value` of `name` was not taken (`used` instead). */
static void problem(struct pygraph_settings *out, const char *name, const char *value,
                    const char *expected, const char *used)
{
  if (out->n_problems < PYGRAPH_SETTINGS_COUNT)   /* one per setting: always room */
    out->problems[out->n_problems++] =
        (struct pygraph_setting_problem){name, value, expected, used};
}

/* 1 or 0 for a flag word, -1 for anything else. */
static int flag_word(const char *text)
{
  static const char *const yes[] = {"1", "on", "true", "yes"};
  static const char *const no[] = {"0", "off", "false", "no"};
  for (unsigned i = 0; i < 4; i++) {
    if (strcasecmp(text, yes[i]) == 0)
      return 1;
    if (strcasecmp(text, no[i]) == 0)
      return 0;
  }
  return -1;
}

static int parse_flag(struct pygraph_settings *out, const char *(*lookup)(const char *),
                      const char *name)
{
  const char *text = lookup(name);
  if (!text || !*text)
    return 0;
  int v = flag_word(text);
  if (v < 0)
    problem(out, name, text, FLAG_WORDS, "0 (off)");
  return v > 0;
}

/* A plain decimal number in [min, max], else `fallback` (unset or empty:
 * silently; otherwise with a problem naming the range). */
static unsigned parse_number(struct pygraph_settings *out,
                             const char *(*lookup)(const char *), const char *name,
                             unsigned min, unsigned long max, unsigned fallback,
                             const char *expected, const char *used)
{
  const char *text = lookup(name);
  if (!text || !*text)
    return fallback;
  char *end;
  unsigned long v = strtoul(text, &end, 10);
  if (*end || text[0] == '-' || text[0] == '+' || v < min || v > max) {
    problem(out, name, text, expected, used);
    return fallback;
  }
  return (unsigned)v;
}

void pygraph_settings_defaults(struct pygraph_settings *out)
{
  memset(out, 0, sizeof *out);
  out->mode = PYGRAPH_MODE_AUTO;
  out->warmup = PYGRAPH_DEFAULT_WARMUP;
  out->max_captures = PYGRAPH_DEFAULT_MAX_CAPTURES;
  out->indirect = PYGRAPH_INDIRECT_AUTO;
  out->max_ops = PYGRAPH_DEFAULT_MAX_OPS;
  out->variants = PYGRAPH_DEFAULT_VARIANTS;
  out->measure_iters = PYGRAPH_DEFAULT_MEASURE_ITERS;
  out->margin_pct = PYGRAPH_DEFAULT_MARGIN_PCT;
  out->eager_before_capture = PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE;
  out->min_ops = PYGRAPH_DEFAULT_MIN_OPS;
  out->pool_mb = PYGRAPH_DEFAULT_POOL_MB;
  out->cublas_workspace_mb = PYGRAPH_CUBLAS_WORKSPACE_AUTO;
  out->nvtx = 1;
  out->whole_loops = 1;
}

static void parse_mode(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  const char *mode = lookup("PYGRAPH_MODE");
  if (!mode || !*mode || strcmp(mode, "auto") == 0)
    return;
  if (strcmp(mode, "eager") == 0) {
    out->mode = PYGRAPH_MODE_EAGER;
  } else if (strcmp(mode, "graph") == 0) {
    out->mode = PYGRAPH_MODE_GRAPH;
  } else {
    out->mode_unknown = 1;
    problem(out, "PYGRAPH_MODE", mode, "auto, eager or graph", "auto");
  }
}

/* auto, or a flag word: off means per-node updates only, on every usable twin. */
static void parse_indirect(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  const char *text = lookup("PYGRAPH_INDIRECT");
  if (!text || !*text || strcasecmp(text, "auto") == 0)
    return;
  int v = flag_word(text);
  if (v < 0)
    problem(out, "PYGRAPH_INDIRECT", text, "auto or " FLAG_WORDS, "auto");
  else
    out->indirect = v ? PYGRAPH_INDIRECT_ON : PYGRAPH_INDIRECT_OFF;
}

#define REPORT_WORDS "a flag word (" FLAG_WORDS "), json:PATH or <flag>,json:PATH"

/* PYGRAPH_REPORT: a flag word (the lines on stderr), json:PATH (the JSON
 * document), or both as <flag>,json:PATH.  Everything after the first
 * "json:" is the path, whatever it holds. */
static void parse_report(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  const char *text = lookup("PYGRAPH_REPORT");
  if (!text || !*text)
    return;
  const char *json = strstr(text, "json:");
  int flag = json ? 0 : flag_word(text);
  if (json && json != text) {                /* "<flag>,json:PATH" */
    char word[8] = "";
    size_t n = (size_t)(json - text);
    if (n >= 2 && n <= sizeof word && text[n - 1] == ',') {
      memcpy(word, text, n - 1);
      word[n - 1] = '\0';
      flag = flag_word(word);
    } else {
      flag = -1;
    }
  }
  if (flag < 0 || (json && !json[5])) {
    problem(out, "PYGRAPH_REPORT", text, REPORT_WORDS, "0 (off)");
    return;
  }
  out->report = flag;
  out->report_json = json ? json + 5 : NULL;
}

/* A flag that is on unless a flag word turns it off (PYGRAPH_NVTX,
 * PYGRAPH_WHOLE_LOOPS). */
static int parse_flag_on(struct pygraph_settings *out, const char *(*lookup)(const char *),
                         const char *name)
{
  const char *text = lookup(name);
  if (!text || !*text)
    return 1;
  int v = flag_word(text);
  if (v < 0)
    problem(out, name, text, FLAG_WORDS, "1 (on)");
  return v != 0;
}

/* A flag word or a count: off (0) or on (1: PYGRAPH_DEFAULT_VERIFY_REPLAYS
 * replays per variant), or a number of replays from 2 up. */
static void parse_verify(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  const char *text = lookup("PYGRAPH_VERIFY");
  if (!text || !*text)
    return;
  int v = flag_word(text);
  if (v >= 0) {
    out->verify = v ? PYGRAPH_DEFAULT_VERIFY_REPLAYS : 0;
    return;
  }
  out->verify = parse_number(out, lookup, "PYGRAPH_VERIFY", 2, 1000000ul, 0,
                             FLAG_WORDS " or a number of replays from 2 to 1000000", "0 (off)");
}

/* The numbers whose bound is PYGRAPH_MAX_* or a policy constant. */
static void parse_bounded(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  out->variants = parse_number(out, lookup, "PYGRAPH_VARIANTS", 1, PYGRAPH_MAX_VARIANTS,
                               PYGRAPH_DEFAULT_VARIANTS, "a number from 1 to 16", "8");
  out->measure_iters = parse_number(out, lookup, "PYGRAPH_MEASURE_ITERS", 2,
                                    PYGRAPH_MAX_MEASURE_ITERS, PYGRAPH_DEFAULT_MEASURE_ITERS,
                                    "a number from 2 to 64", "12");
  out->margin_pct = parse_number(out, lookup, "PYGRAPH_MARGIN", 0, 100,
                                 PYGRAPH_DEFAULT_MARGIN_PCT, "a number from 0 to 100", "3");
  out->eager_before_capture = parse_number(out, lookup, "PYGRAPH_EAGER_BEFORE_CAPTURE", 0,
                                           PYGRAPH_MEASURE_MIN,
                                           PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE,
                                           "a number from 0 to 3", "3");
}

static const char *const fault_step_names[PYGRAPH_FAULT_STEPS] = {"capture", "instantiate",
                                                                   "update", "launch"};

/* One "step[:N]" of PYGRAPH_FAULT (len characters at item); 0 when bad. */
static int parse_fault_item(struct pygraph_settings *out, const char *item, size_t len)
{
  for (unsigned k = 0; k < PYGRAPH_FAULT_STEPS; k++) {
    size_t n = strlen(fault_step_names[k]);
    if (len < n || strncmp(item, fault_step_names[k], n) != 0)
      continue;
    if (len == n) {
      out->fault_at[k] = 1;
      return 1;
    }
    if (item[n] != ':' || len == n + 1)
      return 0;
    unsigned long at = 0;
    for (size_t i = n + 1; i < len; i++) {
      if (item[i] < '0' || item[i] > '9' || at > 100000000ul)
        return 0;
      at = at * 10 + (unsigned long)(item[i] - '0');
    }
    out->fault_at[k] = (unsigned)at;
    return at > 0;
  }
  return 0;
}

/* PYGRAPH_FAULT=capture|instantiate|update|launch[:N][,...]: testing only. */
static void parse_fault(struct pygraph_settings *out, const char *(*lookup)(const char *))
{
  const char *text = lookup("PYGRAPH_FAULT");
  if (!text || !*text)
    return;
  for (const char *item = text; *item;) {
    const char *comma = strchr(item, ',');
    size_t len = comma ? (size_t)(comma - item) : strlen(item);
    if (!parse_fault_item(out, item, len) || (comma && !comma[1])) {
      memset(out->fault_at, 0, sizeof out->fault_at);
      problem(out, "PYGRAPH_FAULT", text,
              "a list of capture, instantiate, update or launch, each with an optional :N "
              "(N >= 1)",
              "no injected faults");
      return;
    }
    item += len + (comma != NULL);
  }
}

void pygraph_settings_parse(struct pygraph_settings *out, const char *(*lookup)(const char *name))
{
  pygraph_settings_defaults(out);
  parse_mode(out, lookup);
  unsigned warmup = parse_number(out, lookup, "PYGRAPH_WARMUP", 1, 1000000ul, 0,
                                 "a number of at least 1", "2 (graph mode: 1)");
  out->warmup = warmup ? warmup : PYGRAPH_DEFAULT_WARMUP;
  out->warmup_set = warmup != 0;
  out->max_captures = parse_number(out, lookup, "PYGRAPH_MAX_CAPTURES", 0, 1000000ul,
                                   PYGRAPH_DEFAULT_MAX_CAPTURES, "a number", "16");
  parse_report(out, lookup);
  out->nvtx = parse_flag_on(out, lookup, "PYGRAPH_NVTX");
  out->dot_dir = lookup("PYGRAPH_DOT_DIR");
  if (out->dot_dir && !*out->dot_dir)
    out->dot_dir = NULL;
  out->debug = parse_flag(out, lookup, "PYGRAPH_DEBUG");
  parse_indirect(out, lookup);
  out->max_ops = parse_number(out, lookup, "PYGRAPH_MAX_OPS", 1, 1000000ul,
                              PYGRAPH_DEFAULT_MAX_OPS, "a number of at least 1", "4096");
  parse_bounded(out, lookup);
  out->min_ops = parse_number(out, lookup, "PYGRAPH_MIN_OPS", 1, 1000000ul,
                              PYGRAPH_DEFAULT_MIN_OPS, "a number of at least 1", "2");
  out->pool_mb = parse_number(out, lookup, "PYGRAPH_POOL_MB", 0, 1u << 24,
                              PYGRAPH_DEFAULT_POOL_MB, "a number of MiB (0 turns the pool off)",
                              "1024");
  out->batch = parse_number(out, lookup, "PYGRAPH_BATCH", 1, 1000000ul, 0,
                            "a number of at least 1", "the plugin's batch=");
  out->cublas_workspace_mb = parse_number(
      out, lookup, "PYGRAPH_CUBLAS_WORKSPACE_MB", 0, PYGRAPH_CUBLAS_WORKSPACE_MAX_MB,
      PYGRAPH_CUBLAS_WORKSPACE_AUTO, "a number of MiB from 0 to 4096 (0: no workspace of pygraph's)",
      "32 on compute capability 9.0 and newer, else 4");
  parse_verify(out, lookup);
  parse_fault(out, lookup);
  out->whole_loops = parse_flag_on(out, lookup, "PYGRAPH_WHOLE_LOOPS");
}

#define PROBLEM_LINE "pygraph: warning: %s=\"%s\" is not %s; using %s\n"

int pygraph_settings_format_problem(char *buf, size_t cap,
                                    const struct pygraph_setting_problem *p)
{
  return snprintf(buf, cap, PROBLEM_LINE, p->name, p->value, p->expected, p->used);
}

static const char *lookup_environment(const char *name)
{
  return getenv(name);
}

static void parse_environment(void)
{
  pygraph_settings_parse(&process_settings, lookup_environment);
  for (unsigned i = 0; i < process_settings.n_problems; i++) {
    const struct pygraph_setting_problem *p = &process_settings.problems[i];
    fprintf(stderr, PROBLEM_LINE, p->name, p->value, p->expected, p->used);   /* any length */
  }
}

const struct pygraph_settings *pygraph_settings(void)
{
  pthread_once(&parse_once, parse_environment);
  return &process_settings;
}

/* Parsed when the program loads, not inside its first region's first
 * iteration (a timed loop's start, where the GPU waits for the host): the
 * environment is the one the process started with either way. */
__attribute__((constructor)) static void parse_at_load(void)
{
  (void)pygraph_settings();
}

/* Bounds the logic relies on (the parser never exceeds them; a test's
 * hand-made settings may). */
static void clamp(struct pygraph_settings *s)
{
  if (s->variants == 0 || s->variants > PYGRAPH_MAX_VARIANTS)
    s->variants = s->variants ? PYGRAPH_MAX_VARIANTS : 1;
  if (s->measure_iters < 2)
    s->measure_iters = 2;
  if (s->measure_iters > PYGRAPH_MAX_MEASURE_ITERS)
    s->measure_iters = PYGRAPH_MAX_MEASURE_ITERS;
}

void pygraph_settings_override(const struct pygraph_settings *settings)
{
  pthread_once(&parse_once, parse_environment);
  process_settings = *settings;
  clamp(&process_settings);
}

unsigned pygraph_effective_warmup(const struct pygraph_settings *settings)
{
  return settings->mode == PYGRAPH_MODE_GRAPH && !settings->warmup_set ? 1u : settings->warmup;
}

unsigned pygraph_measure_first(const struct pygraph_settings *settings)
{
  return settings->measure_iters < PYGRAPH_MEASURE_MIN ? settings->measure_iters
                                                       : PYGRAPH_MEASURE_MIN;
}

unsigned pygraph_eager_before_capture(const struct pygraph_settings *settings)
{
  unsigned first = pygraph_measure_first(settings);
  return settings->eager_before_capture < first ? settings->eager_before_capture : first;
}
