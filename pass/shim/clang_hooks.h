// clang_hooks.h - what libpygraph.so hands its clang half.
//
// libpygraph.so is the pass and links only libLLVM, so that opt can load
// it (libclang-cpp registers LLVM command-line options a second time and
// aborts opt).  Its clang half, libpygraph_clang.so (the -fplugin AST action
// that reads -fplugin-arg-pygraph-* and adds the pass to clang's pipeline),
// is loaded from the same folder only inside a clang process, and gets
// these entry points instead of linking against libpygraph.so: the pass
// library exports nothing but llvmGetPassPluginInfo.
#ifndef PYGRAPH_CLANG_HOOKS_H
#define PYGRAPH_CLANG_HOOKS_H

#include <cstddef>

namespace llvm {
class PassBuilder;
}

struct pygraph_clang_hooks {
  int (*options_parse)(const char *arg, char *err, std::size_t errlen);
  void (*register_passes)(llvm::PassBuilder &PB);
  const char *pass_library_path; // real path of libpygraph.so
};

// Exported by libpygraph_clang.so.
extern "C" void pygraph_clang_attach(const pygraph_clang_hooks *hooks);
#define PYGRAPH_CLANG_ATTACH_SYMBOL "pygraph_clang_attach"

#endif
