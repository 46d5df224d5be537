// plugin_registration.cpp - how clang loads pygraph.
//
// `clang -fplugin=libpygraph.so` loads this library into every cc1 job of a
// CUDA compile (host and -fcuda-is-device).  A before-main AST action parses
// -fplugin-arg-pygraph-* options and pushes a PassBuilder callback into
// CodeGenOptions::PassBuilderCallbacks, which adds the pygraph module pass at
// the end of the optimisation pipeline (-O0 included).  The same library also
// exports llvmGetPassPluginInfo for -fpass-plugin= and opt; when both name
// this file, only the pass-plugin registration is kept.
#include "pygraph_shim.h"
#include "../core/pass_entry.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/FileSystem.h"

#include <dlfcn.h>

using namespace llvm;

namespace {

struct PygraphModulePass : PassInfoMixin<PygraphModulePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return pg_run_module(wrap(&M)) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; } // also at -O0 (optnone functions)
};

void registerPygraph(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(PygraphModulePass());
      });
}

// Path of this shared object, to recognise it in -fpass-plugin= lists.
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

bool loadedAsPassPluginToo(const clang::CodeGenOptions &CGO) {
  std::string Self = thisLibraryPath();
  for (const std::string &P : CGO.PassPlugins) {
    SmallString<256> Real;
    if (!sys::fs::real_path(P, Real) && std::string(Real) == Self)
      return true;
  }
  return false;
}

class PygraphAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        StringRef) override {
    clang::CodeGenOptions &CGO = CI.getCodeGenOpts();
    // Remarks and the run-time report name file:line; like clang does for
    // -Rpass, track locations in the IR without emitting debug info.
    if (CGO.getDebugInfo() == codegenoptions::NoDebugInfo)
      CGO.setDebugInfo(codegenoptions::LocTrackingOnly);
    if (!loadedAsPassPluginToo(CGO))
      CGO.PassBuilderCallbacks.push_back(registerPygraph);
    return std::make_unique<clang::ASTConsumer>();
  }

  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    clang::DiagnosticsEngine &D = CI.getDiagnostics();
    bool ok = true;
    for (const std::string &A : Args) {
      char err[256] = {0};
      if (!pg_options_parse(A.c_str(), err, sizeof err)) {
        unsigned ID = D.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                        "pygraph: %0 (in '-fplugin-arg-pygraph-%1')");
        D.Report(ID) << err << A;
        ok = false;
      }
    }
    return ok;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static clang::FrontendPluginRegistry::Add<PygraphAction>
    X("pygraph", "turn repeated CUDA launch sequences into CUDA graphs");

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pygraph", "0.1", registerPygraph};
}
