/* settings.c - environment parsing. */
#include "common/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pygraph_settings process_settings;
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

/* Accepts a plain decimal number in [min, max]; anything else = fallback. */
static unsigned parse_range(const char *text, unsigned min, unsigned long max, unsigned fallback)
{
  if (!text || !*text)
    return fallback;
  char *end;
  unsigned long v = strtoul(text, &end, 10);
  if (*end || text[0] == '-' || v < min || v > max)
    return fallback;
  return (unsigned)v;
}

static unsigned parse_count(const char *text, unsigned min, unsigned fallback)
{
  return parse_range(text, min, 1000000ul, fallback);
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
}

static int parse_flag(const char *text)
{
  return text && *text && strcmp(text, "0") != 0;
}

void pygraph_settings_parse(struct pygraph_settings *out, const char *(*lookup)(const char *name))
{
  memset(out, 0, sizeof *out);
  const char *mode = lookup("PYGRAPH_MODE");
  if (!mode || !*mode || strcmp(mode, "auto") == 0)
    out->mode = PYGRAPH_MODE_AUTO;
  else if (strcmp(mode, "eager") == 0)
    out->mode = PYGRAPH_MODE_EAGER;
  else if (strcmp(mode, "graph") == 0)
    out->mode = PYGRAPH_MODE_GRAPH;
  else {
    out->mode = PYGRAPH_MODE_AUTO;
    out->mode_unknown = 1;
  }
  unsigned warmup = parse_count(lookup("PYGRAPH_WARMUP"), 1, 0);   /* 0: not given or bad */
  out->warmup = warmup ? warmup : PYGRAPH_DEFAULT_WARMUP;
  out->warmup_set = warmup != 0;
  out->max_captures = parse_count(lookup("PYGRAPH_MAX_CAPTURES"), 0, PYGRAPH_DEFAULT_MAX_CAPTURES);
  out->report = parse_flag(lookup("PYGRAPH_REPORT"));
  out->debug = parse_flag(lookup("PYGRAPH_DEBUG"));
  const char *indirect = lookup("PYGRAPH_INDIRECT");
  if (!indirect || !*indirect || strcmp(indirect, "auto") == 0)
    out->indirect = PYGRAPH_INDIRECT_AUTO;
  else
    out->indirect = strcmp(indirect, "0") != 0 ? PYGRAPH_INDIRECT_ON : PYGRAPH_INDIRECT_OFF;
  out->max_ops = parse_count(lookup("PYGRAPH_MAX_OPS"), 1, PYGRAPH_DEFAULT_MAX_OPS);
  out->variants = parse_range(lookup("PYGRAPH_VARIANTS"), 1, PYGRAPH_MAX_VARIANTS,
                              PYGRAPH_DEFAULT_VARIANTS);
  out->measure_iters = parse_range(lookup("PYGRAPH_MEASURE_ITERS"), 2, PYGRAPH_MAX_MEASURE_ITERS,
                                   PYGRAPH_DEFAULT_MEASURE_ITERS);
  out->margin_pct = parse_range(lookup("PYGRAPH_MARGIN"), 0, 100, PYGRAPH_DEFAULT_MARGIN_PCT);
  out->eager_before_capture = parse_range(lookup("PYGRAPH_EAGER_BEFORE_CAPTURE"), 0,
                                          PYGRAPH_MEASURE_MIN,
                                          PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE);
  out->min_ops = parse_count(lookup("PYGRAPH_MIN_OPS"), 1, PYGRAPH_DEFAULT_MIN_OPS);
  out->batch = parse_count(lookup("PYGRAPH_BATCH"), 1, 0);
}

static const char *lookup_environment(const char *name)
{
  return getenv(name);
}

static void parse_environment(void)
{
  pygraph_settings_parse(&process_settings, lookup_environment);
  if (process_settings.mode_unknown)
    fprintf(stderr, "pygraph: warning: unknown PYGRAPH_MODE=\"%s\", using auto\n",
            getenv("PYGRAPH_MODE"));
}

const struct pygraph_settings *pygraph_settings(void)
{
  pthread_once(&parse_once, parse_environment);
  return &process_settings;
}

void pygraph_settings_override(const struct pygraph_settings *settings)
{
  pthread_once(&parse_once, parse_environment);
  process_settings = *settings;
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
