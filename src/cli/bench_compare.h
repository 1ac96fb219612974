/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_compare.h - `hotscore bench compare`: a saved run (bench --json),
 * read back (bench_compare.c).
 */
#ifndef HOTSCORE_CLI_BENCH_COMPARE_H
#define HOTSCORE_CLI_BENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/**
 * struct bench_saved_cell - one variant's figures on one distribution in
 * one mode.
 * @variant:	its name, as the run printed it.
 * @dist:	the distribution's.
 * @mode:	"throughput" or "latency".
 * @ps:		each invocation's median cost, ps a call (a region, for a
 *		batch); the invocations that measured nothing left out.
 * @nr:		how many.
 * @median_ps:	their median (bench compare fills it).
 */
struct bench_saved_cell {
	char variant[256], dist[256], mode[256];
	uint64_t *ps;
	size_t nr;
	uint64_t median_ps;
};

/**
 * struct bench_saved - a saved run.
 * @root:	the whole JSON document.
 * @env:	its "environment": the machine and the build.
 * @config:	its "config": the settings.
 * @cells:	its variants' cells (not the empty call's, not the door's).
 * @nr:		how many.
 */
struct bench_saved {
	json_t *root;
	const json_t *env, *config;
	struct bench_saved_cell *cells;
	size_t nr;
};

int bench_saved_parse(const char *text, size_t len, struct bench_saved *s,
		      char *err, size_t errlen);
void bench_saved_free(struct bench_saved *s);
int bench_compare(int argc, char **argv);

#endif /* HOTSCORE_CLI_BENCH_COMPARE_H */
