/* json_write.h - a streaming JSON writer (RFC 8259) on a stdio stream, for
 * the machine-readable report.  Values go straight to the stream (no
 * buffer, so nothing is cut short); strings are escaped ('"', '\\', the
 * control characters) and kept valid UTF-8: a byte that does not start a
 * well-formed UTF-8 sequence is written as U+FFFD.  Numbers that JSON cannot
 * hold (NaN, infinities) are written as null. */
#ifndef PYGRAPH_JSON_WRITE_H
#define PYGRAPH_JSON_WRITE_H

#include <stdio.h>

/* Nesting deeper than this is refused (error set, the value left out). */
#define PYGRAPH_JSON_MAX_DEPTH 16

struct pygraph_json {
  FILE *f;
  unsigned depth;                            /* open objects and arrays */
  int has_items[PYGRAPH_JSON_MAX_DEPTH];     /* per level: a value was written (a comma next) */
  int error;                                 /* nesting overflow or underflow */
};

void pygraph_json_init(struct pygraph_json *j, FILE *f);

/* `key`: the member's name inside an object; NULL at the top and in arrays. */
void pygraph_json_begin_object(struct pygraph_json *j, const char *key);
void pygraph_json_end_object(struct pygraph_json *j);
void pygraph_json_begin_array(struct pygraph_json *j, const char *key);
void pygraph_json_end_array(struct pygraph_json *j);

void pygraph_json_string(struct pygraph_json *j, const char *key, const char *value); /* NULL: null */
void pygraph_json_uint(struct pygraph_json *j, const char *key, unsigned long long value);
void pygraph_json_double(struct pygraph_json *j, const char *key, double value);
void pygraph_json_bool(struct pygraph_json *j, const char *key, int value);
void pygraph_json_null(struct pygraph_json *j, const char *key);

/* The quoted, escaped string alone (what pygraph_json_string writes). */
void pygraph_json_write_string(FILE *f, const char *s);

#endif /* PYGRAPH_JSON_WRITE_H */
