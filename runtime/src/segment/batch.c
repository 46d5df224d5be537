/* batch.c - K per loop run and the unit bookkeeping of batchable loops. */
#include "segment/batch.h"

#include <string.h>

static unsigned floor_pow2(unsigned long long n)
{
  unsigned p = 1;
  while ((unsigned long long)p * 2 <= n && p < (1u << 30))
    p *= 2;
  return n ? p : 0;
}

void pygraph_batch_init(struct pygraph_batch *b, unsigned region_batch_max, unsigned setting)
{
  memset(b, 0, sizeof *b);
  b->max = region_batch_max;
  if (setting && setting < b->max)
    b->max = setting;
  b->trips = -1;
}

int pygraph_batch_on(const struct pygraph_batch *b)
{
  return b->max >= 2 && !b->given_up;
}

unsigned pygraph_batch_choose_k(const struct pygraph_batch_limits *in)
{
  if (in->ops_per_iter >= PYGRAPH_BATCH_MAX_ITER_OPS)
    return 1;
  unsigned long long k = in->max;
  /* Half the op cap: a unit that grows a little (a rare extra op) still
   * fits rather than sending the segment eager for good. */
  if (in->ops_per_iter) {
    unsigned long long by_ops = in->max_ops / (2ull * in->ops_per_iter);
    if (by_ops < k)
      k = by_ops;
  }
  if (in->trips >= 0 && (unsigned long long)in->trips / PYGRAPH_BATCH_MIN_UNITS < k)
    k = (unsigned long long)in->trips / PYGRAPH_BATCH_MIN_UNITS;
  if (in->several_streams && k > PYGRAPH_BATCH_MULTISTREAM_K)
    k = PYGRAPH_BATCH_MULTISTREAM_K;
  k = floor_pow2(k);
  return k >= 2 ? (unsigned)k : 1;
}

void pygraph_batch_start_run(struct pygraph_batch *b, long long trips, long long static_trips)
{
  if (b->run_iters)
    b->last_run_iters = b->run_iters;
  b->run_iters = 0;
  b->in_unit = 0;
  b->k = 0;
  if (trips < 0)
    trips = static_trips >= 0 ? static_trips
                              : b->last_run_iters ? (long long)b->last_run_iters : -1;
  b->trips = trips;
}

void pygraph_batch_unit_begin(struct pygraph_batch *b)
{
  b->in_unit = 0;
}

/* Do ops use more than one stream, as the graph sees them?  With the
 * legacy default stream among them the graph plan chains every op in call
 * order (graph_plan.h): one stream. */
static int several_streams(const struct pygraph_op_list *ops)
{
  int several = 0;
  for (size_t i = 0; i < ops->n_ops; i++) {
    if (ops->ops[i].stream == cudaStreamLegacy)
      return 0;
    several |= ops->ops[i].stream != ops->ops[0].stream;
  }
  return several;
}

int pygraph_batch_iteration_end(struct pygraph_batch *b, const struct pygraph_op_list *ops,
                                unsigned max_ops)
{
  size_t n_ops = ops->n_ops;
  b->run_iters++;
  b->in_unit++;
  if (!pygraph_batch_on(b))
    return 1;
  if (b->k == 0) {
    /* The first iteration of the run: its ops are the unit's so far. */
    struct pygraph_batch_limits in = {.max = b->max, .ops_per_iter = n_ops ? n_ops : 1,
                                      .max_ops = max_ops, .trips = b->trips,
                                      .several_streams = several_streams(ops)};
    b->k = pygraph_batch_choose_k(&in);
  }
  return b->in_unit >= b->k;
}

int pygraph_batch_unit_partial(const struct pygraph_batch *b)
{
  /* k == 0: the loop left before the run's first iteration ended. */
  return pygraph_batch_on(b) && (b->k == 0 || b->in_unit < b->k);
}

unsigned pygraph_batch_unit_iterations(const struct pygraph_batch *b)
{
  return b->in_unit ? b->in_unit : 1;
}

int pygraph_batch_give_up(struct pygraph_batch *b)
{
  if (!pygraph_batch_on(b))
    return 0;
  b->given_up = 1;
  b->k = 1;
  return 1;
}

long long pygraph_batch_unit_trips(const struct pygraph_batch *b, long long static_trips)
{
  if (!pygraph_batch_on(b) || b->k < 2)
    return b->trips >= 0 ? b->trips : static_trips;
  return b->trips >= 0 ? b->trips / b->k : -1;
}
