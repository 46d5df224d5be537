// clang_action.cpp - libpygraph_clang.so, the clang half of the plugin.
//
// `clang -fplugin=libpygraph.so` loads libpygraph.so into every cc1 job of a
// CUDA compile (host and -fcuda-is-device); seeing clang's plugin registry
// in the process, it loads this library from its own folder and attaches it
// (clang_hooks.h).  A before-main AST action parses -fplugin-arg-pygraph-*
// options and pushes a PassBuilder callback into
// CodeGenOptions::PassBuilderCallbacks, which adds the pygraph module pass at
// the end of the optimisation pipeline (-O0 included).  When libpygraph.so is
// also named by -fpass-plugin=, only the pass-plugin registration is kept.
// Under -fplugin-arg-pygraph-disable the action changes nothing: no pass, and
// no location tracking, so the compile is clang's own (same IR, same object).
#include "clang_hooks.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"

#include <string>

using namespace llvm;

namespace {

pygraph_clang_hooks Hooks = {nullptr, nullptr, ""};

bool loadedAsPassPluginToo(const clang::CodeGenOptions &CGO) {
  std::string Self = Hooks.pass_library_path;
  for (const std::string &P : CGO.PassPlugins) {
    SmallString<256> Real;
    if (!sys::fs::real_path(P, Real) && std::string(Real) == Self)
      return true;
  }
  return false;
}

class PygraphAction : public clang::PluginASTAction {
  bool Disabled = false; // -fplugin-arg-pygraph-disable given (ParseArgs runs first)

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        StringRef) override {
    if (Disabled)
      return std::make_unique<clang::ASTConsumer>();
    clang::CodeGenOptions &CGO = CI.getCodeGenOpts();
    // Remarks and the run-time report name file:line; like clang does for
    // -Rpass, track locations in the IR without emitting debug info.
    if (CGO.getDebugInfo() == codegenoptions::NoDebugInfo)
      CGO.setDebugInfo(codegenoptions::LocTrackingOnly);
    if (Hooks.register_passes && !loadedAsPassPluginToo(CGO))
      CGO.PassBuilderCallbacks.push_back(Hooks.register_passes);
    return std::make_unique<clang::ASTConsumer>();
  }

  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    clang::DiagnosticsEngine &D = CI.getDiagnostics();
    if (!Hooks.options_parse) {
      unsigned ID = D.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                      "pygraph: libpygraph_clang.so was loaded without "
                                      "libpygraph.so; pass -fplugin=libpygraph.so");
      D.Report(ID);
      return false;
    }
    bool ok = true;
    for (const std::string &A : Args) {
      Disabled |= A == "disable";
      char err[256] = {0};
      if (!Hooks.options_parse(A.c_str(), err, sizeof err)) {
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

extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT void
pygraph_clang_attach(const pygraph_clang_hooks *hooks) {
  Hooks = *hooks;
}
