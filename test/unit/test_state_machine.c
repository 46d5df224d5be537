/* test_state_machine.c - warm-up, capture, replay, updates, mismatches. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "harness.h"

/* Two kernels whose arguments follow i (or stay fixed). */
static void iteration(pygraph_region *r, int a, int b)
{
  begin(r, 0);
  kernel(1, a);
  kernel(2, b);
  end(r);
}

static void test_warmup_capture_replay(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("warm", 1);
  fake_reset();

  begin(r, 0);
  kernel(1, 0);
  kernel(2, 10);
  /* Warm-up 1: no graph to replay, no capture planned: the ops run as they
   * come (recorded only for the signature), args by value ... */
  CHECK_STR(fake_log(), "k1(0) k2(10)");
  end(r);
  CHECK_STR(fake_log(), "k1(0) k2(10)");  /* ... and not again at the end */

  fake_log_clear();
  iteration(r, 1, 11);
  CHECK_STR(fake_log(), "k1(1) k2(11)");  /* warm-up 2: stable now */
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_CAPTURE);

  fake_log_clear();
  iteration(r, 2, 12);
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");

  fake_log_clear();
  iteration(r, 2, 13);                  /* only the second kernel's argument moved */
  CHECK_STR(fake_log(), "upd1 launch");

  fake_log_clear();
  iteration(r, 2, 13);                  /* nothing moved */
  CHECK_STR(fake_log(), "launch");

  fake_log_clear();
  iteration(r, 5, 14);
  CHECK_STR(fake_log(), "upd0 upd1 launch");

  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.iters == 6);
  CHECK(seg->stats.captures == 1);
  CHECK(seg->stats.replays == 3);
  CHECK(seg->stats.updates == 3);
  CHECK(seg->stats.mismatches == 0);
  CHECK(seg->stats.launches_in_graphs == 8);
  CHECK_STR(harness_mode_name(seg), "graph");
}

static void test_graph_mode_warms_up_once(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 5, 8);   /* not given: graph mode warms up once */
  pygraph_region *r = harness_region("graphmode", 1);
  fake_reset();
  iteration(r, 0, 0);
  CHECK_STR(fake_log(), "k1(0) k2(0)");
  fake_log_clear();
  iteration(r, 1, 1);
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");

  harness_settings(PYGRAPH_MODE_GRAPH, 3, 8);
  harness_warmup_given();                        /* PYGRAPH_WARMUP=3 given */
  r = harness_region("graphmode-warmup", 1);
  fake_log_clear();
  for (int i = 0; i < 3; i++)
    iteration(r, i, i);
  CHECK(strstr(fake_log(), "build") == NULL);
  fake_log_clear();
  iteration(r, 3, 3);
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");
}

static void test_eager_mode_passes_through(void)
{
  harness_settings(PYGRAPH_MODE_EAGER, 2, 8);
  pygraph_region *r = harness_region("eagermode", 1);
  fake_reset();
  for (int i = 0; i < 4; i++)
    iteration(r, i, i);
  CHECK_STR(fake_log(), "p:k1(0) p:k2(0) p:k1(1) p:k2(1) p:k1(2) p:k2(2) p:k1(3) p:k2(3)");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.iters == 4);
  CHECK(seg->stats.captures == 0);
  CHECK_STR(harness_mode_name(seg), "eager");
  CHECK_STR(seg->fallback, "");
}

static void test_warmup_needs_consecutive_same_signature(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("consecutive", 1);
  fake_reset();
  iteration(r, 0, 0);
  begin(r, 0);                          /* empty iterations change nothing */
  end(r);
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_WARMUP);
  iteration(r, 0, 0);
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_CAPTURE);
  CHECK(harness_segment(r, 0)->stats.iters == 3);
  CHECK_STR(fake_log(), "k1(0) k2(0) k1(0) k2(0)");
}

/* A signature that recurs with others in between (a cycle of launch
 * sequences) is captured too: on its second sighting it becomes the
 * candidate, which the others' misses do not displace. */
static void test_recurring_signature_is_pinned(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("recurring", 1);
  fake_reset();
  iteration(r, 0, 0);                   /* A */
  begin(r, 0);                          /* B */
  kernel(1, 0);
  end(r);
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_WARMUP);
  iteration(r, 1, 1);                   /* A again: the candidate, captured next */
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_CAPTURE);
  begin(r, 0);                          /* B again: runs eagerly, A stays the candidate */
  kernel(1, 0);
  end(r);
  CHECK(harness_segment(r, 0)->stats.captures == 0);
  fake_log_clear();
  iteration(r, 2, 2);                   /* A: captured */
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");
  /* Arguments compared with the candidate's last sighting (1, 1): moved. */
  CHECK(harness_segment(r, 0)->arg_changed[0] && harness_segment(r, 0)->arg_changed[1]);
  CHECK(harness_segment(r, 0)->stats.captures == 1);
}

