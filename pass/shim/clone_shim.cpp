// clone_shim.cpp - function body cloning for the C core (indirect twins).
//
// The C side builds the twin function and a prologue block that computes a
// replacement value for every parameter of the original; this clones the
// original's body after it (llvm::CloneFunctionInto) with the parameters
// mapped to those values.
#include "pygraph_shim.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

// What a kernel's `noalias` + read-only pointer parameter told the backend
// (ld.global.nc for the loads through it: NVPTX checks the underlying
// object is such a kernel parameter) is lost once the pointer is loaded
// from an argument block.  The guarantee is the same: the memory is not
// written during the kernel by any means, so the loads based only on such
// pointers are marked !invariant.load, which NVPTX reads the same way.
static void keep_read_only_loads(const Function &Old, Function &New, ValueToValueMapTy &VMap) {
  SmallPtrSet<const Value *, 8> ReadOnly;
  for (const Argument &A : Old.args())
    if (A.getType()->isPointerTy() && A.hasNoAliasAttr() && A.onlyReadsMemory())
      ReadOnly.insert(getUnderlyingObject(VMap[&A]));
  if (ReadOnly.empty())
    return;
  MDNode *Empty = MDNode::get(New.getContext(), {});
  for (BasicBlock &BB : New)
    for (Instruction &I : BB) {
      auto *LI = dyn_cast<LoadInst>(&I);
      if (!LI || LI->isVolatile() || !LI->isUnordered())
        continue;
      SmallVector<const Value *, 4> Objs;
      getUnderlyingObjects(LI->getPointerOperand(), Objs);
      if (!Objs.empty() && all_of(Objs, [&](const Value *O) { return ReadOnly.count(O); }))
        LI->setMetadata(LLVMContext::MD_invariant_load, Empty);
    }
}

extern "C" int pg_clone_body_into(LLVMValueRef from, LLVMValueRef into,
                                  const LLVMValueRef *arg_values, LLVMBasicBlockRef prologue) {
  auto *Old = dyn_cast_or_null<Function>(unwrap(from));
  auto *New = dyn_cast_or_null<Function>(unwrap(into));
  BasicBlock *Pro = unwrap(prologue);
  if (!Old || !New || Old->isDeclaration() || !Pro || Pro->getParent() != New ||
      Pro->getTerminator() || New->getParent() != Old->getParent())
    return 0;
  ValueToValueMapTy VMap;
  unsigned I = 0;
  for (Argument &A : Old->args()) {
    Value *V = unwrap(arg_values[I++]);
    if (!V || V->getType() != A.getType())
      return 0;
    VMap[&A] = V;
  }
  // Same module: the subprogram is cloned (two functions may not share one);
  // types and compile units are kept.  Function attributes, alignment,
  // section and visibility come along (copyAttributesFrom).
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(New, Old, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  // An old parameter mapped straight to a new one (a byval at offset 0)
  // would pass on its attributes (byval among them): drop them all.
  AttributeList AL = New->getAttributes();
  for (unsigned P = 0; P < New->arg_size(); ++P)
    AL = AL.removeParamAttributes(New->getContext(), P);
  New->setAttributes(AL);
  // Join the cloned entry to the prologue rather than branching to it, so
  // that the original's static allocas stay in the entry block.
  // (Successors' phis name the cloned entry as their incoming block.)
  auto *Entry = cast<BasicBlock>(VMap[&Old->getEntryBlock()]);
  Pro->splice(Pro->end(), Entry);
  // Phi incoming blocks are not uses: rename them in the successors.
  Pro->replaceSuccessorsPhiUsesWith(Entry, Pro);
  Entry->replaceAllUsesWith(Pro);
  Entry->eraseFromParent();
  keep_read_only_loads(*Old, *New, VMap);
  return 1;
}
