/* capture_cost.c - the capture cost learned process-wide (capture_cost.h). */
#include "selection/capture_cost.h"

#include <pthread.h>
#include <stdatomic.h>

#include "selection/decide.h"

/* Sum of measured capture times and of the prior's estimates for the same
 * captures: their ratio scales the prior.  Written under the lock; the
 * ratio is read without it, on every warm-up iteration. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double measured_sum, prior_sum;
static _Atomic double scale = 1.0;
static int cold_seen;                         /* the process's first capture was timed
                                                 (left out: capture_cost.h) */

void pygraph_capture_cost_note(unsigned long n_ops, double us)
{
  if (!(us >= 0.0))
    return;                                   /* no clock (NaN) or a bad one */
  pthread_mutex_lock(&lock);
  if (!cold_seen) {
    cold_seen = 1;
    pthread_mutex_unlock(&lock);
    return;
  }
  measured_sum += us;
  prior_sum += pygraph_capture_estimate_us(n_ops);
  double s = measured_sum / prior_sum;
  atomic_store(&scale, s < PYGRAPH_CAPTURE_SCALE_MIN ? PYGRAPH_CAPTURE_SCALE_MIN : s > PYGRAPH_CAPTURE_SCALE_MAX ? PYGRAPH_CAPTURE_SCALE_MAX : s);
  pthread_mutex_unlock(&lock);
}

double pygraph_capture_cost_us(unsigned long n_ops)
{
  return pygraph_capture_estimate_us(n_ops) * atomic_load(&scale);
}

void pygraph_capture_cost_reset(void)
{
  pthread_mutex_lock(&lock);
  measured_sum = prior_sum = 0.0;
  cold_seen = 0;
  atomic_store(&scale, 1.0);
  pthread_mutex_unlock(&lock);
}
