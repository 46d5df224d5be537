/* test_while_clauses.c - the condition kernel's compiled form
 * (graphs/while_clauses.h) against the generic step (while_condition.h):
 * random loops (exit tests of compares, conversions, AND/OR/NOT over
 * every value type at every position, slots of every evolution) stepped
 * both ways from the same state over random statuses and invariants must
 * answer and write the same, bit for bit; what the form refuses (and that
 * such a loop keeps the generic step) case by case; the compiled shape of
 * a convergence test; the block holds the form and uploads it once. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_backend.h"
#include "graphs/while_block.h"
#include "graphs/while_clauses.h"

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE
#define STATUS_BYTES 40u
#define ARGS_BYTES 64u

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static unsigned pick(unsigned n)
{
  return (unsigned)(next_random() % n);
}

/* Invariants: their types; 6 and 7 (and 1, 0) are rotation members. */
static const unsigned kInvTypes[] = {PYGRAPH_TYPE_I32, PYGRAPH_TYPE_I64, PYGRAPH_TYPE_F32,
                                     PYGRAPH_TYPE_F64, PYGRAPH_TYPE_I16, PYGRAPH_TYPE_I1,
                                     PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I8};
#define N_INV (sizeof kInvTypes / sizeof kInvTypes[0])
static const unsigned kMembers[] = {6, 7, 1, 0, 8};

/* A value worth comparing: small integers, all-ones, signs, halves, or
 * random bits (NaNs among them). */
static uint64_t interesting_bits(unsigned type)
{
  switch (pick(5)) {
  case 0: return pick(4);
  case 1: return ~UINT64_C(0);
  case 2: return next_random();
  default:
    if (type == PYGRAPH_TYPE_F32) {
      float f = (float)((int)pick(9) - 4) * 0.5f;
      uint32_t u;
      memcpy(&u, &f, sizeof u);
      return u;
    }
    if (type == PYGRAPH_TYPE_F64) {
      double d = (double)((int)pick(9) - 4) * 0.5;
      uint64_t u;
      memcpy(&u, &d, sizeof u);
      return u;
    }
    return (uint64_t)(int64_t)((int)pick(9) - 4);
  }
}

struct gen {
  pygraph_exit_node nodes[PYGRAPH_EXIT_MAX_NODES];
  unsigned n;
  int overflow;
};

static void emit(struct gen *g, unsigned op, unsigned type, unsigned arg, long long imm,
                 long long step)
{
  if (g->n == PYGRAPH_EXIT_MAX_NODES) {
    g->overflow = 1;
    return;
  }
  g->nodes[g->n++] = (pygraph_exit_node){op, type, arg, imm, step};
}

static int is_int(unsigned t)
{
  return t <= PYGRAPH_TYPE_I64 || t == PYGRAPH_TYPE_PTR;
}

/* A leaf of type t. */
static void gen_leaf(struct gen *g, unsigned t)
{
  for (;;) {
    switch (pick(4)) {
    case 0: {
      unsigned bytes = pygraph_eval_bytes(t);
      emit(g, PYGRAPH_EXIT_FIELD, t, pick(STATUS_BYTES - bytes + 1), 0, 0);
      return;
    }
    case 1:
      emit(g, PYGRAPH_EXIT_CONST, t, 0, (long long)interesting_bits(t), 0);
      return;
    case 2:
      for (unsigned k = 0; k < N_INV; k++)
        if (kInvTypes[(k + 3) % N_INV] == t) {
          emit(g, PYGRAPH_EXIT_INVARIANT, t, (k + 3) % N_INV, 0, 0);
          return;
        }
      break;
    default:
      if (!is_int(t) || t == PYGRAPH_TYPE_I1)
        break;
      emit(g, PYGRAPH_EXIT_COUNTER, t, pick(2) ? NONE : pick(N_INV), (long long)pick(5) - 2,
           (long long)pick(4) - 1);
      return;
    }
  }
}

/* A value of type t: a leaf, or a leaf converted to t. */
static void gen_operand(struct gen *g, unsigned t)
{
  if (pick(4)) {
    gen_leaf(g, t);
    return;
  }
  for (;;) {
    unsigned from = pick(PYGRAPH_TYPE_PTR + 1), kind = pick(PYGRAPH_CAST_FPTOUI + 1);
    struct pygraph_eval_slot x = {0, from};
    uint64_t out;
    if (pygraph_eval_cast(kind, x, t, &out)) {
      gen_leaf(g, from);
      emit(g, PYGRAPH_EXIT_CAST, t, kind, 0, 0);
      return;
    }
  }
}

