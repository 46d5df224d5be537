/* while_variant.c - a whole loop's WHILE graph from one recorded iteration,
 * and its launches (while_variant.h). */
#include "graphs/while_variant.h"

#include <stdlib.h>
#include <string.h>

#include "recording/whole_loop.h"

/* The bytes a parameter holding a value of `type` has (0: none). */
static size_t type_bytes(unsigned type)
{
  static const unsigned char bytes[] = {1, 1, 2, 4, 8, 4, 8, 8};
  return type < sizeof bytes ? bytes[type] : 0;
}

static int evolves(const pygraph_loop_value *v)
{
  return v->evolution != PYGRAPH_EVOLVE_INVARIANT;
}

/* Is op i the status copy with its source the only operand that evolves?
 * The WHILE graph reads that source in a condition kernel (while_graph.h
 * says when it can). */
static int status_source_evolves(const pygraph_whole_loop *wl, size_t i)
{
  if (!pygraph_whole_loop_has_status(wl) || i != wl->status_op)
    return 0;
  for (unsigned k = 0; k < wl->n_values; k++)
    if (wl->values[k].op == i && evolves(&wl->values[k]) &&
        wl->values[k].operand != PYGRAPH_COPY_SOURCE_OPERAND)
      return 0;
  return 1;
}

/* changed[i]: a kernel i has an evolving operand; *step says why when one
 * of a copy or memset does (0 returned), the status copy's source aside.
 * The descriptor names only ops below its n_ops, which ops (a checked
 * iteration) has. */
static int mark_changed(const pygraph_whole_loop *wl, const struct pygraph_op_list *ops,
                        unsigned char *changed, const char **step)
{
  for (size_t i = 0; i < ops->n_ops; i++) {
    if (!pygraph_whole_loop_op_evolves(wl, i) || status_source_evolves(wl, i))
      continue;
    if (ops->ops[i].kind != PYGRAPH_OP_KERNEL) {
      *step = "an operand of a copy or memset changes from iteration to iteration";
      return 0;
    }
    changed[i] = 1;
  }
  return 1;
}

struct direct_note {
  const unsigned char *changed;
  const char *why;               /* the first changed kernel's reason to stay direct */
};

static void note_direct(void *ctx, size_t op_index, const struct pygraph_op *op,
                        const char *reason, const char *detail)
{
  (void)op;
  (void)detail;
  struct direct_note *n = ctx;
  if (reason && n->changed[op_index] && !n->why)
    n->why = reason;
}

/* Every kernel whose arguments evolve becomes an indirect node. */
static cudaError_t choose_indirect(struct pygraph_while_variant *v,
                                   const struct pygraph_backend *backend,
                                   const pygraph_whole_loop *wl,
                                   const struct pygraph_op_list *ops, const char **step)
{
  unsigned char *changed = calloc(ops->n_ops ? ops->n_ops : 1, 1);
  if (!changed) {
    *step = "out of memory";
    return cudaErrorMemoryAllocation;
  }
  cudaError_t err = cudaErrorNotSupported;
  struct direct_note note = {changed, NULL};
  if (mark_changed(wl, ops, changed, step)) {
    if (pygraph_indirect_select(&v->ind, backend, ops, &v->plan, changed, ops->n_ops, 0,
                                note_direct, &note)) {
      *step = "out of memory";
      err = cudaErrorMemoryAllocation;
    } else if (note.why) {
      *step = note.why;     /* a kernel whose arguments evolve stays direct */
    } else {
      err = cudaSuccess;
    }
  }
  free(changed);
  return err;
}

