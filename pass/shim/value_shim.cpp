// value_shim.cpp - what a pointer may point to and what a call may do, for
// the C core (llvm::getUnderlyingObject, llvm::PointerMayBeCaptured and the
// memory/unwind attributes of llvm::CallBase).
#include "pygraph_shim.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {
// PointerMayBeCaptured's own tracker counts a volatile access as a capture
// (the address of memory-mapped I/O is observable); an access *through* the
// pointer to a stack slot hands its address to no one, so only that is let
// pass here, and any use the caller's filter accepts.  Anything else LLVM
// sees capturing the slot is an escape.
struct EscapeTracker : CaptureTracker {
  pg_use_filter Filter;
  void *Ctx;
  bool Escaped = false;
  EscapeTracker(pg_use_filter F, void *C) : Filter(F), Ctx(C) {}
  void tooManyUses() override { Escaped = true; }
  Action captured(const Use *U, UseCaptureInfo) override {
    const User *I = U->getUser();
    unsigned Op = U->getOperandNo();
    if ((isa<LoadInst>(I) && Op == LoadInst::getPointerOperandIndex()) ||
        (isa<StoreInst>(I) && Op == StoreInst::getPointerOperandIndex()) ||
        (isa<AtomicCmpXchgInst>(I) && Op == AtomicCmpXchgInst::getPointerOperandIndex()) ||
        (isa<AtomicRMWInst>(I) && Op == AtomicRMWInst::getPointerOperandIndex()))
      return Continue;
    if (Filter && Filter(wrap(const_cast<User *>(I)), Op, Ctx))
      return Continue;
    Escaped = true;
    return Stop;
  }
};
} // namespace

extern "C" {

LLVMValueRef pg_underlying_object(LLVMValueRef ptr) {
  return wrap(getUnderlyingObject(unwrap(ptr)));
}

int pg_is_private_stack_slot_except(LLVMValueRef ptr, pg_use_filter ok, void *ctx) {
  const Value *obj = getUnderlyingObject(unwrap(ptr));
  if (!isa<AllocaInst>(obj))
    return 0;
  EscapeTracker T(ok, ctx);
  PointerMayBeCaptured(obj, &T);
  return !T.Escaped;
}

int pg_is_private_stack_slot(LLVMValueRef ptr) {
  return pg_is_private_stack_slot_except(ptr, nullptr, nullptr);
}

LLVMValueRef pg_strip_constant_offsets(LLVMModuleRef m, LLVMValueRef ptr, long long *off) {
  const DataLayout &DL = unwrap(m)->getDataLayout();
  Value *V = unwrap(ptr);
  APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
  Value *Base = V->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  *off = Off.getSExtValue();
  return wrap(Base);
}

int pg_call_may_unwind(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  return CB && !CB->doesNotThrow();
}

int pg_call_no_return(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  return CB && CB->doesNotReturn();
}

int pg_call_only_reads_memory(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  return CB && CB->onlyReadsMemory();
}

} // extern "C"