/* An I1 value, `depth` levels of AND/OR/NOT at most; now and then one the
 * compiled form refuses (a compare of compares, a compare's converted
 * answer). */
static void gen_bool(struct gen *g, unsigned depth)
{
  unsigned r = pick(20);
  if (depth && r < 7) {
    gen_bool(g, depth - 1);
    gen_bool(g, depth - 1);
    emit(g, r < 4 ? PYGRAPH_EXIT_AND : PYGRAPH_EXIT_OR, PYGRAPH_TYPE_I1, 0, 0, 0);
  } else if (depth && r < 9) {
    gen_bool(g, depth - 1);
    emit(g, PYGRAPH_EXIT_NOT, PYGRAPH_TYPE_I1, 0, 0, 0);
  } else if (r < 11) {
    gen_operand(g, PYGRAPH_TYPE_I1);
  } else if (r == 11 && depth) {       /* refused: a compare of compares */
    gen_bool(g, 0);
    gen_bool(g, 0);
    emit(g, PYGRAPH_EXIT_CMP, PYGRAPH_TYPE_I1, PYGRAPH_CMP_I_NE, 0, 0);
  } else if (r == 12 && depth) {       /* refused: a compare's answer converted */
    gen_bool(g, 0);
    emit(g, PYGRAPH_EXIT_CAST, PYGRAPH_TYPE_I32, PYGRAPH_CAST_ZEXT, 0, 0);
    emit(g, PYGRAPH_EXIT_CONST, PYGRAPH_TYPE_I32, 0, 0, 0);
    emit(g, PYGRAPH_EXIT_CMP, PYGRAPH_TYPE_I1, PYGRAPH_CMP_I_EQ, 0, 0);
  } else {
    unsigned t = pick(PYGRAPH_TYPE_PTR + 1);
    gen_operand(g, t);
    gen_operand(g, t);
    unsigned pred = is_int(t) ? PYGRAPH_CMP_I_EQ + pick(10) : pick(16);
    emit(g, PYGRAPH_EXIT_CMP, PYGRAPH_TYPE_I1, pred, 0, 0);
  }
}

/* A random loop: 1 to 4 tests at random positions, 0 to 4 slots, and
 * after them the status copy's source as a ping-pong between the buffers
 * invariants 6 and 7 point at (folded with EVOLVING_SOURCE only). */
struct random_loop {
  struct gen g;
  pygraph_loop_value values[5];
  struct pygraph_while_slot slots[4];
  size_t n_slots;
  pygraph_whole_loop wl;
};

static void random_loop(struct random_loop *rl)
{
  memset(rl, 0, sizeof *rl);
  unsigned tests = 1 + pick(4);
  for (unsigned k = 0; k < tests; k++) {
    gen_bool(&rl->g, pick(4));
    emit(&rl->g, PYGRAPH_EXIT_LEAVE, PYGRAPH_TYPE_I1, pick(3), 0, 0);
  }
  rl->n_slots = pick(5);
  for (unsigned k = 0; k < rl->n_slots; k++) {
    pygraph_loop_value *v = &rl->values[k];
    static const unsigned types[] = {PYGRAPH_TYPE_I32, PYGRAPH_TYPE_I64, PYGRAPH_TYPE_PTR,
                                     PYGRAPH_TYPE_I16};
    *v = (pygraph_loop_value){k, 0, PYGRAPH_EVOLVE_AFFINE, types[pick(4)], NONE, NONE, 0, 0, 0};
    if (pick(2)) {
      v->evolution = PYGRAPH_EVOLVE_ROTATION;
      v->count = 1 + pick(5);          /* 5 members: refused */
      v->base = v->count == 5 ? 0 : pick(5 - v->count + 1);
      v->a = pick(v->count);
    } else {
      v->base = pick(2) ? NONE : pick(2);          /* I32 or I64 invariants */
      v->step_by = pick(2) ? NONE : pick(2);
      v->a = (long long)interesting_bits(PYGRAPH_TYPE_I64);
      v->b = (long long)pick(7) - 3;
    }
    static const unsigned bytes[] = {1, 2, 4, 8};
    rl->slots[k] = (struct pygraph_while_slot){8 * k + pick(2) * 4, k, bytes[pick(4)]};
    if (rl->slots[k].offset % 8 == 4 && rl->slots[k].bytes == 8)
      rl->slots[k].bytes = 4;
  }
  pygraph_whole_loop *wl = &rl->wl;
  wl->n_ops = 4;
  wl->status_op = 0;
  wl->status_bytes = STATUS_BYTES;
  wl->n_invariants = N_INV;
  wl->invariant_types = kInvTypes;
  wl->n_nodes = rl->g.n;
  wl->nodes = rl->g.nodes;
  wl->n_values = (unsigned)rl->n_slots;
  wl->values = rl->values;
  wl->n_rotation_members = sizeof kMembers / sizeof kMembers[0];
  wl->rotation_members = kMembers;
  rl->values[rl->n_slots] = (pygraph_loop_value){
      0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, pick(2), 0};
  wl->n_values = (unsigned)rl->n_slots + 1;
}

