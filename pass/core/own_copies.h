/* own_copies.h - the functions pygraph changed run as this file compiled
 * them.
 *
 * A linkonce_odr function (a template instance, an inline function, a
 * kernel template's host stub) is compiled into every file that uses it,
 * and the linker keeps one copy, any file's.  The copies are equivalent as
 * the program wrote them, but not as pygraph changed them: a copy from a
 * file built without the plugin launches behind the runtime's back, has no
 * throw point, and a stub of it in a kernel-pointer table would be taken
 * for pygraph's.  So every such function this file's pass put pygraph code
 * into (a call of a __pygraph_ entry point: rerouted launches and library
 * calls, the region protocol, hooks, throw and barrier points) becomes
 * internal: this file's callers, and its tables, use this file's copy.  The
 * function's static locals stay shared (they are globals of their own).
 * available_externally bodies are kept the same way; weak_odr functions
 * (explicit instantiations other files link against) keep their linkage. */
#ifndef PYGRAPH_OWN_COPIES_H
#define PYGRAPH_OWN_COPIES_H

#include <llvm-c/Core.h>

/* Makes those functions of m internal; returns how many. */
unsigned pg_keep_own_copies(LLVMModuleRef m);

#endif
