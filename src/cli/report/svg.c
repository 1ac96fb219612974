// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - what the SVG reports share (sim --heatmap, rank --svg).
 */
#include <stdio.h>

#include "svg.h"

/**
 * svg_text() - @s as XML character data: <, > and & escaped, control
 * characters left out.
 * @f:		where to.
 * @s:		the text.
 */
void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}
