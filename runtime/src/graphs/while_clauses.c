/* while_clauses.c - the host's compiler of a whole loop into the condition
 * kernel's fast form (while_clauses.h).
 *
 * Each test is evaluated symbolically, node by node, as
 * pygraph_eval_test would evaluate it: a stack of items, each an operand
 * (a leaf, maybe converted once) or a boolean held as its truth table over
 * the test's atoms.  A compare of two operands, or an I1 operand where a
 * boolean is needed, becomes an atom; AND, OR and NOT combine truth
 * tables.  Every check the generic step makes at run time is made here on
 * the node's types with exit_eval.h's own functions (their answer does not
 * depend on the values), so a loop compiles only where the generic step
 * could never answer MALFORMED. */
#include "graphs/while_clauses.h"

#include <string.h>

/* Atom j's truth table: bit k set when bit j of k is. */
static const uint64_t atom_tables[PYGRAPH_CLAUSE_MAX_TEST_ATOMS] = {
    UINT64_C(0xAAAAAAAAAAAAAAAA), UINT64_C(0xCCCCCCCCCCCCCCCC), UINT64_C(0xF0F0F0F0F0F0F0F0),
    UINT64_C(0xFF00FF00FF00FF00), UINT64_C(0xFFFF0000FFFF0000), UINT64_C(0xFFFFFFFF00000000)};

struct item {
  int is_bool;
  uint64_t table;                        /* is_bool: over the test's atoms */
  struct pygraph_clause_operand operand; /* otherwise */
};

/* One test being compiled: its stack and the atoms it made. */
struct test_build {
  struct item stack[PYGRAPH_EXIT_MAX_DEPTH];
  unsigned depth;
  struct pygraph_while_clauses *c;
  struct pygraph_clause_test *test;
  uint32_t at_top;
};

/* Leaf n as an operand, checked as pygraph_eval_leaf checks it (a
 * condition block always has a status and invariants). */
static const char *leaf(const pygraph_whole_loop *wl, const pygraph_exit_node *n,
                        struct item *out)
{
  if (!pygraph_eval_leaf_ok(wl, n, 1, 1))
    return "malformed leaf";
  memset(out, 0, sizeof *out);
  out->operand.imm = n->imm;
  out->operand.step = n->step;
  out->operand.arg = n->arg;
  out->operand.leaf = (uint8_t)n->op;
  out->operand.leaf_type = (uint8_t)n->type;
  out->operand.cast = PYGRAPH_CLAUSE_NO_CAST;
  out->operand.type = (uint8_t)n->type;
  return NULL;
}

/* A new atom of the test (pred over a and b, or a's truth); *table its
 * truth table. */
static const char *new_atom(struct test_build *tb, const struct pygraph_clause_operand *a,
                            const struct pygraph_clause_operand *b, uint32_t pred,
                            uint64_t *table)
{
  struct pygraph_while_clauses *c = tb->c;
  if (tb->test->n_atoms == PYGRAPH_CLAUSE_MAX_TEST_ATOMS)
    return "an exit test of more than 6 compares";
  if (c->n_atoms == PYGRAPH_CLAUSE_LANES)
    return "more than 32 compares";
  struct pygraph_clause_atom *atom = &c->atoms[c->n_atoms++];
  memset(atom, 0, sizeof *atom);
  atom->a = *a;
  if (b)
    atom->b = *b;
  atom->pred = pred;
  atom->at_top = tb->at_top;
  *table = atom_tables[tb->test->n_atoms++];
  return NULL;
}

/* Item x as a boolean: an I1 operand becomes a truth atom. */
static const char *as_bool(struct test_build *tb, struct item *x)
{
  if (x->is_bool)
    return NULL;
  if (x->operand.type != PYGRAPH_TYPE_I1)
    return "malformed boolean";
  x->is_bool = 1;
  return new_atom(tb, &x->operand, NULL, PYGRAPH_CLAUSE_TRUTH, &x->table);
}

