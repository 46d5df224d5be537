/* json_write.c - see json_write.h.  Two-space indentation, one member per
 * line.  Numbers are formatted without printf's %f/%g: those follow the
 * program's locale (a decimal comma would make the document invalid). */
#include "common/json_write.h"

#include <math.h>

void pygraph_json_init(struct pygraph_json *j, FILE *f)
{
  *j = (struct pygraph_json){.f = f};
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), 0 when there is none. */
static unsigned utf8_length(const unsigned char *s)
{
  unsigned char c = s[0];
  unsigned char lo = 0x80, hi = 0xbf;
  unsigned n;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    lo = c == 0xe0 ? 0xa0 : 0x80;
    hi = c == 0xed ? 0x9f : 0xbf;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    lo = c == 0xf0 ? 0x90 : 0x80;
    hi = c == 0xf4 ? 0x8f : 0xbf;
  } else {
    return 0;
  }
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (unsigned i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xbf)
      return 0;
  return n;
}

static void write_escaped_char(FILE *f, unsigned char c)
{
  switch (c) {
  case '"': fputs("\\\"", f); break;
  case '\\': fputs("\\\\", f); break;
  case '\b': fputs("\\b", f); break;
  case '\f': fputs("\\f", f); break;
  case '\n': fputs("\\n", f); break;
  case '\r': fputs("\\r", f); break;
  case '\t': fputs("\\t", f); break;
  default: fprintf(f, "\\u%04x", c); break;
  }
}

void pygraph_json_write_string(FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *)s;
  putc('"', f);
  while (*p) {
    if (*p == '"' || *p == '\\' || *p < 0x20) {
      write_escaped_char(f, *p++);
    } else if (*p < 0x80) {
      putc(*p++, f);
    } else {
      unsigned n = utf8_length(p);
      if (n) {
        fwrite(p, 1, n, f);
        p += n;
      } else {
        fputs("\\ufffd", f);                  /* not UTF-8: the replacement character */
        p++;
      }
    }
  }
  putc('"', f);
}

/* The separator, indentation and key before a value. */
static void member(struct pygraph_json *j, const char *key)
{
  if (j->depth > 0) {
    fputs(j->has_items[j->depth - 1] ? ",\n" : "\n", j->f);
    j->has_items[j->depth - 1] = 1;
  }
  for (unsigned i = 0; i < j->depth; i++)
    fputs("  ", j->f);
  if (key) {
    pygraph_json_write_string(j->f, key);
    fputs(": ", j->f);
  }
}

static void open_level(struct pygraph_json *j, const char *key, char bracket)
{
  if (j->depth >= PYGRAPH_JSON_MAX_DEPTH) {
    j->error = 1;
    return;
  }
  member(j, key);
  putc(bracket, j->f);
  j->has_items[j->depth++] = 0;
}

static void close_level(struct pygraph_json *j, char bracket)
{
  if (j->depth == 0) {
    j->error = 1;
    return;
  }
  if (j->has_items[--j->depth]) {
    putc('\n', j->f);
    for (unsigned i = 0; i < j->depth; i++)
      fputs("  ", j->f);
  }
  putc(bracket, j->f);
  if (j->depth == 0)
    putc('\n', j->f);
}

void pygraph_json_begin_object(struct pygraph_json *j, const char *key)
{
  open_level(j, key, '{');
}

void pygraph_json_end_object(struct pygraph_json *j)
{
  close_level(j, '}');
}

void pygraph_json_begin_array(struct pygraph_json *j, const char *key)
{
  open_level(j, key, '[');
}

void pygraph_json_end_array(struct pygraph_json *j)
{
  close_level(j, ']');
}

void pygraph_json_string(struct pygraph_json *j, const char *key, const char *value)
{
  member(j, key);
  if (value)
    pygraph_json_write_string(j->f, value);
  else
    fputs("null", j->f);
}

void pygraph_json_uint(struct pygraph_json *j, const char *key, unsigned long long value)
{
  member(j, key);
  fprintf(j->f, "%llu", value);
}

/* Three decimals, from integers (locale-free); beyond 2^53 thousandths the
 * whole number alone. */
void pygraph_json_double(struct pygraph_json *j, const char *key, double value)
{
  member(j, key);
  if (!isfinite(value)) {
    fputs("null", j->f);
    return;
  }
  double mag = fabs(value);
  const char *sign = value < 0 ? "-" : "";
  if (mag < 9.0e12) {
    long long thousandths = llround(mag * 1000.0);
    if (thousandths == 0)
      sign = "";
    fprintf(j->f, "%s%lld.%03lld", sign, thousandths / 1000, thousandths % 1000);
  } else {
    fprintf(j->f, "%s%.0f", sign, mag);
  }
}

void pygraph_json_bool(struct pygraph_json *j, const char *key, int value)
{
  member(j, key);
  fputs(value ? "true" : "false", j->f);
}

void pygraph_json_null(struct pygraph_json *j, const char *key)
{
  member(j, key);
  fputs("null", j->f);
}
