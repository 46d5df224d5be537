/* debug_log.h - PYGRAPH_DEBUG=1 transition log on stderr. */
#ifndef PYGRAPH_DEBUG_LOG_H
#define PYGRAPH_DEBUG_LOG_H

#include "common/settings.h"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void pygraph_debug_log(const struct pygraph_settings *settings, const char *fmt, ...);

/* How a segment is named in the log: "<function> <file>:<begin>-<end> seg <i>",
 * for any struct with `region` (a pygraph_region *) and `index` fields. */
#define SEG_FMT "%s %s:%u-%u seg %u"
#define SEG_ARGS(owner)                                                       \
  (owner)->region->function ? (owner)->region->function : "?",               \
      (owner)->region->file ? (owner)->region->file : "?", (owner)->region->line_begin, \
      (owner)->region->line_end, (owner)->index

#endif /* PYGRAPH_DEBUG_LOG_H */
