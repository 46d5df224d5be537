// clone_shim.cpp - function body cloning for the C core (indirect twins).
//
// The C side builds the twin function and a prologue block that computes a
// replacement value for every parameter of the original; this clones the
// original's body after it (llvm::CloneFunctionInto) with the parameters
// mapped to those values.
#include "pygraph_shim.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

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
  return 1;
}
