// value_shim.cpp - what a pointer may point to, for the C core
// (llvm::getUnderlyingObject and llvm::PointerMayBeCaptured).
#include "pygraph_shim.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace {
// PointerMayBeCaptured's own tracker counts a volatile access as a capture
// (the address of memory-mapped I/O is observable); an access *through* the
// pointer to a stack slot hands its address to no one, so only that is let
// pass here.  Anything else LLVM sees capturing the slot is an escape.
struct EscapeTracker : CaptureTracker {
  bool Escaped = false;
  void tooManyUses() override { Escaped = true; }
  Action captured(const Use *U, UseCaptureInfo) override {
    const User *I = U->getUser();
    unsigned Op = U->getOperandNo();
    if ((isa<LoadInst>(I) && Op == LoadInst::getPointerOperandIndex()) ||
        (isa<StoreInst>(I) && Op == StoreInst::getPointerOperandIndex()) ||
        (isa<AtomicCmpXchgInst>(I) && Op == AtomicCmpXchgInst::getPointerOperandIndex()) ||
        (isa<AtomicRMWInst>(I) && Op == AtomicRMWInst::getPointerOperandIndex()))
      return Continue;
    Escaped = true;
    return Stop;
  }
};
} // namespace

extern "C" int pg_is_private_stack_slot(LLVMValueRef ptr) {
  const Value *obj = getUnderlyingObject(unwrap(ptr));
  if (!isa<AllocaInst>(obj))
    return 0;
  EscapeTracker T;
  PointerMayBeCaptured(obj, &T);
  return !T.Escaped;
}
