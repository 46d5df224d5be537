/* fake_backend.h - a backend that logs every call as a short token and
 * fails on request, so tests can assert exactly what the runtime did.
 *
 * Tokens: k<func>(<arg0>) eager kernel, ms(<value>) memset, mc(<dst>)
 * memcpy, er<event> / ew<event> event record / wait, build(<plan>),
 * inst, xupd (in-place exec update), upd<node>, launch, destroy, clear.
 * Test code logs pass-through calls itself as p:<token>. */
#ifndef PYGRAPH_TEST_FAKE_BACKEND_H
#define PYGRAPH_TEST_FAKE_BACKEND_H

#include "backend.h"

struct fake_config {
  int fail_build;                 /* graph_build returns cudaErrorInvalidValue */
  int fail_instantiate;
  int fail_update_at;             /* the n-th update call fails (1-based), 0 = none */
  int fail_launch;
  int launch_ran_before_failing;  /* failing launch reports the graph as enqueued */
  int exec_update_ok;             /* instantiate with a previous graph updates in place */
  int memcpy_default_is_device;   /* answer of both_device_memory */
};

extern struct fake_config fake;
extern const struct pygraph_backend fake_backend;
extern int fake_live_graphs;      /* built and not yet destroyed */
extern int fake_layout_queries;

/* Func ids: 1..63 have (int, long long) parameters, 64 has none,
 * FAKE_NO_LAYOUT cannot be described. */
#define FAKE_NO_LAYOUT 99
#define FAKE_FUNC(id) ((const void *)(unsigned long)(id))
#define FAKE_STREAM(id) ((cudaStream_t)(unsigned long)(0x100 + (id)))
#define FAKE_EVENT(id) ((cudaEvent_t)(unsigned long)(0x200 + (id)))

void fake_reset(void);            /* clears the log and the config */
const char *fake_log(void);
void fake_log_clear(void);
void fake_log_append(const char *fmt, ...);

#endif /* PYGRAPH_TEST_FAKE_BACKEND_H */
