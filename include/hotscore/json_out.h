/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_out.h - JSON output through jansson, shared by every writer of
 * hotscore (the reports, damo's records): a document written a value at a
 * time (struct hs_json_stream), a whole one at once, and the values
 * jansson needs help with (any bytes as a string, counts past LLONG_MAX,
 * reals rounded to the decimals a report prints).  jansson writes every
 * key and value; only the stream's punctuation between streamed values is
 * written here.
 */
#ifndef HOTSCORE_JSON_OUT_H
#define HOTSCORE_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/*
 * json_dumpf()'s flags for every value: 15 significant digits, which
 * print a real rounded to a few decimals (hs_json_fixed()) as that
 * decimal, where jansson's default of 17 would print 0.1 as
 * 0.10000000000000001.
 */
#define HS_JSON_REALS	JSON_REAL_PRECISION(15)

/*
 * Containers open at once: damo's has the most, five (the list of records,
 * a record, its snapshots, a snapshot, its regions).
 */
#define HS_JSON_DEPTH	6

/**
 * struct hs_json_stream - one JSON document written a value at a time, so
 * that a list of any length costs the memory of one element.  jansson
 * dumps every key and value; this tracks only the punctuation between
 * them, which a streamed container cannot leave to jansson.
 * @f:		where the text goes.
 * @flags:	json_dumpf()'s flags for each value: JSON_COMPACT (',' and
 *		':'), or 0 (", " and ": ", as damo and python write).
 * @depth:	containers open.
 * @nr:		values written so far into each open container.
 * @lines:	whether each open container puts each value on a line of its
 *		own.
 * @object:	whether each open container is an object (else a list).
 */
struct hs_json_stream {
	FILE *f;
	size_t flags;
	unsigned int depth;
	size_t nr[HS_JSON_DEPTH];
	bool lines[HS_JSON_DEPTH];
	bool object[HS_JSON_DEPTH];
};

void hs_json_stream_init(struct hs_json_stream *js, FILE *f, size_t flags);
int hs_json_open(struct hs_json_stream *js, const char *key, bool object,
		 bool lines);
int hs_json_put(struct hs_json_stream *js, const char *key, json_t *v);
int hs_json_members(struct hs_json_stream *js, json_t *obj);
int hs_json_close(struct hs_json_stream *js);
json_t *hs_json_u64(uint64_t v);
json_t *hs_json_fixed(double x, unsigned int places);

json_t *hs_json_text(const char *s);
int hs_json_write_doc(FILE *f, json_t *doc, size_t flags);

#endif /* HOTSCORE_JSON_OUT_H */
