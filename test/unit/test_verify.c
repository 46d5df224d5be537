/* test_verify.c - verify mode (segment/verify.h) against the fake's device
 * memory (fake_memory.h): a correct graph passes, a planted stale-argument
 * bug is caught and named, a CUDA error anywhere in a verification turns
 * verification off while the iteration's work still shows exactly once,
 * and verified iterations give auto mode no timing sample. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/report.h"
#include "check.h"
#include "harness.h"

/* ---- stderr, caught for the lines verify mode prints ---------------------- */

static FILE *caught;
static int saved_stderr = -1;
static char caught_text[4096];

static void catch_stderr(void)
{
  fflush(stderr);
  caught = tmpfile();
  saved_stderr = dup(2);
  dup2(fileno(caught), 2);
}

static const char *caught_stderr(void)
{
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  rewind(caught);
  size_t n = fread(caught_text, 1, sizeof caught_text - 1, caught);
  caught_text[n] = '\0';
  fclose(caught);
  return caught_text;
}

/* ---- helpers --------------------------------------------------------------- */

/* One iteration: fake_kernel_1 adds 1 to *a (its arguments never move),
 * then fake_kernel_2 adds `step` to *b (its value argument moves). */
static void iteration(pygraph_region *r, int *a, int *b, int step)
{
  begin(r, 0);
  kernel_buf(1, 1, a);
  kernel_buf(2, step, b);
  end(r);
}

/* Is `token` one of the log's space-separated tokens? */
static int has_token(const char *log, const char *token)
{
  size_t n = strlen(token);
  for (const char *p = strstr(log, token); p; p = strstr(p + 1, token))
    if ((p == log || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return 1;
  return 0;
}

static const char *verify_status(pygraph_region *r)
{
  struct pygraph_segment_summary sum;
  pygraph_segment_summarize(harness_segment(r, 0), &sum);
  return sum.verify;
}

/* Graph mode (iteration 1 eager, iteration 2 captured) with PYGRAPH_VERIFY. */
static pygraph_region *verified_region(const char *name, unsigned replays)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_verify(replays);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  return r;
}

/* ---- a correct graph ------------------------------------------------------- */

static void test_correct_graph_passes(void)
{
  pygraph_region *r = verified_region("correct", 2);
  int *a = fake_buffer(64), *b = fake_buffer(64);
  catch_stderr();
  iteration(r, a, b, 1);
  fake_log_clear();
  iteration(r, a, b, 2);
  /* The capture: wait for the inputs, snapshot both buffers, run the ops
   * eagerly, save their results, restore, launch, compare (a chunk each). */
  CHECK_STR(fake_log(), "build(0 1<0) inst sync cp cp sync k1(1) k2(2) sync cp cp sync cp cp sync "
                        "launch sync cp sync cp sync");
  fake_log_clear();
  iteration(r, a, b, 3);
  CHECK_STR(fake_log(), "upd1 sync cp cp sync k1(1) k2(3) sync cp cp sync cp cp sync "
                        "launch sync cp sync cp sync");
  iteration(r, a, b, 4);                      /* the second replay: verified too */
  fake_log_clear();
  iteration(r, a, b, 5);
  CHECK_STR(fake_log(), "upd1 launch");       /* the capture and 2 replays were */
  /* Every iteration's work shows once: eager and graph ran from the same
   * inputs, and the graph's results stayed. */
  CHECK(*a == 5 && *b == 1 + 2 + 3 + 4 + 5);
  CHECK_STR(verify_status(r), "ok 3");
  CHECK_STR(caught_stderr(), "");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.replays == 3 && seg->stats.captures == 1);
  CHECK(seg->stats.launches_in_graphs == 8);
  CHECK(fake_live_allocs == 0);               /* every shadow freed */
}

/* ---- a planted stale-argument bug --------------------------------------- */

/* fake.stale_updates: node updates are accepted but not applied, so the
 * graph replays with the arguments it was captured with. */
