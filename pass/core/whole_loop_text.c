/* whole_loop_text.c - remark texts of whole-loop verdicts
 * (whole_loop_text.h). */
#include "whole_loop_text.h"
#include "options.h"
#include "ir_util.h"
#include "launch_describe.h"

#include <stdio.h>
#include <string.h>

/* ---- exit tests, from postfix back to infix --------------------------- */

typedef struct term {
  char *text;
  int prec;     /* 3 leaf, 2 compare or unary, 1 &&, 0 || */
} term;

static const char *const kTypeNames[] = {"i1", "i8", "i16", "i32", "i64", "f32", "f64", "ptr",
                                         "bytes"};

static const char *type_name(unsigned t) {
  return t < sizeof kTypeNames / sizeof kTypeNames[0] ? kTypeNames[t] : "?";
}

static char *const_text(const pg_wl_node *n) {
  if (n->type == PYGRAPH_TYPE_F32) {
    float f;
    unsigned u = (unsigned)n->imm;
    memcpy(&f, &u, sizeof f);
    return pg_strf("%g", (double)f);
  }
  if (n->type == PYGRAPH_TYPE_F64) {
    double d;
    memcpy(&d, &n->imm, sizeof d);
    return pg_strf("%g", d);
  }
  if (n->type == PYGRAPH_TYPE_I1)
    return pg_strf("%s", n->imm ? "true" : "false");
  return pg_strf("%lld", n->imm);
}

/* "(inv0 + 1 + 2*i)": a counter's value in iteration i ("i" alone when
 * that is all). */
static char *counter_text(const pg_wl_node *n) {
  char *step = n->step == 1    ? pg_strf("%s", "i")
               : n->step == -1 ? pg_strf("%s", "-i")
                               : pg_strf("%lld*i", n->step);
  if (n->arg == PYGRAPH_WL_NONE && !n->imm)
    return step;
  char *base = n->arg == PYGRAPH_WL_NONE ? pg_strf("%s", "") : pg_strf("inv%u + ", n->arg);
  char *imm = n->imm || !base[0] ? pg_strf("%lld + ", n->imm) : pg_strf("%s", "");
  char *text = pg_strf("(%s%s%s)", base, imm, step);
  free(base);
  free(imm);
  free(step);
  return text;
}

static char *leaf_text(const pg_wl_node *n) {
  switch (n->op) {
  case PYGRAPH_EXIT_FIELD:
    return pg_strf("status.%s@%u", type_name(n->type), n->arg);
  case PYGRAPH_EXIT_CONST:
    return const_text(n);
  case PYGRAPH_EXIT_INVARIANT:
    return pg_strf("inv%u", n->arg);
  default:
    return counter_text(n);
  }
}

/* Compares: C's operators where they mean the predicate; unordered float
 * compares as the negation of the ordered one (a ult b is !(a >= b)). */
static char *compare_text(unsigned pred, const char *a, const char *b) {
  static const char *const kInt[] = {"==", "!=", ">u", ">=u", "<u", "<=u", ">", ">=", "<", "<="};
  static const char *const kFloat[] = {NULL, "==", ">", ">=", "<", "<=", "one", "ord", "uno",
                                       "ueq", "<=", "<", ">=", ">", "!=", NULL};
  if (pred >= PYGRAPH_CMP_I_EQ && pred <= PYGRAPH_CMP_I_SLE)
    return pg_strf("%s %s %s", a, kInt[pred - PYGRAPH_CMP_I_EQ], b);
  if (pred == PYGRAPH_CMP_F_FALSE || pred == PYGRAPH_CMP_F_TRUE || pred > PYGRAPH_CMP_F_TRUE)
    return pg_strf("%s", pred == PYGRAPH_CMP_F_TRUE ? "true" : "false");
  if (pred >= PYGRAPH_CMP_F_UGT && pred <= PYGRAPH_CMP_F_ULE)
    return pg_strf("!(%s %s %s)", a, kFloat[pred], b);
  return pg_strf("%s %s %s", a, kFloat[pred], b);
}

static const char *const kCastNames[] = {"zext", "sext", "trunc", "fpext", "fptrunc", "sitofp",
                                         "uitofp", "fptosi", "fptoui"};

static char *wrap(term t, int prec) {
  return t.prec < prec ? pg_strf("(%s)", t.text) : pg_strf("%s", t.text);
}

