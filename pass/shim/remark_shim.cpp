// remark_shim.cpp - optimization remarks, errors and demangling for the C core.
//
// Remarks go through LLVMContext::diagnose so that clang's -Rpass=pygraph,
// -Rpass-missed=pygraph and -Rpass-analysis=pygraph filter and print them
// with file:line:col, exactly like clang's own remarks.  The device compile's
// remarks are under their own name, "pygraph-device" (see pygraph_shim.h).
#include "pygraph_shim.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

static const char *const kPassName = "pygraph";
static const char *const kDevicePassName = "pygraph-device";

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

static bool enabledFor(const DiagnosticHandler *H, pg_remark_kind Kind, StringRef Pass) {
  switch (Kind) {
  case PG_REMARK_PASSED:
    return H->isPassedOptRemarkEnabled(Pass);
  case PG_REMARK_MISSED:
    return H->isMissedOptRemarkEnabled(Pass);
  case PG_REMARK_ANALYSIS:
    return H->isAnalysisRemarkEnabled(Pass);
  }
  return false;
}

// clang matches a -Rpass* pattern anywhere in a pass name: "pygraph"
// selects "pygraph-device" too.  Device remarks print for a pattern that
// selects "pygraph-device" but not "pygraph", or one that also selects
// names beyond pygraph's (".*", "pygraph|device").
static bool devicePrinted(const LLVMContext &Ctx, pg_remark_kind Kind) {
  const DiagnosticHandler *H = Ctx.getDiagHandlerPtr();
  return enabledFor(H, Kind, kDevicePassName) &&
         (!enabledFor(H, Kind, kPassName) || enabledFor(H, Kind, "device"));
}

// Where a remark about `at` (an instruction or a function) points.
static bool remarkSite(Value *V, const Function *&F, DiagnosticLocation &Loc,
                       const BasicBlock *&BB) {
  F = nullptr;
  BB = nullptr;
  if (auto *I = dyn_cast<Instruction>(V)) {
    F = I->getFunction();
    Loc = DiagnosticLocation(userLoc(I));
    BB = I->getParent();
  } else if (auto *Fn = dyn_cast<Function>(V)) {
    F = Fn;
    if (DISubprogram *SP = Fn->getSubprogram())
      Loc = DiagnosticLocation(SP);
    BB = Fn->empty() ? nullptr : &Fn->getEntryBlock();
  }
  return F != nullptr;
}

// Builds the remark of `kind` at Loc (in F, block BB) and hands it to Emit.
template <typename EmitFn>
static void emitRemark(pg_remark_kind kind, const char *pass, const char *name, const Function *F,
                       const DiagnosticLocation &Loc, const BasicBlock *BB, const char *msg,
                       EmitFn Emit) {
  switch (kind) {
  case PG_REMARK_PASSED: {
    OptimizationRemark R(pass, name, Loc, BB);
    R << msg;
    Emit(F->getContext(), R);
    break;
  }
  case PG_REMARK_MISSED: {
    OptimizationRemarkMissed R(pass, name, Loc, BB);
    R << msg;
    Emit(F->getContext(), R);
    break;
  }
  case PG_REMARK_ANALYSIS: {
    OptimizationRemarkAnalysis R(pass, name, Loc, BB);
    R << msg;
    Emit(F->getContext(), R);
    break;
  }
  }
}

// Builds the remark of `kind` about `at` and hands it to Emit.
template <typename EmitFn>
static void buildRemark(pg_remark_kind kind, const char *pass, const char *name, LLVMValueRef at,
                        const char *msg, EmitFn Emit) {
  const Function *F;
  DiagnosticLocation Loc;
  const BasicBlock *BB;
  if (remarkSite(unwrap(at), F, Loc, BB))
    emitRemark(kind, pass, name, F, Loc, BB, msg, Emit);
}

extern "C" {

int pg_remark_enabled(LLVMModuleRef m, pg_remark_kind kind) {
  return enabledFor(unwrap(m)->getContext().getDiagHandlerPtr(), kind, kPassName);
}

int pg_remark_wanted(LLVMModuleRef m, pg_remark_kind kind) {
  return unwrap(m)->getContext().getLLVMRemarkStreamer() != nullptr ||
         pg_remark_enabled(m, kind);
}

void pg_remark(pg_remark_kind kind, const char *name, LLVMValueRef at, const char *msg) {
  buildRemark(kind, kPassName, name, at, msg,
              [](LLVMContext &Ctx, DiagnosticInfoOptimizationBase &R) { Ctx.diagnose(R); });
}

void pg_remark_loop(pg_remark_kind kind, const char *name, pg_loop *l, const char *msg) {
  const Loop *Lp = reinterpret_cast<const Loop *>(l);
  const BasicBlock *H = Lp->getHeader();
  DebugLoc Start = Lp->getStartLoc();
  if (!Start) { // no loop metadata nor header location: the header's first located instruction
    for (const Instruction &I : *H)
      if (I.getDebugLoc()) {
        pg_remark(kind, name, wrap(&I), msg);
        return;
      }
  }
  emitRemark(kind, kPassName, name, H->getParent(), DiagnosticLocation(Start), H, msg,
             [](LLVMContext &Ctx, DiagnosticInfoOptimizationBase &R) { Ctx.diagnose(R); });
}

int pg_device_remark_wanted(LLVMModuleRef m, pg_remark_kind kind) {
  const LLVMContext &Ctx = unwrap(m)->getContext();
  return Ctx.getLLVMRemarkStreamer() != nullptr || devicePrinted(Ctx, kind);
}

void pg_device_remark(pg_remark_kind kind, const char *name, LLVMValueRef at, const char *msg) {
  buildRemark(kind, kDevicePassName, name, at, msg,
              [kind](LLVMContext &Ctx, DiagnosticInfoOptimizationBase &R) {
                if (devicePrinted(Ctx, kind))
                  Ctx.diagnose(R); // printed, and saved to the record if any
                else if (LLVMRemarkStreamer *RS = Ctx.getLLVMRemarkStreamer())
                  RS->emit(R);     // saved only
              });
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

const char *pg_param_name(LLVMValueRef fn, unsigned argno) {
  auto *F = dyn_cast_or_null<Function>(unwrap(fn));
  const DISubprogram *SP = F ? F->getSubprogram() : nullptr;
  if (!SP)
    return nullptr;
  auto named = [&](const DILocalVariable *V) {
    return V && V->getArg() == argno + 1 && V->getScope() == SP && !V->getName().empty();
  };
  for (const DINode *N : SP->getRetainedNodes())
    if (named(dyn_cast<DILocalVariable>(N)))
      return cast<DILocalVariable>(N)->getName().data();
  for (const BasicBlock &BB : *F)
    for (const Instruction &I : BB)
      for (const DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
        if (named(R.getVariable()))
          return R.getVariable()->getName().data();
  return nullptr;
}

char *pg_demangle(const char *mangled) {
  std::string D = llvm::demangle(mangled);
  return strdup(D.c_str());
}

char *pg_demangle_function_name(const char *mangled) {
  ItaniumPartialDemangler D;
  if (D.partialDemangle(mangled) || !D.isFunction())
    return nullptr;
  return D.getFunctionName(nullptr, nullptr); // malloc'd, as __cxa_demangle's
}

} // extern "C"
