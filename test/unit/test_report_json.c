/* test_report_json.c - the JSON writer (escaping, numbers, nesting), the
 * report path's %p, and the report document of a known run on the fake
 * backend.
 *
 *   pygraph_test_report_json [OUT.json auto|eager]
 *
 * With arguments it also writes the run's document to OUT.json through the
 * exit report's own path (PYGRAPH_REPORT=json:OUT.json), in that mode;
 * test/unit/check_report_json.py then reads it with Python's json module
 * and checks structure and values, and utils/pygraph-report's tests show
 * and compare the two runs. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "abi/launch_counter.h"
#include "abi/report.h"
#include "abi/report_json.h"
#include "common/json_write.h"

/* What a writer call put on a stream, as a string (static; next call overwrites). */
static char *captured;
static size_t captured_len;

static FILE *capture_open(void)
{
  free(captured);
  captured = NULL;
  return open_memstream(&captured, &captured_len);
}

static const char *escaped(const char *s)
{
  FILE *f = capture_open();
  pygraph_json_write_string(f, s);
  fclose(f);
  return captured;
}

static void test_escaping(void)
{
  CHECK_STR(escaped("plain"), "\"plain\"");
  CHECK_STR(escaped(""), "\"\"");
  CHECK_STR(escaped("say \"hi\""), "\"say \\\"hi\\\"\"");
  CHECK_STR(escaped("a\\b"), "\"a\\\\b\"");
  CHECK_STR(escaped("t<int, \"x\">::f()"), "\"t<int, \\\"x\\\">::f()\"");
  CHECK_STR(escaped("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  CHECK_STR(escaped("\x01\x1f\x7f"), "\"\\u0001\\u001f\x7f\"");   /* DEL needs no escape */
  CHECK_STR(escaped("/slash/"), "\"/slash/\"");
  /* Well-formed UTF-8 stays as it is: 2, 3 and 4 byte sequences. */
  CHECK_STR(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  /* Anything else is U+FFFD per bad byte: a stray continuation, a lone
   * lead byte, an overlong '/', a surrogate, past U+10FFFF, a cut-off end. */
  CHECK_STR(escaped("a\x80z"), "\"a\\ufffdz\"");
  CHECK_STR(escaped("\xc3z"), "\"\\ufffdz\"");
  CHECK_STR(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  CHECK_STR(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  CHECK_STR(escaped("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  CHECK_STR(escaped("x\xe2\x82"), "\"x\\ufffd\\ufffd\"");
  CHECK_STR(escaped("\xff"), "\"\\ufffd\"");
}

static void test_numbers_and_nesting(void)
{
  FILE *f = capture_open();
  struct pygraph_json j;
  pygraph_json_init(&j, f);
  pygraph_json_begin_object(&j, NULL);
  pygraph_json_uint(&j, "big", 18446744073709551615ull);
  pygraph_json_double(&j, "us", 12.3456);
  pygraph_json_double(&j, "neg", -0.5);
  pygraph_json_double(&j, "tiny", -0.0001);
  pygraph_json_double(&j, "huge", 1e20);
  pygraph_json_double(&j, "nan", NAN);
  pygraph_json_double(&j, "inf", INFINITY);
  pygraph_json_begin_array(&j, "empty");
  pygraph_json_end_array(&j);
  pygraph_json_begin_array(&j, "list");
  pygraph_json_bool(&j, NULL, 1);
  pygraph_json_string(&j, NULL, NULL);
  pygraph_json_begin_object(&j, NULL);
  pygraph_json_end_object(&j);
  pygraph_json_end_array(&j);
  pygraph_json_string(&j, "k\"ey", "v");
  pygraph_json_end_object(&j);
  fclose(f);
  CHECK(!j.error && j.depth == 0);
  CHECK_STR(captured, "{\n  \"big\": 18446744073709551615,\n  \"us\": 12.346,\n"
                      "  \"neg\": -0.500,\n  \"tiny\": 0.000,\n  \"huge\": 100000000000000000000,\n"
                      "  \"nan\": null,\n  \"inf\": null,\n  \"empty\": [],\n"
                      "  \"list\": [\n    true,\n    null,\n    {}\n  ],\n"
                      "  \"k\\\"ey\": \"v\"\n}\n");

  /* Nesting past the bound, or closing what is not open: an error, and
   * the stream stays balanced. */
  f = capture_open();
  pygraph_json_init(&j, f);
  for (unsigned i = 0; i < PYGRAPH_JSON_MAX_DEPTH + 2; i++)
    pygraph_json_begin_array(&j, NULL);
  CHECK(j.error && j.depth == PYGRAPH_JSON_MAX_DEPTH);
  for (unsigned i = 0; i < PYGRAPH_JSON_MAX_DEPTH + 1; i++)
    pygraph_json_end_array(&j);
  fclose(f);
  CHECK(j.depth == 0);
  size_t opened = 0, closed = 0;
  for (const char *p = captured; *p; p++) {
    opened += *p == '[';
    closed += *p == ']';
  }
  CHECK(opened == PYGRAPH_JSON_MAX_DEPTH && closed == PYGRAPH_JSON_MAX_DEPTH);
}

static void test_path(void)
{
  char *p = pygraph_report_json_path("out/run-%p.json", 4242);
  CHECK_STR(p, "out/run-4242.json");
  free(p);
  p = pygraph_report_json_path("%p%%p%x%", 7);
  CHECK_STR(p, "7%p%x%");
  free(p);
  p = pygraph_report_json_path("", 1);
  CHECK_STR(p, "");
  free(p);
}

/* ---- a known run ------------------------------------------------------- */

#define ODD_FUNCTION "ns::run<\"q\\\">(char const*) \x01\xff caf\xc3\xa9"
#define ODD_FILE "dir \"x\"/a\tb.cu"

static void counted_kernel(int func, int arg0)
{
  pygraph_count_launch();
  kernel(func, arg0);
}

/* Three regions: a loop of 2 kernels (graphed in graph mode), one that
 * flushes every iteration, and a batchable loop of one kernel. */
static void known_run(enum pygraph_mode mode)
{
  harness_settings(mode, 1, 8);
  fake_reset();
  harness_fake_timing(5.0, 2.0);
  pygraph_region *loop = harness_region(ODD_FUNCTION, 1);
  loop->file = ODD_FILE;
  for (int i = 0; i < 60; i++) {
    begin(loop, 0);
    counted_kernel(1, i);
    counted_kernel(2, i);
    end(loop);
  }
  pygraph_region *flushy = harness_region("flushy(int)", 1);
  flushy->line_begin = 40;
  flushy->line_end = 44;
  flushy->trip_count = -1;
  for (int i = 0; i < 5; i++) {
    begin(flushy, 0);
    counted_kernel(3, i);
    undeferrable("driver API launch");
    end(flushy);
  }
  pygraph_region *batch = harness_batch_region("batched()", 4);
  batch->line_begin = 50;
  batch->line_end = 52;
  batch->trip_count = 4096;
  loop_enter(batch, 4096);
  for (int i = 0; i < 254; i++) {             /* the loop leaves early: a tail */
    begin(batch, 0);
    counted_kernel(4, i);
    end(batch);
  }
  loop_exit(batch);
}

/* The document of the run, as the exit report writes it. */
static void test_document(const char *out, enum pygraph_mode mode)
{
  known_run(mode);
  struct pygraph_settings s = *pygraph_settings();
  s.report_json = out;
  pygraph_settings_override(&s);
  pygraph_report_at_exit();                   /* (atexit writes it again, the same) */
  FILE *f = fopen(out, "r");
  CHECK(f != NULL);
  if (!f)
    return;
  char text[16384];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  /* What Python cannot check: the bytes of the odd names as written. */
  CHECK(strstr(text, "\"function\": \"ns::run<\\\"q\\\\\\\">(char const*) \\u0001\\ufffd "
                     "caf\xc3\xa9\"") != NULL);
  CHECK(strstr(text, "\"file\": \"dir \\\"x\\\"/a\\tb.cu\"") != NULL);
  CHECK(strstr(text, "\"launches\": 379") != NULL);
}

int main(int argc, char **argv)
{
  test_escaping();
  test_numbers_and_nesting();
  test_path();
  if (argc == 3)
    test_document(argv[1], strcmp(argv[2], "eager") == 0 ? PYGRAPH_MODE_EAGER : PYGRAPH_MODE_AUTO);
  free(captured);
  return check_finish();
}