/* A loop of the random ones' shape (status, invariants, rotation members)
 * with the exit-test nodes given. */
static void loop_with(struct random_loop *rl, const pygraph_exit_node *nodes, unsigned n)
{
  random_loop(rl);
  rl->wl.nodes = nodes;
  rl->wl.n_nodes = n;
}

static void random_bytes(unsigned char *p, size_t n)
{
  for (size_t k = 0; k < n; k++)
    p[k] = (unsigned char)(pick(3) ? pick(3) - 1 : next_random());
}

/* Where the body's status copy puts the status: a copy node into the
 * state's status, or folded into the kernels from a fixed source or from
 * the ping-pong of the two buffers (random_loop). */
enum fold { COPY_NODE, FIXED_SOURCE, EVOLVING_SOURCE };

/* The buffer the copy reads in iteration `it` of rl (its folds' source). */
static const unsigned char *source_of(const struct random_loop *rl, enum fold fold,
                                      unsigned char (*bufs)[STATUS_BYTES], uint64_t it)
{
  if (fold != EVOLVING_SOURCE)
    return bufs[0];                    /* a copy node: the test writes the state's status */
  return bufs[(rl->values[rl->n_slots].a + it) % 2];
}

static void folds(struct pygraph_while_block *b, const struct random_loop *rl, enum fold fold,
                  unsigned char (*bufs)[STATUS_BYTES])
{
  if (fold == FIXED_SOURCE)
    CHECK(pygraph_while_block_fold_status(b, &rl->wl, bufs[0], NONE));
  if (fold == EVOLVING_SOURCE)
    CHECK(pygraph_while_block_fold_status(b, &rl->wl, NULL, (unsigned)rl->n_slots));
}

/* One trial: the loop stepped both ways from the same random starts; where
 * the copy is folded, the status each kernel copied is checked against
 * the buffer of its iteration. */
