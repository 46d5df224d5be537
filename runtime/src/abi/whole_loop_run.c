/* whole_loop_run.c - the rest of a ready loop's execution as its WHILE
 * graph, and the host left as the loop would leave it
 * (whole_loop_internal.h, pygraph_wl_run).
 *
 * Before the launch, each refusal or fault leaves the loop as written
 * (nothing ran: the iteration goes on from its top) and turns the loop
 * off.  After the launch the host is given what the loop leaves: the
 * last status copy in the status destination here, the iteration and
 * the exit test to the pass's code (counters and rotated values are
 * computed there from them).  A counted loop whose end the host finds
 * exactly (pygraph_while_host_outcome) is answered at once and its launch
 * not waited for: a failure after it was enqueued surfaces later as the
 * program's CUDA error, as any graph launch's does.  A launch that was enqueued and did not end
 * by an exit test (its state unreadable: a CUDA error, which stays the
 * program's to see) cannot be handed back: the loop then goes on as
 * written from the iteration the graph began with, on a device in error
 * (runtime/README.md). */
#include "abi/whole_loop_internal.h"

#include <string.h>

#include "recording/whole_loop.h"

/* The graph of ref, made at its first use. */
static int build(struct pygraph_wl_state *st, const struct pygraph_backend *backend)
{
  pygraph_op_list_materialize(st->ref);
  const char *step = "while graph build";
  cudaError_t err = pygraph_while_variant_build(&st->var, backend, st->wl, st->ref, &step);
  if (err == cudaSuccess) {
    st->counts.builds++;
    return 1;
  }
  if (err != cudaErrorNotSupported && backend->clear_error)
    backend->clear_error();           /* pygraph's own failure: not the program's error */
  st->counts.fallbacks++;
  pygraph_wl_turn_off(st, step, NULL);
  return 0;
}

/* The status destination must be memory no kernel reads: the graph keeps
 * the status on the device until the loop ends. */
static int plain_host_memory(const struct pygraph_backend *backend, void *dest)
{
  void *base;
  size_t size;
  return !backend->allocation_of || backend->allocation_of(dest, &base, &size) == 0;
}

/* The loop ended by test state->exit_test: the host's view of it. */
static int left(struct pygraph_wl_state *st, const struct pygraph_while_state *state,
                uint64_t first, unsigned long long *left_in)
{
  if (pygraph_whole_loop_has_status(st->wl))  /* a counted loop has none to give back */
    memcpy(pygraph_wl_status_dest(st), state->status, st->wl->status_bytes);
  *left_in = state->exit_where == PYGRAPH_EXIT_AT_TOP ? state->iteration : state->iteration - 1;
  uint64_t ran = state->iteration - first;
  st->counts.graph_runs++;
  st->counts.graph_iterations += ran;
  st->counts.graph_kernels += ran * st->ref->n_kernels;
  return state->exit_test;
}

int pygraph_wl_run(struct pygraph_wl_state *st, const struct pygraph_backend *backend,
                   uint64_t first, unsigned long long *left_in)
{
  /* the body runs at least once: the tests at the top of `first` are the
   * host's, and when one says leave the program makes it itself */
  if (pygraph_wl_eval(st, PYGRAPH_EXIT_AT_TOP, first) != PYGRAPH_EXIT_CONTINUE)
    return -1;
  void *dest = pygraph_wl_status_dest(st);   /* NULL: a counted loop */
  if (dest && !plain_host_memory(backend, dest)) {
    pygraph_wl_turn_off(st, "the status destination is memory CUDA knows (a kernel may read it)",
                        NULL);
    return -1;
  }
  if (!st->var.built && !build(st, backend))
    return -1;
  const struct pygraph_while_state *state = NULL;
  const char *step = NULL;
  int ran = 0;
  pygraph_op_list_materialize(st->first);   /* this execution's iteration 0 */
  double since = pygraph_wl_whole_clock(st, backend);
  /* a counted loop whose end the host finds exactly is not waited for
   * (like any graph launch), unless auto's choice times it (since >= 0:
   * to the GPU's end) */
  struct pygraph_while_state host;
  const struct pygraph_while_state *answer =
      since < 0.0 && pygraph_while_host_outcome(st->wl, st->inv, first, &host) ? &host : NULL;
  cudaError_t err = pygraph_while_variant_launch(&st->var, backend, st->wl, st->inv, st->first,
                                                 dest, first, &ran, answer, &state, &step);
  st->counts.launches += ran != 0;
  if (err == cudaSuccess && state->outcome == PYGRAPH_WHILE_LEFT) {
    int k = left(st, state, first, left_in);   /* reads the block: before a verdict frees it */
    pygraph_wl_note_whole(st, backend, since, state->iteration - first);
    return k;
  }
  st->counts.fallbacks++;
  if (err != cudaSuccess && !ran && backend->clear_error)
    backend->clear_error();           /* nothing ran: pygraph's own failure */
  pygraph_wl_turn_off(st,
                      err != cudaSuccess && !ran ? step
                      : err != cudaSuccess       ? "fault after the WHILE graph was enqueued"
                                                 : "the WHILE graph ended without an exit test",
                      NULL);
  return -1;
}