/* A slot per evolving operand: its parameter in its node's slice. */
static cudaError_t make_slots(struct pygraph_while_variant *v, const pygraph_whole_loop *wl,
                              const struct pygraph_op_list *ops, const char **step)
{
  v->slots = calloc(wl->n_values ? wl->n_values : 1, sizeof *v->slots);
  if (!v->slots) {
    *step = "out of memory";
    return cudaErrorMemoryAllocation;
  }
  for (unsigned k = 0; k < wl->n_values; k++) {
    const pygraph_loop_value *val = &wl->values[k];
    const struct pygraph_op *op = &ops->ops[val->op];
    if (!evolves(val) || op->kind != PYGRAPH_OP_KERNEL)
      continue;                        /* the status copy's source: the condition kernels
                                          read it (mark_changed refused any other) */
    long node = v->ind.node_of_op[val->op];
    if (node < 0 || val->operand >= op->layout->n_params ||
        op->layout->params[val->operand].size != type_bytes(val->type)) {
      *step = "an evolving operand's parameter is not the operand's width";
      return cudaErrorNotSupported;
    }
    v->slots[v->n_slots++] = (struct pygraph_while_slot){
        v->ind.nodes[node].offset + op->layout->params[val->operand].offset, k,
        (uint32_t)type_bytes(val->type)};
  }
  return cudaSuccess;
}

static cudaError_t build_parts(struct pygraph_while_variant *v,
                               const struct pygraph_backend *backend,
                               const pygraph_whole_loop *wl, const struct pygraph_op_list *ops,
                               const char **step)
{
  *step = "graph plan";
  if (pygraph_graph_plan_for_capture(ops, backend, &v->plan))
    return cudaErrorMemoryAllocation;
  cudaError_t err = choose_indirect(v, backend, wl, ops, step);
  if (err == cudaSuccess && v->ind.n_nodes) {
    err = pygraph_arg_block_create(&v->args, backend, v->ind.block_size, step);
    if (err == cudaSuccess)
      pygraph_indirect_pack(&v->ind, ops, v->args.host);
  }
  if (err == cudaSuccess)
    err = make_slots(v, wl, ops, step);
  if (err != cudaSuccess)
    return err;
  struct pygraph_indirect_graph ig = {&v->ind, &v->args};
  size_t status_op =
      pygraph_whole_loop_has_status(wl) ? (size_t)wl->status_op : PYGRAPH_WHILE_NO_STATUS;
  struct pygraph_while_request rq = {ops, &v->plan, &ig, wl, status_op, v->slots, v->n_slots};
  return pygraph_while_graph_create(&v->wg, backend, &rq, step);
}

cudaError_t pygraph_while_variant_build(struct pygraph_while_variant *v,
                                        const struct pygraph_backend *backend,
                                        const pygraph_whole_loop *wl,
                                        const struct pygraph_op_list *ops, const char **step)
{
  memset(v, 0, sizeof *v);
  cudaError_t err = build_parts(v, backend, wl, ops, step);
  if (err != cudaSuccess) {
    pygraph_while_variant_free(v, backend);
    return err;
  }
  v->built = 1;
  return cudaSuccess;
}

/* The upload race of a launch not waited for.  The condition block's host
 * image is uploaded with an asynchronous copy (backend->memory_copy, i.e.
 * cudaMemcpyAsync): from pinned memory it reads the image when the stream
 * reaches it, so rewriting the image for the next launch before then
 * would change what the earlier launch runs with.  Chosen: the next
 * launch waits for the earlier one's graph (graph_synchronize: its launch
 * stream, where the upload came before it) before it rewrites the image,
 * rather than an image per launch: one image and no new port entry.  The
 * host still runs ahead from the launch to the next execution's launch
 * (the program after the loop, the next iteration 0 enqueued); there it
 * waits for that stream's work so far.  An event recorded after the
 * upload (a port entry to wait on it) would wait for less.  The argument block needs nothing: graph_set_args copies
 * its image when called (arg_loader.h), and the device blocks are used in
 * the launch stream's order.  0: cannot wait (the stream is captured). */
static int wait_unwaited(struct pygraph_while_variant *v, const struct pygraph_backend *backend)
{
  if (!v->unwaited)
    return 1;
  if (!backend->graph_synchronize(v->wg.graph))
    return 0;
  v->unwaited = 0;
  return 1;
}

/* Can the host's evaluation of wl's exit tests be trusted to equal the
 * device's?  Integers only: the tests read no status (a counted loop),
 * and no node pushes or compares a float (host and device floating point
 * may round differently).  Operands need no check: AFFINE ones are
 * integers (pygraph_eval_value_ok), ROTATION ones copy invariant bits. */
