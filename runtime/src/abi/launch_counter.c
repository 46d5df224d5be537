/* launch_counter.c - per-thread counters, registered once per thread.
 *
 * A shared atomic would bounce a cache line between launching threads; a
 * thread-local counter costs nothing.  Counters outlive their threads (a
 * few bytes each) so the exit report still sees their launches. */
#include "abi/launch_counter.h"

#include <pthread.h>
#include <stdlib.h>

struct thread_counter {
  unsigned long long launches;
  struct thread_counter *next;
};

static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_counter *counters;
static unsigned long long uncounted;      /* threads whose counter allocation failed */
static _Thread_local struct thread_counter *tls_counter;

static struct thread_counter *register_thread(void)
{
  struct thread_counter *c = calloc(1, sizeof *c);
  pthread_mutex_lock(&counters_lock);
  if (c) {
    c->next = counters;
    counters = c;
  } else {
    uncounted++;
  }
  pthread_mutex_unlock(&counters_lock);
  return c;
}

void pygraph_count_launch(void)
{
  struct thread_counter *c = tls_counter;
  if (!c && !(c = tls_counter = register_thread()))
    return;
  /* Single writer; relaxed atomics only so the exit-time reader is race-free. */
  __atomic_store_n(&c->launches, c->launches + 1, __ATOMIC_RELAXED);
}

unsigned long long pygraph_total_launches(void)
{
  unsigned long long total = 0;
  pthread_mutex_lock(&counters_lock);
  for (struct thread_counter *c = counters; c; c = c->next)
    total += __atomic_load_n(&c->launches, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&counters_lock);
  return total;
}
