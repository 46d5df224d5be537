/* settings.h - PYGRAPH_* environment settings, parsed once, lazily. */
#ifndef PYGRAPH_SETTINGS_H
#define PYGRAPH_SETTINGS_H

enum pygraph_mode {
  PYGRAPH_MODE_AUTO,
  PYGRAPH_MODE_EAGER,
  PYGRAPH_MODE_GRAPH
};

struct pygraph_settings {
  enum pygraph_mode mode;
  unsigned warmup;              /* identical iterations before a capture */
  unsigned max_captures;        /* per segment, then eager for good */
  int report;                   /* PYGRAPH_REPORT=1: summary at exit */
  int debug;                    /* PYGRAPH_DEBUG=1: log transitions */
  int indirect;                 /* PYGRAPH_INDIRECT (default 1; 0 = off): kernel
                                   nodes whose arguments change every iteration
                                   read them from a device block refreshed by one
                                   memcpy node per replay (indirect.h) */
  int mode_unknown;             /* PYGRAPH_MODE had an unrecognised value */
};

#define PYGRAPH_DEFAULT_WARMUP 2u
#define PYGRAPH_DEFAULT_MAX_CAPTURES 8u

/* Pure parser; `lookup` plays getenv.  Never prints. */
void pygraph_settings_parse(struct pygraph_settings *out, const char *(*lookup)(const char *name));

/* The process settings: parsed from the environment on first use (warning
 * once on stderr about an unknown PYGRAPH_MODE). */
const struct pygraph_settings *pygraph_settings(void);

/* Tests: replace the process settings (takes effect for regions first used
 * afterwards, since segments copy the settings when created). */
void pygraph_settings_override(const struct pygraph_settings *settings);

/* The warm-up length a segment actually uses (graph mode: 1). */
unsigned pygraph_effective_warmup(const struct pygraph_settings *settings);

#endif /* PYGRAPH_SETTINGS_H */
