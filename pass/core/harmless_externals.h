/* harmless_externals.h - external functions that cannot touch the device. */
#ifndef PYGRAPH_HARMLESS_EXTERNALS_H
#define PYGRAPH_HARMLESS_EXTERNALS_H
/* 1 when a call to the external `name` may stay inside a graph region. */
int pg_is_harmless_external(const char *name);
#endif
