/* while_condition.cu - the condition kernels of a whole-loop (WHILE) graph
 * (src/graphs/while_condition.h says what they do and what they read).
 * pygraph_while_condition runs as the last node of the WHILE node's body,
 * pygraph_while_after_copy (a split body only) right after the status
 * copy, before the IF node of the operations after it; both with
 * PYGRAPH_WHILE_THREADS threads that stage the block in shared memory,
 * one of them stepping: the exit tests and the operands' next values are
 * exit_eval.h's, the text the CPU runs too.  Built to PTX when the runtime is built and embedded in it as
 * pygraph_while_condition_ptx (runtime/CMakeLists.txt); the runtime loads
 * it with cudaLibraryLoadData (src/cuda/condition_module.c).  Where the
 * loop fits the compiled form (src/graphs/while_clauses.h), the body's
 * last node is pygraph_while_condition_clauses instead, one warp. */
#include "graphs/while_clauses.h"

/* The folded status copy (pygraph_while_fold_copy) where it is this
 * kernel's to make (`in_after_copy`: 1 in a split body's first kernel, 0
 * in the step), made into the staged s->status by all threads at once
 * rather than by the stepping thread one word at a time; s->status_src
 * then points at them (the step copies no more; pygraph_while_unstage
 * writes them back).  The staged pointers are still the block's (global
 * memory) here.  A source that fails a check is left to the step, which
 * reports the loop MALFORMED. */
static __device__ void stage_status(struct pygraph_while_state *s, uint32_t in_after_copy)
{
  const unsigned char *src = 0;
  uint32_t n = s->loop->status_bytes;
  if (!pygraph_while_folds_here(s, in_after_copy) ||
      !pygraph_while_status_source(s, s->iteration, &src) || !src ||
      n > PYGRAPH_WL_MAX_STATUS_BYTES)
    return;                            /* every thread agrees: they read the same bytes */
  for (uint32_t k = threadIdx.x; k < n; k += blockDim.x)
    s->status[k] = src[k];
  __syncthreads();
  if (threadIdx.x == 0) {
    s->status_src = s->status;
    s->status_src_evolves = 0;
  }
}

/* The block, copied into the dynamic shared memory the node was given and
 * its pointers moved there (pygraph_while_stage), or the block itself
 * where it does not fit (the node got none) or is malformed.  Every
 * thread calls it; only thread 0 uses the answer. */
static __device__ struct pygraph_while_state *staged_block(struct pygraph_while_state *state,
                                                           uint32_t in_after_copy)
{
  extern __shared__ unsigned long long stage[];
  unsigned room;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(room));
  uint32_t bytes = state->block_bytes;
  if (bytes < sizeof *state || bytes > room || bytes % 8)
    return state;
  const unsigned long long *from = (const unsigned long long *)state;
  for (uint32_t k = threadIdx.x; k < bytes / 8; k += blockDim.x)
    stage[k] = from[k];
  __syncthreads();
  struct pygraph_while_state *s = (struct pygraph_while_state *)stage;
  uintptr_t loop_at = (uintptr_t)s->loop - (uintptr_t)state;
  if ((uintptr_t)s->loop < (uintptr_t)state || loop_at > bytes ||
      bytes - loop_at < sizeof(pygraph_whole_loop))
    return state;                      /* every thread agrees: the block is malformed */
  stage_status(s, in_after_copy);
  __syncthreads();                     /* every thread is done reading the copy's pointers
                                          before thread 0 moves them */
  return threadIdx.x == 0 && pygraph_while_stage(s, (uintptr_t)state) ? s : state;
}

#ifdef PYGRAPH_WHILE_PROFILE
/* bench/while_cond_variants.sh's profile variant: thread 0's clock64 at
 * the kernel's phases, summed over a launch's iterations and printed when
 * the loop ends (with whether the block was staged). */
__device__ unsigned long long pygraph_while_profile[5];
#ifdef PYGRAPH_WHILE_PROFILE_PARTS
__device__ unsigned long long pygraph_while_parts[3];
#endif
#define PROFILE_STAMP(k) unsigned long long stamp##k = clock64()
#else
#define PROFILE_STAMP(k) (void)0
#endif