static void test_stale_argument_caught(void)
{
  pygraph_region *r = verified_region("stale", 2);
  int *a = fake_buffer(64);
  unsigned char *b_alloc = fake_buffer(64);
  int *b = (int *)(b_alloc + 16);             /* inside its allocation */
  iteration(r, a, b, 1);
  iteration(r, a, b, 2);                      /* captured: verified, equal */
  CHECK_STR(verify_status(r), "ok 1");
  fake.stale_updates = 1;
  catch_stderr();
  fake_log_clear();
  iteration(r, a, b, 3);                      /* the graph adds 2 again, not 3 */
  const char *err = caught_stderr();
  CHECK(has_token(fake_log(), "upd1") && has_token(fake_log(), "launch"));
  char expect[256];
  snprintf(expect, sizeof expect, "mismatch fake_kernel_2 arg 1 buffer 0x%llx+0x10",
           (unsigned long long)(uintptr_t)b_alloc);
  CHECK_STR(verify_status(r), expect);
  snprintf(expect, sizeof expect,
           "pygraph: verify: stale test.cu:10-20 seg 0: graph #1 differs from eager: "
           "fake_kernel_2 (op 1, test.cu:102) arg 1 buffer 0x%llx+0x10: eager byte 0x06, "
           "graph byte 0x05\n",
           (unsigned long long)(uintptr_t)b_alloc);
  CHECK_STR(err, expect);
  /* The program goes on from the graph's results, as without verify mode. */
  CHECK(*a == 3 && *b == 1 + 2 + 2);
  /* Reported once: verification stops for the segment. */
  fake_log_clear();
  catch_stderr();
  iteration(r, a, b, 4);
  CHECK_STR(fake_log(), "upd1 launch");
  CHECK_STR(caught_stderr(), "");
  CHECK(strncmp(verify_status(r), "mismatch", 8) == 0);

  /* The same bug without verify mode computes the same (wrong) values. */
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *plain = harness_region("stale_unverified", 1);
  int *a2 = fake_buffer(64), *b2 = fake_buffer(64);
  iteration(plain, a2, b2, 1);
  iteration(plain, a2, b2, 2);
  iteration(plain, a2, b2, 3);
  CHECK(*a2 == 3 && *b2 == 5);
  CHECK(verify_status(plain) == NULL);
  fake.stale_updates = 0;
}

/* A memset's destination is shadowed through its allocation; the op named
 * is the first one given the buffer (here the memset, though the kernel
 * after it is the one with the stale argument: a hint, verify.h). */
static void test_memset_destination(void)
{
  pygraph_region *r = verified_region("memset", 2);
  int *m = fake_buffer(32);
  for (int i = 1; i <= 3; i++) {
    if (i == 3)
      fake.stale_updates = 1;
    catch_stderr();
    begin(r, 0);
    memset_to(m, 0, 8);
    kernel_buf(3, i, m);
    end(r);
    (void)caught_stderr();
  }
  fake.stale_updates = 0;
  char expect[128];
  snprintf(expect, sizeof expect, "mismatch cudaMemsetAsync arg 0 buffer 0x%llx+0x0",
           (unsigned long long)(uintptr_t)m);
  CHECK_STR(verify_status(r), expect);
  CHECK(*m == 2);                             /* the graph's: 0, then the stale 2 */
}

/* ---- nothing to verify ------------------------------------------------------ */

static void test_no_buffer_found(void)
{
  pygraph_region *r = verified_region("no_buffer", 2);
  catch_stderr();
  for (int i = 1; i <= 2; i++) {
    fake_log_clear();
    begin(r, 0);
    kernel(1, i);                             /* arg1 = 1000 + i: no allocation */
    end(r);
  }
  const char *err = caught_stderr();
  CHECK_STR(fake_log(), "build(0) inst launch");   /* never run twice */
  CHECK_STR(verify_status(r), "off: graph #1: no device buffer among its ops' arguments");
  CHECK_STR(err, "pygraph: verify: no_buffer test.cu:10-20 seg 0: off: graph #1: no device "
                 "buffer among its ops' arguments\n");
}

/* A kernel given pinned host memory may write what host threads watch,
 * and no snapshot could cover a host thread's view: not verified. */
static void test_host_memory_not_verified(void)
{
  pygraph_region *r = verified_region("host_memory", 2);
  int *a = fake_buffer(64), *flag = fake_host_buffer(64);
  catch_stderr();
  iteration(r, a, flag, 1);
  fake_log_clear();
  iteration(r, a, flag, 2);
  const char *err = caught_stderr();
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");
  CHECK(*a == 2 && *flag == 3);
  const char *why = "off: graph #1: op 1 (fake_kernel_2) arg 1 points into host memory, which "
                    "both runs would write";
  CHECK_STR(verify_status(r), why);
  CHECK(strstr(err, why) != NULL);
}

