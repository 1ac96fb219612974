// SPDX-License-Identifier: GPL-2.0
/*
 * jsonq - for the shell tests: parse a JSON file strictly and print the
 * values at dotted paths, one per line ("missing" if absent).  Exit 1 if the
 * file is not well-formed JSON.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/json.h"

static void print(const struct json *v)
{
	if (!v)
		puts("missing");
	else if (v->type == JSON_NULL)
		puts("null");
	else if (v->type == JSON_BOOL)
		puts(v->boolean ? "true" : "false");
	else if (v->type == JSON_NUMBER)
		printf("%.17g\n", v->number);
	else if (v->type == JSON_STRING)
		puts(v->string);
	else
		printf("%s %zu\n", v->type == JSON_ARRAY ? "array" : "object",
		       v->n);
}

int main(int argc, char **argv)
{
	char err[256], *buf = NULL;
	size_t len = 0, cap = 0, n;
	struct json *root;
	FILE *f;
	int i;

	if (argc < 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: jsonq FILE [PATH...]\n");
		return 2;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				return 2;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	root = json_parse(buf, len, err, sizeof(err));
	free(buf);
	if (!root) {
		fprintf(stderr, "jsonq: %s: %s\n", argv[1], err);
		return 1;
	}
	for (i = 2; i < argc; i++)
		print(json_path(root, argv[i]));
	json_free(root);
	return 0;
}
