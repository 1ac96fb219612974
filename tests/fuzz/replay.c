// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a harness without libFuzzer: call LLVMFuzzerTestOneInput() on
 * every file of the corpus directories (or files) given, in name order.
 * make test builds each harness with it and the project's compiler, so the
 * corpora, every crash ever found included, are a regression test that
 * needs no clang.  A finding aborts; a clean pass prints the count on
 * stderr (a harness may have sent stdout to /dev/null) and exits 0.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t replayed;

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, len = 0, n;
	uint8_t *buf = malloc(cap);

	if (!f || !buf) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap && !(buf = realloc(buf, cap *= 2))) {
			fprintf(stderr, "replay: %s: out of memory\n", path);
			exit(2);
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void replay(const char *path)
{
	struct dirent **names;
	struct stat st;
	char file[4096];
	int n, i;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(file, &st) &&
		    S_ISREG(st.st_mode))
			replay_file(file);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		replay(argv[i]);
	fprintf(stderr, "replay: %zu inputs\n", replayed);
	return 0;
}