static void test_too_large(void)
{
  pygraph_region *r = verified_region("too_large", 2);
  size_t big = (size_t)PYGRAPH_VERIFY_MAX_BYTES + 64;
  int *a = fake_buffer(64), *huge = fake_buffer(big);   /* (calloc: untouched pages) */
  catch_stderr();
  iteration(r, a, huge, 1);
  fake_log_clear();
  iteration(r, a, huge, 2);
  (void)caught_stderr();
  CHECK_STR(fake_log(), "build(0 1<0) inst launch");
  char expect[128];
  snprintf(expect, sizeof expect, "off: graph #1: %zu bytes of buffers, over %llu",
           big + 64, (unsigned long long)PYGRAPH_VERIFY_MAX_BYTES);
  CHECK_STR(verify_status(r), expect);
  CHECK(*a == 2 && *huge == 3);
  free(huge);
}

/* ---- CUDA errors in a verification ---------------------------------------- */

/* The capture iteration (step 2) meets the failure; it and the next
 * iteration must each show exactly once. */
static void test_errors_turn_verification_off(void)
{
  struct {
    const char *name;
    int copy_at, sync_at, fail_launch, fail_alloc;   /* 1-based within the iteration */
    int graph_launched;                              /* "launch" in its log */
    const char *status;
  } rows[] = {
      {"snapshot", 1, 0, 0, 0, 1, "off: the snapshot failed: cudaErrorInvalidValue"},
      {"inputs", 0, 1, 0, 0, 1, "off: waiting for the inputs failed: cudaErrorLaunchFailure"},
      {"alloc", 0, 0, 0, 1, 1, "off: a shadow allocation failed: cudaErrorMemoryAllocation"},
      {"eager", 0, 3, 0, 0, 0, "off: the eager run failed: cudaErrorLaunchFailure"},
      {"save", 3, 0, 0, 0, 0, "off: saving the eager results failed: cudaErrorInvalidValue"},
      {"restore", 6, 0, 0, 0, 0, "off: restoring the inputs failed: cudaErrorInvalidValue"},
      {"launch", 0, 0, 1, 0, 0, "off: graph #1 did not run (graph fault)"},
      {"graph_sync", 0, 6, 0, 0, 1, "off: the graph run failed: cudaErrorLaunchFailure"},
      {"compare", 7, 0, 0, 0, 1, "off: reading the graph's results failed: cudaErrorInvalidValue"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    pygraph_region *r = verified_region(rows[i].name, 2);
    int *a = fake_buffer(64), *b = fake_buffer(64);
    iteration(r, a, b, 1);
    fake.fail_copy_at = rows[i].copy_at ? fake_copy_calls + rows[i].copy_at : 0;
    fake.fail_sync_at = rows[i].sync_at ? fake_sync_calls + rows[i].sync_at : 0;
    fake.fail_launch = rows[i].fail_launch;
    fake.fail_device_alloc = rows[i].fail_alloc;
    fake_log_clear();
    catch_stderr();
    iteration(r, a, b, 2);
    const char *err = caught_stderr();
    int launched = has_token(fake_log(), "launch");
    if (!(*a == 2 && *b == 3) || launched != rows[i].graph_launched)
      fprintf(stderr, "row %s: a=%d b=%d log: %s\n", rows[i].name, *a, *b, fake_log());
    CHECK(*a == 2 && *b == 3);                /* once: eagerly or as the graph */
    CHECK(launched == rows[i].graph_launched);
    CHECK_STR(verify_status(r), rows[i].status);
    CHECK(strstr(err, rows[i].status) != NULL);
    CHECK(fake_live_allocs == 0);
    fake.fail_copy_at = fake.fail_sync_at = fake.fail_launch = fake.fail_device_alloc = 0;
    fake_log_clear();
    iteration(r, a, b, 3);                    /* no verification; the graph (if any) is
                                                 in step with the iteration before */
    CHECK(*a == 3 && *b == 6);
    CHECK(strstr(fake_log(), "cp") == NULL);
    CHECK_STR(verify_status(r), rows[i].status);
  }
}

/* A failed save after a replay's update: the eager run was the iteration's,
 * and the graph's nodes still hold that iteration's arguments (the next
 * replay updates from them). */
static void test_replay_that_ran_eagerly_stays_in_step(void)
{
  pygraph_region *r = verified_region("replay_eager", 2);
  int *a = fake_buffer(64), *b = fake_buffer(64);
  iteration(r, a, b, 1);
  iteration(r, a, b, 2);
  fake.fail_copy_at = fake_copy_calls + 3;
  catch_stderr();
  fake_log_clear();
  iteration(r, a, b, 3);
  (void)caught_stderr();
  CHECK(has_token(fake_log(), "upd1") && !has_token(fake_log(), "launch"));
  fake.fail_copy_at = 0;
  fake_log_clear();
  iteration(r, a, b, 3);                      /* same arguments: nothing to update */
  CHECK_STR(fake_log(), "launch");
  CHECK(*a == 4 && *b == 1 + 2 + 3 + 3);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.launches_in_graphs == 4);  /* the capture and the last iteration */
  CHECK(seg->stats.replays == 1);
}

