/* test_settings_report.c - PYGRAPH_* parsing, the capture policy, and the
 * exact report text. */
#include "check.h"
#include "selection/decide.h"
#include "abi/library_calls.h"
#include "abi/report.h"
#include "harness.h"
#include "segment/segment_internal.h"
#include "common/settings.h"

static const char *const *env;   /* NAME, VALUE, NAME, VALUE, ..., NULL */

static const char *fake_getenv(const char *name)
{
  for (const char *const *e = env; e && *e; e += 2)
    if (strcmp(e[0], name) == 0)
      return e[1];
  return NULL;
}

static struct pygraph_settings parse(const char *const *vars)
{
  struct pygraph_settings s;
  env = vars;
  pygraph_settings_parse(&s, fake_getenv);
  return s;
}

static void test_defaults(void)
{
  struct pygraph_settings s = parse(NULL);
  CHECK(s.mode == PYGRAPH_MODE_AUTO);
  CHECK(s.warmup == 2);
  CHECK(s.max_captures == 16);
  CHECK(!s.report && !s.debug && !s.mode_unknown && !s.report_json && s.nvtx);
  CHECK(s.indirect == PYGRAPH_INDIRECT_AUTO);
  CHECK(pygraph_effective_warmup(&s) == 2);
  CHECK(s.max_ops == 4096 && s.variants == 8 && s.measure_iters == 12 && s.margin_pct == 3);
  CHECK(s.min_ops == 2);
  struct pygraph_settings d;
  pygraph_settings_defaults(&d);
  CHECK(memcmp(&d, &s, sizeof d) == 0);
}

static void test_selective_settings(void)
{
  const char *ok[] = {"PYGRAPH_MAX_OPS", "100", "PYGRAPH_VARIANTS", "16",
                      "PYGRAPH_MEASURE_ITERS", "64", "PYGRAPH_MARGIN", "0", NULL};
  struct pygraph_settings s = parse(ok);
  CHECK(s.max_ops == 100 && s.variants == 16 && s.measure_iters == 64 && s.margin_pct == 0);
  const char *bad[] = {"PYGRAPH_MAX_OPS", "0", "PYGRAPH_VARIANTS", "17",
                       "PYGRAPH_MEASURE_ITERS", "1", "PYGRAPH_MARGIN", "101", NULL};
  s = parse(bad);
  CHECK(s.max_ops == 4096 && s.variants == 8 && s.measure_iters == 12 && s.margin_pct == 3);
  const char *zero_variants[] = {"PYGRAPH_VARIANTS", "0", "PYGRAPH_MEASURE_ITERS", "65", NULL};
  s = parse(zero_variants);
  CHECK(s.variants == 8 && s.measure_iters == 12);
  const char *min_ops[] = {"PYGRAPH_MIN_OPS", "1", NULL};
  CHECK(parse(min_ops).min_ops == 1);
  const char *bad_min_ops[] = {"PYGRAPH_MIN_OPS", "0", NULL};
  CHECK(parse(bad_min_ops).min_ops == 2);
  CHECK(s.eager_before_capture == 3 && pygraph_eager_before_capture(&s) == 3);
  const char *after[] = {"PYGRAPH_EAGER_BEFORE_CAPTURE", "0", NULL};
  s = parse(after);
  CHECK(s.eager_before_capture == 0 && pygraph_eager_before_capture(&s) == 0);
  const char *three[] = {"PYGRAPH_EAGER_BEFORE_CAPTURE", "3", NULL};
  CHECK(parse(three).eager_before_capture == 3);
  const char *too_many[] = {"PYGRAPH_EAGER_BEFORE_CAPTURE", "4", NULL};
  CHECK(parse(too_many).eager_before_capture == 3);      /* out of range: the default */
  const char *small_window[] = {"PYGRAPH_MEASURE_ITERS", "2", "PYGRAPH_EAGER_BEFORE_CAPTURE",
                                "3", NULL};
  s = parse(small_window);                /* never more than a verdict needs */
  CHECK(pygraph_eager_before_capture(&s) == 2);
}

