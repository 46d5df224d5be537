/* test_signature.c - what counts as the same iteration, what needs a node
 * update, and which edges a graph gets. */
#include <stdlib.h>

#include "check.h"
#include "fake_backend.h"
#include "graphs/graph_plan.h"
#include "abi/record.h"
#include "recording/param_cache.h"
#include "recording/signature.h"

static struct pygraph_param_layout *layout;   /* (int, long long) */

static struct kernel_spec {
  int func;
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
  int arg0;
  long long arg1;
} base = {1, {4, 1, 1}, {128, 1, 1}, 0, (cudaStream_t)0x101, 7, 70};

static void add_kernel(struct pygraph_op_list *l, struct kernel_spec k)
{
  void *args[] = {&k.arg0, &k.arg1};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = k.stream,
                          .func = (const void *)(unsigned long)k.func, .layout = layout,
                          .grid = k.grid, .block = k.block, .shmem = k.shmem, .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(l, &op, args) == 0);
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

static void add_op(struct pygraph_op_list *l, struct pygraph_op op)
{
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

/* Lists a = [base, base] and b = [base, variant]: same signature? */
static int same_with_variant(struct kernel_spec variant)
{
  struct pygraph_op_list a = {0}, b = {0};
  add_kernel(&a, base);
  add_kernel(&a, base);
  add_kernel(&b, base);
  add_kernel(&b, variant);
  int same = pygraph_same_signature(&a, &b);
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
  return same;
}

static void test_kernel_signature(void)
{
  struct kernel_spec v = base;
  CHECK(same_with_variant(v));
  v.arg0 = 8;
  v.arg1 = 9;
  CHECK(same_with_variant(v));          /* argument values are not signature */
  v = base;
  v.func = 2;
  CHECK(!same_with_variant(v));
  v = base;
  v.grid.y = 2;
  CHECK(!same_with_variant(v));
  v = base;
  v.block.x = 64;
  CHECK(!same_with_variant(v));
  v = base;
  v.shmem = 1024;
  CHECK(!same_with_variant(v));
  v = base;
  v.stream = (cudaStream_t)0x102;
  CHECK(!same_with_variant(v));

  struct pygraph_op_list a = {0}, b = {0};
  add_kernel(&a, base);
  add_kernel(&b, base);
  add_kernel(&b, base);
  CHECK(!pygraph_same_signature(&a, &b));   /* length */
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
}

static void test_other_op_signatures(void)
{
  struct pygraph_op ms = {.kind = PYGRAPH_OP_MEMSET, .stream = (cudaStream_t)0x101,
                          .dst = (void *)0x10, .value = 1, .count = 64, .wait_link = -1};
  struct pygraph_op mc = {.kind = PYGRAPH_OP_MEMCPY, .stream = (cudaStream_t)0x101,
                          .dst = (void *)0x10, .src = (void *)0x20, .count = 64,
                          .memcpy_kind = cudaMemcpyDeviceToDevice, .wait_link = -1};
  struct pygraph_op_list a = {0}, b = {0};
  add_op(&a, ms);
  add_op(&a, mc);

  struct pygraph_op ms2 = ms, mc2 = mc;
  ms2.value = 2;                        /* parameters only */
  ms2.dst = (void *)0x30;
  mc2.src = (void *)0x40;
  add_op(&b, ms2);
  add_op(&b, mc2);
  CHECK(pygraph_same_signature(&a, &b));
  CHECK(pygraph_op_params_differ(&a, &a.ops[0], &b, &b.ops[0]));
  CHECK(pygraph_op_params_differ(&a, &a.ops[1], &b, &b.ops[1]));

  b.ops[0].count = 32;
  CHECK(!pygraph_same_signature(&a, &b));
  b.ops[0].count = 64;
  b.ops[1].memcpy_kind = cudaMemcpyDefault;
  CHECK(!pygraph_same_signature(&a, &b));
  b.ops[1].memcpy_kind = cudaMemcpyDeviceToDevice;
  b.ops[1].kind = PYGRAPH_OP_MEMSET;
  CHECK(!pygraph_same_signature(&a, &b));
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
}

static void test_kernel_param_changes(void)
{
  struct pygraph_op_list a = {0}, b = {0};
  struct kernel_spec k = base;
  add_kernel(&a, k);
  add_kernel(&a, k);
  add_kernel(&a, k);
  add_kernel(&b, k);                    /* unchanged */
  k.arg0 = 8;
  add_kernel(&b, k);                    /* first parameter changed */
  k.arg0 = base.arg0;
  k.arg1 = 71;
  add_kernel(&b, k);                    /* second parameter changed */
  CHECK(!pygraph_op_params_differ(&a, &a.ops[0], &b, &b.ops[0]));
  CHECK(pygraph_op_params_differ(&a, &a.ops[1], &b, &b.ops[1]));
  CHECK(pygraph_op_params_differ(&a, &a.ops[2], &b, &b.ops[2]));

  pygraph_op_list_materialize(&b);      /* pointers land on the copied bytes */
  CHECK(*(int *)b.ops[1].arg_ptrs[0] == 8);
  CHECK(*(long long *)b.ops[2].arg_ptrs[1] == 71);
  CHECK(((unsigned long)b.ops[2].arg_ptrs[1] & 7) == 0);
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
}

static void test_event_signature(void)
{
  struct pygraph_op rec = {.kind = PYGRAPH_OP_EVENT_RECORD, .stream = (cudaStream_t)0x101,
                           .event = (cudaEvent_t)0x201, .wait_link = -1};
  struct pygraph_op wait = {.kind = PYGRAPH_OP_EVENT_WAIT, .stream = (cudaStream_t)0x102,
                            .event = (cudaEvent_t)0x201, .wait_link = 0};
  struct pygraph_op_list a = {0}, b = {0};
  add_op(&a, rec);
  add_op(&a, wait);
  rec.event = wait.event = (cudaEvent_t)0x202;
  add_op(&b, rec);
  add_op(&b, wait);
  CHECK(pygraph_same_signature(&a, &b));
  CHECK(pygraph_op_params_differ(&a, &a.ops[0], &b, &b.ops[0]));   /* record node event */
  CHECK(!pygraph_op_params_differ(&a, &a.ops[1], &b, &b.ops[1]));  /* edge only */
  b.ops[1].wait_link = -1;              /* edge became an external wait */
  CHECK(!pygraph_same_signature(&a, &b));

  /* Which earlier record of its event a record follows is topology: the
   * graph orders the two records (graph_plan.c). */
  pygraph_op_list_reset(&a);
  pygraph_op_list_reset(&b);
  rec.event = (cudaEvent_t)0x201;
  add_op(&a, rec);
  add_op(&b, rec);
  rec.stream = (cudaStream_t)0x102;
  rec.event = (cudaEvent_t)0x202;
  add_op(&a, rec);                      /* another event: follows nothing */
  rec.event = (cudaEvent_t)0x201;
  rec.wait_link = 0;
  add_op(&b, rec);                      /* the same event again: follows op 0 */
  CHECK(!pygraph_same_signature(&a, &b));
  CHECK(pygraph_signature_hash(&a) != pygraph_signature_hash(&b));
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
}

/* The plan as text (freed): <op>[~ no node | :e empty][<deps], the
 * records made after the graph, the streams. */
static const char *plan_text_of(const struct pygraph_op_list *l, struct pygraph_graph_plan plan)
{
  static char buf[256];
  size_t n = 0;
  for (size_t i = 0; i < l->n_ops; i++) {
    const struct pygraph_plan_node *pn = &plan.nodes[i];
    n += snprintf(buf + n, sizeof buf - n, "%s%zu%s", i ? " " : "", i,
                  pn->form == PYGRAPH_PLAN_NONE ? "~" : pn->form == PYGRAPH_PLAN_EMPTY ? ":e" : "");
    for (unsigned d = 0; d < pn->n_deps; d++)
      n += snprintf(buf + n, sizeof buf - n, "%s%zu", d ? "," : "<", pn->deps[d]);
  }
  for (size_t k = 0; k < plan.n_after; k++)
    n += snprintf(buf + n, sizeof buf - n, "%s%zu", k ? "," : " after=", plan.after_ops[k]);
  n += snprintf(buf + n, sizeof buf - n, " streams=%zu%s", plan.n_streams,
                plan.serialized ? " serialized" : "");
  pygraph_graph_plan_free(&plan);
  return buf;
}

static const char *plan_text_after(const struct pygraph_op_list *l, const unsigned char *after)
{
  struct pygraph_graph_plan plan;
  CHECK(pygraph_graph_plan_make(l, after, &plan) == 0);
  return plan_text_of(l, plan);
}

/* The plan a capture makes: the fake backend says which events time. */
static const char *plan_text_capture(const struct pygraph_op_list *l)
{
  struct pygraph_graph_plan plan;
  CHECK(pygraph_graph_plan_for_capture(l, &fake_backend, &plan) == 0);
  return plan_text_of(l, plan);
}

static const char *plan_text(const struct pygraph_op_list *l)
{
  return plan_text_after(l, NULL);
}

static void test_graph_plan(void)
{
  struct kernel_spec s1 = base, s2 = base, legacy = base;
  s2.stream = (cudaStream_t)0x102;
  legacy.stream = cudaStreamLegacy;
  struct pygraph_op_list l = {0};
  add_kernel(&l, s1);
  add_kernel(&l, s2);
  add_kernel(&l, s1);
  add_kernel(&l, s2);
  CHECK_STR(plan_text(&l), "0 1 2<0 3<1 streams=2");

  pygraph_op_list_reset(&l);            /* legacy stream with others: one chain */
  add_kernel(&l, legacy);
  add_kernel(&l, s2);
  add_kernel(&l, legacy);
  CHECK_STR(plan_text(&l), "0 1<0 2<1 streams=2 serialized");

  pygraph_op_list_reset(&l);            /* legacy alone is just one stream */
  add_kernel(&l, legacy);
  add_kernel(&l, legacy);
  CHECK_STR(plan_text(&l), "0 1<0 streams=1");

  pygraph_op_list_reset(&l);            /* cross-stream edge from a record/wait pair */
  add_kernel(&l, s1);
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = s1.stream,
                                 .event = (cudaEvent_t)0x201, .wait_link = -1});
  add_kernel(&l, s2);
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s2.stream,
                                 .event = (cudaEvent_t)0x201, .wait_link = 1});
  add_kernel(&l, s2);
  /* (no node for the wait: its dependents take its dependencies) */
  CHECK_STR(plan_text(&l), "0 1<0 2 3~<2,1 4<2,1 streams=2");

  pygraph_op_list_reset(&l);            /* records of one event stay in order */
  const cudaEvent_t fork = (cudaEvent_t)0x201;
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = s1.stream,
                                 .event = fork, .wait_link = -1});       /* 0: no deps */
  add_kernel(&l, s2);                                                    /* 1 */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = s2.stream,
                                 .event = fork, .wait_link = 0});        /* 2: after 0 */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s1.stream,
                                 .event = fork, .wait_link = 2});        /* 3 */
  add_kernel(&l, s1);                                                    /* 4 */
  CHECK_STR(plan_text(&l), "0 1 2<1,0 3~<0,2 4<0,2 streams=2");
  /* Made after the graph: only a record a wait joins (2; 0 is not waited
   * on and keeps its node); the kernels keep the order the records made. */
  const unsigned char after[5] = {1, 0, 1, 0, 0};
  CHECK_STR(plan_text_after(&l, after), "0 1 2~<1,0 3~<0,1 4<0,1 after=2 streams=2");
  /* A capture's plan asks the backend about the joined record only (2),
   * once; an event that times keeps every record's node. */
  fake_reset();
  fake.untimed_event_ids = 1u << 1;                  /* FAKE_EVENT(1) == fork */
  CHECK_STR(plan_text_capture(&l), "0 1 2~<1,0 3~<0,1 4<0,1 after=2 streams=2");
  CHECK(fake_event_times_queries == 1);
  fake.untimed_event_ids = 0;
  CHECK_STR(plan_text_capture(&l), "0 1 2<1,0 3~<0,2 4<0,2 streams=2");
  CHECK(fake_event_times_queries == 2);

  pygraph_op_list_reset(&l);            /* serialized: records stay in the chain */
  add_kernel(&l, legacy);
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = legacy.stream,
                                 .event = fork, .wait_link = -1});
  add_kernel(&l, s2);
  CHECK_STR(plan_text(&l), "0 1<0 2<1 streams=2 serialized");
  const unsigned char after1[4] = {0, 1, 0, 0};
  CHECK_STR(plan_text_after(&l, after1), "0 1<0 2<1 streams=2 serialized");   /* no wait */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s2.stream,
                                 .event = fork, .wait_link = 1});
  CHECK_STR(plan_text_after(&l, after1), "0 1~<0 2<0 3~<2,0 after=1 streams=2 serialized");

  /* Two waited records of one event: made once after the graph (the last). */
  pygraph_op_list_reset(&l);
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = s1.stream,
                                 .event = fork, .wait_link = -1});       /* 0 */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s2.stream,
                                 .event = fork, .wait_link = 0});        /* 1 */
  add_kernel(&l, s2);                                                    /* 2 */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = s2.stream,
                                 .event = fork, .wait_link = 0});        /* 3 */
  add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s1.stream,
                                 .event = fork, .wait_link = 3});        /* 4 */
  add_kernel(&l, s1);                                                    /* 5 */
  const unsigned char after2[6] = {1, 0, 0, 1, 0, 0};
  CHECK_STR(plan_text_after(&l, after2), "0~ 1~ 2 3~<2 4~<2 5<2 after=3 streams=2");

  /* A join of more streams than a dependency list forwards: an empty node. */
  pygraph_op_list_reset(&l);
  unsigned char after6[16] = {0};
  for (int k = 1; k <= 5; k++) {
    struct kernel_spec sk = base;
    sk.stream = (cudaStream_t)(unsigned long)(0x110 + k);
    add_kernel(&l, sk);                                  /* 2k-2 */
    after6[l.n_ops] = 1;
    add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = sk.stream,
                                   .event = (cudaEvent_t)(unsigned long)(0x210 + k),
                                   .wait_link = -1});    /* 2k-1 */
  }
  for (int k = 1; k <= 5; k++)
    add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = s1.stream,
                                   .event = (cudaEvent_t)(unsigned long)(0x210 + k),
                                   .wait_link = 2 * k - 1});   /* 10..14 */
  add_kernel(&l, s1);                                    /* 15 */
  CHECK_STR(plan_text_after(&l, after6),
            "0 1~<0 2 3~<2 4 5~<4 6 7~<6 8 9~<8 10~<0 11~<0,2 12~<0,2,4 13~<0,2,4,6 "
            "14:e<0,2,4,6,8 15<14 after=1,3,5,7,9 streams=6");
  pygraph_op_list_free(&l);
}