static int trial(struct random_loop *rl, enum fold fold, int split, unsigned *steps,
                 unsigned *left)
{
  unsigned char args_g[ARGS_BYTES] = {0}, args_c[ARGS_BYTES] = {0};
  unsigned char bufs[2][STATUS_BYTES];
  struct pygraph_while_block bg, bc;
  const char *step;
  CHECK(pygraph_while_block_create(&bg, &fake_backend, &rl->wl, rl->slots, rl->n_slots, args_g,
                                   ARGS_BYTES, &step) == cudaSuccess);
  CHECK(pygraph_while_block_create(&bc, &fake_backend, &rl->wl, rl->slots, rl->n_slots, args_c,
                                   ARGS_BYTES, &step) == cudaSuccess);
  const struct pygraph_while_clauses *c = pygraph_while_block_clauses(&bc);
  int compiled = c != NULL;
  CHECK((bc.clauses_refusal == NULL) == compiled && (bg.clauses_refusal == NULL) == compiled);
  for (unsigned run = 0; c && run < 3; run++) {
    uint64_t inv[N_INV];
    unsigned char status[STATUS_BYTES];
    for (unsigned k = 0; k < N_INV; k++)
      inv[k] = interesting_bits(kInvTypes[k]);
    if (fold == EVOLVING_SOURCE) {
      inv[6] = (uintptr_t)bufs[0];
      inv[7] = (uintptr_t)bufs[1];
    }
    random_bytes(status, sizeof status);
    uint64_t first = pick(4), cap = pick(2) ? 0 : first + 1 + pick(8);
    struct pygraph_while_block *both[2] = {&bg, &bc};
    for (int k = 0; k < 2; k++) {
      folds(both[k], rl, fold, bufs);
      if (split)
        pygraph_while_block_split_after_copy(both[k]);
      CHECK(pygraph_while_block_start(both[k], inv, status, first, cap));
      CHECK(pygraph_while_block_upload(both[k], &fake_backend, NULL) == cudaSuccess);
    }
    struct pygraph_while_state *sg = bg.device, *sc = bc.device;
    for (unsigned k = 0; k < 12; k++) {
      random_bytes(bufs[0], sizeof bufs);   /* what this iteration's ops left */
      if (fold == COPY_NODE) {
        memcpy(sg->status, bufs[0], STATUS_BYTES);
        memcpy(sc->status, bufs[0], STATUS_BYTES);
      }
      unsigned char copied[STATUS_BYTES];  /* what the host must see if the loop ends here */
      memcpy(copied, source_of(rl, fold, bufs, sg->iteration), STATUS_BYTES);
      unsigned more_g = 1, more_c = 1;
      if (split) {                       /* the first kernel, then the step */
        more_g = pygraph_while_test_after_copy(sg);
        more_c = pygraph_while_clauses_after_copy(sc, c);
        CHECK(more_g == more_c && sg->iteration == sc->iteration &&
              sg->outcome == sc->outcome && sg->exit_test == sc->exit_test);
        CHECK(!memcmp(sg->status, copied, STATUS_BYTES) &&
              !memcmp(sc->status, copied, STATUS_BYTES));
        random_bytes(bufs[0], sizeof bufs);   /* the ops after the copy may write them */
      }
      if (more_g) {
        more_g = pygraph_while_step(sg);
        more_c = pygraph_while_clauses_step(sc, c);
      } else {
        more_g = pygraph_while_step(sg);   /* ended: both steps do nothing */
        more_c = pygraph_while_clauses_step(sc, c);
      }
      ++*steps;
      int same = more_g == more_c && sg->iteration == sc->iteration &&
                 sg->outcome == sc->outcome && sg->exit_test == sc->exit_test &&
                 sg->exit_where == sc->exit_where && !memcmp(args_g, args_c, ARGS_BYTES) &&
                 (more_g || !memcmp(sg->status, sc->status, STATUS_BYTES));
      CHECK(same);
      CHECK(sg->outcome != PYGRAPH_WHILE_MALFORMED);
      CHECK(more_g || !memcmp(sg->status, copied, STATUS_BYTES));   /* the host's bytes */
      if (!same)
        run = 3;                         /* one difference is enough: the next loop */
      if (!more_g || !same) {
        *left += sg->outcome == PYGRAPH_WHILE_LEFT;
        break;
      }
    }
  }
  pygraph_while_block_free(&bg, &fake_backend, NULL);
  pygraph_while_block_free(&bc, &fake_backend, NULL);
  return compiled;
}

/* Random loops, both ways: the same answers and writes; most of them
 * compile, and the ones that do not are refused for what they hold. */
static void test_random_loops_step_alike(void)
{
  fake_reset();
  unsigned compiled = 0, loops = 0, steps = 0, left = 0;
  for (unsigned k = 0; k < 3000; k++) {
    struct random_loop rl;
    random_loop(&rl);
    if (rl.g.overflow)
      continue;
    struct pygraph_while_clauses c;
    const char *why = pygraph_while_clauses_compile(&rl.wl, rl.slots, rl.n_slots, &c);
    if (why && !strncmp(why, "malformed", 9))
      continue;                        /* deeper than the evaluation stack */
    CHECK(!why || !strcmp(why, "a compare of compares") ||
          !strcmp(why, "a conversion of a compare or of a conversion") ||
          !strcmp(why, "an exit test of more than 6 compares") ||
          !strcmp(why, "a rotation of more than 4 members"));
    loops++;
    compiled += (unsigned)trial(&rl, (enum fold)(k % 3), k % 5 == 2, &steps, &left);
  }
  fprintf(stderr, "  %u random loops, %u compiled, %u steps, %u left by a test\n", loops,
          compiled, steps, left);
  CHECK(loops > 2900 && compiled > loops / 2 && compiled < loops);
  CHECK(steps > 10000 && left > 1000);
  CHECK(fake_live_allocs == 0);
}

/* while_vs_pygraph's test, `st.flag != 0 || (1 + i) >= maxit` at the end:
 * two atoms, one test whose table is their OR, the counter's iteration the
 * one that ran. */
