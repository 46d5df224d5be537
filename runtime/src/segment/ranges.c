/* ranges.c - a segment's range names (ranges.h). */
#include "segment/ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const suffixes[PYGRAPH_RANGE_KINDS] = {"", " eager", " capture", " replay",
                                                          " flush"};

void pygraph_ranges_discard(struct pygraph_ranges *r)
{
  free((void *)r->names[0]);                  /* the one allocation, names[0] its start */
  memset(r->names, 0, sizeof r->names);
}

unsigned pygraph_range_colour(enum pygraph_range_kind kind)
{
  static const unsigned argb[PYGRAPH_RANGE_KINDS] = {
      0,                                      /* the iteration: the tool's */
      0xff9e9e9eu,                            /* eager: grey */
      0xffff9800u,                            /* capture: orange */
      0xff4caf50u,                            /* replay: green */
      0xffe53935u};                           /* flush: red */
  return argb[kind];
}

void pygraph_ranges_init(struct pygraph_ranges *r, const struct pygraph_backend *backend,
                         const struct pygraph_settings *settings, const pygraph_region *region,
                         unsigned index)
{
  memset(r, 0, sizeof *r);
  r->backend = backend;
  if (!settings->nvtx || !backend || !backend->range_push || !backend->range_pop ||
      (backend->range_tool && !backend->range_tool()))
    return;
  const char *function = region->function ? region->function : "?";
  const char *file = region->file ? region->file : "?";
  const char *format = "%s %s:%u-%u seg %u%s";
  int base = snprintf(NULL, 0, format, function, file, region->line_begin, region->line_end,
                      index, "");
  if (base < 0)
    return;
  size_t total = 0;
  for (unsigned k = 0; k < PYGRAPH_RANGE_KINDS; k++)
    total += (size_t)base + strlen(suffixes[k]) + 1;
  char *block = malloc(total);
  if (!block)
    return;                                   /* no names: no ranges */
  char *p = block;
  for (unsigned k = 0; k < PYGRAPH_RANGE_KINDS; k++) {
    size_t room = (size_t)base + strlen(suffixes[k]) + 1;
    snprintf(p, room, format, function, file, region->line_begin, region->line_end, index,
             suffixes[k]);
    r->names[k] = p;
    p += room;
  }
}
