/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a strict RFC 8259 reader, small enough to read in one sitting.
 *
 * hotscore writes JSON by hand; it reads it back (tests, and later the
 * kernel module's results) through this.  Numbers become doubles.
 */
#ifndef HOTSCORE_JSON_H
#define HOTSCORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
		 JSON_OBJECT };

/**
 * struct json - one value.
 * @type:	which kind.
 * @boolean:	JSON_BOOL.
 * @number:	JSON_NUMBER.
 * @string:	JSON_STRING, NUL-terminated UTF-8.
 * @keys:	JSON_OBJECT: the member names, in order.
 * @items:	JSON_ARRAY and JSON_OBJECT: the elements or member values.
 * @n:		how many.
 */
struct json {
	enum json_type type;
	bool boolean;
	double number;
	char *string;
	char **keys;
	struct json **items;
	size_t n;
};

void json_write_string(FILE *f, const char *s);
struct json *json_parse(const char *text, size_t len, char *err,
			size_t errlen);
void json_free(struct json *v);
const struct json *json_get(const struct json *obj, const char *key);
const struct json *json_path(const struct json *root, const char *path);

#endif /* HOTSCORE_JSON_H */
