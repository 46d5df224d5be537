/* allow_names.c - the names allow= takes, and which callees they name
 * (allow_names.h). */
#include "allow_names.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Length of "operator" and the token after it at p when p starts an
 * operator's name, 0 else: the brackets and commas of "operator<<",
 * "operator()" or "operator," are no brackets or separators. */
static size_t operator_len(const char *start, const char *p) {
  static const char *const kTokens[] = {"()", "[]", "<<=", ">>=", "<=>", "->*", "<<",
                                        ">>", "<=", ">=", "->", "<", ">", ","};
  if (strncmp(p, "operator", 8) != 0 || (p > start && is_ident(p[-1])) || is_ident(p[8]))
    return 0;
  size_t len = 8;
  while (p[len] == ' ')
    ++len;
  for (size_t i = 0; i < sizeof kTokens / sizeof kTokens[0]; ++i)
    if (strncmp(p + len, kTokens[i], strlen(kTokens[i])) == 0)
      return len + strlen(kTokens[i]);
  return len;
}

/* s[0..len) with spaces only between two identifier characters, one each. */
static char *normalised(const char *s, size_t len) {
  char *out = malloc(len + 1);
  size_t o = 0;
  if (!out)
    pg_out_of_memory();
  for (size_t i = 0; i < len; ++i) {
    if (!isspace((unsigned char)s[i])) {
      out[o++] = s[i];
      continue;
    }
    while (i + 1 < len && isspace((unsigned char)s[i + 1]))
      ++i;
    if (o && is_ident(out[o - 1]) && i + 1 < len && is_ident(s[i + 1]))
      out[o++] = ' ';
  }
  out[o] = 0;
  return out;
}

/* name without template arguments: "ns::Timer<int>::start<2>" gives
 * "ns::Timer::start". */
static char *without_templates(const char *name) {
  char *out = malloc(strlen(name) + 1);
  size_t o = 0;
  unsigned depth = 0;
  if (!out)
    pg_out_of_memory();
  for (const char *p = name; *p;) {
    size_t op = depth ? 0 : operator_len(name, p);
    if (op) {
      memcpy(out + o, p, op);
      o += op;
      p += op;
      continue;
    }
    if (*p == '<')
      ++depth;
    else if (*p == '>' && depth)
      --depth;
    else if (!depth)
      out[o++] = *p;
    ++p;
  }
  out[o] = 0;
  return out;
}

int pg_allow_split(const char *list, char ***names, unsigned *n) {
  char **got = NULL;
  unsigned ngot = 0, cap = 0, depth = 0;
  const char *start = list;
  for (const char *p = list;; ++p) {
    size_t op = operator_len(list, p);
    if (op) {
      p += op - 1;
      continue;
    }
    if (*p == '(' || *p == '<' || *p == '[') {
      ++depth;
    } else if ((*p == ')' || *p == '>' || *p == ']') && depth) {
      --depth;
    } else if (!*p || (*p == ',' && !depth)) {
      char *name = normalised(start, (size_t)(p - start));
      PG_PUSH(got, ngot, cap, name);
      if (!name[0]) {
        for (unsigned i = 0; i < ngot; ++i)
          free(got[i]);
        free(got);
        return 0;
      }
      if (!*p)
        break;
      start = p + 1;
    }
  }
  *names = realloc(*names, (*n + ngot) * sizeof **names);
  if (!*names)
    pg_out_of_memory();
  memcpy(*names + *n, got, ngot * sizeof *got);
  *n += ngot;
  free(got);
  return 1;
}

int pg_allow_matches(char *const *names, unsigned n, const char *symbol) {
  if (!n)
    return 0;
  char *raw = pg_demangle(symbol);
  char *sig = normalised(raw, strlen(raw));
  free(raw);
  raw = pg_demangle_function_name(symbol);
  char *qual = raw ? normalised(raw, strlen(raw)) : NULL;
  char *bare = qual ? without_templates(qual) : NULL;
  free(raw);
  int ok = 0;
  for (unsigned i = 0; i < n && !ok; ++i)
    ok = strcmp(names[i], symbol) == 0 || strcmp(names[i], sig) == 0 ||
         (qual && (strcmp(names[i], qual) == 0 || strcmp(names[i], bare) == 0));
  free(bare);
  free(qual);
  free(sig);
  return ok;
}

char *pg_allow_option(const char *symbol) {
  char *raw = pg_demangle_function_name(symbol);
  char *qual = raw ? normalised(raw, strlen(raw)) : NULL;
  char *bare = qual ? without_templates(qual) : normalised(symbol, strlen(symbol));
  int plain = 1;
  for (const char *p = bare; *p; ++p)
    plain &= isalnum((unsigned char)*p) || *p == '_' || *p == ':' || *p == '.';
  const char *quote = plain ? "" : "'";
  char *option = pg_strf("%s-fplugin-arg-pygraph-allow=%s%s", quote, bare, quote);
  free(bare);
  free(qual);
  free(raw);
  return option;
}
