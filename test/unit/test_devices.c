/* test_devices.c - several devices in one region (issue 20, abi/devices.h):
 * a loop setting each device before its launches records one segment
 * state per device, each builds and replays its own graph with its device
 * current, and the program's device is current again after every end and
 * flush; a fault on one device sends the region eager with nothing run
 * twice; cross-device events and peer copies flush; a region entered on
 * another device takes that device's state.  The process-wide "devices
 * changed" flag stays set once a test changed the device: the tests run in
 * this order on purpose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "abi/devices.h"
#include "abi/record.h"
#include "abi/report.h"
#include "common/settings.h"

#define S_DEV0 S1
#define S_DEV1 S2

static void set_device(int device)
{
  CHECK(pygraph_region_set_device(&fake_backend, device) == cudaSuccess);
}

/* One iteration of the program's loop over two devices: kernel 1 on
 * device 0, kernel 2 on device 1, each with argument `arg`. */
static void two_device_iteration(pygraph_region *r, int arg)
{
  begin(r, 0);
  set_device(0);
  kernel_on(1, arg, S_DEV0);
  set_device(1);
  kernel_on(2, arg, S_DEV1);
  end(r);
}

static pygraph_region *two_devices_region;  /* the first test's, reported by the second */

static void test_two_devices_replay_per_device_graphs(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = two_devices_region = harness_region("two_devices", 1);
  fake_reset();
  fake.devices = 2;
  CHECK(!pygraph_devices_changed());
  two_device_iteration(r, 0);               /* warm-up: each op ran as it came */
  CHECK_STR(fake_log(), "k1(0) dev1 k2(0) dev0 dev1");
  CHECK(pygraph_devices_changed());
  CHECK(fake_device == 1);                  /* the program's device */
  fake_log_clear();
  two_device_iteration(r, 1);               /* graph mode's choices: captured now */
  /* The iteration began on device 1 (its state first), then device 0's. */
  CHECK_STR(fake_log(), "dev0 dev1 build(0) inst launch dev0 build(0) inst launch dev1");
  CHECK(fake_device == 1);
  for (int i = 2; i < 5; i++) {
    fake_log_clear();
    two_device_iteration(r, i);
    CHECK_STR(fake_log(), "dev0 dev1 upd0 launch dev0 upd0 launch dev1");
  }
  const struct pygraph_segment *dev0 = harness_thread_segment(r, 0, 0);
  const struct pygraph_segment *dev1 = harness_thread_segment(r, 0, 1);
  CHECK(dev0 && dev1 && dev0 != dev1);
  CHECK(pygraph_region_thread_device(r->state, 0, 0) == 0);
  CHECK(pygraph_region_thread_device(r->state, 0, 1) == 1);
  CHECK(dev0->stats.replays == 3 && dev1->stats.replays == 3);
  CHECK(dev0->stats.captures == 1 && dev1->stats.captures == 1);
  CHECK(dev0->stats.flushes == 0 && dev1->stats.flushes == 0);
  /* Each graph holds its own device's kernel. */
  CHECK(dev0->cache.active && dev0->cache.active->ref->ops[0].stream == S_DEV0);
  CHECK(dev1->cache.active && dev1->cache.active->ref->ops[0].stream == S_DEV1);
}

/* Device 1's graph launch fails: its ops run eagerly once, device 0's
 * graph ran; both states go eager for good, and the next iterations pass
 * through (each op once, as it comes). */
static void test_fault_on_one_device_goes_eager_together(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("fault_one_device", 1);
  fake_reset();
  fake.devices = 2;
  fake_device = 1;
  for (int i = 0; i < 3; i++)
    two_device_iteration(r, 7);             /* same arguments: replays just launch */
  fake_log_clear();
  fake.fail_on_device = 2;                  /* device 1 */
  two_device_iteration(r, 7);
  CHECK_STR(fake_log(), "dev0 dev1 launch! clear destroy k2(7) dev0 launch destroy dev1");
  fake.fail_on_device = 0;
  fake_log_clear();
  two_device_iteration(r, 8);
  CHECK_STR(fake_log(), "dev0 p:k1(8) dev1 p:k2(8)");
  const struct pygraph_segment *a = harness_thread_segment(r, 0, 0);
  const struct pygraph_segment *b = harness_thread_segment(r, 0, 1);
  CHECK(a && b && a->final && b->final);
  CHECK(strstr(a->fallback, "graph launch failed") || strstr(b->fallback, "graph launch failed"));
  CHECK(strstr(a->fallback, "another device") || strstr(b->fallback, "another device"));
}

/* An event recorded on device 0 and waited on by device 1's stream in the
 * same iteration: independent graphs cannot order it, so the iteration
 * flushes (each state on its device) and the rest passes through. */