static void test_mismatch_runs_recorded_ops_then_recaptures(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_variants(1);                  /* one variant: a new signature replaces it */
  pygraph_region *r = harness_region("mismatch", 1);
  fake_reset();
  int live_before = fake_live_graphs;   /* earlier tests' graphs stay alive */
  for (int i = 0; i < 4; i++)
    iteration(r, i, i);                 /* eager, eager, capture, replay */
  fake_log_clear();

  begin(r, 0);                          /* one more kernel: new topology */
  kernel(1, 7);
  kernel(2, 8);
  kernel(3, 9);
  end(r);
  CHECK_STR(fake_log(), "k1(7) k2(8) k3(9)");   /* in order, exactly once */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.mismatches == 1);
  CHECK_STR(harness_mode_name(seg), "graph");   /* its variant stays cached */
  CHECK(fake_live_graphs == live_before + 1);   /* old graph kept for an in-place update */

  /* The one slot stays taken while its graph is in use; once it has not
   * run for PYGRAPH_BEHAVIOUR_BLOCK iterations the new signature replaces it. */
  fake.exec_update_ok = 1;
  int k = 0;
  while (!seg->cand.capture_next && k < 200) {
    begin(r, 0);
    kernel(1, k);
    kernel(2, k);
    kernel(3, k);
    end(r);
    k++;
  }
  CHECK(k == (int)PYGRAPH_BEHAVIOUR_BLOCK);
  CHECK(seg->stats.captures == 1);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 4);
  kernel(2, 5);
  kernel(3, 6);
  end(r);
  CHECK_STR(fake_log(), "build(0 1<0 2<1) xupd destroy launch");
  CHECK(seg->stats.captures == 2);
  CHECK(fake_live_graphs == live_before + 1);
  CHECK_STR(harness_mode_name(seg), "graph");
}

static void test_max_captures_then_eager_for_good(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 2);
  pygraph_region *r = harness_region("unstable", 1);
  fake_reset();
  int live_before = fake_live_graphs;
  iteration(r, 0, 0);                   /* eager */
  iteration(r, 0, 0);                   /* capture 1 */
  begin(r, 0);                          /* mismatch -> warm-up (1 iteration) */
  kernel(3, 0);
  end(r);
  begin(r, 0);                          /* capture 2 */
  kernel(3, 1);
  end(r);
  fake_log_clear();
  begin(r, 0);                          /* a third signature, no captures left */
  kernel(1, 2);
  end(r);
  CHECK_STR(fake_log(), "k1(2) destroy destroy");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, "signature unstable");
  CHECK_STR(harness_mode_name(seg), "eager");
  CHECK(seg->stats.captures == 2);
  CHECK(seg->stats.mismatches == 2);     /* the warm-up of the second, the third */
  CHECK(fake_live_graphs == live_before);

  fake_log_clear();
  iteration(r, 3, 3);                   /* from now on: straight to CUDA */
  CHECK_STR(fake_log(), "p:k1(3) p:k2(3)");
}

static void test_memset_memcpy_event_updates(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("nodes", 1);
  fake_reset();
  for (int i = 0; i < 2; i++) {         /* eager, capture */
    begin(r, 0);
    memset_op(0, 64);
    memcpy_op(0x7000, 64, cudaMemcpyDeviceToDevice);
    event_record(1, S1);
    end(r);
  }
  fake_log_clear();
  begin(r, 0);
  memset_op(0, 64);                     /* same */
  memcpy_op(0x7100, 64, cudaMemcpyDeviceToDevice);   /* new destination */
  event_record(2, S1);                  /* other event */
  end(r);
  CHECK_STR(fake_log(), "upd1 upd2 launch");

  fake_log_clear();
  begin(r, 0);
  memset_op(0, 128);                    /* size is topology: mismatch */
  memcpy_op(0x7100, 64, cudaMemcpyDeviceToDevice);
  event_record(2, S1);
  end(r);
  CHECK_STR(fake_log(), "ms(0) mc(28928) er2");
  CHECK(harness_segment(r, 0)->stats.mismatches == 1);
}

int main(void)
{
  test_warmup_capture_replay();
  test_graph_mode_warms_up_once();
  test_eager_mode_passes_through();
  test_warmup_needs_consecutive_same_signature();
  test_recurring_signature_is_pinned();
  test_mismatch_runs_recorded_ops_then_recaptures();
  test_max_captures_then_eager_for_good();
  test_memset_memcpy_event_updates();
  return check_finish();
}
