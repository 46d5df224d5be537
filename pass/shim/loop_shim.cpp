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
#include "llvm/Transforms/Utils/LoopUtils.h"
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

int pg_block_dominates(pg_loop_info *li, LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  return li->DT.dominates(B(a), B(b));
}

int pg_loop_simplify(pg_loop_info *li, pg_loop *l) {
  simplifyLoop(L(l), &li->DT, &li->LI, /*SE=*/nullptr, /*AC=*/nullptr,
               /*MSSAU=*/nullptr, /*PreserveLCSSA=*/false);
  return L(l)->isLoopSimplifyForm();
}

int pg_loop_form_lcssa(pg_loop_info *li, pg_loop *l) {
  formLCSSA(*L(l), li->DT, &li->LI, /*SE=*/nullptr);
  return L(l)->isLCSSAForm(li->DT);
}

LLVMBasicBlockRef pg_split_block_before(LLVMValueRef before, const char *name) {
  auto *I = cast<Instruction>(unwrap(before));
  return wrap(I->getParent()->splitBasicBlock(I->getIterator(), name));
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

} // extern "C"

namespace {
// Where code was inlined: the subprogram it belongs to and the call site it
// was inlined at (null in its own function).
struct Frame {
  const DISubprogram *SP = nullptr;
  const DILocation *At = nullptr;
  bool operator==(const Frame &O) const { return SP == O.SP && At == O.At; }
};

Frame frameOf(const DILocation *L) { return {L->getScope()->getSubprogram(), L->getInlinedAt()}; }

// L's frames, outermost (the function it is in) first.
SmallVector<Frame, 4> framesOf(const DILocation *L) {
  SmallVector<Frame, 4> F;
  for (; L; L = L->getInlinedAt())
    F.push_back(frameOf(L));
  std::reverse(F.begin(), F.end());
  return F;
}

// The frame the loop statement is in: that of its loop metadata's start,
// else the innermost frame all its instructions share (a loop of a helper
// inlined into its caller is in the helper's frame).
Frame homeFrame(const Loop *Lp, const DILocation *Start) {
  if (Start)
    return frameOf(Start);
  SmallVector<Frame, 4> Common;
  bool First = true;
  for (BasicBlock *BB : Lp->blocks())
    for (Instruction &I : *BB) {
      const DILocation *L = I.getDebugLoc().get();
      if (!L || !L->getLine() || isa<PHINode>(I))
        continue;
      SmallVector<Frame, 4> F = framesOf(L);
      unsigned n = 0;
      while (!First && n < Common.size() && n < F.size() && Common[n] == F[n])
        ++n;
      Common.assign(F.begin(), First ? F.end() : F.begin() + n);
      First = false;
    }
  return Common.empty() ? Frame() : Common.back();
}

// Where L is in frame F: L itself, or the call site (of a call site...)
// that inlined it there; null when L is not inside F.
const DILocation *inFrame(const DILocation *L, const Frame &F) {
  for (; L; L = L->getInlinedAt())
    if (frameOf(L) == F)
      return L;
  return nullptr;
}

// Start and end of the loop statement from the loop metadata of a latch
// (clang emits them under -g and under remark flags); optimisation may
// drop them from some latches or all.
void metadataRange(const Loop *Lp, const DILocation *&Start, const DILocation *&End) {
  Start = End = nullptr;
  SmallVector<BasicBlock *, 4> Latches;
  Lp->getLoopLatches(Latches);
  for (BasicBlock *BB : Latches) {
    MDNode *ID = BB->getTerminator()->getMetadata(LLVMContext::MD_loop);
    if (!ID)
      continue;
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *Loc = dyn_cast<DILocation>(Op)) {
        (Start ? End : Start) = Loc;
        if (End)
          return;
      }
  }
}
} // namespace

extern "C" void pg_loop_lines(pg_loop *l, unsigned *first, unsigned *last) {
  const Loop *Lp = L(l);
  const DILocation *Start, *End;
  metadataRange(Lp, Start, End);
  unsigned lo = 0, hi = 0;
  auto widen = [&](const DILocation *Loc) {
    if (!Loc || !Loc->getLine())
      return;
    lo = lo ? std::min(lo, Loc->getLine()) : Loc->getLine();
    hi = std::max(hi, Loc->getLine());
  };
  widen(Start);
  widen(End);
  // The loop statement's own start and end are its range.  Where
  // optimisation dropped them, every line of the loop's own code is (code
  // inlined into it counts at its call's line), but for what carries lines
  // of no statement inside: phis (a promoted variable's declaration) and
  // landing pads (the function's closing brace).
  Frame Home = homeFrame(Lp, Start);
  if (Home.SP && !(Start && End))
    for (BasicBlock *BB : Lp->blocks())
      for (Instruction &I : *BB)
        if (!isa<PHINode>(I) && !I.isEHPad() &&
            !(isa<ExtractValueInst>(I) && isa<LandingPadInst>(I.getOperand(0))))
          widen(inFrame(I.getDebugLoc().get(), Home));
  *first = lo;
  *last = hi;
}

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

} // extern "C"

