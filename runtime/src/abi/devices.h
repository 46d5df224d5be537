/* devices.h - several devices in one region iteration (issue 20).
 *
 * A program drives several GPUs from one host thread by setting the
 * current device before each one's launches (`cudaSetDevice(d)` then
 * launches on d's streams, in a loop over the devices).  The pass routes
 * cudaSetDevice (it is no barrier inside a region); the runtime keeps one
 * segment state per (thread, device): each records its device's ops, and
 * builds, instantiates and replays its own graph on its device, with its
 * own argument blocks, loaders and capture stream, so that a fault stays
 * with its device.  At the iteration's end (and at every flush) each state
 * ends (flushes) with its device made current, and the device the program
 * set last is made current again.
 *
 * Why independent per-device states are sound: two devices' work is
 * ordered only by the host (a synchronization: a barrier, which ends the
 * iteration first) or by an event of one waited on by the other's stream;
 * a wait on an event recorded by another device's state in the same
 * iteration would have to be an edge between graphs, so it flushes (see
 * record.c), as do peer copies (a copy whose memory is not the current
 * device's is no device-to-device copy of one device).
 *
 * Choices: the states of a multi-device iteration make graph mode's choices
 * (segment.h, pygraph_segment_note_devices), so every device's state
 * captures and replays at the same iterations; one that goes eager for
 * good (a fault) takes the others with it at the iteration's end.  Any
 * state that cannot record (no slot, passing through) stops the whole
 * iteration's recording: deferring one device while another runs at once
 * could reorder a cross-device event wait.
 *
 * Knowing the device: the runtime asks the device (cudaGetDevice) only at a
 * routed cudaSetDevice and, once any thread changed its device, at each
 * region begin, to take that device's state: a region entered after the
 * program set the device outside it then runs on that device's state.  A
 * process that never changes its device asks nothing. */
#ifndef PYGRAPH_DEVICES_H
#define PYGRAPH_DEVICES_H

#include "port/backend.h"
#include "pygraph_rt.h"
#include "segment/segment.h"

/* Has any thread changed its device through a routed cudaSetDevice? */
int pygraph_devices_changed(void);

/* A routed cudaSetDevice changed the calling thread's device from `prev`
 * (-1: not known): the flag above is set, and at the thread's first change
 * its states of unknown device are marked as running on `prev`. */
void pygraph_devices_note_change(int prev);

/* A live iteration begins (or ends): its home state (the one its begin
 * took) runs on `device` (-1: not known), and it holds no other device's
 * state yet. */
void pygraph_devices_begin(int device);

/* Does the live iteration hold states of several devices?  And has it
 * changed its device at all (its home state's device then known, the
 * other state's, if any, failed to join)?  Then its stops and its end go
 * through pygraph_devices_stop and pygraph_devices_end. */
int pygraph_devices_several(void);
int pygraph_devices_held(void);

/* The device the live iteration is on (its begin's, or its last change's),
 * -1 when not known (the process never changed devices). */
int pygraph_devices_current(void);

/* Has a state of the live iteration other than `seg` recorded a record of
 * or a wait on `event`?  Such an event orders two devices' work inside the
 * iteration, which independent graphs cannot: the caller flushes. */
int pygraph_devices_event_elsewhere(const struct pygraph_segment *seg, cudaEvent_t event);

/* The live iteration (segment `index` of `region`, home state `home`, all
 * of whose states record) moved from device `prev` to `device`: the state
 * that records `device`'s ops from now on, begun when new.  NULL with *why
 * when the iteration must stop recording (the caller stops it with
 * pygraph_devices_stop). */
struct pygraph_segment *pygraph_devices_switch(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index,
                                               struct pygraph_segment *home, int prev,
                                               int device, const char **why);

/* The live iteration stops recording: every state of it runs what it
 * recorded (flush, or with `yield` pygraph_segment_yield_to_program_capture),
 * each with its device current; then the program's device is current again. */
void pygraph_devices_stop(struct pygraph_segment *home, const char *reason, int yield);

/* The live iteration ends: every state ends its iteration with its device
 * current and is released; the program's device is current again; when one
 * went eager for good, every other does too. */
void pygraph_devices_end(struct pygraph_segment *home);

#endif /* PYGRAPH_DEVICES_H */
