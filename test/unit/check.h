/* check.h - the unit tests' assertion macro: report file:line, keep going,
 * count; check_finish() prints the tally and gives the exit status. */
#ifndef PYGRAPH_TEST_CHECK_H
#define PYGRAPH_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (cond) {                                                              \
      check_passed++;                                                        \
    } else {                                                                 \
      check_failed++;                                                        \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

/* String equality, showing both sides on failure. */
#define CHECK_STR(actual, expected)                                          \
  do {                                                                       \
    const char *check_a_ = (actual), *check_e_ = (expected);                 \
    if (check_a_ && strcmp(check_a_, check_e_) == 0) {                       \
      check_passed++;                                                        \
    } else {                                                                 \
      check_failed++;                                                        \
      fprintf(stderr, "%s:%d: CHECK_STR failed:\n  actual:   \"%s\"\n  expected: \"%s\"\n", \
              __FILE__, __LINE__, check_a_ ? check_a_ : "(null)", check_e_); \
    }                                                                        \
  } while (0)

static inline int check_finish(void)
{
  printf("%d passed, %d failed\n", check_passed, check_failed);
  return check_failed ? 1 : 0;
}

#endif /* PYGRAPH_TEST_CHECK_H */
