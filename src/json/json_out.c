// SPDX-License-Identifier: GPL-2.0
/*
 * json_out.c - JSON output through jansson (include/hotscore/json_out.h): the
 * stream that writes a document a value at a time, and the values jansson
 * needs help with.  For user space: it writes to stdio.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/json_out.h"

/**
 * hs_json_stream_init() - start a JSON document on @f.
 * @js:		the stream, set up here.
 * @f:		where the text goes.
 * @flags:	json_dumpf()'s flags for each value (HS_JSON_REALS is added).
 */
void hs_json_stream_init(struct hs_json_stream *js, FILE *f, size_t flags)
{
	memset(js, 0, sizeof(*js));
	js->f = f;
	js->flags = flags | HS_JSON_REALS;
}

/*
 * json_dumpf() hands stdio every fragment of its text, a byte at a time
 * for punctuation, and each fwrite() takes the stream's lock: unlocked,
 * a large record is written about twice as fast.  A stream is written by
 * one thread.
 */
static int dump_out(const char *buf, size_t size, void *data)
{
	return fwrite_unlocked(buf, 1, size, data) == size ? 0 : -1;
}

static int dump(const json_t *v, FILE *f, size_t flags)
{
	return json_dump_callback(v, dump_out, f, flags);
}

/*
 * What goes before the next value of the innermost container: its comma
 * and line or space, then @key and its colon in an object.
 */
static int next(struct hs_json_stream *js, const char *key)
{
	const char *pad = js->flags & JSON_COMPACT ? "" : " ";
	unsigned int d = js->depth - 1;
	json_t *k;
	int ret;

	if (!js->depth)
		return 0;
	if (js->nr[d]++)
		fputc(',', js->f);
	if (js->lines[d])
		fputc('\n', js->f);
	else if (js->nr[d] > 1)
		fputs(pad, js->f);
	if (!key)
		return 0;
	k = json_string(key);
	ret = dump(k, js->f, JSON_ENCODE_ANY);
	json_decref(k);
	fprintf(js->f, ":%s", pad);
	return ret;
}

/**
 * hs_json_open() - open a container, to be filled value by value.
 * @js:		the stream.
 * @key:	its name in the enclosing object, or NULL in a list.
 * @object:	an object, else a list.
 * @lines:	each of its values on a line of its own.
 *
 * Return: 0, or -1 (a write error, or HS_JSON_DEPTH containers open).
 */
int hs_json_open(struct hs_json_stream *js, const char *key, bool object,
		 bool lines)
{
	if (js->depth == HS_JSON_DEPTH || next(js, key))
		return -1;
	fputc(object ? '{' : '[', js->f);
	js->nr[js->depth] = 0;
	js->lines[js->depth] = lines;
	js->object[js->depth++] = object;
	return ferror(js->f) ? -1 : 0;
}

/**
 * hs_json_put() - one value, dumped whole by jansson.  Outside any
 * container it is the whole document, and a newline ends it.
 * @js:		the stream.
 * @key:	its name in the enclosing object, or NULL in a list.
 * @v:		the value; the reference is stolen.  NULL (out of memory)
 *		writes nothing.
 *
 * Return: 0, or -1 (@v NULL, or a write error).
 */
int hs_json_put(struct hs_json_stream *js, const char *key, json_t *v)
{
	int ret = -1;

	if (v && !next(js, key))
		ret = dump(v, js->f, js->flags | JSON_ENCODE_ANY);
	json_decref(v);
	if (!js->depth)
		fputc('\n', js->f);
	return ret || ferror(js->f) ? -1 : 0;
}

/**
 * hs_json_members() - every member of @obj, in order, into the object
 * open: the fixed part of an object whose list is streamed.
 * @js:		the stream; an object is open.
 * @obj:	the members; the reference is stolen.
 *
 * Return: 0, or -1 (@obj NULL, or a write error).
 */