/* ---- auto mode: a verified iteration is no timing sample ------------------- */

/* The slowest graph sample auto mode took (the fake GPU: 10 us per eager
 * op, 10 us per graph launch; a verified iteration costs both). */
static double slowest_graph_sample(unsigned verify)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_verify(verify);
  pygraph_region *r = harness_region(verify ? "timed_verified" : "timed", 1);
  fake_reset();
  harness_fake_timing(10.0, 10.0);
  int *a = fake_buffer(64), *b = fake_buffer(64);
  catch_stderr();
  for (int i = 0; i < 40; i++)
    iteration(r, a, b, 7);
  (void)caught_stderr();
  CHECK(*a == 40 && *b == 280);
  const struct pygraph_samples *smp = &harness_segment(r, 0)->sel.graphs[0].samples;
  CHECK(smp->n >= 2);
  double slowest = 0.0;
  for (unsigned i = 0; i < smp->n; i++)
    slowest = smp->us[i] > slowest ? smp->us[i] : slowest;
  return slowest;
}

static void test_verified_runs_are_no_samples(void)
{
  CHECK(slowest_graph_sample(0) == 10.0);
  CHECK(slowest_graph_sample(2) == 10.0);     /* never the eager run's 20 us on top */
}

/* ---- settings and the report line ---------------------------------------- */

static const char *const *lookup_pairs;

static const char *lookup(const char *name)
{
  for (const char *const *p = lookup_pairs; p && *p; p += 2)
    if (strcmp(p[0], name) == 0)
      return p[1];
  return NULL;
}

static struct pygraph_settings parse_verify(const char *value)
{
  const char *pairs[] = {"PYGRAPH_VERIFY", value, NULL};
  lookup_pairs = pairs;
  struct pygraph_settings s;
  pygraph_settings_parse(&s, lookup);
  lookup_pairs = NULL;
  return s;
}

static void test_settings(void)
{
  CHECK(parse_verify(NULL).verify == 0);
  CHECK(parse_verify("1").verify == PYGRAPH_DEFAULT_VERIFY_REPLAYS);
  CHECK(parse_verify("on").verify == PYGRAPH_DEFAULT_VERIFY_REPLAYS);
  CHECK(parse_verify("off").verify == 0);
  CHECK(parse_verify("0").verify == 0);
  CHECK(parse_verify("5").verify == 5);
  struct pygraph_settings s = parse_verify("lots");
  CHECK(s.verify == 0 && s.n_problems == 1);
  char line[256];
  pygraph_settings_format_problem(line, sizeof line, &s.problems[0]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_VERIFY=\"lots\" is not 0/1, on/off, true/false or "
                  "yes/no or a number of replays from 2 to 1000000; using 0 (off)\n");
  CHECK(parse_verify("1000001").n_problems == 1);
}

static void test_report_line(void)
{
  pygraph_region *r = verified_region("reported", 2);
  int *a = fake_buffer(64), *b = fake_buffer(64);
  iteration(r, a, b, 1);
  iteration(r, a, b, 2);
  char buf[1024];
  pygraph_report_format_segment(buf, sizeof buf, harness_segment(r, 0));
  CHECK(strstr(buf, " verify=\"ok 1\"\n") != NULL);
  harness_verify(0);
  pygraph_region *off = harness_region("unreported", 1);
  iteration(off, a, b, 1);
  pygraph_report_format_segment(buf, sizeof buf, harness_segment(off, 0));
  CHECK(strstr(buf, "verify=") == NULL);
}

int main(void)
{
  test_correct_graph_passes();
  test_stale_argument_caught();
  test_memset_destination();
  test_no_buffer_found();
  test_host_memory_not_verified();
  test_too_large();
  test_errors_turn_verification_off();
  test_replay_that_ran_eagerly_stays_in_step();
  test_verified_runs_are_no_samples();
  test_settings();
  test_report_line();
  return check_finish();
}