static void test_convergence_shape(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, I32, 12, 0, 0),         NODE(CONST, I32, 0, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_NE, 0, 0), NODE(COUNTER, I32, NONE, 1, 1),
      NODE(INVARIANT, I32, 0, 0, 0),      NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0),
      NODE(OR, I1, 0, 0, 0),              NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  struct random_loop rl;
  loop_with(&rl, nodes, sizeof nodes / sizeof nodes[0]);
  struct pygraph_while_clauses c;
  CHECK(pygraph_while_clauses_compile(&rl.wl, NULL, 0, &c) == NULL);
  CHECK(c.n_atoms == 2 && c.n_tests == 1 && c.n_slots == 0 && c.status_bytes == STATUS_BYTES);
  CHECK(c.tests[0].first == 0 && c.tests[0].n_atoms == 2 && c.tests[0].number == 0 &&
        c.tests[0].where == PYGRAPH_EXIT_AT_END && c.tests[0].truth == 0xe);
  CHECK(c.atoms[0].pred == PYGRAPH_CMP_I_NE && c.atoms[0].a.leaf == PYGRAPH_EXIT_FIELD &&
        c.atoms[0].a.arg == 12 && c.atoms[0].b.leaf == PYGRAPH_EXIT_CONST &&
        c.atoms[0].a.cast == PYGRAPH_CLAUSE_NO_CAST && !c.atoms[0].at_top);
  CHECK(c.atoms[1].pred == PYGRAPH_CMP_I_SGE && c.atoms[1].a.leaf == PYGRAPH_EXIT_COUNTER &&
        c.atoms[1].b.leaf == PYGRAPH_EXIT_INVARIANT);
}

/* Tests are ordered as the generic step makes them (after the copy, at the
 * end, at the top), keeping their descriptor numbers; an atom at the top
 * reads the next iteration's counter. */
static void test_step_order(void)
{
  static const pygraph_exit_node nodes[] = {
      NODE(COUNTER, I32, NONE, 0, 1), NODE(CONST, I32, 0, 3, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0),
      NODE(FIELD, I1, 0, 0, 0),           NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0),
      NODE(FIELD, I8, 1, 0, 0),           NODE(CAST, I1, PYGRAPH_CAST_TRUNC, 0, 0),
      NODE(NOT, I1, 0, 0, 0),             NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
  struct random_loop rl;
  loop_with(&rl, nodes, sizeof nodes / sizeof nodes[0]);
  struct pygraph_while_clauses c;
  CHECK(pygraph_while_clauses_compile(&rl.wl, NULL, 0, &c) == NULL);
  CHECK(c.n_tests == 3 && c.n_atoms == 3);
  CHECK(c.tests[0].number == 2 && c.tests[0].where == PYGRAPH_EXIT_AFTER_COPY);
  CHECK(c.tests[1].number == 1 && c.tests[1].where == PYGRAPH_EXIT_AT_END);
  CHECK(c.tests[2].number == 0 && c.tests[2].where == PYGRAPH_EXIT_AT_TOP);
  CHECK(c.atoms[0].pred == PYGRAPH_CLAUSE_TRUTH && c.atoms[0].a.cast == PYGRAPH_CAST_TRUNC &&
        c.tests[0].truth == 0x1);   /* NOT of its one atom */
  CHECK(c.atoms[1].pred == PYGRAPH_CLAUSE_TRUTH && c.atoms[1].a.leaf_type == PYGRAPH_TYPE_I1);
  CHECK(c.atoms[2].at_top && !c.atoms[0].at_top && !c.atoms[1].at_top);
}