static void test_cross_device_event_flushes(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("cross_event", 1);
  fake_reset();
  fake.devices = 2;
  fake_device = 1;
  for (int i = 0; i < 3; i++) {
    fake_log_clear();
    begin(r, 0);
    set_device(0);
    kernel_on(1, i, S_DEV0);
    event_record(5, S_DEV0);
    set_device(1);
    event_wait(S_DEV1, 5);
    kernel_on(2, i, S_DEV1);
    end(r);
  }
  /* Every iteration flushed at the wait, so each stays a warm-up whose ops
   * run as they come (device 0's kernel and record, on device 0); the
   * flush ran nothing more but made each state's device current and the
   * program's again; the wait and the kernel passed through; the end made
   * each device current in turn. */
  CHECK_STR(fake_log(), "dev0 k1(2) er5 dev1 dev0 dev1 p:ew5 p:k2(2) dev0 dev1");
  const struct pygraph_segment *dev0 = harness_thread_segment(r, 0, 0);
  CHECK(dev0 && dev0->stats.flushes >= 1);
  CHECK_STR(dev0->last_flush_reason, "event used by two devices in the iteration");
  CHECK(fake_device == 1);
}

/* A copy from device 1's memory recorded while the iteration is on device
 * 0 (a peer copy) flushes. */
static void test_peer_copy_flushes(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("peer_copy", 1);
  fake_reset();
  fake.devices = 2;
  fake.buffer_device = 1;
  fake_device = 0;
  void *other = fake_buffer(64);
  begin(r, 0);
  kernel_on(1, 0, S_DEV0);
  struct pygraph_segment *seg = pygraph_recording_segment();
  CHECK(seg != NULL);
  CHECK(pygraph_record_memcpy(seg, (void *)0x7000, other, 64, cudaMemcpyDeviceToDevice,
                              S_DEV0) == PYGRAPH_RUN_NOW);
  CHECK(pygraph_recording_segment() == NULL);
  end(r);
  CHECK_STR(seg->last_flush_reason, "copy of another device's memory (peer copy)");
}

/* Once devices changed, a region without a device change inside takes the
 * state of the device the program set outside it. */
static void test_region_entered_on_another_device(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("entered", 1);
  fake_reset();
  fake.devices = 2;
  const struct pygraph_segment *on[2] = {NULL, NULL};
  for (int i = 0; i < 4; i++) {
    int d = i % 2;
    set_device(d);                          /* outside the region */
    begin(r, 0);
    on[d] = pygraph_recording_segment();
    kernel_on(1, i, d ? S_DEV1 : S_DEV0);
    kernel_on(2, i, d ? S_DEV1 : S_DEV0);
    end(r);
  }
  CHECK(on[0] && on[1] && on[0] != on[1]);
  CHECK(on[0]->cache.active && on[0]->cache.active->ref->ops[0].stream == S_DEV0);
  CHECK(on[1]->cache.active && on[1]->cache.active->ref->ops[0].stream == S_DEV1);
}

/* A batchable loop's unit that changes the device (the pass never makes
 * one: a flush, not a guess). */
static void test_device_change_in_batch_unit_flushes(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("batch_devices", 8);
  fake_reset();
  fake.devices = 2;
  set_device(0);
  loop_enter(r, 100);
  begin(r, 0);
  kernel_on(1, 0, S_DEV0);
  struct pygraph_segment *seg = pygraph_recording_segment();
  set_device(1);
  CHECK(pygraph_recording_segment() == NULL);
  end(r);
  loop_exit(r);
  CHECK(seg && seg->last_flush_reason &&
        strcmp(seg->last_flush_reason, "device changed in a batchable loop's unit") == 0);
}

/* The report tells a segment's states apart by thread slot and device:
 * " thread=<slot> device=<d>" on the text line, "device" in the JSON. */
static void test_report_names_devices(void)
{
  char line[1024];
  pygraph_region *r = two_devices_region;
  pygraph_report_format_segment_thread(line, sizeof line, harness_thread_segment(r, 0, 1), 1,
                                       pygraph_region_thread_device(r->state, 0, 1));
  size_t n = strlen(line);
  CHECK(n > 19 && strcmp(line + n - 19, " thread=1 device=1\n") == 0);

  char path[] = "/tmp/pygraph_test_devices_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  close(fd);
  struct pygraph_settings s = *pygraph_settings();
  s.report_json = path;
  pygraph_settings_override(&s);
  pygraph_report_at_exit();
  s.report_json = NULL;
  pygraph_settings_override(&s);
  FILE *f = fopen(path, "r");
  static char text[1 << 16];
  size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f)
    fclose(f);
  remove(path);
  text[got] = '\0';
  const char *two = strstr(text, "\"function\": \"two_devices\"");
  CHECK(two != NULL);
  CHECK(two && strstr(two, "\"device\": 0") && strstr(two, "\"device\": 1"));
}

int main(void)
{
  test_two_devices_replay_per_device_graphs();
  test_report_names_devices();
  test_fault_on_one_device_goes_eager_together();
  test_cross_device_event_flushes();
  test_peer_copy_flushes();
  test_region_entered_on_another_device();
  test_device_change_in_batch_unit_flushes();
  return check_finish();
}
