/* test_exit_eval.c - the evaluator the CPU and the device share
 * (recording/exit_eval.h), against the C library's own answers: its
 * float-to-integer conversion (no trunc, no ldexp: the device has no libm
 * here) against trunc/ldexp, its NaN test (x != x) against isnan, its
 * little-endian field reads against memcpy, over sweeps of boundary
 * values; and the whole-program evaluation through whole_loop.h's entry
 * points is the same function. */
#include "check.h"
#include "recording/exit_eval.h"
#include "recording/whole_loop.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The conversion as whole_loop.c made it with libm: trunc, then the
 * range [lo, hi) from ldexp; out of range or NaN: 0. */
static uint64_t reference_float_to_int(double d, unsigned to, int is_signed)
{
  unsigned w = pygraph_eval_width(to);
  double lo = is_signed ? -ldexp(1.0, (int)w - 1) : 0.0;
  double hi = is_signed ? ldexp(1.0, (int)w - 1) : ldexp(1.0, (int)w);
  double t = trunc(d);
  if (isnan(d) || t < lo || t >= hi)
    return 0;
  return pygraph_eval_mask(is_signed ? (uint64_t)(int64_t)t : (uint64_t)t, to);
}

/* Values around every power of two a bound can be, and the specials. */
static size_t sweep(double *out, size_t cap)
{
  size_t n = 0;
  static const double specials[] = {0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0,
                                    1.5, -1.5, 2.0, -2.0, DBL_MAX, -DBL_MAX, DBL_MIN, 1e300};
  for (size_t k = 0; k < sizeof specials / sizeof specials[0] && n < cap; k++)
    out[n++] = specials[k];
  for (int e = 0; e <= 65 && n + 12 <= cap; e++) {
    double p = ldexp(1.0, e);
    double around[] = {p, p - 1, p + 1, p - 0.5, p + 0.5, nextafter(p, 0), nextafter(p, INFINITY)};
    for (size_t k = 0; k < sizeof around / sizeof around[0]; k++) {
      out[n++] = around[k];
      if (k < 5)
        out[n++] = -around[k];
    }
  }
  if (n + 3 <= cap) {
    out[n++] = INFINITY;
    out[n++] = -INFINITY;
    out[n++] = nan("");
  }
  return n;
}

static void test_float_to_int_matches_libm(void)
{
  double values[1024];
  size_t n = sweep(values, sizeof values / sizeof values[0]);
  CHECK(n > 700);
  static const unsigned types[] = {PYGRAPH_TYPE_I1, PYGRAPH_TYPE_I8, PYGRAPH_TYPE_I16,
                                   PYGRAPH_TYPE_I32, PYGRAPH_TYPE_I64, PYGRAPH_TYPE_PTR};
  int mismatches = 0, nonzero = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (int sgn = 0; sgn <= 1; sgn++)
      for (size_t k = 0; k < n; k++) {
        uint64_t want = reference_float_to_int(values[k], types[t], sgn);
        uint64_t got = pygraph_eval_float_to_int(values[k], types[t], sgn);
        nonzero += want != 0;
        if (want != got && mismatches++ < 5)
          fprintf(stderr, "  %.17g to type %u signed %d: %llu, libm %llu\n", values[k],
                  types[t], sgn, (unsigned long long)got, (unsigned long long)want);
      }
  CHECK(mismatches == 0);
  CHECK(nonzero > 1000);   /* the sweep reaches inside every range, not only outside */
  /* the bounds themselves */
  CHECK(pygraph_eval_float_to_int(-2147483648.0, PYGRAPH_TYPE_I32, 1) == 0x80000000u);
  CHECK(pygraph_eval_float_to_int(-2147483648.9, PYGRAPH_TYPE_I32, 1) == 0x80000000u);
  CHECK(pygraph_eval_float_to_int(-2147483649.0, PYGRAPH_TYPE_I32, 1) == 0);
  CHECK(pygraph_eval_float_to_int(2147483647.9, PYGRAPH_TYPE_I32, 1) == 0x7fffffffu);
  CHECK(pygraph_eval_float_to_int(2147483648.0, PYGRAPH_TYPE_I32, 1) == 0);
  CHECK(pygraph_eval_float_to_int(-0.9, PYGRAPH_TYPE_I32, 0) == 0);
  CHECK(pygraph_eval_float_to_int(-9.2233720368547758e18, PYGRAPH_TYPE_I64, 1) ==
        UINT64_C(0x8000000000000000));
  CHECK(pygraph_eval_float_to_int(1.8446744073709550e19, PYGRAPH_TYPE_I64, 0) ==
        UINT64_C(0xfffffffffffff800));
  CHECK(pygraph_eval_float_to_int(1.8446744073709552e19, PYGRAPH_TYPE_I64, 0) == 0);
}

