/* test_threads.c - per-thread segment states: threads running the same
 * region concurrently, each on its own stream, record and replay their own
 * graphs; threads beyond PYGRAPH_THREAD_STATES share slot 0 (trylock). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "harness.h"
#include "recording/op_list.h"
#include "abi/report.h"

#define ITERS 6

/* The fake backend and its log are not thread-safe: the main thread steps
 * the workers so that both hold their segment open at once (begin, record)
 * but end (where ops run) one after the other. */
struct worker {
  int id;                               /* 1, 2: args are id*100 + i */
  cudaStream_t stream;
  sem_t go_begin, go_end, begun, ended;
  int recording[ITERS];
  const struct pygraph_segment *seg[ITERS];
};

static pygraph_region *two_region;

static void *two_worker(void *arg)
{
  struct worker *w = arg;
  for (int i = 0; i < ITERS; i++) {
    sem_wait(&w->go_begin);
    begin(two_region, 0);
    w->seg[i] = pygraph_recording_segment();
    w->recording[i] = w->seg[i] != NULL;
    kernel_on(1, w->id * 100 + i, w->stream);
    kernel_on(2, w->id * 100 + i, w->stream);
    sem_post(&w->begun);
    sem_wait(&w->go_end);
    end(two_region);
    sem_post(&w->ended);
  }
  return NULL;
}

/* The int argument of kernel op j of what the active graph variant holds. */
static int graph_arg0(const struct pygraph_segment *seg, size_t j)
{
  if (!seg->cache.active || j >= seg->cache.active->ref->n_ops)
    return -12345;
  const struct pygraph_op_list *ref = seg->cache.active->ref;
  int v;
  memcpy(&v, pygraph_op_args(ref, &ref->ops[j]), sizeof v);
  return v;
}

static cudaStream_t graph_stream(const struct pygraph_segment *seg, size_t j)
{
  return seg->cache.active && j < seg->cache.active->ref->n_ops ? seg->cache.active->ref->ops[j].stream : NULL;
}

static void test_two_threads_replay_their_own_graphs(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  two_region = harness_region("two", 1);
  fake_reset();
  struct worker w[2] = {{.id = 1, .stream = S1}, {.id = 2, .stream = S2}};
  pthread_t th[2];
  for (int t = 0; t < 2; t++) {
    sem_init(&w[t].go_begin, 0, 0);
    sem_init(&w[t].go_end, 0, 0);
    sem_init(&w[t].begun, 0, 0);
    sem_init(&w[t].ended, 0, 0);
    pthread_create(&th[t], NULL, two_worker, &w[t]);
  }
  for (int i = 0; i < ITERS; i++) {
    fake_log_clear();
    for (int t = 0; t < 2; t++)           /* worker 1 claims slot 0 */
      sem_post(&w[t].go_begin), sem_wait(&w[t].begun);
    /* Both segments open; warm-up ops ran as they came, the others wait. */
    if (i == 0) {
      char both[128];
      snprintf(both, sizeof both, "k1(%d) k2(%d) k1(%d) k2(%d)", 100, 100, 200, 200);
      CHECK_STR(fake_log(), both);
    } else {
      CHECK_STR(fake_log(), "");
    }
    for (int t = 0; t < 2; t++) {
      fake_log_clear();
      sem_post(&w[t].go_end);
      sem_wait(&w[t].ended);
      char expect[64];
      int a = w[t].id * 100 + i;
      if (i == 0)
        snprintf(expect, sizeof expect, "%s", "");   /* warm-up: ran already, not again */
      else if (i == 1)
        snprintf(expect, sizeof expect, "build(0 1<0) inst launch");
      else
        snprintf(expect, sizeof expect, "upd0 upd1 launch");
      CHECK_STR(fake_log(), expect);
      if (i >= 1) {                       /* the graph holds this thread's ops, in order */
        CHECK(graph_arg0(w[t].seg[i], 0) == a);
        CHECK(graph_arg0(w[t].seg[i], 1) == a);
        CHECK(graph_stream(w[t].seg[i], 0) == w[t].stream);
        CHECK(graph_stream(w[t].seg[i], 1) == w[t].stream);
      }
    }
  }
  for (int t = 0; t < 2; t++)
    pthread_join(th[t], NULL);
  for (int i = 0; i < ITERS; i++) {
    CHECK(w[0].recording[i] && w[1].recording[i]);   /* nobody passed through */
    CHECK(w[0].seg[i] == w[0].seg[0] && w[1].seg[i] == w[1].seg[0]);
  }
  const struct pygraph_segment *s0 = harness_thread_segment(two_region, 0, 0);
  const struct pygraph_segment *s1 = harness_thread_segment(two_region, 0, 1);
  CHECK(s0 == w[0].seg[0] && s1 == w[1].seg[0] && s0 != s1);
  CHECK(harness_thread_segment(two_region, 0, 2) == NULL);
  CHECK(pygraph_region_thread_states(two_region->state, 0) == 2);
  for (int t = 0; t < 2; t++) {
    const struct pygraph_segment *s = t ? s1 : s0;
    CHECK(s->stats.iters == ITERS);
    CHECK(s->stats.captures == 1);
    CHECK(s->stats.replays == ITERS - 2);
    CHECK(s->stats.mismatches == 0);
    CHECK(s->stats.launches_in_graphs == 2 * (ITERS - 1));
    CHECK_STR(harness_mode_name(s), "graph");
  }

  /* Report: " thread=<slot>" at the end of each line of such a segment. */
  char line[1024];
  pygraph_report_format_segment_thread(line, sizeof line, s1, 1, -1);
  CHECK(strstr(line, "pygraph: region two test.cu:10-20 seg 0: mode=graph iters=6 replays=4 "
                     "captures=1 ") == line);
  size_t n = strlen(line);
  CHECK(n > 10 && strcmp(line + n - 10, " thread=1\n") == 0);
  char plain[1024];
  pygraph_report_format_segment(plain, sizeof plain, s1);
  CHECK(strlen(plain) == n - 9 && strncmp(plain, line, n - 10) == 0);
}

