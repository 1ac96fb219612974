/* SPDX-License-Identifier: GPL-2.0 */
/*
 * str.h - the two string helpers the kernel-safe code needs, so that it
 * calls neither libc nor the kernel's string functions.
 */
#ifndef HOTSCORE_STR_H
#define HOTSCORE_STR_H

#include "compat.h"

static inline bool hs_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/*
 * Append @s to @buf at offset @at, truncating to @size (NUL-terminated
 * when @size > 0).  Return the offset the untruncated text would end at.
 */
static inline unsigned int hs_strappend(char *buf, unsigned int size,
					unsigned int at, const char *s)
{
	while (*s) {
		if (at + 1 < size)
			buf[at] = *s;
		at++;
		s++;
	}
	if (size)
		buf[at < size ? at : size - 1] = '\0';
	return at;
}

#endif /* HOTSCORE_STR_H */