extern "C" __global__ void pygraph_while_condition(struct pygraph_while_state *state,
                                                   cudaGraphConditionalHandle handle)
{
  PROFILE_STAMP(0);
  struct pygraph_while_state *s = staged_block(state, 0);
  if (threadIdx.x != 0)
    return;
#ifdef PYGRAPH_WHILE_PROFILE_WARM
  /* bench-only: the step made once untimed, its state put back, then made
   * again timed, its code now in the instruction caches (the same writes) */
  {
    uint64_t it = s->iteration;
    int32_t test = s->exit_test;
    uint32_t outcome = s->outcome, where = s->exit_where;
    (void)pygraph_while_step(s);
    s->iteration = it, s->exit_test = test, s->outcome = outcome, s->exit_where = where;
  }
#endif
  PROFILE_STAMP(1);
  unsigned keep_going = pygraph_while_step(s);
  PROFILE_STAMP(2);
  if (s != state)
    pygraph_while_unstage(state, s, 0);
#ifdef PYGRAPH_WHILE_PROFILE_PARTS
  /* bench-only: the step's two parts made again, warm and timed alone (the
   * slots rewrite the values just written; the tests only read) */
  {
    unsigned long long a = clock64();
    (void)pygraph_while_write_slots(s->loop, s->invariants, s->slots, s->n_slots, s->args,
                                    s->iteration);
    unsigned long long b = clock64();
    struct pygraph_eval_env e = {s->loop, s->status, s->iteration - 1, s->invariants};
    int r = 0;
    for (uint32_t w = 0; w < 3; ++w)
      r += pygraph_while_exit(&e, s, w);
    unsigned long long c = clock64();
    pygraph_while_parts[0] += b - a;
    pygraph_while_parts[1] += c - b;
    pygraph_while_parts[2] += (unsigned)r & 1u;
  }
#endif
#ifdef PYGRAPH_WHILE_PROFILE
  unsigned long long stamp3 = clock64();
  pygraph_while_profile[0] += stamp1 - stamp0;
  pygraph_while_profile[1] += stamp2 - stamp1;
  pygraph_while_profile[2] += stamp3 - stamp2;
  pygraph_while_profile[3] += 1;
  pygraph_while_profile[4] += s != state;
  if (!keep_going) {
    unsigned long long n = pygraph_while_profile[3];
    printf("pygraph_while_condition: %llu steps, staged %llu, cycles a step: stage %llu, step "
           "%llu, unstage %llu\n", n, pygraph_while_profile[4], pygraph_while_profile[0] / n,
           pygraph_while_profile[1] / n, pygraph_while_profile[2] / n);
#ifdef PYGRAPH_WHILE_PROFILE_PARTS
    printf("pygraph_while_condition parts, warm: slots %llu, tests %llu cycles a step\n",
           pygraph_while_parts[0] / n, pygraph_while_parts[1] / n);
    pygraph_while_parts[0] = pygraph_while_parts[1] = 0;
#endif
    for (int k = 0; k < 5; k++)
      pygraph_while_profile[k] = 0;
  }
#endif
  /* the step's writes (its state, the next operands) are visible to the
   * next body iteration and to the host after the graph: the kernel's
   * completion orders them */
  cudaGraphSetConditional(handle, keep_going);
}

extern "C" __global__ void pygraph_while_after_copy(struct pygraph_while_state *state,
                                                    cudaGraphConditionalHandle if_handle)
{
  struct pygraph_while_state *s = staged_block(state, 1);
  if (threadIdx.x != 0)
    return;
  unsigned run_rest = pygraph_while_test_after_copy(s);
  if (s != state)
    pygraph_while_unstage(state, s, 1);
  /* every iteration sets the IF handle (never its default): 1 runs the
   * operations after the copy; the state's writes are ordered before the
   * step's read by the IF node's edges */
  cudaGraphSetConditional(if_handle, run_rest);
}

/* Both fast kernels' ballots: this lane's atom and test (copies loaded
 * by the caller), the atoms' values gathered, then the tests at
 * `positions` that say leave (bit k: test k, the lowest set bit the
 * first in the generic step's order), and that first test's number and
 * position in every lane (0 when none says leave). */
struct warp_answer {
  uint32_t leaving, number, where;
};

static __device__ __forceinline__ struct warp_answer
warp_leaving(const struct pygraph_clause_atom *atom, const struct pygraph_clause_test *test,
             uint32_t n_atoms, uint32_t n_tests, const unsigned char *status, uint64_t ran,
             const uint64_t *invariants, uint32_t positions)
{
  const unsigned lane = threadIdx.x, all = 0xffffffffu;
  unsigned bit = lane < n_atoms ? pygraph_clause_atom_value(atom, status, ran, invariants) : 0;
  uint32_t atoms = __ballot_sync(all, bit);
  unsigned says = lane < n_tests ? pygraph_clause_test_says(test, atoms, positions) : 0;
  struct warp_answer w;
  w.leaving = __ballot_sync(all, says);
  int first = w.leaving ? __ffs(w.leaving) - 1 : 0;
  w.number = __shfl_sync(all, lane < n_tests ? test->number : 0, first);
  w.where = __shfl_sync(all, lane < n_tests ? test->where : 0, first);
  if (!w.leaving)
    w.number = w.where = 0;
  return w;
}

