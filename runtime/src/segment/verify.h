/* verify.h - verify mode (PYGRAPH_VERIFY): does a graph compute what the
 * eager calls it replaces compute?  Each graph variant's first run (its
 * capture's launch) and its first N replays (N = PYGRAPH_VERIFY's count)
 * run the iteration twice on the same inputs, eagerly and as the graph,
 * and the memory they wrote is compared bit for bit.
 *
 * Which memory: the device (or managed) allocations the iteration's ops
 * are given - every pointer-aligned word of a kernel's arguments whose
 * value lies in one (backend->allocation_of; pointers inside by-value
 * structs included), a memset's or memcpy's destination.  One run:
 *   1. wait for what the ops depend on (their streams, and the events of
 *      their waits on work from before the iteration);
 *   2. snapshot those allocations into a device shadow;
 *   3. run the ops eagerly (the real calls, on the real buffers) and wait;
 *   4. save what they left into host memory;
 *   5. put the snapshot back;
 *   6. the graph runs the iteration (the state machine launches it as
 *      usual) and is waited for;
 *   7. read the allocations back a chunk at a time and compare with 4.
 * The graph's results stay: the program goes on from the graph's run, as
 * it would without verify mode, and both runs started from the same inputs.
 * A difference is reported once (stderr at the time, the report's
 * verify=) as the first op, in iteration order, given a buffer that
 * differs, which argument, and the first byte that differs; verification
 * then stops for the segment.
 *
 * Never twice visible, never lost: a CUDA error before step 3 turns
 * verification off for the segment (the graph runs as usual); an error of
 * the eager run, or while saving or restoring, leaves the eager run as the
 * iteration's one run (PYGRAPH_VERIFY_RAN_EAGERLY: the graph must not run;
 * a failed restore first puts the eager results back).  The program's own
 * errors stay CUDA's; pygraph's copies' errors are cleared.
 *
 * An iteration whose ops are given host memory CUDA knows (pinned, mapped,
 * registered: a kernel may write it, and host threads may watch it) is not
 * verified: verification goes off for the segment, naming the op.
 *
 * Limits: memory the ops reach without being given its allocation
 * (pointers stored in device memory, __device__ variables, system memory
 * reached through HMM) is not shadowed: writes there happen twice, which
 * is harmless when they are idempotent and otherwise changes what the
 * program computes (an atomic counter counts the iteration twice) and may
 * be reported as a difference.  Allocations over PYGRAPH_VERIFY_MAX_BYTES in
 * all are not verified.  Which op is named is a hint: the first one given
 * the buffer, which may read it rather than write it. */
#ifndef PYGRAPH_VERIFY_H
#define PYGRAPH_VERIFY_H

#include "common/settings.h"
#include "port/backend.h"
#include "pygraph_rt.h"
#include "recording/op_list.h"

/* An allocation the iteration's ops are given. */
struct pygraph_verify_range {
  unsigned char *base;                       /* device address */
  size_t size;
  size_t op;                                 /* the first op given it, */
  size_t arg;                                /* as this argument (a destination: 0) */
  size_t at;                                 /* its place in the shadow and the saved copy */
};

enum pygraph_verify_step {
  PYGRAPH_VERIFY_SKIP,         /* not verified: the graph runs as usual */
  PYGRAPH_VERIFY_ARMED,        /* inputs restored: the graph runs next, then
                                  pygraph_verify_after */
  PYGRAPH_VERIFY_RAN_EAGERLY   /* the eager run is the iteration's run (verification
                                  failed after it): the graph must not run */
};

struct pygraph_verify {
  const struct pygraph_backend *backend;
  const pygraph_region *region;              /* for messages */
  unsigned index;
  unsigned replays;                          /* PYGRAPH_VERIFY: replays per variant; 0: off */
  int stopped;                               /* off, or a difference found: no more runs */
  unsigned long long ok;                     /* graph runs found equal */
  char *status;                              /* the report's text (malloc'ed; NULL: none) */
  /* Graph runs verified per cache slot, for the variant `id` it holds. */
  struct {
    unsigned long long id;
    unsigned runs;
  } slots[PYGRAPH_MAX_VARIANTS];
  int ran_twice;                             /* this iteration's eager part ran: its
                                                timing says nothing */
  /* The run under way (arrays kept for the next). */
  const struct pygraph_op_list *ops;
  unsigned long long variant;
  struct pygraph_verify_range *ranges;
  size_t n_ranges, cap_ranges;
  cudaStream_t *streams;                     /* the ops' streams, each once */
  size_t n_streams, cap_streams;
  cudaStream_t copy_stream;                  /* where the copies go */
  size_t total;                              /* bytes of all ranges */
  int host_memory;                           /* an op is given host memory CUDA knows: */
  size_t host_op, host_arg;                  /* the first one, and which argument */
  size_t library_op;                         /* the first library call (its buffers are
                                                the library's business), or n_ops */
  void *shadow;                              /* device: the inputs */
  unsigned char *saved;                      /* host: the eager results */
  unsigned char *chunk;                      /* host: the graph's, a chunk at a time */
};

void pygraph_verify_init(struct pygraph_verify *vf, const struct pygraph_backend *backend,
                         const struct pygraph_settings *settings, const pygraph_region *region,
                         unsigned index);
/* Frees what init allocated, for a segment state never published. */
void pygraph_verify_discard(struct pygraph_verify *vf);

/* Before the graph of the variant in cache slot `slot` (capture number
 * `id`) runs `ops` (materialized): steps 1-5 when this run is one to
 * verify. */
enum pygraph_verify_step pygraph_verify_before(struct pygraph_verify *vf, unsigned slot,
                                               unsigned long long id,
                                               const struct pygraph_op_list *ops);

/* After an ARMED run: `graph_ran` (else a graph fault ran the ops eagerly
 * once more, from the restored inputs), steps 6-7. */
void pygraph_verify_after(struct pygraph_verify *vf, int graph_ran);

/* Did this iteration run its ops eagerly for verification?  (Cleared.) */
int pygraph_verify_take_ran_twice(struct pygraph_verify *vf);

/* The report's text: "ok <n>", "mismatch <kernel> arg <i> buffer
 * <base>+<offset>" or "off: <why>"; NULL when PYGRAPH_VERIFY is off. */
const char *pygraph_verify_status(const struct pygraph_verify *vf);

#endif /* PYGRAPH_VERIFY_H */
