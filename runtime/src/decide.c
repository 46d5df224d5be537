/* decide.c - the capture policy.  auto currently behaves like graph mode
 * with PYGRAPH_WARMUP warm-up iterations. */
#include "decide.h"

enum pygraph_decision pygraph_decide(const struct pygraph_settings *settings,
                                     const struct pygraph_decide_input *in,
                                     const char **reason)
{
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    *reason = "PYGRAPH_MODE=eager";
    return PYGRAPH_GO_EAGER;
  }
  if (settings->max_captures == 0) {
    *reason = "PYGRAPH_MAX_CAPTURES=0";
    return PYGRAPH_GO_EAGER;
  }
  if (in->captures >= settings->max_captures) {
    *reason = "signature unstable";
    return PYGRAPH_GO_EAGER;
  }
  if (in->stable_iterations >= pygraph_effective_warmup(settings))
    return PYGRAPH_CAPTURE_NEXT;
  return PYGRAPH_KEEP_WARMING;
}
