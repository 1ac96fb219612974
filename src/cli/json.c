// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - what the reports add to jansson, which writes their JSON.
 *
 * jansson refuses a string that is not UTF-8 (json_string() returns NULL),
 * and a command line or a file name may hold any bytes: json_text() makes
 * every such string one that it takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/damo_write.h>

#include "json.h"

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
 * json_text() - @s as a JSON string: UTF-8 as is, and any byte that is not
 * well-formed UTF-8 (a file name may hold one) as U+FFFD, so that jansson,
 * which escapes the rest, takes every string.
 * @s:	the text.
 *
 * Return: a new reference, or NULL (out of memory).
 */
json_t *json_text(const char *s)
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
 * json_write_doc() - a whole document, then a newline.
 * @f:		where to write.
 * @doc:	the document; the reference is stolen.
 * @flags:	json_dumpf()'s flags: JSON_COMPACT, or 0 for ", " and ": ".
 *
 * Return: 0, or -1 (@doc NULL: out of memory; or a write error).
 */
int json_write_doc(FILE *f, json_t *doc, size_t flags)
{
	struct hs_json_stream js;

	hs_json_stream_init(&js, f, flags);
	return hs_json_put(&js, NULL, doc);
}

/**
 * json_write_string() - @s as a JSON string, as json_text() makes it, for
 * the writers that print their JSON piece by piece.
 * @f:	where to write.
 * @s:	the text.
 */
void json_write_string(FILE *f, const char *s)
{
	json_t *v = json_text(s);

	json_dumpf(v, f, JSON_ENCODE_ANY);
	json_decref(v);
}
