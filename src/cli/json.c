// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the writer only; reading is jansson's.
 *
 * The reports print their JSON with fprintf(); what they cannot print
 * as is, a string, goes through here.
 */
#include <stdio.h>

#include "json.h"

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
