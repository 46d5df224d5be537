/* verify.c - verify mode (verify.h): the steps of one verification and
 * what it reports. */
#include "segment/verify.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/debug_log.h"
#include "recording/op.h"
#include "segment/verify_ranges.h"

void pygraph_verify_init(struct pygraph_verify *vf, const struct pygraph_backend *backend,
                         const struct pygraph_settings *settings, const pygraph_region *region,
                         unsigned index)
{
  memset(vf, 0, sizeof *vf);
  vf->backend = backend;
  vf->region = region;
  vf->index = index;
  vf->replays = settings->verify;
  if (vf->replays)
    vf->status = strdup("ok 0");
}

void pygraph_verify_discard(struct pygraph_verify *vf)
{
  free(vf->status);
  vf->status = NULL;
}

/* The report's text, as long as it needs to be (out of memory: none). */
static void set_status_v(struct pygraph_verify *vf, const char *prefix, const char *fmt,
                         va_list ap)
{
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  size_t len = strlen(prefix);
  free(vf->status);
  vf->status = n >= 0 ? malloc(len + (size_t)n + 1) : NULL;
  if (vf->status) {
    memcpy(vf->status, prefix, len);
    vsnprintf(vf->status + len, (size_t)n + 1, fmt, again);
  }
  va_end(again);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void set_status(struct pygraph_verify *vf, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  set_status_v(vf, "", fmt, ap);
  va_end(ap);
}

static void release(struct pygraph_verify *vf)
{
  if (vf->shadow)
    vf->backend->device_free(vf->shadow);
  free(vf->saved);
  free(vf->chunk);
  vf->shadow = NULL;
  vf->saved = vf->chunk = NULL;
}

/* Verification is off for the segment from now on: said once, on stderr
 * and in the report. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void stop(struct pygraph_verify *vf, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  set_status_v(vf, "off: ", fmt, ap);
  va_end(ap);
  release(vf);
  vf->stopped = 1;
  fprintf(stderr, "pygraph: verify: " SEG_FMT ": %s\n", SEG_ARGS(vf),
          vf->status ? vf->status : "off (out of memory)");
}

static cudaError_t sync_streams(const struct pygraph_verify *vf)
{
  cudaError_t first = cudaSuccess;
  for (size_t s = 0; s < vf->n_streams; s++) {
    cudaError_t err = vf->backend->stream_synchronize(vf->streams[s]);
    if (first == cudaSuccess)
      first = err;
  }
  return first;
}

enum direction { TO_SHADOW, TO_SAVED, FROM_SHADOW, FROM_SAVED };

/* Every range copied one way, then the copies waited for. */
static cudaError_t copy_all(const struct pygraph_verify *vf, enum direction d)
{
  const struct pygraph_backend *b = vf->backend;
  for (size_t i = 0; i < vf->n_ranges; i++) {
    const struct pygraph_verify_range *r = &vf->ranges[i];
    unsigned char *shadow = (unsigned char *)vf->shadow + r->at, *saved = vf->saved + r->at;
    void *dst = d == TO_SHADOW ? shadow : d == TO_SAVED ? saved : r->base;
    const void *src = d == FROM_SHADOW ? shadow : d == FROM_SAVED ? saved : r->base;
    cudaError_t err = b->memory_copy(dst, src, r->size, vf->copy_stream);
    if (err != cudaSuccess)
      return err;
  }
  return b->stream_synchronize(vf->copy_stream);
}

/* Step 1: what the ops depend on is done - the work before them on their
 * streams, and the events their waits on earlier work wait for (the waits
 * run once more here: waiting twice for one record changes nothing). */
static cudaError_t wait_for_inputs(const struct pygraph_verify *vf)
{
  for (size_t i = 0; i < vf->ops->n_ops; i++) {
    const struct pygraph_op *op = &vf->ops->ops[i];
    if (op->kind == PYGRAPH_OP_EVENT_WAIT && op->wait_link < 0) {
      cudaError_t err = vf->backend->execute(op);
      if (err != cudaSuccess)
        return err;
    }
  }
  return sync_streams(vf);
}

/* Which memory, and whether this run can be verified at all.  Returns 0
 * when not (verification stopped). */
static int choose_memory(struct pygraph_verify *vf)
{
  const struct pygraph_backend *b = vf->backend;
  char buf[48];
  if (!b->allocation_of || !b->memory_copy || !b->stream_synchronize) {
    stop(vf, "the backend cannot copy memory");
    return 0;
  }
  if (pygraph_verify_collect(vf)) {
    stop(vf, "out of memory");
    return 0;
  }
  if (vf->library_op < vf->ops->n_ops) {
    stop(vf, "graph #%llu: op %zu is a library call (%s), whose buffers are not known: both "
             "runs would write them", vf->variant, vf->library_op,
         vf->ops->ops[vf->library_op].library->name);
    return 0;
  }
  if (vf->host_memory) {
    stop(vf, "graph #%llu: op %zu (%s) arg %zu points into host memory, which both runs "
             "would write", vf->variant, vf->host_op,
         pygraph_verify_op_name(vf, vf->host_op, buf, sizeof buf), vf->host_arg);
    return 0;
  }
  if (!vf->n_ranges) {
    stop(vf, "graph #%llu: no device buffer among its ops' arguments", vf->variant);
    return 0;
  }
  if (vf->total > PYGRAPH_VERIFY_MAX_BYTES) {
    stop(vf, "graph #%llu: %zu bytes of buffers, over %llu", vf->variant, vf->total,
         (unsigned long long)PYGRAPH_VERIFY_MAX_BYTES);
    return 0;
  }
  return 1;
}

/* Room for the copies, steps 1 and 2.  Returns 0 when this run is not
 * verified (verification stopped; nothing of the program's ran). */
static int prepare(struct pygraph_verify *vf)
{
  const struct pygraph_backend *b = vf->backend;
  if (!choose_memory(vf))
    return 0;
  vf->saved = malloc(vf->total);
  vf->chunk = malloc(vf->total < PYGRAPH_VERIFY_CHUNK ? vf->total : PYGRAPH_VERIFY_CHUNK);
  if (!vf->saved || !vf->chunk) {
    stop(vf, "no host memory for %zu bytes", vf->total);
    return 0;
  }
  const char *step = "a shadow allocation";
  cudaError_t err = b->device_alloc(&vf->shadow, vf->total);
  if (err != cudaSuccess)
    vf->shadow = NULL;
  if (err == cudaSuccess) {
    step = "waiting for the inputs";
    err = wait_for_inputs(vf);
  }
  if (err == cudaSuccess) {
    step = "the snapshot";
    err = copy_all(vf, TO_SHADOW);
  }
  if (err != cudaSuccess) {
    b->clear_error();
    stop(vf, "%s failed: %s", step, b->error_name(err));
    return 0;
  }
  return 1;
}

/* Steps 3-5.  An error of the eager run is the program's (it stays
 * CUDA's) and that run was the iteration's; so it is after a failed save
 * or restore (a restore put back what the eager run left first). */
static enum pygraph_verify_step eager_then_restore(struct pygraph_verify *vf)
{
  const struct pygraph_backend *b = vf->backend;
  cudaError_t first = cudaSuccess;
  for (size_t i = 0; i < vf->ops->n_ops; i++) {
    cudaError_t err = b->execute(&vf->ops->ops[i]);
    if (first == cudaSuccess)
      first = err;
  }
  if (first == cudaSuccess)
    first = sync_streams(vf);
  if (first != cudaSuccess) {
    stop(vf, "the eager run failed: %s", b->error_name(first));
    return PYGRAPH_VERIFY_RAN_EAGERLY;
  }
  cudaError_t err = copy_all(vf, TO_SAVED);
  if (err != cudaSuccess) {
    b->clear_error();
    stop(vf, "saving the eager results failed: %s", b->error_name(err));
    return PYGRAPH_VERIFY_RAN_EAGERLY;
  }
  err = copy_all(vf, FROM_SHADOW);
  if (err != cudaSuccess) {
    b->clear_error();
    (void)copy_all(vf, FROM_SAVED);
    b->clear_error();
    stop(vf, "restoring the inputs failed: %s", b->error_name(err));
    return PYGRAPH_VERIFY_RAN_EAGERLY;
  }
  return PYGRAPH_VERIFY_ARMED;
}

/* The capture's launch and the first `replays` replays of each variant. */
static int wants(struct pygraph_verify *vf, unsigned slot, unsigned long long id)
{
  if (!vf->replays || vf->stopped || slot >= PYGRAPH_MAX_VARIANTS)
    return 0;
  if (vf->slots[slot].id != id) {
    vf->slots[slot].id = id;
    vf->slots[slot].runs = 0;
  }
  return vf->slots[slot].runs <= vf->replays;
}

enum pygraph_verify_step pygraph_verify_before(struct pygraph_verify *vf, unsigned slot,
                                               unsigned long long id,
                                               const struct pygraph_op_list *ops)
{
  if (!wants(vf, slot, id))
    return PYGRAPH_VERIFY_SKIP;
  vf->slots[slot].runs++;
  vf->ops = ops;
  vf->variant = id;
  if (!prepare(vf))
    return PYGRAPH_VERIFY_SKIP;
  vf->ran_twice = 1;
  return eager_then_restore(vf);
}

/* Step 7: the first range (in order of first use) and offset where the
 * graph's results differ from the eager ones.  Returns a copy's error. */
static cudaError_t compare(const struct pygraph_verify *vf, size_t *range, size_t *offset,
                           int *differs)
{
  const struct pygraph_backend *b = vf->backend;
  size_t chunk = vf->total < PYGRAPH_VERIFY_CHUNK ? vf->total : PYGRAPH_VERIFY_CHUNK;
  *differs = 0;
  for (size_t i = 0; i < vf->n_ranges; i++) {
    const struct pygraph_verify_range *r = &vf->ranges[i];
    for (size_t done = 0; done < r->size; done += chunk) {
      size_t n = r->size - done < chunk ? r->size - done : chunk;
      const unsigned char *eager = vf->saved + r->at + done;
      cudaError_t err = b->memory_copy(vf->chunk, r->base + done, n, vf->copy_stream);
      if (err == cudaSuccess)
        err = b->stream_synchronize(vf->copy_stream);
      if (err != cudaSuccess)
        return err;
      if (memcmp(vf->chunk, eager, n) == 0)
        continue;
      size_t k = 0;
      while (vf->chunk[k] == eager[k])
        k++;
      *range = i;
      *offset = done + k;
      *differs = 1;
      return cudaSuccess;
    }
  }
  return cudaSuccess;
}

/* A difference: named in the report, and at once on stderr with where the
 * op was launched and the two bytes. */
static void report_difference(struct pygraph_verify *vf, size_t i, size_t offset)
{
  const struct pygraph_verify_range *r = &vf->ranges[i];
  const struct pygraph_op *op = &vf->ops->ops[r->op];
  char buf[48];
  const char *name = pygraph_verify_op_name(vf, r->op, buf, sizeof buf);
  unsigned long long base = (unsigned long long)(uintptr_t)r->base;
  size_t chunk = vf->total < PYGRAPH_VERIFY_CHUNK ? vf->total : PYGRAPH_VERIFY_CHUNK;
  vf->stopped = 1;
  set_status(vf, "mismatch %s arg %zu buffer 0x%llx+0x%zx", name, r->arg, base, offset);
  fprintf(stderr,
          "pygraph: verify: " SEG_FMT ": graph #%llu differs from eager: %s (op %zu, %s:%u) "
          "arg %zu buffer 0x%llx+0x%zx: eager byte 0x%02x, graph byte 0x%02x\n",
          SEG_ARGS(vf), vf->variant, name, r->op,
          op->site && op->site->file ? op->site->file : "?", op->site ? op->site->line : 0,
          r->arg, base, offset, vf->saved[r->at + offset], vf->chunk[offset % chunk]);
}

void pygraph_verify_after(struct pygraph_verify *vf, int graph_ran)
{
  if (!graph_ran) {
    stop(vf, "graph #%llu did not run (graph fault)", vf->variant);
    return;
  }
  cudaError_t err = sync_streams(vf);
  if (err != cudaSuccess) {                   /* the program's: it stays CUDA's */
    stop(vf, "the graph run failed: %s", vf->backend->error_name(err));
    return;
  }
  size_t range = 0, offset = 0;
  int differs = 0;
  err = compare(vf, &range, &offset, &differs);
  if (err != cudaSuccess) {
    vf->backend->clear_error();
    stop(vf, "reading the graph's results failed: %s", vf->backend->error_name(err));
    return;
  }
  if (differs)
    report_difference(vf, range, offset);
  else
    set_status(vf, "ok %llu", ++vf->ok);
  release(vf);
}

int pygraph_verify_take_ran_twice(struct pygraph_verify *vf)
{
  int ran = vf->ran_twice;
  vf->ran_twice = 0;
  return ran;
}

const char *pygraph_verify_status(const struct pygraph_verify *vf)
{
  if (!vf->replays)
    return NULL;
  return vf->status ? vf->status : "off: out of memory";
}
