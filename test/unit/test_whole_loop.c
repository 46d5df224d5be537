/* test_whole_loop.c - whole-loop descriptors read on the CPU
 * (recording/whole_loop.h): exit tests as the pass emits them for the
 * loop forms of test/lit/whole-loop-*.cu, operand values by iteration,
 * and every malformed descriptor refused rather than read past. */
#include "check.h"
#include "recording/whole_loop.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE

struct status {
  int notconv;
  float res;
};

static const unsigned kTypes[] = {PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I32, PYGRAPH_TYPE_F32,
                                  PYGRAPH_TYPE_F64};

/* A descriptor around the given tests: invariant 0 the status address,
 * 1 an i32 (maxit), 2 a float (tol), 3 a double. */
static pygraph_whole_loop loop_of(const pygraph_exit_node *nodes, unsigned n)
{
  pygraph_whole_loop wl;
  memset(&wl, 0, sizeof wl);
  wl.n_ops = 3;
  wl.status_op = 2;
  wl.status_bytes = sizeof(struct status);
  wl.n_invariants = 4;
  wl.invariant_types = kTypes;
  wl.n_nodes = n;
  wl.nodes = nodes;
  return wl;
}

static uint64_t f32_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* do { ... } while (st.notconv && ++it < maxit): leave after the copy when
 * st.notconv == 0 || (1 + i) >= maxit. */
static void test_do_while(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, I32, 0, 0, 0),        NODE(CONST, I32, 0, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), NODE(COUNTER, I32, NONE, 1, 1),
      NODE(INVARIANT, I32, 1, 0, 0),    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0),
      NODE(OR, I1, 0, 0, 0),            NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 8);
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[4] = {0x1000, 5, 0, 0};
  struct status st = {1, 0.0f};
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) ==
        PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 3, inv) ==
        PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 4, inv) == 0); /* ++it == 5 */
  st.notconv = 0;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) == 0);
  /* tests at other positions are not made */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_TOP, &st, 0, inv) == PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 9, inv) == PYGRAPH_EXIT_CONTINUE);
  /* maxit is an i32: only its low 32 bits count, whatever the extension */
  inv[1] = 0xffffffff00000005ull;
  st.notconv = 1;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 4, inv) == 0);
}

/* while (res > tol): leave when !(res > tol), i.e. res ule tol; a NaN
 * residual leaves, as the host's compare does. */
static void test_float_residual(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, F32, 4, 0, 0), NODE(INVARIANT, F32, 2, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_F_ULE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 4);
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[4] = {0x1000, 0, f32_bits(1e-3f), 0};
  struct status st = {0, 0.5f};
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) ==
        PYGRAPH_EXIT_CONTINUE);
  st.res = 1e-3f;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) == 0);
  st.res = nanf("");
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) == 0);
  /* the ordered predicate (as for `while (!(res <= tol))`... inverted) keeps a NaN in */
  static const pygraph_exit_node ordered[] = {
      NODE(FIELD, F32, 4, 0, 0), NODE(INVARIANT, F32, 2, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_F_OLE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
  wl = loop_of(ordered, 4);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) ==
        PYGRAPH_EXIT_CONTINUE);
}

/* (double)st.res > dtol, a counter widened and converted, a bool field. */
static void test_casts(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, F32, 4, 0, 0), NODE(CAST, F64, PYGRAPH_CAST_FPEXT, 0, 0),
      NODE(INVARIANT, F64, 3, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_F_OGT, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0),
      NODE(COUNTER, I32, NONE, 0, 1), NODE(CAST, F32, PYGRAPH_CAST_SITOFP, 0, 0),
      NODE(CONST, F32, 0, 0x40400000 /* 3.0f */, 0), NODE(CMP, I1, PYGRAPH_CMP_F_OGE, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0),
      NODE(FIELD, I8, 0, 0, 0), NODE(CAST, I1, PYGRAPH_CAST_TRUNC, 0, 0),
      NODE(NOT, I1, 0, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 14);
  CHECK(pygraph_whole_loop_check(&wl));
  double dtol = 0.25;
  uint64_t inv[4] = {0x1000, 0, 0, 0};
  memcpy(&inv[3], &dtol, sizeof dtol);
  struct status st = {1, 0.125f};
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == PYGRAPH_EXIT_CONTINUE);
  st.res = 0.5f;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 0);
  st.res = 0.125f;
  st.notconv = 0x100; /* low byte 0: the bool is false, the third test leaves */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 2);
  st.res = 0.5f; /* both tests at the end say leave: the first one made counts */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 0);
  st.res = 0.125f;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_TOP, &st, 2, inv) == PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_TOP, &st, 3, inv) == 1);
}