/* The step over a loop's compiled form (graphs/while_clauses.h), one warp:
 * pygraph_while_clauses_step's parts a lane each.  Every load before the
 * first ballot depends only on the parameters, so they are in flight
 * together: the state's fields, each lane's atom, test and slot; then the
 * atoms' operands; then one ballot of the atoms, one of the tests (the
 * lowest set bit is the first test, in the generic step's order, that
 * says leave) and the writes.  The status is read where the body's copy
 * left it, or from the copy's source (status_src) directly: copied into
 * the state only when the loop ends, for the host. */
extern "C" __global__ void pygraph_while_condition_clauses(struct pygraph_while_state *state,
                                                           const struct pygraph_while_clauses *c,
                                                           cudaGraphConditionalHandle handle)
{
  const unsigned lane = threadIdx.x;
  uint32_t outcome = state->outcome, after_copy_first = state->after_copy_first;
  uint64_t ran = state->iteration, cap = state->max_iterations;
  const unsigned char *status_src = state->status_src;
  const uint64_t *invariants = state->invariants;
  uint32_t n_atoms = c->n_atoms, n_tests = c->n_tests, n_slots = c->n_slots;
  const struct pygraph_clause_atom atom = c->atoms[lane];   /* copies: loaded before */
  const struct pygraph_clause_test test = c->tests[lane];   /* the branch below */
  if (outcome != PYGRAPH_WHILE_RUNNING) {   /* the split body's first kernel ended it */
    if (lane == 0)
      cudaGraphSetConditional(handle, 0);
    return;
  }
  const unsigned char *src =                  /* a split body's first kernel made the copy */
      after_copy_first ? 0 : pygraph_clauses_source(c, status_src, ran, invariants);
  const unsigned char *status = src ? src : state->status;
  struct warp_answer w = warp_leaving(&atom, &test, n_atoms, n_tests, status, ran, invariants,
                                      pygraph_clause_step_positions(after_copy_first));
  uint64_t next = ran + 1;
  outcome = pygraph_clause_outcome(w.leaving, next, cap);
  if (outcome == PYGRAPH_WHILE_RUNNING) {
    if (lane < n_slots)
      pygraph_clause_write_slot(&c->slots[lane], state->args, next, invariants);
  } else if (src) {                          /* the last copy: what the host must see */
    for (uint32_t k = lane; k < c->status_bytes; k += PYGRAPH_CLAUSE_LANES)
      state->status[k] = src[k];
  }
  if (lane != 0)
    return;
  state->iteration = next;
  if (outcome != PYGRAPH_WHILE_RUNNING)
    pygraph_while_end(state, outcome, w.leaving ? (int)w.number : -1, w.where);
  /* the writes (state, next operands) are visible to the next body
   * iteration and to the host after the graph: the kernel's completion
   * orders them */
  cudaGraphSetConditional(handle, outcome == PYGRAPH_WHILE_RUNNING);
}

/* A split body's first kernel over the compiled form: the tests after the
 * copy of iteration state->iteration, a lane each
 * (pygraph_while_clauses_after_copy's parts); one that says leave counts
 * the iteration and ends the loop; the IF handle is set every iteration.
 * A folded copy: the tests read its source, the lanes copy it into the
 * state (the step after the IF node and the host read it there). */
extern "C" __global__ void pygraph_while_after_copy_clauses(struct pygraph_while_state *state,
                                                            const struct pygraph_while_clauses *c,
                                                            cudaGraphConditionalHandle if_handle)
{
  const unsigned lane = threadIdx.x;
  uint64_t ran = state->iteration;
  const unsigned char *status_src = state->status_src;
  const uint64_t *invariants = state->invariants;
  uint32_t n_atoms = c->n_atoms, n_tests = c->n_tests;
  const struct pygraph_clause_atom atom = c->atoms[lane];
  const struct pygraph_clause_test test = c->tests[lane];
  const unsigned char *src = pygraph_clauses_source(c, status_src, ran, invariants);
  struct warp_answer w = warp_leaving(&atom, &test, n_atoms, n_tests, src ? src : state->status,
                                      ran, invariants, 1u << PYGRAPH_EXIT_AFTER_COPY);
  if (src)
    for (uint32_t k = lane; k < c->status_bytes; k += PYGRAPH_CLAUSE_LANES)
      state->status[k] = src[k];
  if (lane != 0)
    return;
  if (w.leaving) {
    state->iteration = ran + 1;        /* the iteration that left ran up to its copy */
    pygraph_while_end(state, PYGRAPH_WHILE_LEFT, (int)w.number, PYGRAPH_EXIT_AFTER_COPY);
  }
  cudaGraphSetConditional(if_handle, !w.leaving);
}