static void test_modes(void)
{
  const char *eager[] = {"PYGRAPH_MODE", "eager", NULL};
  const char *graph[] = {"PYGRAPH_MODE", "graph", "PYGRAPH_WARMUP", "5", NULL};
  const char *autom[] = {"PYGRAPH_MODE", "auto", NULL};
  const char *bogus[] = {"PYGRAPH_MODE", "Graph", NULL};
  CHECK(parse(eager).mode == PYGRAPH_MODE_EAGER);
  struct pygraph_settings g = parse(graph);
  CHECK(g.mode == PYGRAPH_MODE_GRAPH);
  CHECK(g.warmup == 5);
  CHECK(pygraph_effective_warmup(&g) == 5);     /* given: graph mode uses it */
  const char *graph_default[] = {"PYGRAPH_MODE", "graph", NULL};
  struct pygraph_settings gd = parse(graph_default);
  CHECK(pygraph_effective_warmup(&gd) == 1);
  const char *graph_bad[] = {"PYGRAPH_MODE", "graph", "PYGRAPH_WARMUP", "0", NULL};
  struct pygraph_settings gb = parse(graph_bad);
  CHECK(pygraph_effective_warmup(&gb) == 1);
  CHECK(parse(autom).mode == PYGRAPH_MODE_AUTO && !parse(autom).mode_unknown);
  struct pygraph_settings b = parse(bogus);
  CHECK(b.mode == PYGRAPH_MODE_AUTO);
  CHECK(b.mode_unknown);
}

static void test_numbers_and_flags(void)
{
  const char *ok[] = {"PYGRAPH_WARMUP", "3", "PYGRAPH_MAX_CAPTURES", "0",
                      "PYGRAPH_REPORT", "1", "PYGRAPH_DEBUG", "1", NULL};
  struct pygraph_settings s = parse(ok);
  CHECK(s.warmup == 3 && s.max_captures == 0 && s.report && s.debug);
  const char *bad[] = {"PYGRAPH_WARMUP", "0", "PYGRAPH_MAX_CAPTURES", "-1",
                       "PYGRAPH_REPORT", "0", NULL};
  s = parse(bad);
  CHECK(s.warmup == 2);                 /* a warm-up of 0 is meaningless */
  CHECK(s.max_captures == 16);
  CHECK(!s.report);
  const char *junk[] = {"PYGRAPH_WARMUP", "2x", NULL};
  CHECK(parse(junk).warmup == 2);
  const char *ind_off[] = {"PYGRAPH_INDIRECT", "0", NULL};
  const char *ind_on[] = {"PYGRAPH_INDIRECT", "1", NULL};
  const char *ind_empty[] = {"PYGRAPH_INDIRECT", "", NULL};
  const char *ind_auto[] = {"PYGRAPH_INDIRECT", "auto", NULL};
  CHECK(parse(ind_off).indirect == PYGRAPH_INDIRECT_OFF);
  CHECK(parse(ind_on).indirect == PYGRAPH_INDIRECT_ON);
  CHECK(parse(ind_empty).indirect == PYGRAPH_INDIRECT_AUTO);
  CHECK(parse(ind_auto).indirect == PYGRAPH_INDIRECT_AUTO);
  CHECK(parse(NULL).indirect == PYGRAPH_INDIRECT_AUTO);
}

/* Flags take the words users write; what is not understood, or out of
 * range, is a warning naming the default used (never silently a default,
 * never silently on). */