/* Signedness comes from the predicate; counters wrap at their width. */
static void test_integers(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, I8, 0, 0, 0), NODE(CONST, I8, 0, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_SLT, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0),
      NODE(FIELD, I8, 0, 0, 0), NODE(CONST, I8, 0, -2, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_UGT, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0),
      NODE(COUNTER, I32, 1, 0, 1), NODE(CONST, I32, 0, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_SLT, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 12);
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[4] = {0x1000, 0x7fffffff, 0, 0};
  struct status st = {0xff, 0};  /* -1 as a signed byte, 255 unsigned */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 0);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AFTER_COPY, &st, 0, inv) == 1); /* 255 >u 254 */
  st.notconv = 0x7f;
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_TOP, &st, 0, inv) == PYGRAPH_EXIT_CONTINUE);
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_TOP, &st, 1, inv) == 2); /* INT_MAX + 1 < 0 */
}

/* Affine and rotating operands by iteration. */
static void test_values(void)
{
  static const pygraph_exit_node nodes[] = {NODE(CONST, I1, 0, 1, 0),
                                            NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  static const unsigned types[] = {PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_PTR,
                                   PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I32};
  static const unsigned members[] = {1, 2, 1, 2, 3};
  static const pygraph_loop_value values[] = {
      {0, 0, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
      {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 1, 0},
      {1, 0, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 2, NONE, 3, 2, 0},
      {1, 1, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_PTR, 1, NONE, 0, 16, 4},
      {1, 2, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_I32, NONE, NONE, 0, 1, 2},
      {2, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
      {2, 2, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_PTR, 1, 4, 0, 8, 4}};
  pygraph_whole_loop wl = loop_of(nodes, 2);
  wl.n_invariants = 5;
  wl.invariant_types = types;
  wl.n_values = 7;
  wl.values = values;
  wl.n_rotation_members = 5;
  wl.rotation_members = members;
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[5] = {0x1000, 0xa000, 0xb000, 0xc000, 7};
  uint64_t v = 0;
  CHECK(pygraph_loop_value_at(&wl, 0, 0, inv, &v) && v == 0xa000);
  CHECK(pygraph_loop_value_at(&wl, 0, 1, inv, &v) && v == 0xb000);
  CHECK(pygraph_loop_value_at(&wl, 1, 0, inv, &v) && v == 0xb000);
  CHECK(pygraph_loop_value_at(&wl, 1, 7, inv, &v) && v == 0xa000);
  /* triple buffering: members 2..4 (invariants 1, 2, 3), from position 2 */
  CHECK(pygraph_loop_value_at(&wl, 2, 0, inv, &v) && v == 0xc000);
  CHECK(pygraph_loop_value_at(&wl, 2, 1, inv, &v) && v == 0xa000);
  CHECK(pygraph_loop_value_at(&wl, 2, 2, inv, &v) && v == 0xb000);
  CHECK(pygraph_loop_value_at(&wl, 2, 3, inv, &v) && v == 0xc000);
  CHECK(pygraph_loop_value_at(&wl, 3, 3, inv, &v) && v == 0xa000 + 16 + 12);
  CHECK(pygraph_loop_value_at(&wl, 4, 3, inv, &v) && v == 7);
  CHECK(pygraph_loop_value_at(&wl, 4, 0x80000000ull, inv, &v) && v == 1); /* wraps at 32 bits */
  CHECK(!pygraph_loop_value_at(&wl, 5, 0, inv, &v)); /* invariant: the program's own value */
  /* a + i * n floats: the step is 4 bytes times invariant 4 (n = 7) */
  CHECK(pygraph_loop_value_at(&wl, 6, 3, inv, &v) && v == 0xa000 + 8 + 4 * 7 * 3);
  CHECK(!pygraph_loop_value_at(&wl, 7, 0, inv, &v)); /* no such operand */
  /* a rotation reaching past the members is malformed */
  static const pygraph_loop_value past[] = {
      {0, 0, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 4, NONE, 2, 0, 0}};
  wl.values = past;
  wl.n_values = 1;
  CHECK(!pygraph_whole_loop_check(&wl));
  CHECK(!pygraph_loop_value_at(&wl, 0, 0, inv, &v));
  /* so is a stride by an invariant that does not exist */
  static const pygraph_loop_value stride[] = {
      {0, 0, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_PTR, NONE, 9, 0, 0, 1}};
  wl.values = stride;
  CHECK(!pygraph_whole_loop_check(&wl));
  CHECK(!pygraph_loop_value_at(&wl, 0, 0, inv, &v));
}

/* Each way a descriptor can be malformed: refused by the check and by the
 * evaluator, never read past. */
static void expect_malformed(const pygraph_exit_node *nodes, unsigned n, const char *what)
{
  pygraph_whole_loop wl = loop_of(nodes, n);
  uint64_t inv[4] = {0x1000, 1, 0, 0};
  struct status st = {1, 1.0f};
  int check = pygraph_whole_loop_check(&wl);
  int eval = pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv);
  if (check || eval != PYGRAPH_EXIT_MALFORMED)
    fprintf(stderr, "not refused: %s\n", what);
  CHECK(!check);
  CHECK(eval == PYGRAPH_EXIT_MALFORMED);
}

#define LEAVE_END NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)

static void test_malformed(void)
{
  const pygraph_exit_node underflow[] = {NODE(CONST, I32, 0, 0, 0),
                                         NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END};
  expect_malformed(underflow, 3, "stack underflow");
  const pygraph_exit_node mixed[] = {NODE(FIELD, F32, 4, 0, 0), NODE(FIELD, I32, 0, 0, 0),
                                     NODE(CMP, I1, PYGRAPH_CMP_F_OLT, 0, 0), LEAVE_END};
  expect_malformed(mixed, 4, "compare of two types");
  const pygraph_exit_node int_on_float[] = {NODE(FIELD, F32, 4, 0, 0), NODE(FIELD, F32, 4, 0, 0),
                                            NODE(CMP, I1, PYGRAPH_CMP_I_SLT, 0, 0), LEAVE_END};
  expect_malformed(int_on_float, 4, "integer predicate on floats");
  const pygraph_exit_node past[] = {NODE(FIELD, I64, 4, 0, 0), NODE(CONST, I64, 0, 0, 0),
                                    NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END};
  expect_malformed(past, 4, "field past the status");
  const pygraph_exit_node far[] = {NODE(FIELD, I8, 0xfffffff0u, 0, 0), NODE(CAST, I1, PYGRAPH_CAST_TRUNC, 0, 0), LEAVE_END};
  expect_malformed(far, 3, "field offset wrapping");
  const pygraph_exit_node inv_index[] = {NODE(INVARIANT, I32, 9, 0, 0), NODE(CONST, I32, 0, 0, 0),
                                         NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END};
  expect_malformed(inv_index, 4, "invariant out of range");
  const pygraph_exit_node inv_type[] = {NODE(INVARIANT, I64, 1, 0, 0), NODE(CONST, I64, 0, 0, 0),
                                        NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END};
  expect_malformed(inv_type, 4, "invariant of another type");
  const pygraph_exit_node unended[] = {NODE(CONST, I1, 0, 1, 0), LEAVE_END,
                                       NODE(CONST, I1, 0, 1, 0)};
  expect_malformed(unended, 3, "a test without LEAVE");
  const pygraph_exit_node two_left[] = {NODE(CONST, I1, 0, 1, 0), NODE(CONST, I1, 0, 1, 0),
                                        LEAVE_END};
  expect_malformed(two_left, 3, "LEAVE with two values");
  const pygraph_exit_node not_bool[] = {NODE(CONST, I32, 0, 1, 0), LEAVE_END};
  expect_malformed(not_bool, 2, "LEAVE of an i32");
  const pygraph_exit_node bad_where[] = {NODE(CONST, I1, 0, 1, 0),
                                         NODE(LEAVE, I1, 7, 0, 0)};
  expect_malformed(bad_where, 2, "unknown position");
  const pygraph_exit_node bad_op[] = {NODE(CONST, I1, 0, 1, 0), {42, PYGRAPH_TYPE_I1, 0, 0, 0},
                                      LEAVE_END};
  expect_malformed(bad_op, 3, "unknown operation");
  const pygraph_exit_node bad_cast[] = {NODE(FIELD, F32, 4, 0, 0),
                                        NODE(CAST, I1, PYGRAPH_CAST_TRUNC, 0, 0), LEAVE_END};
  expect_malformed(bad_cast, 3, "truncation of a float");
  pygraph_exit_node deep[PYGRAPH_EXIT_MAX_DEPTH + 2];
  for (unsigned k = 0; k <= PYGRAPH_EXIT_MAX_DEPTH; ++k)
    deep[k] = (pygraph_exit_node)NODE(CONST, I1, 0, 1, 0);
  deep[PYGRAPH_EXIT_MAX_DEPTH + 1] = (pygraph_exit_node)LEAVE_END;
  expect_malformed(deep, PYGRAPH_EXIT_MAX_DEPTH + 2, "stack deeper than the bound");
  pygraph_exit_node many[PYGRAPH_EXIT_MAX_NODES + 1];
  for (unsigned k = 0; k < PYGRAPH_EXIT_MAX_NODES + 1; k += 2) {
    many[k] = (pygraph_exit_node)NODE(CONST, I1, 0, 0, 0);
    many[k + 1 < PYGRAPH_EXIT_MAX_NODES + 1 ? k + 1 : k] = (pygraph_exit_node)LEAVE_END;
  }
  expect_malformed(many, PYGRAPH_EXIT_MAX_NODES + 1, "more nodes than the bound");
  expect_malformed(many, 0, "no test");
  /* a status larger than the bound, or a NULL status with a field */
  static const pygraph_exit_node ok[] = {NODE(FIELD, I32, 0, 0, 0),
                                         NODE(CAST, I1, PYGRAPH_CAST_TRUNC, 0, 0), LEAVE_END};
  pygraph_whole_loop wl = loop_of(ok, 3);
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[4] = {0};
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, NULL, 0, inv) == PYGRAPH_EXIT_MALFORMED);
  wl.status_bytes = PYGRAPH_WL_MAX_STATUS_BYTES + 1;
  CHECK(!pygraph_whole_loop_check(&wl));
  wl = loop_of(ok, 3);
  wl.status_dest = 4; /* no such invariant */
  CHECK(!pygraph_whole_loop_check(&wl));
}

