/* allow_names.h - the names allow= takes, and which callees they name.
 *
 * allow= takes every spelling a remark prints of an external function: the
 * mangled symbol (_Z13sdkStartTimerPP18StopWatchInterface), the demangled
 * signature (sdkStartTimer(StopWatchInterface**)) and the bare qualified
 * name (sdkStartTimer, ns::Timer::start), which names every overload and
 * every template instance of that name.  Spaces count only between two
 * identifier characters ("f(int, float)" is "f(int,float)").  Names are
 * separated by commas outside brackets, so a signature's own commas stay
 * in it.
 */
#ifndef PYGRAPH_ALLOW_NAMES_H
#define PYGRAPH_ALLOW_NAMES_H

/* The names of one allow= value, each with its spaces normalised, appended
 * to *names (a malloc'd array of n malloc'd strings).  Returns 0 and adds
 * nothing when a name is empty. */
int pg_allow_split(const char *list, char ***names, unsigned *n);
/* 1 when one of the n names names the function whose symbol is `symbol`. */
int pg_allow_matches(char *const *names, unsigned n, const char *symbol);
/* The option that makes `symbol` harmless, by its bare qualified name:
 * "-fplugin-arg-pygraph-allow=sdkStartTimer", in single quotes when the
 * name holds characters a shell reads ('...allow=std::operator<<').
 * malloc'd. */
char *pg_allow_option(const char *symbol);

#endif
