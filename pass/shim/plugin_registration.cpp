// plugin_registration.cpp - how clang and opt load pygraph.
//
// libpygraph.so is an LLVM pass plugin: it exports llvmGetPassPluginInfo
// (the only symbol it exports, see plugin.exports) for -fpass-plugin= and
// opt, and names the pass in pipelines:
//   opt -load-pass-plugin libpygraph.so -passes=pygraph in.ll
//   opt -load-pass-plugin libpygraph.so '-passes=pygraph<min-launches=3;analyze-only>' in.ll
// (parameters: the -fplugin-arg-pygraph-* options, ';'-separated).  The
// pass tells a host module from a device module by its triple.
//
// Under `clang -fplugin=libpygraph.so` a constructor sees clang's plugin
// registry in the process and loads libpygraph_clang.so from this library's
// folder (clang_action.cpp), which reads the -fplugin-arg-pygraph-* options
// and adds the pass to clang's pipeline.  The clang half is a separate
// library because libclang-cpp cannot be loaded into opt (it registers some
// LLVM command-line options a second time, and opt aborts).
#include "clang_hooks.h"
#include "pygraph_shim.h"
#include "../core/pass_entry.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <dlfcn.h>
#include <string>

using namespace llvm;

namespace {

struct PygraphModulePass : PassInfoMixin<PygraphModulePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return pg_run_module(wrap(&M)) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; } // also at -O0 (optnone functions)
};

// "pygraph" or "pygraph<opt;opt=value;...>" in a -passes= pipeline.
bool parsePygraphPipeline(StringRef Name, ModulePassManager &MPM,
                          ArrayRef<PassBuilder::PipelineElement>) {
  if (Name != "pygraph") {
    if (!Name.consume_front("pygraph<") || !Name.consume_back(">"))
      return false;
    SmallVector<StringRef, 4> Params;
    Name.split(Params, ';', -1, /*KeepEmpty=*/false);
    for (StringRef P : Params) {
      char err[256] = {0};
      if (!pg_options_parse(P.str().c_str(), err, sizeof err)) {
        errs() << "pygraph: " << err << " (in pass parameter '" << P << "')\n";
        return false;
      }
    }
  }
  MPM.addPass(PygraphModulePass());
  return true;
}

void registerPygraph(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parsePygraphPipeline);
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(PygraphModulePass());
      });
}

// Path of this shared object, to find the clang half and to recognise this
// library in -fpass-plugin= lists.
std::string thisLibraryPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&registerPygraph), &Info) && Info.dli_fname) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Info.dli_fname, Real))
      return std::string(Real);
    return Info.dli_fname;
  }
  return {};
}

// clang's frontend plugin registry (llvm::Registry<clang::PluginASTAction>).
const char kClangRegistry[] = "_ZN4llvm8RegistryIN5clang15PluginASTActionEE4HeadE";

__attribute__((constructor)) void attachClangHalf() {
  if (!dlsym(RTLD_DEFAULT, kClangRegistry))
    return; // not inside clang (opt, or another LLVM tool)
  static std::string Self = thisLibraryPath();
  SmallString<256> Half(sys::path::parent_path(Self));
  sys::path::append(Half, "libpygraph_clang.so");
  void *H = dlopen(Half.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto *Attach = H ? reinterpret_cast<void (*)(const pygraph_clang_hooks *)>(
                         dlsym(H, PYGRAPH_CLANG_ATTACH_SYMBOL))
                   : nullptr;
  if (!Attach) {
    std::fprintf(stderr, "pygraph: cannot load %s (%s): -fplugin=libpygraph.so does nothing\n",
                 Half.c_str(), H ? "no " PYGRAPH_CLANG_ATTACH_SYMBOL : dlerror());
    return;
  }
  static const pygraph_clang_hooks Hooks = {pg_options_parse, registerPygraph, Self.c_str()};
  Attach(&Hooks);
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK LLVM_ATTRIBUTE_VISIBILITY_DEFAULT PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pygraph", "0.1", registerPygraph};
}