/* Node n over the top `pops` items (popped into a and b), its result into
 * *r. */
static const char *combine(struct test_build *tb, const pygraph_exit_node *n, struct item *a,
                           struct item *b, struct item *r)
{
  const char *why;
  memset(r, 0, sizeof *r);
  r->is_bool = 1;
  if (n->type != PYGRAPH_TYPE_I1 && n->op != PYGRAPH_EXIT_CAST)
    return "malformed boolean";
  switch (n->op) {
  case PYGRAPH_EXIT_CMP: {
    struct pygraph_eval_slot x = {0, a->operand.type}, y = {0, b->operand.type};
    uint64_t out;
    if (a->is_bool || b->is_bool)
      return "a compare of compares";
    if (!pygraph_eval_compare(n->arg, x, y, &out))
      return "malformed compare";
    return new_atom(tb, &a->operand, &b->operand, n->arg, &r->table);
  }
  case PYGRAPH_EXIT_AND:
  case PYGRAPH_EXIT_OR:
    if ((why = as_bool(tb, a)) || (why = as_bool(tb, b)))
      return why;
    r->table = n->op == PYGRAPH_EXIT_AND ? a->table & b->table : a->table | b->table;
    return NULL;
  case PYGRAPH_EXIT_NOT:
    if ((why = as_bool(tb, a)))
      return why;
    r->table = ~a->table;
    return NULL;
  default: {                           /* PYGRAPH_EXIT_CAST */
    struct pygraph_eval_slot x = {0, a->operand.type};
    uint64_t out;
    if (a->is_bool || a->operand.cast != PYGRAPH_CLAUSE_NO_CAST)
      return "a conversion of a compare or of a conversion";
    if (!pygraph_eval_cast(n->arg, x, n->type, &out))
      return "malformed conversion";
    *r = *a;
    r->operand.cast = (uint8_t)n->arg;
    r->operand.type = (uint8_t)n->type;
    return NULL;
  }
  }
}

/* Node n applied to the test's stack (pygraph_eval_step's stack rules). */
static const char *step(struct test_build *tb, const pygraph_whole_loop *wl,
                        const pygraph_exit_node *n)
{
  unsigned pops = n->op <= PYGRAPH_EXIT_COUNTER                               ? 0
                  : n->op == PYGRAPH_EXIT_NOT || n->op == PYGRAPH_EXIT_CAST ? 1
                                                                          : 2;
  if (n->op == PYGRAPH_EXIT_LEAVE || n->op > PYGRAPH_EXIT_LEAVE)
    return "malformed node";
  if (tb->depth < pops || (!pops && tb->depth >= PYGRAPH_EXIT_MAX_DEPTH))
    return "malformed stack";
  struct item r, *a = pops ? &tb->stack[tb->depth - pops] : NULL;
  struct item *b = pops ? &tb->stack[tb->depth - 1] : NULL;
  const char *why = pops ? combine(tb, n, a, b, &r) : leaf(wl, n, &r);
  if (why)
    return why;
  tb->depth -= pops;
  tb->stack[tb->depth++] = r;
  return NULL;
}

/* Test nodes[first, leave) into c's next test (its atoms c's next ones). */
static const char *compile_test(const pygraph_whole_loop *wl, unsigned first, unsigned leave,
                                uint32_t number, struct pygraph_while_clauses *c)
{
  const pygraph_exit_node *end = &wl->nodes[leave];
  if (c->n_tests == PYGRAPH_CLAUSE_LANES)
    return "more than 32 exit tests";
  struct test_build tb;
  memset(&tb, 0, sizeof tb);
  tb.c = c;
  tb.test = &c->tests[c->n_tests++];
  tb.test->first = c->n_atoms;
  tb.test->number = number;
  tb.test->where = end->arg;
  tb.at_top = end->arg == PYGRAPH_EXIT_AT_TOP;
  if (end->arg > PYGRAPH_EXIT_AT_END)
    return "malformed exit position";
  for (unsigned k = first; k < leave; k++) {
    const char *why = step(&tb, wl, &wl->nodes[k]);
    if (why)
      return why;
  }
  if (tb.depth != 1)
    return "malformed stack";
  const char *why = as_bool(&tb, &tb.stack[0]);
  if (why)
    return why;
  unsigned rows = 1u << tb.test->n_atoms;   /* the table's bits past them are never read */
  tb.test->truth = tb.stack[0].table & (rows == 64 ? ~UINT64_C(0) : (UINT64_C(1) << rows) - 1);
  return NULL;
}

