/* test_launch_attrs.c - kernels launched with cudaLaunchKernelExC
 * attributes (record.h, pygraph_record_kernel_attrs): those a graph kernel
 * node holds too are deferred with the op, copied (the caller's array may
 * change after the call) and part of its signature; any other attribute
 * makes the iteration flush, the launch made as it is. */
#include "check.h"
#include "harness.h"

static cudaLaunchAttribute cluster(unsigned x)
{
  cudaLaunchAttribute a = {.id = cudaLaunchAttributeClusterDimension};
  a.val.clusterDim.x = x;
  a.val.clusterDim.y = 1;
  a.val.clusterDim.z = 1;
  return a;
}

static void iteration(pygraph_region *r, unsigned cluster_x)
{
  cudaLaunchAttribute a[2] = {cluster(cluster_x), {.id = cudaLaunchAttributePriority}};
  a[1].val.priority = 1;
  begin(r, 0);
  kernel_attrs(1, 5, a, 2);
  a[0].val.clusterDim.x = 99;            /* the caller's array changes after the call */
  kernel(2, 6);
  end(r);
}

static void test_node_attributes_replay(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("attrs_replay", 1);
  fake_reset();
  for (int i = 0; i < 4; i++)
    iteration(r, 2);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 0 && seg->stats.replays >= 2 && seg->cache.n_variants == 1);
  const struct pygraph_op *op = &seg->current->ops[0];
  CHECK(op->n_attrs == 2 && op->attrs && op->attrs[0].val.clusterDim.x == 2 &&
        op->attrs[1].id == cudaLaunchAttributePriority);
  /* Another cluster size is another launch sequence: a second variant. */
  for (int i = 0; i < 3; i++)
    iteration(r, 4);
  CHECK(seg->cache.n_variants == 2 && seg->stats.flushes == 0);
  CHECK(seg->current->ops[0].attrs[0].val.clusterDim.x == 4);
}

static void test_other_attributes_flush(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("attrs_flush", 1);
  fake_reset();
  cudaLaunchAttribute pdl = {.id = cudaLaunchAttributeProgrammaticStreamSerialization};
  pdl.val.programmaticStreamSerializationAllowed = 1;
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    kernel(2, 6);
    kernel_attrs(1, 5, &pdl, 1);
    end(r);
  }
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 2);
  CHECK_STR(seg->last_flush_reason, "a launch attribute with no graph-node form");
  CHECK(harness_count(fake_log(), "p:k1(5)") == 2);   /* made as it is, once each */
}

int main(void)
{
  test_node_attributes_replay();
  test_other_attributes_flush();
  return check_finish();
}