/* What the form refuses, and that such a loop's block has no form. */
static void test_refusals(void)
{
  fake_reset();
  /* seven compares in one test */
  pygraph_exit_node many[4 * 7 + 1];
  unsigned n = 0;
  for (unsigned k = 0; k < 7; k++) {
    many[n++] = (pygraph_exit_node)NODE(FIELD, I32, 0, 0, 0);
    many[n++] = (pygraph_exit_node)NODE(CONST, I32, 0, (long long)k, 0);
    many[n++] = (pygraph_exit_node)NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0);
    if (k)
      many[n++] = (pygraph_exit_node)NODE(OR, I1, 0, 0, 0);
  }
  many[n++] = (pygraph_exit_node)NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0);
  struct random_loop rl;
  loop_with(&rl, many, n);
  struct pygraph_while_clauses c;
  const char *why = pygraph_while_clauses_compile(&rl.wl, NULL, 0, &c);
  CHECK(why && !strcmp(why, "an exit test of more than 6 compares"));
  rl.wl.n_nodes = 3 + 5 * 4 + 1;     /* six compares: compiled */
  many[3 + 5 * 4] = (pygraph_exit_node)NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0);
  CHECK(pygraph_while_clauses_compile(&rl.wl, NULL, 0, &c) == NULL && c.n_atoms == 6);
  /* a rotation of five members; overlapping slots; too many slots */
  static const pygraph_exit_node one[] = {NODE(FIELD, I1, 0, 0, 0),
                                          NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  rl.wl.nodes = one;
  rl.wl.n_nodes = 2;
  pygraph_loop_value rot = {0, 0, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 5, 1, 0};
  rl.wl.values = &rot;
  rl.wl.n_values = 1;
  struct pygraph_while_slot slots[33];
  for (unsigned k = 0; k < 33; k++)
    slots[k] = (struct pygraph_while_slot){8 * k, 0, 8};
  why = pygraph_while_clauses_compile(&rl.wl, slots, 1, &c);
  CHECK(why && !strcmp(why, "a rotation of more than 4 members"));
  rot.count = 4;
  CHECK(pygraph_while_clauses_compile(&rl.wl, slots, 1, &c) == NULL && c.n_slots == 1 &&
        c.slots[0].members[3] == kMembers[3]);
  why = pygraph_while_clauses_compile(&rl.wl, slots, 33, &c);
  CHECK(why && !strcmp(why, "more than 32 argument slots"));
  slots[1].offset = 4;
  why = pygraph_while_clauses_compile(&rl.wl, slots, 2, &c);
  CHECK(why && !strcmp(why, "overlapping argument slots"));
  /* such a loop's block: no form, the generic kernel steps it */
  unsigned char args[16];
  struct pygraph_while_block b;
  const char *step;
  CHECK(pygraph_while_block_create(&b, &fake_backend, &rl.wl, slots, 2, args, sizeof args,
                                   &step) == cudaSuccess);
  CHECK(pygraph_while_block_clauses(&b) == NULL && b.clauses_refusal != NULL &&
        b.size == b.clauses_at);
  pygraph_while_block_free(&b, &fake_backend, NULL);
  CHECK(fake_live_allocs == 0);
}

/* The block holds the form after everything the generic kernels stage,
 * and uploads it with the first launch's image only. */
static void test_block_holds_the_form(void)
{
  fake_reset();
  static const pygraph_exit_node one[] = {NODE(FIELD, I1, 0, 0, 0),
                                          NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  struct random_loop rl;
  loop_with(&rl, one, 2);
  struct pygraph_while_block b;
  const char *step;
  CHECK(pygraph_while_block_create(&b, &fake_backend, &rl.wl, NULL, 0, NULL, 0, &step) ==
        cudaSuccess);
  const struct pygraph_while_clauses *c = pygraph_while_block_clauses(&b);
  CHECK(c != NULL && (const unsigned char *)c == (const unsigned char *)b.device + b.clauses_at);
  CHECK(b.size == b.clauses_at + ((sizeof *c + 7) & ~(size_t)7));
  const struct pygraph_while_state *image = pygraph_while_block_state(&b);
  CHECK(image->block_bytes == b.clauses_at);
  uint64_t inv[N_INV] = {0};
  unsigned char status[STATUS_BYTES] = {0};
  CHECK(pygraph_while_block_start(&b, inv, status, 0, 0));
  CHECK(pygraph_while_block_upload(&b, &fake_backend, NULL) == cudaSuccess);
  CHECK(c->n_atoms == 1 && c->n_tests == 1);
  memset((void *)(uintptr_t)c, 0xee, sizeof *c);   /* a later upload leaves it alone */
  CHECK(pygraph_while_block_upload(&b, &fake_backend, NULL) == cudaSuccess);
  CHECK(c->n_atoms == 0xeeeeeeeeu);
  pygraph_while_block_free(&b, &fake_backend, NULL);
  CHECK(fake_live_allocs == 0);
}

int main(void)
{
  test_convergence_shape();
  test_step_order();
  test_refusals();
  test_block_holds_the_form();
  test_random_loops_step_alike();
  return check_finish();
}
