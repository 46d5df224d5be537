/* test_thresholds.c - every policy threshold of batchable loops pinned on
 * both sides of its boundary, through the harness and the fake log only:
 *   - an iteration of 16 ops or more is not batched, 15 is;
 *   - K (iterations per graph) is a power of 2, at most the plugin's batch=
 *     and PYGRAPH_BATCH, and at most trips / 8;
 *   - auto mode captures no unit whose GPU time is over 1.25 times the
 *     host's time for it (GPU-bound);
 *   - a capture must pay back over the units left (trips / K), not over the
 *     iterations left;
 *   - PYGRAPH_BATCH is read as a plain decimal in [1, 1000000].
 * K shows in the log as the size of the first graph built: one node per op
 * of each of its K iterations. */
#include <string.h>

#include "check.h"
#include "harness.h"

static int count(const char *token)
{
  int n = 0;
  size_t len = strlen(token);
  for (const char *p = fake_log(); (p = strstr(p, token)) != NULL; p += len)
    if ((p == fake_log() || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      n++;
  return n;
}

/* Nodes of the first graph built ("build(0 1<0 2<1 ...)"), 0 if none. */
static unsigned first_graph_nodes(void)
{
  const char *b = strstr(fake_log(), "build(");
  if (!b)
    return 0;
  unsigned n = 1;
  for (b += 6; *b && *b != ')' && *b != ';'; b++)
    n += *b == ' ';
  return n;
}

/* PYGRAPH_BATCH for graph_mode_k (0: not set). */
static unsigned batch_setting;

/* A batchable loop run in graph mode: `iters` iterations of `ops` kernels,
 * entered with `trips` as the pass would; returns K as the first graph shows
 * it (0: no graph). */
static unsigned graph_mode_k(unsigned batch_max, unsigned ops, int iters, long long trips)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_batch(batch_setting);
  pygraph_region *r = harness_batch_region("thresholds", batch_max);
  fake_reset();
  loop_enter(r, trips);
  for (int i = 0; i < iters; i++) {
    begin(r, 0);
    for (unsigned k = 1; k <= ops; k++)
      kernel((int)k, i);
    end(r);
  }
  loop_exit(r);
  return first_graph_nodes() / ops;
}

static void test_ops_per_iteration_cutoff(void)
{
  CHECK(graph_mode_k(4, 15, 40, 1000) == 4);    /* 15 ops: batched */
  CHECK(count("launch") == 9);                  /* 40 iterations: 36 in 9 units */
  CHECK(graph_mode_k(4, 16, 40, 1000) == 1);    /* 16 ops: one iteration per graph */
  CHECK(count("launch") == 39);
}

static void test_k_is_a_power_of_two(void)
{
  CHECK(graph_mode_k(8, 1, 40, 1000) == 8);
  CHECK(graph_mode_k(7, 1, 40, 1000) == 4);     /* batch=7: the power of 2 below */
  CHECK(graph_mode_k(6, 1, 40, 1000) == 4);
  CHECK(graph_mode_k(3, 1, 40, 1000) == 2);
  CHECK(graph_mode_k(2, 1, 40, 1000) == 2);
  CHECK(graph_mode_k(1, 1, 40, 1000) == 1);     /* batch=1: no batching */
}

static void test_k_follows_trips_over_eight(void)
{
  CHECK(graph_mode_k(32, 1, 32, 32) == 4);      /* 32 / 8 = 4 */
  CHECK(graph_mode_k(32, 1, 31, 31) == 2);      /* 31 / 8 = 3: 2 */
  CHECK(graph_mode_k(32, 1, 16, 16) == 2);
  CHECK(graph_mode_k(32, 1, 15, 15) == 1);      /* fewer than 8 units of 2 */
  CHECK(graph_mode_k(32, 1, 300, -1) == 32);    /* not known: batch_max */
}

/* PYGRAPH_BATCH caps batch= (never raises it); set through the harness. */
static void test_batch_setting_caps_k(void)
{
  batch_setting = 2;
  CHECK(graph_mode_k(32, 1, 40, 1000) == 2);
  batch_setting = 64;
  CHECK(graph_mode_k(8, 1, 40, 1000) == 8);
  batch_setting = 1;
  CHECK(graph_mode_k(8, 1, 40, 1000) == 1);
  batch_setting = 0;
}

/* PYGRAPH_BATCH from the environment, with PYGRAPH_MODE=graph and
 * PYGRAPH_WARMUP=1: what K a batch=32 loop then gets. */
static const char *batch_text;
static const char *lookup(const char *name)
{
  if (strcmp(name, "PYGRAPH_BATCH") == 0)
    return batch_text;
  if (strcmp(name, "PYGRAPH_MODE") == 0)
    return "graph";
  if (strcmp(name, "PYGRAPH_WARMUP") == 0 || strcmp(name, "PYGRAPH_MIN_OPS") == 0)
    return "1";
  return NULL;
}

static unsigned k_with_batch_env(const char *text)
{
  struct pygraph_settings s;
  batch_text = text;
  pygraph_settings_parse(&s, lookup);
  pygraph_settings_override(&s);
  pygraph_region *r = harness_batch_region("batch_env", 32);
  fake_reset();
  loop_enter(r, -1);
  for (int i = 0; i < 300; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  loop_exit(r);
  return first_graph_nodes();
}

static void test_batch_setting_parsing(void)
{
  CHECK(k_with_batch_env(NULL) == 32);          /* not set: batch= alone */
  CHECK(k_with_batch_env("") == 32);
  CHECK(k_with_batch_env("4") == 4);
  CHECK(k_with_batch_env("1") == 1);            /* the smallest: no batching */
  CHECK(k_with_batch_env("0") == 32);           /* below the range: ignored */
  CHECK(k_with_batch_env("1000000") == 32);     /* the largest: batch= caps it */
  CHECK(k_with_batch_env("1000001") == 32);     /* above the range: ignored */
  CHECK(k_with_batch_env("-4") == 32);
  CHECK(k_with_batch_env("4x") == 32);          /* not a plain number: ignored */
  CHECK(k_with_batch_env("0x4") == 32);
}

/* The host's work is interrupted once, at this iteration (-1: never). */
static long long hiccup_at = -1;

/* auto mode, K = 4, `trips` iterations: the fake GPU takes gpu_us per
 * kernel, the host host_us per iteration.  Returns the graphs built. */
static int auto_builds(double gpu_us, double host_us, long long trips)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_measure(4, 3);
  pygraph_region *r = harness_batch_region("auto", 4);
  fake_reset();
  harness_fake_timing(gpu_us, 2);
  loop_enter(r, trips);
  for (long long i = 0; i < trips; i++) {
    fake_host_us += host_us + (i == hiccup_at ? 40.0 : 0.0);
    begin(r, 0);
    kernel(1, (int)i);
    end(r);
  }
  loop_exit(r);
  fake.timing = 0;
  return count("build(0");
}

static void test_gpu_bound_ratio(void)
{
  CHECK(auto_builds(1.0, 5.0, 100) == 1);       /* host-bound */
  CHECK(auto_builds(6.0, 5.0, 100) == 1);       /* 1.2: graphed */
  CHECK(auto_builds(6.5, 5.0, 100) == 0);       /* 1.3: GPU-bound, eager */
  CHECK(auto_builds(50.0, 5.0, 100) == 0);
  /* One interruption of the host (40 us) in any of the warm-up's units
   * does not make the GPU-bound loop look host-bound: the shortest host
   * period counts, wherever the long one fell. */
  for (hiccup_at = 0; hiccup_at < 16; hiccup_at++)
    CHECK(auto_builds(6.5, 5.0, 100) == 0);
  hiccup_at = -1;
}

/* The capture pays back over the units left: 64 iterations are 16 units of
 * 4, too few; 128 are 32 units, enough. */
static void test_capture_pays_back_over_units(void)
{
  CHECK(auto_builds(1.0, 5.0, 64) == 0);
  CHECK(auto_builds(1.0, 5.0, 128) == 1);
}

int main(void)
{
  test_ops_per_iteration_cutoff();
  test_k_is_a_power_of_two();
  test_k_follows_trips_over_eight();
  test_batch_setting_caps_k();
  test_batch_setting_parsing();
  test_gpu_bound_ratio();
  test_capture_pays_back_over_units();
  return check_finish();
}