/* Folds node n into the stack of terms (sp entries). */
static void fold(const pg_wl_node *n, term *st, unsigned *sp) {
  term t = {NULL, 3};
  if (n->op <= PYGRAPH_EXIT_COUNTER) {
    t.text = leaf_text(n);
  } else if (n->op == PYGRAPH_EXIT_NOT || n->op == PYGRAPH_EXIT_CAST) {
    char *x = wrap(st[*sp - 1], 3);
    t.text = n->op == PYGRAPH_EXIT_NOT
                 ? pg_strf("!%s", x)
                 : pg_strf("%s.%s(%s)", kCastNames[n->arg % 9], type_name(n->type), st[*sp - 1].text);
    t.prec = 2;
    free(x);
    free(st[--*sp].text);
  } else {
    int prec = n->op == PYGRAPH_EXIT_CMP ? 2 : n->op == PYGRAPH_EXIT_AND ? 1 : 0;
    char *a = wrap(st[*sp - 2], prec + (n->op == PYGRAPH_EXIT_CMP));
    char *b = wrap(st[*sp - 1], prec + 1);
    t.text = n->op == PYGRAPH_EXIT_CMP ? compare_text(n->arg, a, b)
                                       : pg_strf("%s %s %s", a, prec ? "&&" : "||", b);
    t.prec = prec;
    free(a);
    free(b);
    free(st[--*sp].text);
    free(st[--*sp].text);
  }
  st[(*sp)++] = t;
}

static const char *where_text(unsigned where) {
  return where == PYGRAPH_EXIT_AT_TOP       ? "at the top"
         : where == PYGRAPH_EXIT_AFTER_COPY ? "after the status copy"
                                            : "at the end of the iteration";
}

char *pg_wl_tests_text(const pg_whole_loop *wl) {
  term st[PYGRAPH_EXIT_MAX_DEPTH + 1];
  unsigned sp = 0;
  char *all = pg_strf("%s", "");
  for (unsigned k = 0; k < wl->nnodes; ++k) {
    const pg_wl_node *n = &wl->nodes[k];
    if (n->op != PYGRAPH_EXIT_LEAVE) {
      fold(n, st, &sp); /* the pass kept the depth within the bound */
      continue;
    }
    char *next = pg_strf("%s%s%s, leave when %s", all, all[0] ? "; " : "", where_text(n->arg),
                         st[sp - 1].text);
    free(all);
    free(st[--sp].text);
    all = next;
  }
  return all;
}

/* ---- a candidate ---------------------------------------------------------- */

char *pg_wl_candidate_text(const pg_whole_loop *wl, int in_region) {
  unsigned counts[3] = {0, 0, 0};
  for (unsigned k = 0; k < wl->nvalues; ++k)
    counts[wl->values[k].evolution % 3]++;
  char *tests = pg_wl_tests_text(wl);
  /* whole-loops=2: whether the loop carries the whole-loop protocol */
  char *run = !in_region ? pg_strf("%s", "; not emitted: the loop forms no graph region")
              : pg_opts()->whole_loops < 2 ? pg_strf("%s", "")
              : wl->not_run ? pg_strf("; not run whole: %s", wl->not_run)
                            : pg_strf("%s", "; instrumented: runs whole once its executions "
                                            "were checked");
  /* a counted loop has no status copy: its tests read counters and invariants */
  char *status = wl->copy ? pg_strf("status copy of %u bytes", wl->status_bytes)
                          : pg_strf("%s", "counted: no status copy");
  char *text = pg_strf(
      "whole loop as one conditional graph: candidate (exit test: %s; %u operations, %s; "
      "operands: %u invariant, %u affine, %u rotating)%s",
      tests, wl->n_ops, status, counts[PYGRAPH_EVOLVE_INVARIANT],
      counts[PYGRAPH_EVOLVE_AFFINE], counts[PYGRAPH_EVOLVE_ROTATION], run);
  free(status);
  free(tests);
  free(run);
  return text;
}

/* ---- a refusal ---------------------------------------------------------- */

static char *demangled(LLVMValueRef f) {
  size_t n;
  return pg_demangle(f ? LLVMGetValueName2(f, &n) : "?");
}

/* Why an operand is in no known pattern ("computed on the host"). */
static const char *value_why_text(pg_wl_value_why why) {
  switch (why) {
  case PG_WLV_HOST_STATUS: return "computed on the host from the status";
  case PG_WLV_MEMORY_WRITTEN: return "read from host memory the loop writes";
  case PG_WLV_MEMORY: return "read from host memory others may write";
  case PG_WLV_ROTATION: return "a cycle of values entered from several places";
  case PG_WLV_HOST: break;
  }
  return "computed on the host";
}

/* What an exit test reads instead of a status field, invariant or
 * counter. */
static const char *exit_read_text(pg_wl_value_why why) {
  switch (why) {
  case PG_WLV_HOST_STATUS: return "a value the iteration computes on the host from the status";
  case PG_WLV_MEMORY_WRITTEN: return "host memory the loop writes";
  case PG_WLV_MEMORY: return "host memory others may write";
  case PG_WLV_ROTATION: return "a value that rotates";
  case PG_WLV_HOST: break;
  }
  return "a value the iteration computes on the host";
}