static void test_nan_compares_match_isnan(void)
{
  double values[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, nan(""), 1e-310};
  size_t n = sizeof values / sizeof values[0];
  int mismatches = 0;
  for (unsigned pred = PYGRAPH_CMP_F_FALSE; pred <= PYGRAPH_CMP_F_TRUE; pred++)
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) {
        double x = values[i], y = values[j];
        int uno = isnan(x) || isnan(y);
        /* LLVM's predicate bits: 1 equal, 2 greater, 4 less, 8 unordered */
        int rel = uno ? 8 : x == y ? 1 : x > y ? 2 : 4;
        int want = (pred & rel) != 0;
        mismatches += pygraph_eval_float_compare(pred, x, y) != want;
      }
  CHECK(mismatches == 0);
}

static void test_fields_read_as_the_host_holds_them(void)
{
  pygraph_whole_loop wl;
  memset(&wl, 0, sizeof wl);
  wl.status_bytes = 24;
  unsigned char status[24];
  for (unsigned k = 0; k < sizeof status; k++)
    status[k] = (unsigned char)(0x81 + 37 * k);
  static const unsigned types[] = {PYGRAPH_TYPE_I1, PYGRAPH_TYPE_I8, PYGRAPH_TYPE_I16,
                                   PYGRAPH_TYPE_I32, PYGRAPH_TYPE_I64, PYGRAPH_TYPE_F32,
                                   PYGRAPH_TYPE_F64, PYGRAPH_TYPE_PTR};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    unsigned bytes = pygraph_eval_bytes(types[t]);
    for (unsigned off = 0; off <= wl.status_bytes; off++) {
      uint64_t got = 0, want = 0;
      int ok = pygraph_eval_field(&wl, status, off, types[t], &got);
      CHECK(ok == (off + bytes <= wl.status_bytes));
      if (!ok)
        continue;
      memcpy(&want, status + off, bytes);        /* little-endian host */
      CHECK(got == pygraph_eval_mask(want, types[t]));
    }
  }
  uint64_t v;
  CHECK(!pygraph_eval_field(&wl, status, 0, PYGRAPH_TYPE_BYTES, &v));
  CHECK(!pygraph_eval_field(&wl, NULL, 0, PYGRAPH_TYPE_I8, &v));
}

/* whole_loop.h's entry points are the shared evaluator. */
static void test_entry_points_are_the_shared_evaluator(void)
{
  static const unsigned types[] = {PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I32};
  static const pygraph_exit_node nodes[] = {
      {PYGRAPH_EXIT_FIELD, PYGRAPH_TYPE_I32, 0, 0, 0},
      {PYGRAPH_EXIT_COUNTER, PYGRAPH_TYPE_I32, PYGRAPH_WL_NONE, 1, 1},
      {PYGRAPH_EXIT_CMP, PYGRAPH_TYPE_I1, PYGRAPH_CMP_I_SLE, 0, 0},
      {PYGRAPH_EXIT_LEAVE, PYGRAPH_TYPE_I1, PYGRAPH_EXIT_AT_END, 0, 0}};
  pygraph_whole_loop wl;
  memset(&wl, 0, sizeof wl);
  wl.n_ops = 2;
  wl.status_bytes = 4;
  wl.n_invariants = 2;
  wl.invariant_types = types;
  wl.n_nodes = 4;
  wl.nodes = nodes;
  uint64_t inv[2] = {0, 0};
  for (int limit = 0; limit < 6; limit++)
    for (uint64_t i = 0; i < 6; i++) {
      struct pygraph_eval_env e = {&wl, (const unsigned char *)&limit, i, inv};
      int shared = pygraph_eval_exit(&e, PYGRAPH_EXIT_AT_END);
      CHECK(shared == pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &limit, i, inv));
      CHECK(shared == ((int)i + 1 >= limit ? 0 : PYGRAPH_EVAL_CONTINUE));
    }
}

int main(void)
{
  test_float_to_int_matches_libm();
  test_nan_compares_match_isnan();
  test_fields_read_as_the_host_holds_them();
  test_entry_points_are_the_shared_evaluator();
  return check_finish();
}
