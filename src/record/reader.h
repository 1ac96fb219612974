/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader.h - the record reader's state, shared by read.c (the walk of
 * records, snapshots and regions) and window.c (the sliding window of
 * inflated text, and the values jansson parses from it).  Private to
 * src/record/.
 */
#ifndef HOTSCORE_RECORD_READER_H
#define HOTSCORE_RECORD_READER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "hotscore/record.h"

#define MAX_SCALAR	64	/* the longest bare number or literal */

enum state { S_TOP, S_RECORDS, S_MEMBERS, S_SNAPSHOTS, S_DONE, S_FAILED };

/* The record members the reader knows: each may appear once. */
enum member { M_KDAMOND, M_CONTEXT, M_SCHEME, M_TARGET, M_INTERVALS,
	      M_SNAPSHOTS, NR_MEMBERS };

struct hs_rec_reader {
	FILE *f;
	bool z, z_end;
	z_stream zs;
	unsigned char *zin;	/* raw bytes read ahead (both kinds) */
	size_t zin_len;		/* plain: bytes of @zin not yet used */
	char *buf;		/* the window of text */
	size_t len, pos, cap;
	bool eof;		/* no text beyond buf[len] */
	uint64_t base;		/* offset of buf[0] in the text */
	enum state state;
	bool first;		/* the next item is its list's first */
	unsigned int seen;	/* members of this record, 1 << enum member */
	size_t record;		/* the current record */
	struct hs_rec_info info;
	struct hs_rec_info *done;	/* hs_rec_scan(): finished records */
	size_t nr_done;
	bool collect;
	size_t chunk;		/* hs_rec_chunk when opened */
	size_t skip_to;		/* snapshots of records before: skipped */
	size_t stop_after;	/* records after: not entered */
	char err[320];
};

int rec_fail(struct hs_rec_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool rec_zlib_header(const unsigned char *p, size_t n);
int rec_fill(struct hs_rec_reader *rd, size_t want);
int rec_peek(struct hs_rec_reader *rd);
uint64_t rec_where(const struct hs_rec_reader *rd);
int rec_expect(struct hs_rec_reader *rd, char c, const char *what);
json_t *rec_value(struct hs_rec_reader *rd);

#endif /* HOTSCORE_RECORD_READER_H */