struct pg_scev : LoopSCEV {
  pg_loop_info *LI;
  pg_scev(pg_loop_info *li, Function &F) : LoopSCEV(li, F), LI(li) {}
};

// An IR value ScalarEvolution sees as S that is defined outside Lp and
// available when Lp is entered: S's own value, a function argument, or an
// instruction of a block outside Lp that dominates its header.
static Value *valueFor(pg_scev *se, const Loop *Lp, const SCEV *S) {
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    auto *I = dyn_cast<Instruction>(U->getValue());
    return I && Lp->contains(I) ? nullptr : U->getValue();
  }
  ScalarEvolution &SE = se->SE;
  BasicBlock *Header = Lp->getHeader();
  Function *F = Header->getParent();
  for (Argument &A : F->args())
    if (SE.isSCEVable(A.getType()) && SE.getSCEV(&A) == S)
      return &A;
  for (BasicBlock &BB : *F) {
    if (Lp->contains(&BB) || !se->LI->DT.dominates(&BB, Header))
      continue;
    for (Instruction &I : BB)
      if (SE.isSCEVable(I.getType()) && SE.getSCEV(&I) == S)
        return &I;
  }
  return nullptr;
}

static bool smallConstant(const SCEV *S, long long &C) {
  auto *K = dyn_cast<SCEVConstant>(S);
  if (!K || !K->getAPInt().isSignedIntN(64))
    return false;
  C = K->getAPInt().getSExtValue();
  return true;
}

// S as C * V (V an IR value outside Lp, or none when S is the constant C).
static bool splitProduct(pg_scev *se, const Loop *Lp, const SCEV *S, long long &C, Value *&V) {
  V = nullptr;
  if (smallConstant(S, C))
    return true;
  C = 1;
  if ((V = valueFor(se, Lp, S)))
    return true;
  auto *Mul = dyn_cast<SCEVMulExpr>(S);
  return Mul && Mul->getNumOperands() == 2 && smallConstant(Mul->getOperand(0), C) &&
         (V = valueFor(se, Lp, Mul->getOperand(1)));
}

// S as V + C (V an IR value outside Lp, or none when S is the constant C).
static bool splitSum(pg_scev *se, const Loop *Lp, const SCEV *S, Value *&V, long long &C) {
  V = nullptr;
  C = 0;
  if (smallConstant(S, C) || (V = valueFor(se, Lp, S)))
    return true;
  auto *Add = dyn_cast<SCEVAddExpr>(S);
  return Add && Add->getNumOperands() == 2 && smallConstant(Add->getOperand(0), C) &&
         (V = valueFor(se, Lp, Add->getOperand(1)));
}

extern "C" {

pg_scev *pg_scev_new(pg_loop_info *li, LLVMValueRef fn) {
  return new pg_scev(li, *unwrap<Function>(fn));
}

void pg_scev_free(pg_scev *se) { delete se; }

int pg_scev_invariant(pg_scev *se, pg_loop *l, LLVMValueRef v) {
  Value *V = unwrap(v);
  return se->SE.isSCEVable(V->getType()) && se->SE.isLoopInvariant(se->SE.getSCEV(V), L(l));
}

int pg_scev_affine(pg_scev *se, pg_loop *l, LLVMValueRef v, pg_affine *out) {
  Value *V = unwrap(v);
  ScalarEvolution &SE = se->SE;
  if (!SE.isSCEVable(V->getType()) || SE.getTypeSizeInBits(V->getType()) > 64)
    return 0;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V));
  if (!AR || AR->getLoop() != L(l) || !AR->isAffine())
    return 0;
  Value *Base, *StepBy;
  if (!splitSum(se, L(l), AR->getStart(), Base, out->offset) ||
      !splitProduct(se, L(l), AR->getStepRecurrence(SE), out->step, StepBy))
    return 0;
  out->base = Base ? wrap(Base) : nullptr;
  out->step_by = StepBy ? wrap(StepBy) : nullptr;
  return 1;
}

unsigned pg_loop_num_subloops(pg_loop *l) {
  return static_cast<unsigned>(L(l)->getSubLoops().size());
}

pg_loop *pg_loop_subloop(pg_loop *l, unsigned i) { return P(L(l)->getSubLoops()[i]); }

pg_loop *pg_loop_parent(pg_loop *l) { return P(L(l)->getParentLoop()); }

} // extern "C"