static void test_flag_words_and_warnings(void)
{
  const char *const on_words[] = {"1", "on", "ON", "true", "Yes"};
  const char *const off_words[] = {"0", "off", "False", "no"};
  for (unsigned i = 0; i < 5; i++) {
    const char *v[] = {"PYGRAPH_REPORT", on_words[i], "PYGRAPH_INDIRECT", on_words[i], NULL};
    struct pygraph_settings s = parse(v);
    CHECK(s.report == 1 && s.indirect == PYGRAPH_INDIRECT_ON && s.n_problems == 0);
  }
  for (unsigned i = 0; i < 4; i++) {
    const char *v[] = {"PYGRAPH_DEBUG", off_words[i], "PYGRAPH_INDIRECT", off_words[i], NULL};
    struct pygraph_settings s = parse(v);
    CHECK(s.debug == 0 && s.indirect == PYGRAPH_INDIRECT_OFF && s.n_problems == 0);
  }
  const char *odd[] = {"PYGRAPH_REPORT", "maybe", "PYGRAPH_INDIRECT", "sometimes",
                       "PYGRAPH_VARIANTS", "32", NULL};
  struct pygraph_settings s = parse(odd);
  CHECK(!s.report && s.indirect == PYGRAPH_INDIRECT_AUTO && s.variants == 8);
  CHECK(s.n_problems == 3);
  char line[256];
  pygraph_settings_format_problem(line, sizeof line, &s.problems[0]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_REPORT=\"maybe\" is not a flag word (0/1, "
                  "on/off, true/false or yes/no), json:PATH or <flag>,json:PATH; using 0 (off)\n");
  pygraph_settings_format_problem(line, sizeof line, &s.problems[1]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_INDIRECT=\"sometimes\" is not auto or 0/1, "
                  "on/off, true/false or yes/no; using auto\n");
  pygraph_settings_format_problem(line, sizeof line, &s.problems[2]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_VARIANTS=\"32\" is not a number from 1 to 16; "
                  "using 8\n");
  const char *all_bad[] = {"PYGRAPH_MODE", "x", "PYGRAPH_WARMUP", "x", "PYGRAPH_MAX_CAPTURES", "x",
                           "PYGRAPH_REPORT", "x", "PYGRAPH_DEBUG", "x", "PYGRAPH_INDIRECT", "x",
                           "PYGRAPH_MAX_OPS", "x", "PYGRAPH_VARIANTS", "x",
                           "PYGRAPH_MEASURE_ITERS", "x", "PYGRAPH_MARGIN", "x",
                           "PYGRAPH_EAGER_BEFORE_CAPTURE", "x", "PYGRAPH_MIN_OPS", "x",
                           "PYGRAPH_BATCH", "x", "PYGRAPH_NVTX", "x", "PYGRAPH_VERIFY", "x",
                           "PYGRAPH_FAULT", "x", "PYGRAPH_WHOLE_LOOPS", "x",
                           "PYGRAPH_POOL_MB", "x", "PYGRAPH_CUBLAS_WORKSPACE_MB", "x", NULL};
  s = parse(all_bad);                     /* every setting at once: each warned about */
  CHECK(s.n_problems == 19 && s.n_problems <= PYGRAPH_SETTINGS_COUNT);
  const char *junk_debug[] = {"PYGRAPH_DEBUG", "maybe", NULL};
  s = parse(junk_debug);                  /* a flag word not understood is off */
  CHECK(!s.debug && s.n_problems == 1);
}

/* PYGRAPH_REPORT: a flag word, json:PATH, or both as <flag>,json:PATH
 * (everything after "json:" is the path); anything else is a warning and
 * no report. */
static void test_report_setting(void)
{
  const char *json[] = {"PYGRAPH_REPORT", "json:out/run-%p.json", NULL};
  struct pygraph_settings s = parse(json);
  CHECK(!s.report && s.report_json && strcmp(s.report_json, "out/run-%p.json") == 0);
  CHECK(s.n_problems == 0);
  const char *both[] = {"PYGRAPH_REPORT", "yes,json:a,b json:c.json", NULL};
  s = parse(both);
  CHECK(s.report == 1 && s.report_json && strcmp(s.report_json, "a,b json:c.json") == 0);
  const char *off_json[] = {"PYGRAPH_REPORT", "0,json:x.json", NULL};
  s = parse(off_json);
  CHECK(s.report == 0 && s.report_json && strcmp(s.report_json, "x.json") == 0);
  const char *const bad[] = {"json:", "1,json:", "json", "2,json:x", "1;json:x", "true json:x",
                             "verylongword,json:x", ",json:x", "JSON:x"};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *v[] = {"PYGRAPH_REPORT", bad[i], NULL};
    s = parse(v);
    CHECK(!s.report && !s.report_json && s.n_problems == 1);
    CHECK(s.n_problems == 1 && strcmp(s.problems[0].used, "0 (off)") == 0);
  }
  CHECK(parse(NULL).report_json == NULL);
}

