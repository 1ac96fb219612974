// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - one reader of whole files for the subcommands: masim configs,
 * CSV inputs, the module's results.  The callers say what went wrong in
 * their own words; this only reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/**
 * cli_read_stream() - all of @f, NUL-terminated, in a buffer that doubles
 * as it fills.
 * @f:		the stream, read to its end.
 * @max:	the most bytes taken (0: no limit); past it, EFBIG.
 * @len:	receives the bytes read (the NUL not counted).
 *
 * Return: the malloc()ed text, or NULL with errno set: EFBIG, ENOMEM, or
 * the read's own error.
 */
char *cli_read_stream(FILE *f, size_t max, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap + 1), *p;

	errno = 0;	/* a read error's own errno, not an earlier one */
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (max && n > max) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		if (n < cap)
			continue;
		p = realloc(buf, 2 * cap + 1);
		if (!p)
			free(buf);
		buf = p;
		cap *= 2;
	}
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	if (ferror(f)) {
		free(buf);
		errno = errno ? errno : EIO;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