/* The descriptor's tests at `where`, in order, into c. */
static const char *compile_position(const pygraph_whole_loop *wl, uint32_t where,
                                    struct pygraph_while_clauses *c)
{
  unsigned first = 0;
  uint32_t number = 0;
  for (unsigned k = 0; k < wl->n_nodes; k++) {
    if (wl->nodes[k].op != PYGRAPH_EXIT_LEAVE)
      continue;
    if (wl->nodes[k].arg == where) {
      const char *why = compile_test(wl, first, k, number, c);
      if (why)
        return why;
    }
    first = k + 1;
    number++;
  }
  return first == wl->n_nodes ? NULL : "malformed last test";
}

static const char *compile_slot(const pygraph_whole_loop *wl, const struct pygraph_while_slot *s,
                                struct pygraph_clause_slot *out)
{
  memset(out, 0, sizeof *out);
  if (s->value >= wl->n_values || !pygraph_eval_value_ok(wl, &wl->values[s->value]))
    return "malformed slot";
  const pygraph_loop_value *v = &wl->values[s->value];
  if (v->evolution == PYGRAPH_EVOLVE_INVARIANT)
    return "malformed slot";
  if (v->evolution == PYGRAPH_EVOLVE_ROTATION) {
    if (v->count > PYGRAPH_CLAUSE_MAX_MEMBERS)
      return "a rotation of more than 4 members";
    for (unsigned k = 0; k < v->count; k++)
      out->members[k] = wl->rotation_members[v->base + k];
  }
  out->value = *v;
  out->offset = s->offset;
  out->bytes = s->bytes;
  return NULL;
}

const char *pygraph_while_clauses_compile(const pygraph_whole_loop *wl,
                                          const struct pygraph_while_slot *slots, size_t n_slots,
                                          struct pygraph_while_clauses *c)
{
  static const uint32_t order[3] = {PYGRAPH_EXIT_AFTER_COPY, PYGRAPH_EXIT_AT_END,
                                    PYGRAPH_EXIT_AT_TOP};
  memset(c, 0, sizeof *c);
  if (!pygraph_eval_descriptor_ok(wl))
    return "malformed descriptor";
  if (n_slots > PYGRAPH_CLAUSE_LANES)
    return "more than 32 argument slots";
  c->status_bytes = wl->status_bytes;
  for (unsigned k = 0; k < 3; k++) {
    const char *why = compile_position(wl, order[k], c);
    if (why)
      return why;
  }
  for (size_t k = 0; k < n_slots; k++) {
    const char *why = compile_slot(wl, &slots[k], &c->slots[k]);
    if (why)
      return why;
    for (size_t j = 0; j < k; j++)     /* the lanes write them at once */
      if (slots[j].offset < slots[k].offset + slots[k].bytes &&
          slots[k].offset < slots[j].offset + slots[j].bytes)
        return "overlapping argument slots";
  }
  c->n_slots = (uint32_t)n_slots;
  return NULL;
}

const char *pygraph_while_clauses_fold_source(const pygraph_whole_loop *wl, unsigned value,
                                              struct pygraph_while_clauses *c)
{
  struct pygraph_while_slot s = {0, value, 8};
  struct pygraph_clause_slot source;
  const char *why = compile_slot(wl, &s, &source);
  if (why)
    return why;
  if (source.value.type != PYGRAPH_TYPE_PTR)
    return "a status copy's source that is not a pointer";
  c->source = source;
  return NULL;
}