/* Conversions out of range are 0 (LLVM: poison), never undefined C. */
static void test_conversions(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, F32, 4, 0, 0), NODE(CAST, I32, PYGRAPH_CAST_FPTOSI, 0, 0),
      NODE(CONST, I32, 0, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END,
      NODE(FIELD, F32, 4, 0, 0), NODE(CAST, I8, PYGRAPH_CAST_FPTOUI, 0, 0),
      NODE(CONST, I8, 0, 200, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), LEAVE_END};
  pygraph_whole_loop wl = loop_of(nodes, 10);
  CHECK(pygraph_whole_loop_check(&wl));
  uint64_t inv[4] = {0};
  struct status st = {0, 3e9f};  /* beyond INT_MAX: 0 */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 0);
  st.res = nanf("");
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 0);
  st.res = -7.9f;  /* truncates to -7 */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == PYGRAPH_EXIT_CONTINUE);
  st.res = 200.5f; /* an unsigned byte 200 */
  CHECK(pygraph_exit_test_eval(&wl, PYGRAPH_EXIT_AT_END, &st, 0, inv) == 1);
}

int main(void)
{
  test_do_while();
  test_float_residual();
  test_casts();
  test_integers();
  test_values();
  test_malformed();
  test_conversions();
  return check_finish();
}
