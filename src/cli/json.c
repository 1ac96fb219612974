// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the writer only; reading is jansson's.
 *
 * The reports print their JSON with fprintf(); what they cannot print
 * as is, a string, goes through here.
 */
#include <stdio.h>

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
 * json_write_string() - @s as a JSON string: quotes, backslashes and
 * control characters escaped, UTF-8 as is, and any byte that is not
 * well-formed UTF-8 (a file name may hold one) as U+FFFD, so that the
 * output is always valid JSON.
 * @f:	where to write.
 * @s:	the text.
 */
void json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*p) {
		n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, (size_t)n, f);
			p += n;
		}
	}
	fputc('"', f);
}