/* PYGRAPH_NVTX: on by default; flag words; junk warns and keeps it on. */
static void test_nvtx_setting(void)
{
  CHECK(parse(NULL).nvtx == 1);
  const char *off[] = {"PYGRAPH_NVTX", "off", NULL};
  CHECK(parse(off).nvtx == 0);
  const char *zero[] = {"PYGRAPH_NVTX", "0", NULL};
  CHECK(parse(zero).nvtx == 0);
  const char *on[] = {"PYGRAPH_NVTX", "Yes", NULL};
  CHECK(parse(on).nvtx == 1);
  const char *junk[] = {"PYGRAPH_NVTX", "2", NULL};
  struct pygraph_settings s = parse(junk);
  CHECK(s.nvtx == 1 && s.n_problems == 1);
  char line[256];
  pygraph_settings_format_problem(line, sizeof line, &s.problems[0]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_NVTX=\"2\" is not 0/1, on/off, true/false or "
                  "yes/no; using 1 (on)\n");
}

/* PYGRAPH_WHOLE_LOOPS: on by default, off by a flag word; junk warns and
 * keeps it on. */
static void test_whole_loops_setting(void)
{
  CHECK(parse(NULL).whole_loops == 1);
  const char *off[] = {"PYGRAPH_WHOLE_LOOPS", "0", NULL};
  CHECK(parse(off).whole_loops == 0);
  const char *junk[] = {"PYGRAPH_WHOLE_LOOPS", "sometimes", NULL};
  struct pygraph_settings s = parse(junk);
  CHECK(s.whole_loops == 1 && s.n_problems == 1);
  CHECK_STR(s.problems[0].used, "1 (on)");
}

/* PYGRAPH_CUBLAS_WORKSPACE_MB: not given, the adapter's default by compute
 * capability; 0 (no workspace of pygraph's) up to 4096 MiB; junk warns and
 * keeps the default. */
static void test_cublas_workspace_setting(void)
{
  CHECK(parse(NULL).cublas_workspace_mb == PYGRAPH_CUBLAS_WORKSPACE_AUTO);
  const char *some[] = {"PYGRAPH_CUBLAS_WORKSPACE_MB", "8", NULL};
  CHECK(parse(some).cublas_workspace_mb == 8);
  const char *none[] = {"PYGRAPH_CUBLAS_WORKSPACE_MB", "0", NULL};
  CHECK(parse(none).cublas_workspace_mb == 0);
  const char *big[] = {"PYGRAPH_CUBLAS_WORKSPACE_MB", "4097", NULL};
  struct pygraph_settings s = parse(big);
  CHECK(s.cublas_workspace_mb == PYGRAPH_CUBLAS_WORKSPACE_AUTO && s.n_problems == 1);
  char line[256];
  pygraph_settings_format_problem(line, sizeof line, &s.problems[0]);
  CHECK_STR(line, "pygraph: warning: PYGRAPH_CUBLAS_WORKSPACE_MB=\"4097\" is not a number of "
                  "MiB from 0 to 4096 (0: no workspace of pygraph's); using 32 on compute "
                  "capability 9.0 and newer, else 4\n");
}

static void test_decide(void)
{
  struct pygraph_settings s = parse(NULL);
  const char *reason = NULL;
  struct pygraph_decide_input in = {.stable_iterations = 1, .captures = 0, .n_ops = 2};
  CHECK(pygraph_decide(&s, &in, &reason) == PYGRAPH_KEEP_WARMING);
  in.stable_iterations = 2;
  CHECK(pygraph_decide(&s, &in, &reason) == PYGRAPH_CAPTURE_NEXT);
  in.captures = PYGRAPH_DEFAULT_MAX_CAPTURES;
  CHECK(pygraph_decide(&s, &in, &reason) == PYGRAPH_GO_EAGER);
  CHECK_STR(reason, "signature unstable");
  s.max_captures = 0;
  in.captures = 0;
  CHECK(pygraph_decide(&s, &in, &reason) == PYGRAPH_GO_EAGER);
  CHECK_STR(reason, "PYGRAPH_MAX_CAPTURES=0");
}

