// loop_shim.cpp - LoopInfo/DominatorTree, loop canonicalisation and trip counts
// (ScalarEvolution, SCEVExpander) for the C core.
#include "pygraph_shim.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <algorithm>

using namespace llvm;

struct pg_loop_info {
  DominatorTree DT;
  LoopInfo LI;
  explicit pg_loop_info(Function &F) : DT(F), LI(DT) {}
};

static Loop *L(pg_loop *l) { return reinterpret_cast<Loop *>(l); }
static pg_loop *P(Loop *l) { return reinterpret_cast<pg_loop *>(l); }
static BasicBlock *B(LLVMBasicBlockRef bb) { return unwrap(bb); }

extern "C" {

pg_loop_info *pg_loops_compute(LLVMValueRef fn) {
  return new pg_loop_info(*unwrap<Function>(fn));
}

void pg_loops_free(pg_loop_info *li) { delete li; }

unsigned pg_loops_num_top_level(pg_loop_info *li) {
  return static_cast<unsigned>(li->LI.getTopLevelLoops().size());
}

pg_loop *pg_loops_top_level(pg_loop_info *li, unsigned i) {
  return P(li->LI.getTopLevelLoops()[i]);
}

pg_loop *pg_loop_for_block(pg_loop_info *li, LLVMBasicBlockRef bb) {
  return P(li->LI.getLoopFor(B(bb)));
}

int pg_loop_contains_block(pg_loop *l, LLVMBasicBlockRef bb) { return L(l)->contains(B(bb)); }
LLVMBasicBlockRef pg_loop_header(pg_loop *l) { return wrap(L(l)->getHeader()); }
unsigned pg_loop_num_blocks(pg_loop *l) { return L(l)->getNumBlocks(); }
LLVMBasicBlockRef pg_loop_block(pg_loop *l, unsigned i) { return wrap(L(l)->getBlocks()[i]); }

int pg_loop_simplify(pg_loop_info *li, pg_loop *l) {
  simplifyLoop(L(l), &li->DT, &li->LI, /*SE=*/nullptr, /*AC=*/nullptr,
               /*MSSAU=*/nullptr, /*PreserveLCSSA=*/false);
  return L(l)->isLoopSimplifyForm();
}

LLVMBasicBlockRef pg_loop_preheader(pg_loop *l) { return wrap(L(l)->getLoopPreheader()); }
LLVMBasicBlockRef pg_loop_latch(pg_loop *l) { return wrap(L(l)->getLoopLatch()); }

unsigned pg_loop_exit_blocks(pg_loop *l, LLVMBasicBlockRef *out, unsigned max) {
  SmallVector<BasicBlock *, 8> Exits;
  L(l)->getUniqueExitBlocks(Exits);
  for (unsigned i = 0; i < Exits.size() && i < max; ++i)
    out[i] = wrap(Exits[i]);
  return static_cast<unsigned>(Exits.size());
}

void pg_loop_lines(pg_loop *l, unsigned *first, unsigned *last) {
  unsigned lo = 0, hi = 0;
  Loop::LocRange R = L(l)->getLocRange();
  if (R.getStart()) {
    lo = R.getStart().getLine();
    hi = R.getEnd() ? R.getEnd().getLine() : lo;
  }
  // Blocks may carry lines outside the loop statement's range (inlined
  // callees); only widen with lines from this function's own file.
  if (!lo) {
    for (BasicBlock *BB : L(l)->blocks())
      for (Instruction &I : *BB)
        if (const DebugLoc &DL = I.getDebugLoc()) {
          if (DL.getInlinedAt())
            continue;
          unsigned line = DL.getLine();
          if (!line)
            continue;
          lo = lo ? std::min(lo, line) : line;
          hi = std::max(hi, line);
        }
  }
  *first = lo;
  *last = hi;
}

} // extern "C"

namespace {
// ScalarEvolution of l's function, with what it needs alive beside it.
struct LoopSCEV {
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  ScalarEvolution SE;
  LoopSCEV(pg_loop_info *li, Function &F)
      : TLII(F.getParent()->getTargetTriple()), TLI(TLII, &F), AC(F),
        SE(F, TLI, AC, li->DT, li->LI) {}
};
} // namespace

static unsigned tripCount(pg_loop_info *li, pg_loop *l, bool Max) {
  LoopSCEV S(li, *L(l)->getHeader()->getParent());
  return Max ? S.SE.getSmallConstantMaxTripCount(L(l)) : S.SE.getSmallConstantTripCount(L(l));
}

extern "C" {

unsigned pg_loop_trip_count(pg_loop_info *li, pg_loop *l) { return tripCount(li, l, false); }
unsigned pg_loop_max_trip_count(pg_loop_info *li, pg_loop *l) { return tripCount(li, l, true); }

LLVMValueRef pg_loop_expand_trip_count(pg_loop_info *li, pg_loop *l, LLVMValueRef before) {
  Loop *Lp = L(l);
  auto *At = cast<Instruction>(unwrap(before));
  LoopSCEV S(li, *Lp->getHeader()->getParent());
  // A loop with an exit SCEV cannot count (a `break` on data) still has a
  // computable bound when its counted exits limit it: the runtime reads
  // the value as "at most".
  const SCEV *Taken = S.SE.getBackedgeTakenCount(Lp);
  if (isa<SCEVCouldNotCompute>(Taken))
    Taken = S.SE.getSymbolicMaxBackedgeTakenCount(Lp);
  if (isa<SCEVCouldNotCompute>(Taken) || Taken->getType()->getScalarSizeInBits() > 64)
    return nullptr;
  Type *I64 = Type::getInt64Ty(At->getContext());
  // taken + 1, widened first when narrower than i64 (so it cannot wrap)
  const SCEV *Trips = S.SE.getTripCountFromExitCount(Taken, I64, Lp);
  SCEVExpander Expander(S.SE, "pygraph.trips", /*PreserveLCSSA=*/false);
  if (!Expander.isSafeToExpandAt(Trips, At))
    return nullptr;
  return wrap(Expander.expandCodeFor(Trips, I64, At));
}

unsigned pg_loop_num_subloops(pg_loop *l) {
  return static_cast<unsigned>(L(l)->getSubLoops().size());
}

pg_loop *pg_loop_subloop(pg_loop *l, unsigned i) { return P(L(l)->getSubLoops()[i]); }

pg_loop *pg_loop_parent(pg_loop *l) { return P(L(l)->getParentLoop()); }

} // extern "C"
