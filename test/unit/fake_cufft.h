/* fake_cufft.h - a stand-in for cuFFT in test_cufft_ops.c, linked instead
 * of it: the cuFFT adapter (cuda/cufft_entry_points.c) runs as it is
 * against the fake backend.
 *
 * Plans are small handles (1, 2, ...; a destroyed handle is given again),
 * each on a stream (cufftSetStream, logged ss(<plan>,<stream id>)).
 * cufftExecC2C works on host floats standing for device memory (out = 2
 * in, two floats a complex, `n` complexes: the plan's size) on the plan's
 * stream: made on FAKE_CAPTURE_STREAM it is captured, not run (logged
 * cap:fft(<plan>)), else it runs (logged fft(<plan>)).  A plan made with
 * size 0 answers CUFFT_INVALID_VALUE when executed. */
#ifndef PYGRAPH_TEST_FAKE_CUFFT_H
#define PYGRAPH_TEST_FAKE_CUFFT_H

#include <cufft.h>

struct fake_cufft_state {
  int runs, captures;                /* executions run / captured */
  int live_plans;                    /* made and not destroyed */
};
extern struct fake_cufft_state fake_cufft;

void fake_cufft_reset(void);

#endif /* PYGRAPH_TEST_FAKE_CUFFT_H */
