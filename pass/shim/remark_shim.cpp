// remark_shim.cpp - optimization remarks, errors and demangling for the C core.
//
// Remarks go through LLVMContext::diagnose so that clang's -Rpass=pygraph,
// -Rpass-missed=pygraph and -Rpass-analysis=pygraph filter and print them
// with file:line:col, exactly like clang's own remarks.
#include "pygraph_shim.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

static const char *const kPassName = "pygraph";

// The location a user wrote: at -O2 a launch sits inside the inlined
// __device_stub__, whose frames we peel off to reach the <<<>>> line.  A
// frame is a stub's when its subprogram is that of a __device_stub__
// function of the module (stubs are named after the kernel in debug info).
static bool isStubSubprogram(const Module &M, const DISubprogram *SP) {
  for (const Function &F : M)
    if (F.getSubprogram() == SP && F.getName().contains("__device_stub__"))
      return true;
  return false;
}

static DebugLoc userLoc(const Instruction *I) {
  DebugLoc DL = I->getDebugLoc();
  const Module &M = *I->getModule();
  while (DL && DL.getInlinedAt()) {
    auto *Scope = DL->getScope();
    DISubprogram *SP = Scope ? Scope->getSubprogram() : nullptr;
    // cudaLaunchKernelEx<> and friends are header templates around the
    // launch API: their frames are peeled too.
    bool CudaHeader = SP && SP->getFilename().ends_with("cuda_runtime.h");
    if (!SP || !(CudaHeader || isStubSubprogram(M, SP)))
      break;
    DL = DebugLoc(DL.getInlinedAt());
  }
  return DL;
}

extern "C" {

int pg_remark_enabled(LLVMModuleRef m, pg_remark_kind kind) {
  const DiagnosticHandler *H = unwrap(m)->getContext().getDiagHandlerPtr();
  switch (kind) {
  case PG_REMARK_PASSED:
    return H->isPassedOptRemarkEnabled(kPassName);
  case PG_REMARK_MISSED:
    return H->isMissedOptRemarkEnabled(kPassName);
  case PG_REMARK_ANALYSIS:
    return H->isAnalysisRemarkEnabled(kPassName);
  }
  return 0;
}

int pg_remark_wanted(LLVMModuleRef m, pg_remark_kind kind) {
  return unwrap(m)->getContext().getLLVMRemarkStreamer() != nullptr ||
         pg_remark_enabled(m, kind);
}

void pg_remark(pg_remark_kind kind, const char *name, LLVMValueRef at, const char *msg) {
  Value *V = unwrap(at);
  const Function *F = nullptr;
  DiagnosticLocation Loc;
  if (auto *I = dyn_cast<Instruction>(V)) {
    F = I->getFunction();
    Loc = DiagnosticLocation(userLoc(I));
  } else if (auto *Fn = dyn_cast<Function>(V)) {
    F = Fn;
    if (DISubprogram *SP = Fn->getSubprogram())
      Loc = DiagnosticLocation(SP);
  }
  if (!F)
    return;
  LLVMContext &Ctx = F->getContext();
  const BasicBlock *BB = isa<Instruction>(V) ? cast<Instruction>(V)->getParent()
                                             : (F->empty() ? nullptr : &F->getEntryBlock());
  switch (kind) {
  case PG_REMARK_PASSED: {
    OptimizationRemark R(kPassName, name, Loc, BB);
    R << msg;
    Ctx.diagnose(R);
    break;
  }
  case PG_REMARK_MISSED: {
    OptimizationRemarkMissed R(kPassName, name, Loc, BB);
    R << msg;
    Ctx.diagnose(R);
    break;
  }
  case PG_REMARK_ANALYSIS: {
    OptimizationRemarkAnalysis R(kPassName, name, Loc, BB);
    R << msg;
    Ctx.diagnose(R);
    break;
  }
  }
}

const char *pg_user_loc(LLVMValueRef inst, unsigned *line, unsigned *col) {
  *line = 0;
  if (col)
    *col = 0;
  auto *I = dyn_cast_or_null<Instruction>(unwrap(inst));
  if (!I)
    return "";
  DebugLoc DL = userLoc(I);
  if (!DL)
    return "";
  *line = DL.getLine();
  if (col)
    *col = DL.getCol();
  return DL->getFilename().data();
}

char *pg_demangle(const char *mangled) {
  std::string D = llvm::demangle(mangled);
  return strdup(D.c_str());
}

} // extern "C"
