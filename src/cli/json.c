// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - a strict recursive-descent JSON reader (RFC 8259).
 *
 * Rejects what the RFC rejects: trailing commas, leading zeros, bare
 * control characters in strings, unpaired surrogates, trailing garbage.
 * Nesting is limited so that hostile input cannot exhaust the stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define JSON_MAX_DEPTH 64

struct reader {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct reader *r, const char *what)
{
	size_t line = 1, col = 1;
	const char *q;

	if (r->failed)
		return;
	for (q = r->start; q < r->p && q < r->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(r->err, r->errlen, "line %zu, column %zu: %s", line, col,
		 what);
	r->failed = true;
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
				 *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static struct json *new_value(struct reader *r, enum json_type type)
{
	struct json *v = calloc(1, sizeof(*v));

	if (!v)
		fail(r, "out of memory");
	else
		v->type = type;
	return v;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return false;
	r->p += n;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One or more digits; false if there is none. */
static bool digits(struct reader *r)
{
	const char *s = r->p;

	while (r->p < r->end && is_digit(*r->p))
		r->p++;
	return r->p > s;
}

static struct json *parse_number(struct reader *r)
{
	const char *s = r->p;
	char buf[64];
	struct json *v;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;		/* no leading zeros */
	else if (!digits(r))
		goto bad;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (!digits(r))
			goto bad;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (!digits(r))
			goto bad;
	}
	if ((size_t)(r->p - s) >= sizeof(buf)) {
		fail(r, "number too long");
		return NULL;
	}
	memcpy(buf, s, (size_t)(r->p - s));
	buf[r->p - s] = '\0';
	v = new_value(r, JSON_NUMBER);
	if (v)
		v->number = strtod(buf, NULL);
	return v;
bad:
	fail(r, "invalid number");
	return NULL;
}

static int hex4(struct reader *r)
{
	int v = 0, i;

	if (r->end - r->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = *r->p++;

		v <<= 4;
		if (is_digit(c))
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape, with a surrogate pair joined; -1 on a malformed one. */
static long unicode_escape(struct reader *r)
{
	int hi = hex4(r), lo;

	if (hi < 0)
		return -1;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return -1;
	if (hi < 0xd800 || hi > 0xdbff)
		return hi;
	if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
		return -1;
	r->p += 2;
	lo = hex4(r);
	if (lo < 0xdc00 || lo > 0xdfff)
		return -1;
	return 0x10000 + ((long)(hi - 0xd800) << 10) + (lo - 0xdc00);
}

/* The string at r->p (after its quote), unescaped; NULL on error. */
static char *parse_string(struct reader *r)
{
	/*
	 * An escape never gets longer when decoded, so the raw length up to
	 * the closing quote bounds the string: allocate that, not the rest of
	 * the input (which made a file of many strings quadratic).
	 */
	const char *q = r->p;
	char *out, *o;
	long cp;

	while (q < r->end && *q != '"')
		q += *q == '\\' && q + 1 < r->end ? 2 : 1;
	out = malloc((size_t)(q - r->p) + 1);
	o = out;

	if (!out) {
		fail(r, "out of memory");
		return NULL;
	}
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;

		if (c < 0x20) {
			fail(r, "control character in a string");
			goto bad;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		if (r->p >= r->end)
			break;
		switch (*r->p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			cp = unicode_escape(r);
			if (cp < 0) {
				fail(r, "invalid \\u escape");
				goto bad;
			}
			o += put_utf8(o, (unsigned long)cp);
			break;
		default:
			fail(r, "invalid escape");
			goto bad;
		}
	}
	if (r->p >= r->end) {
		fail(r, "unterminated string");
		goto bad;
	}
	r->p++;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static struct json *parse_value(struct reader *r, int depth);

static bool append(struct reader *r, struct json *v, char *key,
		   struct json *item)
{
	struct json **items = realloc(v->items, (v->n + 1) * sizeof(*items));
	char **keys;

	if (!items) {
		fail(r, "out of memory");
		return false;
	}
	v->items = items;
	if (v->type == JSON_OBJECT) {
		keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));
		if (!keys) {
			fail(r, "out of memory");
			return false;
		}
		v->keys = keys;
		v->keys[v->n] = key;
	}
	v->items[v->n++] = item;
	return true;
}

/* An array or object; r->p is just past its opening bracket. */
static struct json *parse_container(struct reader *r, int depth, bool obj)
{
	struct json *v = new_value(r, obj ? JSON_OBJECT : JSON_ARRAY), *item;
	char close = obj ? '}' : ']', *key = NULL;

	if (!v)
		return NULL;
	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return v;
	}
	for (;;) {
		skip_ws(r);
		if (obj) {
			if (r->p >= r->end || *r->p != '"') {
				fail(r, "expected a member name");
				goto bad;
			}
			r->p++;
			key = parse_string(r);
			if (!key)
				goto bad;
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':') {
				fail(r, "expected ':'");
				goto bad;
			}
			r->p++;
		}
		item = parse_value(r, depth + 1);
		if (!item || !append(r, v, key, item)) {
			json_free(item);
			goto bad;
		}
		key = NULL;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return v;
		}
		fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		goto bad;
	}
bad:
	free(key);
	json_free(v);
	return NULL;
}

