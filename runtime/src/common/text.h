/* text.h - reasons and other texts made at run time, whole.
 *
 * A reason the report prints may hold names of any length (a failing
 * step, a CUDA error name, another segment's reason): it is made on the
 * heap at its full length rather than cut to a buffer's size. */
#ifndef PYGRAPH_COMMON_TEXT_H
#define PYGRAPH_COMMON_TEXT_H

/* printf into a new heap string (the caller frees it); NULL when out of
 * memory or the format fails. */
char *pygraph_text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* PYGRAPH_COMMON_TEXT_H */