static int host_exact(const pygraph_whole_loop *wl)
{
  if (pygraph_whole_loop_has_status(wl) || !pygraph_whole_loop_check(wl))
    return 0;
  for (unsigned k = 0; k < wl->n_nodes; k++) {
    const pygraph_exit_node *n = &wl->nodes[k];
    if (n->op == PYGRAPH_EXIT_FIELD || !pygraph_eval_is_int(n->type) ||
        (n->op == PYGRAPH_EXIT_CMP && n->arg <= PYGRAPH_CMP_F_TRUE))
      return 0;
  }
  return 1;
}

int pygraph_while_host_outcome(const pygraph_whole_loop *wl, const uint64_t *inv, uint64_t first,
                               struct pygraph_while_state *out)
{
  if (!host_exact(wl))
    return 0;
  /* the device's state as pygraph_while_block_start leaves it, less the
   * slots: writing them cannot fail on the device (the host wrote them
   * for `first` with the same descriptor and invariants, and whether an
   * operand's value exists does not depend on the iteration) and they do
   * not change where the loop leaves */
  memset(out, 0, sizeof *out);
  out->loop = wl;
  out->invariants = inv;
  struct pygraph_while_test tests[PYGRAPH_EXIT_MAX_NODES];   /* n_nodes checked above */
  out->tests = tests;
  out->n_tests = pygraph_while_tests_of(wl, tests);
  out->iteration = first;
  out->exit_test = -1;
  out->outcome = PYGRAPH_WHILE_RUNNING;
  int left = 0;
  for (uint64_t k = 0; k < PYGRAPH_WHILE_HOST_MAX_ITERATIONS; k++)
    if (!pygraph_while_step(out)) {
      left = out->outcome == PYGRAPH_WHILE_LEFT;
      break;
    }
  out->tests = NULL;                   /* the table was this call's */
  out->n_tests = 0;
  return left;
}

cudaError_t pygraph_while_variant_launch(struct pygraph_while_variant *v,
                                         const struct pygraph_backend *backend,
                                         const pygraph_whole_loop *wl, const uint64_t *inv,
                                         const struct pygraph_op_list *iteration,
                                         const void *status, uint64_t first, int *ran,
                                         const struct pygraph_while_state *answer,
                                         const struct pygraph_while_state **state,
                                         const char **step)
{
  struct pygraph_while_block *b = &v->wg.block;
  *ran = 0;
  *step = "while block reuse";
  if (!wait_unwaited(v, backend))
    return cudaErrorNotPermitted;
  *step = "while block start";
  if (!v->built || !pygraph_while_block_start(b, inv, status, first, 0))
    return cudaErrorInvalidValue;
  if (v->ind.n_nodes)
    pygraph_indirect_pack(&v->ind, iteration, v->args.host);
  if ((v->n_slots &&
       !pygraph_while_write_slots(wl, inv, v->slots, (uint32_t)v->n_slots, v->args.host, first)))
    return cudaErrorInvalidValue;
  cudaError_t err = cudaSuccess;
  *step = "argument refresh";
  if (v->ind.n_nodes && (err = backend->graph_set_args(v->wg.graph, &v->args)) != cudaSuccess)
    return err;
  cudaStream_t stream = v->plan.streams[0];
  *step = "while block upload";
  if ((err = pygraph_while_block_upload(b, backend, stream)) != cudaSuccess)
    return err;
  *step = "graph launch";
  if ((err = backend->graph_launch(v->wg.graph, ran)) != cudaSuccess)
    return err;
  if (answer) {                 /* not waited for: the host knows the end */
    v->unwaited = 1;
    *state = answer;
    return cudaSuccess;
  }
  *step = "while state read";
  if ((err = pygraph_while_block_read_state(b, backend, stream)) != cudaSuccess)
    return err;
  *state = pygraph_while_block_state(b);
  return cudaSuccess;
}

void pygraph_while_variant_free(struct pygraph_while_variant *v,
                                const struct pygraph_backend *backend)
{
  /* the argument block first: it waits for the graph's launches */
  pygraph_arg_block_free(&v->args, backend, v->wg.graph);
  if (v->built)
    pygraph_while_graph_free(&v->wg, backend);
  pygraph_indirect_free(&v->ind);
  pygraph_graph_plan_free(&v->plan);
  free(v->slots);
  memset(v, 0, sizeof *v);
}
