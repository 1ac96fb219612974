// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - the record reader's input (reader.h): the file's text, plain
 * or inflated, in a sliding window that grows to the largest value, and
 * the values jansson parses from it.  read.c walks the lists and objects
 * around them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/**
 * rec_fail() - put the reader in its failed state with a message; only
 * the first failure is kept.
 * @rd:		the reader.
 * @fmt:	printf()'s.
 *
 * Return: -1.
 */
int rec_fail(struct hs_rec_reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->state == S_FAILED)
		return -1;
	va_start(ap, fmt);
	vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
	va_end(ap);
	rd->state = S_FAILED;
	return -1;
}

/**
 * rec_zlib_header() - a zlib stream's first two bytes (RFC 1950): deflate,
 * and a checksum.
 * @p:		the bytes.
 * @n:		how many there are.
 */
bool rec_zlib_header(const unsigned char *p, size_t n)
{
	return n >= 2 && (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 &&
		((p[0] << 8) | p[1]) % 31 == 0;
}

/* After the zlib stream's end mark: nothing may follow. */
static long zlib_trailer(struct hs_rec_reader *rd)
{
	if (rd->zs.avail_in || fgetc(rd->f) != EOF)
		return rec_fail(rd, "data after the end of the zlib stream");
	return 0;
}

static long inflate_some(struct hs_rec_reader *rd, char *dst, size_t n)
{
	z_stream *zs = &rd->zs;
	size_t got;
	int ret;

	zs->next_out = (unsigned char *)dst;
	zs->avail_out = (uInt)n;
	while (zs->avail_out == n) {
		if (rd->z_end)
			return zlib_trailer(rd);
		if (!zs->avail_in) {
			got = fread(rd->zin, 1, rd->chunk, rd->f);
			if (!got && ferror(rd->f))
				return rec_fail(rd, "read error: %s", strerror(errno));
			if (!got)
				return rec_fail(rd, "truncated zlib stream: the file ends before the stream does");
			zs->next_in = rd->zin;
			zs->avail_in = (uInt)got;
		}
		ret = inflate(zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END)
			rd->z_end = true;
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return rec_fail(rd, "corrupt zlib stream (%s)",
				    zs->msg ? zs->msg : "inflate failed");
	}
	return (long)(n - zs->avail_out);
}

/* Up to @n bytes of text into @dst: > 0, 0 at the end, -1 on error. */
static long read_some(struct hs_rec_reader *rd, char *dst, size_t n)
{
	size_t got;

	if (rd->z)
		return inflate_some(rd, dst, n);
	if (rd->zin_len) {
		got = rd->zin_len < n ? rd->zin_len : n;
		memcpy(dst, rd->zin, got);
		memmove(rd->zin, rd->zin + got, rd->zin_len - got);
		rd->zin_len -= got;
		return (long)got;
	}
	got = fread(dst, 1, n, rd->f);
	if (!got && ferror(rd->f))
		return rec_fail(rd, "read error: %s", strerror(errno));
	return (long)got;
}

/* Make room for @want bytes from pos: slide the window, then grow it. */
static int room(struct hs_rec_reader *rd, size_t want)
{
	size_t cap;
	char *p;

	if (rd->pos) {
		memmove(rd->buf, rd->buf + rd->pos, rd->len - rd->pos);
		rd->len -= rd->pos;
		rd->base += rd->pos;
		rd->pos = 0;
	}
	if (want + rd->chunk <= rd->cap)
		return 0;
	if (want > HS_REC_MAX_VALUE)
		return rec_fail(rd, "byte %llu: a single value over %lu MiB",
			    (unsigned long long)rd->base, HS_REC_MAX_VALUE >> 20);
	for (cap = rd->cap ? rd->cap : 4 * rd->chunk; cap < want + rd->chunk;)
		cap *= 2;
	if (cap > HS_REC_MAX_VALUE + rd->chunk)	/* doubling stops there */
		cap = HS_REC_MAX_VALUE + rd->chunk;
	p = realloc(rd->buf, cap);
	if (!p)
		return rec_fail(rd, "out of memory for a %zu MiB value", cap >> 20);
	rd->buf = p;
	rd->cap = cap;
	return 0;
}

/**
 * rec_fill() - at least @want bytes of text from the reader's position,
 * unless the text ends first.
 * @rd:		the reader.
 * @want:	how many.
 *
 * Return: 0, or -1 (rec_fail()).
 */
int rec_fill(struct hs_rec_reader *rd, size_t want)
{
	long n;

	while (rd->len - rd->pos < want && !rd->eof) {
		if (rd->cap - rd->len < rd->chunk && room(rd, want) < 0)
			return -1;
		n = read_some(rd, rd->buf + rd->len, rd->cap - rd->len);
		if (n < 0)
			return -1;
		if (!n)
			rd->eof = true;
		rd->len += (size_t)n;
	}
	return 0;
}

/**
 * rec_peek() - the next character after whitespace, not consumed.
 * @rd:		the reader.
 *
 * Return: the character, -1 at the end, or -2 on failure (rec_fail()).
 */
int rec_peek(struct hs_rec_reader *rd)
{
	for (;;) {
		if (rec_fill(rd, 1) < 0)
			return -2;
		if (rd->pos == rd->len)
			return -1;
		switch (rd->buf[rd->pos]) {
		case ' ': case '\t': case '\n': case '\r':
			rd->pos++;
			continue;
		}
		return (unsigned char)rd->buf[rd->pos];
	}
}

/**
 * rec_where() - the reader's offset in the (inflated) text, for messages.
 * @rd:		the reader.
 */
uint64_t rec_where(const struct hs_rec_reader *rd)
{
	return rd->base + rd->pos;
}

/**
 * rec_expect() - consume @c, the next character after whitespace, or fail
 * naming @what was expected.
 * @rd:		the reader.
 * @c:		the character.
 * @what:	its name, for the message.
 *
 * Return: 0, or -1 (rec_fail()).
 */
int rec_expect(struct hs_rec_reader *rd, char c, const char *what)
{
	int got = rec_peek(rd);

	if (got == -2)
		return -1;
	if (got != c)
		return rec_fail(rd, "byte %llu: expected '%c' %s, found %s",
			    (unsigned long long)rec_where(rd), c, what,
			    got < 0 ? "the end of the file" : "something else");
	rd->pos++;
	return 0;
}

/*
 * A bare number or literal, which jansson could cut short at the window's
 * edge: find its end first.  A whole number beyond long long (a kernel
 * pointer as damo's trace records' target_id) comes back as a string of
 * its digits, which the damo number reader takes.
 */
static json_t *scalar(struct hs_rec_reader *rd)
{
	char tok[MAX_SCALAR + 1];
	json_error_t e;
	size_t n = 0, i;
	json_t *v;

	for (;;) {
		if (rd->pos + n == rd->len) {
			if (rd->eof)
				break;
			if (rec_fill(rd, n + 1) < 0)
				return NULL;
			continue;
		}
		if (strchr(",]} \t\r\n", rd->buf[rd->pos + n]))
			break;
		if (++n > MAX_SCALAR) {
			rec_fail(rd, "byte %llu: a value longer than %d characters",
			     (unsigned long long)rec_where(rd), MAX_SCALAR);
			return NULL;
		}
	}
	memcpy(tok, rd->buf + rd->pos, n);
	tok[n] = '\0';
	v = json_loadb(tok, n, JSON_DECODE_ANY, &e);
	if (!v && json_error_code(&e) == json_error_numeric_overflow) {
		for (i = 0; i < n && tok[i] >= '0' && tok[i] <= '9'; i++)
			;
		if (i == n && tok[0] != '0')
			v = json_string(tok);
	}
	if (!v) {
		rec_fail(rd, "byte %llu: %s", (unsigned long long)rec_where(rd), e.text);
		return NULL;
	}
	rd->pos += n;
	return v;
}

/**
 * rec_value() - the JSON value at the reader's position, parsed by jansson;
 * the window grows to hold it (up to HS_REC_MAX_VALUE).
 * @rd:		the reader.
 *
 * Return: the value (json_decref() it), or NULL (rec_fail()).
 */
json_t *rec_value(struct hs_rec_reader *rd)
{
	size_t flags = JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK |
		       JSON_REJECT_DUPLICATES;
	size_t avail;
	json_error_t e;
	json_t *v;
	int c = rec_peek(rd);

	if (c == -2)
		return NULL;
	if (c < 0) {
		rec_fail(rd, "byte %llu: the file ends where a value should be",
		     (unsigned long long)rec_where(rd));
		return NULL;
	}
	if (c != '{' && c != '[' && c != '"')
		return scalar(rd);
	for (;;) {
		avail = rd->len - rd->pos;
		v = json_loadb(rd->buf + rd->pos, avail, flags, &e);
		if (v) {
			rd->pos += (size_t)e.position;
			return v;
		}
		/* an error at the window's edge may only need more text */
		if (rd->eof || (size_t)e.position + 8 < avail)
			break;
		if (rec_fill(rd, 2 * avail) < 0)
			return NULL;
	}
	rec_fail(rd, "byte %llu: %s", (unsigned long long)rec_where(rd) + e.position,
	     e.text);
	return NULL;
}