/* Random op lists against the plan's promises: every ordering of the
 * eager calls between two ops that get nodes survives (as a path of
 * node dependencies), dependencies name only ops with nodes, and what is
 * recorded after the graph is, per event, its last record. */
static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) % n;
}

static void test_graph_plan_random(void)
{
  enum { N = 24, EVENTS = 3 };
  const cudaStream_t streams[4] = {(cudaStream_t)0x101, (cudaStream_t)0x102,
                                   (cudaStream_t)0x103, cudaStreamLegacy};
  struct pygraph_op_list l = {0};
  int failures = 0;
  for (int round = 0; round < 3000 && !failures; round++) {
    pygraph_op_list_reset(&l);
    unsigned n = 1 + rnd(N), n_streams = 1 + rnd(rnd(4) == 0 ? 4 : 3);
    long last_record[EVENTS] = {-1, -1, -1};
    unsigned char after[N] = {0};
    for (unsigned i = 0; i < n; i++) {
      struct kernel_spec k = base;
      k.stream = streams[rnd(n_streams)];
      unsigned what = rnd(4), e = rnd(EVENTS);
      cudaEvent_t ev = (cudaEvent_t)(unsigned long)(0x200 + e);
      if (what <= 1) {
        add_kernel(&l, k);
      } else if (what == 2) {
        add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_RECORD, .stream = k.stream,
                                       .event = ev, .wait_link = last_record[e]});
        last_record[e] = (long)i;
        after[i] = (unsigned char)(e != 0);   /* event 0 can time */
      } else {
        add_op(&l, (struct pygraph_op){.kind = PYGRAPH_OP_EVENT_WAIT, .stream = k.stream,
                                       .event = ev, .wait_link = last_record[e]});
      }
    }
    struct pygraph_graph_plan plan;
    CHECK(pygraph_graph_plan_make(&l, after, &plan) == 0);
    /* The eager orderings: i before j when j follows i on its stream (or
     * in the serialized chain) or joins/follows it through an event. */
    unsigned char eager[N][N] = {{0}}, kept[N][N] = {{0}};
    long last_on[4] = {-1, -1, -1, -1};
    for (unsigned j = 0; j < n; j++) {
      unsigned s = 0;
      while (streams[s] != l.ops[j].stream)
        s++;
      long before = plan.serialized ? (long)j - 1 : last_on[s];
      last_on[s] = (long)j;
      for (unsigned i = 0; i < j; i++)
        eager[i][j] = (before >= 0 && (i == (unsigned)before || eager[i][before])) ||
                      (l.ops[j].wait_link >= 0 &&
                       (i == (unsigned)l.ops[j].wait_link || eager[i][l.ops[j].wait_link]));
      const struct pygraph_plan_node *pn = &plan.nodes[j];
      for (unsigned d = 0; d < pn->n_deps; d++) {
        size_t dep = pn->deps[d];
        if (dep >= j || plan.nodes[dep].form == PYGRAPH_PLAN_NONE)
          failures++;                          /* names an op without a node */
        else if (pn->form != PYGRAPH_PLAN_NONE)
          for (unsigned i = 0; i <= dep; i++)
            kept[i][j] |= i == dep || kept[i][dep];
      }
    }
    for (unsigned j = 0; j < n; j++)
      for (unsigned i = 0; i < j; i++)
        if (eager[i][j] && plan.nodes[i].form != PYGRAPH_PLAN_NONE &&
            plan.nodes[j].form != PYGRAPH_PLAN_NONE && !kept[i][j])
          failures++;                          /* an ordering lost */
    for (size_t k = 0; k < plan.n_after; k++) {
      size_t op = plan.after_ops[k];
      if (l.ops[op].kind != PYGRAPH_OP_EVENT_RECORD || plan.nodes[op].form == PYGRAPH_PLAN_OP)
        failures++;
      for (size_t later = op + 1; later < n; later++)   /* the event's last record */
        if (l.ops[later].kind == PYGRAPH_OP_EVENT_RECORD && l.ops[later].event == l.ops[op].event)
          failures++;
    }
    for (unsigned i = 0; i < n; i++)           /* a record without a node is made after */
      if (l.ops[i].kind == PYGRAPH_OP_EVENT_RECORD && plan.nodes[i].form != PYGRAPH_PLAN_OP &&
          plan.after_slot[i] == -1)
        failures++;
    if (failures)
      fprintf(stderr, "round %d: %s\n", round, plan_text_after(&l, after));
    pygraph_graph_plan_free(&plan);
  }
  CHECK(failures == 0);
  pygraph_op_list_free(&l);
}

static void test_stream_normalisation(void)
{
  CHECK(pygraph_normalize_stream(0, 0) == cudaStreamLegacy);
  CHECK(pygraph_normalize_stream(0, 1) == cudaStreamPerThread);
  CHECK(pygraph_normalize_stream((cudaStream_t)0x101, 1) == (cudaStream_t)0x101);
  CHECK(pygraph_normalize_stream(cudaStreamLegacy, 1) == cudaStreamLegacy);
}

int main(void)
{
  layout = pygraph_param_layout_alloc(2);
  layout->params[0].offset = 0;
  layout->params[0].size = 4;
  layout->params[1].offset = 8;
  layout->params[1].size = 8;
  layout->total_size = 16;
  test_kernel_signature();
  test_other_op_signatures();
  test_kernel_param_changes();
  test_event_signature();
  test_graph_plan();
  test_graph_plan_random();
  test_stream_normalisation();
  free(layout);
  return check_finish();
}
