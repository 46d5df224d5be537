/* whole_loop.c - whole-loop descriptors read on the CPU (whole_loop.h):
 * the checks of a whole descriptor; evaluation is exit_eval.h's, the text
 * the device's condition kernel runs too. */
#include "recording/whole_loop.h"

#include <stdlib.h>

#include "recording/exit_eval.h"

_Static_assert(PYGRAPH_EXIT_CONTINUE == PYGRAPH_EVAL_CONTINUE &&
                   PYGRAPH_EXIT_MALFORMED == PYGRAPH_EVAL_MALFORMED,
               "whole_loop.h's results are exit_eval.h's");

int pygraph_exit_test_eval(const pygraph_whole_loop *wl, unsigned where, const void *status,
                           uint64_t iteration, const uint64_t *invariants)
{
  struct pygraph_eval_env e = {wl, status, iteration, invariants};
  return pygraph_eval_exit(&e, where);
}

int pygraph_loop_value_at(const pygraph_whole_loop *wl, unsigned k, uint64_t iteration,
                          const uint64_t *invariants, uint64_t *out)
{
  return pygraph_eval_value_at(wl, k, iteration, invariants, out);
}

/* ---- the whole descriptor -------------------------------------------------- */

/* The status fields: a status copy among the ops into an invariant's
 * address, or none at all (a counted loop: every status field names
 * nothing). */
static int status_ok(const pygraph_whole_loop *wl)
{
  if (wl->status_copy == PYGRAPH_STATUS_NONE)
    return wl->status_op == PYGRAPH_WL_NONE && wl->status_dest == PYGRAPH_WL_NONE &&
           wl->status_bytes == 0;
  return wl->status_op < wl->n_ops && wl->status_bytes &&
         wl->status_bytes <= PYGRAPH_WL_MAX_STATUS_BYTES && wl->status_dest < wl->n_invariants &&
         wl->status_copy <= PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL;
}

static int header_ok(const pygraph_whole_loop *wl)
{
  if (!wl->n_ops || !status_ok(wl) || wl->nested > 1 ||
      !wl->invariant_types || (wl->n_values && !wl->values) ||
      (wl->n_rotation_members && !wl->rotation_members))
    return 0;
  for (unsigned k = 0; k < wl->n_invariants; ++k)
    if (wl->invariant_types[k] > PYGRAPH_TYPE_BYTES)
      return 0;
  for (unsigned k = 0; k < wl->n_values; ++k)
    if (!pygraph_eval_value_ok(wl, &wl->values[k]))
      return 0;
  return 1;
}

int pygraph_whole_loop_check(const pygraph_whole_loop *wl)
{
  if (!wl || !header_ok(wl))
    return 0;
  /* every test runs to its end on any status and invariants: evaluate
   * once on zeros (the checks do not depend on the values) */
  unsigned char status[PYGRAPH_WL_MAX_STATUS_BYTES] = {0};
  uint64_t *zeros = calloc(wl->n_invariants, sizeof *zeros);
  if (!zeros)
    return 0;
  struct pygraph_eval_env e = {wl, status, 0, zeros};
  int ok = pygraph_eval_exit(&e, PYGRAPH_EXIT_AT_TOP) != PYGRAPH_EVAL_MALFORMED;
  free(zeros);
  return ok;
}

int pygraph_whole_loop_has_status(const pygraph_whole_loop *wl)
{
  return pygraph_eval_has_status(wl);
}

long pygraph_whole_loop_evolving_operand(const pygraph_whole_loop *wl, size_t op,
                                         unsigned operand)
{
  for (unsigned k = 0; k < wl->n_values; k++) {
    const pygraph_loop_value *v = &wl->values[k];
    if (v->op == op && v->operand == operand && v->evolution != PYGRAPH_EVOLVE_INVARIANT)
      return (long)k;
  }
  return -1;
}

int pygraph_whole_loop_op_evolves(const pygraph_whole_loop *wl, size_t op)
{
  for (unsigned k = 0; k < wl->n_values; k++)
    if (wl->values[k].op == op && wl->values[k].evolution != PYGRAPH_EVOLVE_INVARIANT)
      return 1;
  return 0;
}