int hs_json_members(struct hs_json_stream *js, json_t *obj)
{
	size_t n = json_object_size(obj);
	int ret = -1;

	if (!obj || !js->depth || !js->object[js->depth - 1]) {
		json_decref(obj);
		return -1;
	}
	if (!n || !next(js, NULL))	/* JSON_EMBED: no braces */
		ret = n ? dump(obj, js->f, js->flags | JSON_EMBED) : 0;
	if (n)
		js->nr[js->depth - 1] += n - 1;
	json_decref(obj);
	return ret || ferror(js->f) ? -1 : 0;
}

/**
 * hs_json_close() - close the innermost container; the outermost ends the
 * document with a newline.
 * @js:		the stream.
 *
 * Return: 0, or -1 (a write error, or nothing open).
 */
int hs_json_close(struct hs_json_stream *js)
{
	unsigned int d;

	if (!js->depth)
		return -1;
	d = --js->depth;
	if (js->lines[d])
		fputc('\n', js->f);
	fputc(js->object[d] ? '}' : ']', js->f);
	if (!js->depth)
		fputc('\n', js->f);
	return ferror(js->f) ? -1 : 0;
}

/**
 * hs_json_u64() - an unsigned count as a JSON number: an integer up to
 * LLONG_MAX, the most json_integer() holds.  Past it (an access pattern's
 * "max", ULONG_MAX) a real, the nearest double: what a reader gets anyway,
 * for jansson refuses such an integer unless it reads all numbers as
 * reals, and JavaScript's JSON.parse() rounds it.
 * @v:		the value.
 *
 * Return: a new reference, or NULL (out of memory).
 */
json_t *hs_json_u64(uint64_t v)
{
	if (v <= (uint64_t)LLONG_MAX)
		return json_integer((json_int_t)v);
	return json_real((double)v);
}

/**
 * hs_json_fixed() - @x as a real rounded to @places decimals, as
 * printf("%.*f") would show it; null if it is not finite (JSON has no NaN).
 * @x:		the value.
 * @places:	decimals kept, up to 9.
 *
 * Return: a new reference, or NULL (out of memory).
 */
json_t *hs_json_fixed(double x, unsigned int places)
{
	double scale = 1;

	if (!isfinite(x))
		return json_null();
	while (places--)
		scale *= 10;
	return json_real(round(x * scale) / scale);
}

/*
 * The length of the well-formed UTF-8 sequence at @s (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0.
 */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the NUL ends it here, too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/**
 * hs_json_text() - @s as a JSON string: UTF-8 as is, and any byte that is not
 * well-formed UTF-8 (a file name may hold one) as U+FFFD, so that jansson,
 * which escapes the rest, takes every string.
 * @s:	the text.
 *
 * Return: a new reference, or NULL (out of memory).
 */
json_t *hs_json_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *clean, *q;
	json_t *v;
	int n;

	v = json_string(s);
	if (v)
		return v;
	/* at most three bytes of U+FFFD for each byte of @s */
	clean = malloc(3 * strlen(s) + 1);
	if (!clean)
		return NULL;
	for (q = clean; *p; p += n ? n : 1) {
		n = utf8_len(p);
		if (n) {
			memcpy(q, p, (size_t)n);
			q += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
		}
	}
	*q = '\0';
	v = json_string(clean);
	free(clean);
	return v;
}

/**
 * hs_json_write_doc() - a whole document, then a newline.
 * @f:		where to write.
 * @doc:	the document; the reference is stolen.
 * @flags:	json_dumpf()'s flags: JSON_COMPACT, or 0 for ", " and ": ".
 *
 * Return: 0, or -1 (@doc NULL: out of memory; or a write error).
 */
int hs_json_write_doc(FILE *f, json_t *doc, size_t flags)
{
	struct hs_json_stream js;

	hs_json_stream_init(&js, f, flags);
	return hs_json_put(&js, NULL, doc);
}