static struct json *parse_value(struct reader *r, int depth)
{
	struct json *v;

	if (depth > JSON_MAX_DEPTH) {
		fail(r, "nested too deeply");
		return NULL;
	}
	skip_ws(r);
	if (r->p >= r->end) {
		fail(r, "unexpected end of input");
		return NULL;
	}
	switch (*r->p) {
	case '{':
	case '[':
		r->p++;
		return parse_container(r, depth, r->p[-1] == '{');
	case '"':
		r->p++;
		v = new_value(r, JSON_STRING);
		if (v && !(v->string = parse_string(r))) {
			free(v);
			return NULL;
		}
		return v;
	case 't':
	case 'f':
		if (literal(r, "true") || literal(r, "false")) {
			v = new_value(r, JSON_BOOL);
			if (v)
				v->boolean = r->p[-1] == 'e' && r->p[-2] == 'u';
			return v;
		}
		break;
	case 'n':
		if (literal(r, "null"))
			return new_value(r, JSON_NULL);
		break;
	default:
		return parse_number(r);
	}
	fail(r, "invalid literal");
	return NULL;
}

/**
 * json_parse() - parse one JSON text.
 * @text:	the text (need not be NUL-terminated).
 * @len:	its length.
 * @err:	receives "line L, column C: what" on failure.
 * @errlen:	size of @err.
 *
 * Return: the value (free with json_free()), or NULL.
 */
struct json *json_parse(const char *text, size_t len, char *err,
			size_t errlen)
{
	struct reader r = { text, text + len, text, err, errlen, false };
	struct json *v = parse_value(&r, 0);

	if (!v)
		return NULL;
	skip_ws(&r);
	if (r.p != r.end) {
		fail(&r, "trailing characters after the value");
		json_free(v);
		return NULL;
	}
	return v;
}

/** json_free() - free a value and everything in it; NULL is fine. */
void json_free(struct json *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	free(v);
}

/** json_get() - an object's member by name (the first), or NULL. */
const struct json *json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

/**
 * json_path() - follow a dotted path: "results.0.ns_per_call.median".
 * @root:	where to start.
 * @path:	member names and array indexes, separated by dots.
 *
 * Return: the value, or NULL if any step is missing.
 */
const struct json *json_path(const struct json *root, const char *path)
{
	const struct json *v = root;
	char step[128];
	size_t n;

	while (v && *path) {
		n = strcspn(path, ".");
		if (n >= sizeof(step))
			return NULL;
		memcpy(step, path, n);
		step[n] = '\0';
		path += n + (path[n] == '.');
		if (v->type == JSON_ARRAY) {
			char *end;
			unsigned long i = strtoul(step, &end, 10);

			v = (*end || !*step || i >= v->n) ? NULL : v->items[i];
		} else {
			v = json_get(v, step);
		}
	}
	return v;
}

/**
 * json_write_string() - @s as a JSON string: quotes, backslashes and
 * control characters escaped, everything else (UTF-8 included) as is.
 * @f:	where to write.
 * @s:	the text.
 */
void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