/* "the status copy's source", "argument 'w' of launch of 'k(float*)'",
 * "operand 0 of 'cudaMemsetAsync'": operand n of operation `at`. */
static char *operand_text(const pg_classifier *cls, const pg_whole_loop *wl) {
  if (wl->at == wl->copy)
    return pg_strf("the status copy's %s", wl->n == 1 ? "source" : "symbol offset");
  pg_call_info ci;
  pg_classify(cls, wl->at, &ci);
  if (ci.kind != PG_CALL_LAUNCH) {
    char *dn = demangled(ci.callee);
    char *text = pg_strf("operand %lld of '%s'", wl->n, dn);
    free(dn);
    return text;
  }
  LLVMValueRef stub = ci.kernel ? ci.kernel->stub : ci.callee;
  const char *name = stub ? pg_param_name(stub, (unsigned)wl->n) : NULL;
  char *kernel = pg_launch_kernel_name(&ci);
  char *text = name ? pg_strf("argument '%s' of launch of '%s'", name, kernel)
                    : pg_strf("argument %lld of launch of '%s'", wl->n, kernel);
  free(kernel);
  return text;
}

static char *at_text(LLVMValueRef v) {
  if (!v || !LLVMIsAInstruction(v))
    return pg_strf("%s", "");
  char *loc = pg_loc_dup(v);
  char *text = pg_strf(" at %s", loc);
  free(loc);
  return text;
}

static const char *copy_kind_text(long long kind) {
  static const char *const kKinds[] = {
      "host to host", "host to device", "device to host", "device to device",
      "in a direction known only at run time (cudaMemcpyDefault)"};
  return kind >= 0 && kind <= 4 ? kKinds[kind] : "in a direction not known at compile time";
}

/* The reasons that name the instruction `at` only. */
static char *simple_reason(const pg_whole_loop *wl, const char *at) {
  switch (wl->why) {
  case PG_WL_NOT_OPTIMISED:
    return pg_strf("the function is compiled without optimisation (-O0), its variables live in "
                   "memory (compile with -O1 or higher)");
  case PG_WL_BRANCH:
    return pg_strf("the iteration branches%s on something other than an exit test or a CUDA "
                   "error check", at);
  case PG_WL_COPY_DIRECTION:
    return pg_strf("copy%s %s: only the status copy may touch host memory", at,
                   copy_kind_text(wl->n));
  case PG_WL_COPY_SIZE: return pg_strf("status copy%s of a size not known at compile time", at);
  case PG_WL_COPY_TOO_LARGE:
    return pg_strf("status copy of %lld bytes%s (at most %u)", wl->n, at,
                   PYGRAPH_WL_MAX_STATUS_BYTES);
  case PG_WL_COPY_DEST: return pg_strf("status copy%s into a destination the loop moves", at);
  case PG_WL_UNSYNCED_COPY:
    return pg_strf("asynchronous status copy%s that no synchronize of its stream completes", at);
  case PG_WL_STATUS_STORE: return pg_strf("host store to the status%s", at);
  case PG_WL_NO_EXIT: return pg_strf("no exit test (the loop leaves only on a CUDA error)");
  case PG_WL_EXIT_BETWEEN: return pg_strf("exit test%s between two operations of the iteration", at);
  case PG_WL_EXIT_UNSYNCED: return pg_strf("exit test%s reads the status before its copy completes", at);
  case PG_WL_EXIT_TOO_COMPLEX:
    return pg_strf("exit tests too complex for the descriptor (%lld nodes or stack entries; at "
                   "most %u nodes, %u deep)", wl->n, PYGRAPH_EXIT_MAX_NODES,
                   PYGRAPH_EXIT_MAX_DEPTH);
  default: return NULL;
  }
}