/* Threads 1..8 each run one iteration (claiming slots 0..7, then exit);
 * the 9th and 10th share slot 0's state, one at a time. */
static pygraph_region *full_region;
static sem_t step, step_done, hold_release;
static const struct pygraph_segment *seen_seg;
static int seen_recording;

static void *one_iteration(void *arg)
{
  int id = (int)(long)arg;
  begin(full_region, 0);
  seen_seg = pygraph_recording_segment();
  kernel_on(1, id, S1);
  end(full_region);
  return NULL;
}

static void *overflow_holder(void *arg)
{
  (void)arg;
  begin(full_region, 0);                  /* 9th thread: shared slot 0, free */
  seen_seg = pygraph_recording_segment();
  seen_recording = seen_seg != NULL;
  kernel_on(1, 9, S1);
  sem_post(&step);
  sem_wait(&hold_release);
  end(full_region);
  sem_post(&step_done);
  return NULL;
}

static void *overflow_blocked(void *arg)
{
  (void)arg;
  begin(full_region, 0);                  /* 10th thread: slot 0 busy, pass through */
  seen_recording = pygraph_recording_segment() != NULL;
  kernel_on(1, 10, S1);
  end(full_region);
  seen_recording |= pygraph_open_region_depth() != 0;
  return NULL;
}

static void test_ninth_thread_shares_slot_zero(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  full_region = harness_region("full", 1);
  fake_reset();
  sem_init(&step, 0, 0);
  sem_init(&step_done, 0, 0);
  sem_init(&hold_release, 0, 0);
  const struct pygraph_segment *slots[PYGRAPH_THREAD_STATES];
  char expect[32];
  for (int t = 0; t < (int)PYGRAPH_THREAD_STATES; t++) {
    pthread_t th;
    fake_log_clear();
    pthread_create(&th, NULL, one_iteration, (void *)(long)(t + 1));
    pthread_join(th, NULL);
    snprintf(expect, sizeof expect, "k1(%d)", t + 1);
    CHECK_STR(fake_log(), expect);        /* each its own state: a warm-up iteration */
    slots[t] = harness_thread_segment(full_region, 0, (unsigned)t);
    CHECK(slots[t] == seen_seg && slots[t]->stats.iters == 1);
    for (int u = 0; u < t; u++)
      CHECK(slots[u] != slots[t]);
  }
  CHECK(pygraph_region_thread_states(full_region->state, 0) == PYGRAPH_THREAD_STATES);

  /* 9th: the table is full, it uses slot 0's state (thread 1's), free now:
   * same signature as thread 1's warm-up, so this iteration is captured. */
  fake_log_clear();
  pthread_t holder, blocked;
  pthread_create(&holder, NULL, overflow_holder, NULL);
  sem_wait(&step);
  CHECK(seen_recording && seen_seg == slots[0]);
  /* 10th, while the 9th holds slot 0: passes through, exactly once. */
  pthread_create(&blocked, NULL, overflow_blocked, NULL);
  pthread_join(blocked, NULL);
  CHECK(!seen_recording);
  CHECK_STR(fake_log(), "p:k1(10)");
  fake_log_clear();
  sem_post(&hold_release);
  sem_wait(&step_done);
  pthread_join(holder, NULL);
  CHECK_STR(fake_log(), "build(0) inst launch");
  CHECK(slots[0]->stats.iters == 2 && slots[0]->stats.captures == 1);
  for (int t = 1; t < (int)PYGRAPH_THREAD_STATES; t++)
    CHECK(slots[t]->stats.iters == 1);
  CHECK(pygraph_region_thread_states(full_region->state, 0) == PYGRAPH_THREAD_STATES);
}

/* One thread: one state, the report line has no thread= (unchanged). */
static void test_single_thread_has_one_state(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("single", 2);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  CHECK(pygraph_region_thread_states(r->state, 0) == 1);
  CHECK(pygraph_region_thread_states(r->state, 1) == 1);   /* slot 0 exists unused */
  CHECK(harness_thread_segment(r, 0, 1) == NULL);
  CHECK(harness_segment(r, 0)->stats.replays == 1);
  char line[1024];
  pygraph_report_format_segment(line, sizeof line, harness_segment(r, 0));
  CHECK(strstr(line, "thread=") == NULL);
}

int main(void)
{
  test_single_thread_has_one_state();
  test_two_threads_replay_their_own_graphs();
  test_ninth_thread_shares_slot_zero();
  return check_finish();
}