static void test_report_lines(void)
{
  pygraph_region r = {.abi_version = PYGRAPH_ABI_VERSION, .n_segments = 2,
                      .function = "run(int)", .file = "src/a.cu", .line_begin = 12,
                      .line_end = 30};
  struct pygraph_settings s = parse(NULL);
  struct pygraph_segment seg;
  pygraph_segment_init(&seg, NULL, &s, &r, 1);
  seg.phase = PYGRAPH_PHASE_REPLAY;
  seg.stats = (struct pygraph_segment_stats){.iters = 100, .replays = 97, .captures = 1,
                                             .updates = 40, .flushes = 0, .mismatches = 0,
                                             .eager_iters = 2};
  seg.sel.timed = 5;
  char buf[512];
  pygraph_report_format_segment(buf, sizeof buf, &seg);
  CHECK_STR(buf, "pygraph: region run(int) src/a.cu:12-30 seg 1: mode=graph iters=100 "
                 "replays=97 captures=1 updates=40 flushes=0 mismatches=0 indirect=0 block=0B "
                 "fallback=\"-\" decision=eager eager_us=0.0 graph_us=0.0 variants=0 "
                 "why=\"undecided: no sample read\" eager_iters=2 timed=5\n");

  seg.phase = PYGRAPH_PHASE_EAGER;
  seg.fallback = "graph launch failed: cudaErrorLaunchFailure";
  seg.stats.flushes = 2;
  seg.last_flush_reason = "driver API launch";
  r.file = NULL;
  pygraph_report_format_segment(buf, sizeof buf, &seg);
  CHECK_STR(buf, "pygraph: region run(int) ?:12-30 seg 1: mode=eager iters=100 replays=97 "
                 "captures=1 updates=40 flushes=2 mismatches=0 indirect=0 block=0B "
                 "fallback=\"graph launch failed: cudaErrorLaunchFailure\" "
                 "decision=eager eager_us=0.0 graph_us=0.0 variants=0 "
                 "why=\"graph fault (see fallback)\" eager_iters=2 timed=5 last_flush=\"driver API launch\"\n");

  seg.phase = PYGRAPH_PHASE_CAPTURE;
  CHECK_STR(harness_mode_name(&seg), "warmup");

  pygraph_report_format_total(buf, sizeof buf, 200, 150);
  CHECK_STR(buf, "pygraph: total launches=200 in_graphs=150 (75.0%)\n");
  pygraph_report_format_total(buf, sizeof buf, 0, 0);
  CHECK_STR(buf, "pygraph: total launches=0 in_graphs=0 (0.0%)\n");
  pygraph_report_format_total(buf, sizeof buf, 3, 1);
  CHECK_STR(buf, "pygraph: total launches=3 in_graphs=1 (33.3%)\n");

  /* Library calls: the segment's recorded ones after the pool's fields;
   * the adapters' workspaces and failed calls on the total line. */
  seg.phase = PYGRAPH_PHASE_REPLAY;
  seg.stats.flushes = 0;
  seg.fallback = "";
  seg.stats.library_calls = 300;
  pygraph_report_format_segment(buf, sizeof buf, &seg);
  CHECK(strstr(buf, " timed=5 library_calls=300\n") != NULL);
  pygraph_library_add_workspace(32u << 20);
  pygraph_report_format_total(buf, sizeof buf, 3, 1);
  CHECK_STR(buf, "pygraph: total launches=3 in_graphs=1 (33.3%) library_ws_bytes=33554432\n");
}

int main(void)
{
  test_defaults();
  test_modes();
  test_numbers_and_flags();
  test_flag_words_and_warnings();
  test_report_setting();
  test_nvtx_setting();
  test_whole_loops_setting();
  test_cublas_workspace_setting();
  test_selective_settings();
  test_decide();
  test_report_lines();
  return check_finish();
}
