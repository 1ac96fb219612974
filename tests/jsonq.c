// SPDX-License-Identifier: GPL-2.0
/*
 * jsonq - for the shell tests: parse a JSON file strictly (jansson) and
 * print the values at dotted paths, one per line ("missing" if absent).
 * Exit 1 if the file is not well-formed JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsonpath.h"

static void print(const json_t *v)
{
	if (!v)
		puts("missing");
	else if (json_is_null(v))
		puts("null");
	else if (json_is_boolean(v))
		puts(json_is_true(v) ? "true" : "false");
	else if (json_is_integer(v))	/* exact, as hotscore wrote it */
		printf("%" JSON_INTEGER_FORMAT "\n", json_integer_value(v));
	else if (json_is_real(v))
		printf("%.17g\n", json_real_value(v));
	else if (json_is_string(v))
		puts(json_string_value(v));
	else if (json_is_array(v))
		printf("array %zu\n", json_array_size(v));
	else
		printf("object %zu\n", json_object_size(v));
}

int main(int argc, char **argv)
{
	json_error_t err;
	json_t *root;
	FILE *f;
	int i;

	if (argc < 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: jsonq FILE [PATH...]\n");
		return 2;
	}
	root = json_loadf(f, JSON_DECODE_ANY, &err);
	/*
	 * hotscore writes u64s (a --seed) that can pass jansson's long long:
	 * such a file is still JSON, so read its numbers as doubles, as the
	 * hand-written reader before jansson read every number.
	 */
	if (!root && json_error_code(&err) == json_error_numeric_overflow) {
		rewind(f);
		root = json_loadf(f, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL,
				  &err);
	}
	fclose(f);
	if (!root) {
		fprintf(stderr, "jsonq: %s: line %d, column %d: %s\n", argv[1],
			err.line, err.column, err.text);
		return 1;
	}
	for (i = 2; i < argc; i++)
		print(json_at(root, argv[i]));
	json_decref(root);
	return 0;
}