/* The reasons that name a callee, a value or a second place. */
static char *named_reason(const pg_classifier *cls, const pg_whole_loop *wl, const char *at) {
  char *a = NULL, *b = NULL, *text = NULL;
  switch (wl->why) {
  case PG_WL_INNER_LOOP: {
    unsigned first = 0, last = 0;
    if (wl->inner)
      pg_loop_lines(wl->inner, &first, &last);
    text = first ? pg_strf("the iteration contains a loop (lines %u-%u)", first, last)
                 : pg_strf("the iteration contains a loop%s", at);
    break;
  }
  case PG_WL_LAUNCH_FORM:
  case PG_WL_LAUNCHING_CALL:
  case PG_WL_CALL_EFFECT: {
    pg_call_info ci;
    pg_classify(cls, wl->at, &ci);
    a = wl->why == PG_WL_LAUNCH_FORM ? pg_launch_kernel_name(&ci) : demangled(wl->callee);
    text = wl->why == PG_WL_LAUNCH_FORM
               ? pg_strf("launch of '%s'%s passes arguments the pass does not follow", a, at)
           : wl->why == PG_WL_CALL_EFFECT
               ? pg_strf("call with effects '%s'%s", a, at)
               : pg_strf("call of '%s'%s, which launches kernels itself", a, at);
    break;
  }
  case PG_WL_HOST_ONLY_CALL: {
    pg_call_info ci;
    pg_classify(cls, wl->at, &ci);
    a = pg_loc_dup(wl->at);
    text = pg_strf("%s at %s in the iteration, which a conditional graph's body cannot hold",
                   ci.api ? ci.api->name : "a call", a);
    break;
  }
  case PG_WL_BARRIER: {
    pg_call_info ci;
    pg_classify(cls, wl->at, &ci);
    a = pg_call_why(cls, &ci);
    text = pg_strf("%s in the iteration", a);
    break;
  }
  case PG_WL_TWO_COPIES:
    b = pg_loc_dup(wl->at2);
    text = pg_strf("two status copies (at %s and%s)", b, at);
    break;
  case PG_WL_EFFECT:
    a = wl->batch.why == PG_BATCH_WRITE ? pg_batch_write_text(wl->at)
                                        : pg_batch_why_text(cls, &wl->batch);
    text = wl->batch.why == PG_BATCH_WRITE ? pg_strf("host store to escaping memory (%s)%s", a, at)
                                           : pg_strf("%s%s", a, at);
    break;
  case PG_WL_LOCAL_READ_AFTER:
    b = at_text(wl->at2);
    text = pg_strf("host store to a local variable%s that is read outside the loop%s", at, b);
    break;
  default:
    break;
  }
  free(a);
  free(b);
  return text;
}

/* The reasons about a value: an exit test's operand, an operation's
 * operand, a launch configuration, a value used after the loop. */
static char *value_reason(const pg_classifier *cls, const pg_whole_loop *wl, const char *at) {
  static const char *const kParts[] = {"grid", "block", "shared memory size", "stream"};
  char *a = NULL, *b = NULL, *text = NULL;
  switch (wl->why) {
  case PG_WL_EXIT_FORM:
    b = at_text(wl->what);
    text = pg_strf("exit test%s combines its conditions in a way the descriptor cannot hold "
                   "(the value%s)", at, b);
    break;
  case PG_WL_EXIT_VALUE:
    b = at_text(wl->what);
    text = b[0] ? pg_strf("exit test%s reads %s (%s)", at, exit_read_text(wl->value_why), b + 1)
                : pg_strf("exit test%s reads %s", at, exit_read_text(wl->value_why));
    break;
  case PG_WL_ARG_PATTERN:
    a = operand_text(cls, wl);
    b = at_text(wl->what);
    text = pg_strf("%s%s evolves in no known pattern (%s%s)", a, at,
                   value_why_text(wl->value_why), b);
    break;
  case PG_WL_LIBRARY_ARG:
    a = operand_text(cls, wl);
    text = pg_strf("%s%s %s, which the graph captured from the call cannot follow", a, at,
                   wl->value_why == PG_WLV_MEMORY_WRITTEN ? "leads to host memory the loop writes"
                                                          : "changes from iteration to iteration");
    break;
  case PG_WL_CONFIG_VARIES: {
    pg_call_info ci;
    pg_classify(cls, wl->at, &ci);
    a = pg_launch_kernel_name(&ci);
    text = pg_strf("the %s of launch of '%s'%s changes from iteration to iteration",
                   kParts[wl->n & 3], a, at);
    break;
  }
  case PG_WL_LIVE_OUT:
    b = at_text(wl->at2);
    text = pg_strf("a value computed in the loop%s is used after it%s", at, b);
    break;
  default:
    text = pg_strf("%s", "?");
    break;
  }
  free(a);
  free(b);
  return text;
}

char *pg_wl_refusal_text(const pg_classifier *cls, const pg_whole_loop *wl) {
  char *at = at_text(wl->at);
  char *why = simple_reason(wl, at);
  if (!why)
    why = named_reason(cls, wl, at);
  if (!why)
    why = value_reason(cls, wl, at);
  char *text = wl->line_begin ? pg_strf("loop (lines %u-%u) not a whole-loop candidate: %s",
                                        wl->line_begin, wl->line_end, why)
                              : pg_strf("loop not a whole-loop candidate: %s", why);
  free(why);
  free(at);
  return text;
}
