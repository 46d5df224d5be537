/* debug_log.h - PYGRAPH_DEBUG=1 transition log on stderr. */
#ifndef PYGRAPH_DEBUG_LOG_H
#define PYGRAPH_DEBUG_LOG_H

#include "settings.h"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void pygraph_debug_log(const struct pygraph_settings *settings, const char *fmt, ...);

#endif /* PYGRAPH_DEBUG_LOG_H */
