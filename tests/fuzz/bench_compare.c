// SPDX-License-Identifier: GPL-2.0
/*
 * bench_compare.c - `hotscore bench compare`'s reader of a saved run
 * (bench_saved_parse(), src/cli/bench_compare.c), on any bytes.
 *
 * A rejection must say why in one printable line of at most the room it
 * was given; an accepted run must hold at least one variant's cell, each
 * with names as long as its buffers allow and its invocation values in
 * range; then each cell is set against itself by hs_runs_ratio(), whose
 * estimate must be 1 and whose interval, where there is one, must hold
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench.h>

#include "cli/bench_compare.h"
#include "fuzz.h"

/* A cell against itself: ratio 1, inside its interval. */
static void check_cell(const struct bench_saved_cell *c)
{
	uint64_t *scratch = calloc(HS_RUNS_SCRATCH(c->nr, c->nr),
				   sizeof(*scratch));
	struct hs_estimate e;
	size_t i;

	fuzz_assert(scratch);
	for (i = 0; i < c->nr; i++)
		fuzz_assert(c->ps[i] < 1000000000000ULL);	/* < 1 s */
	hs_runs_ratio(c->ps, c->nr, c->ps, c->nr, scratch, &e);
	fuzz_assert(!e.value || e.value == HS_PPM);
	fuzz_assert((!e.low && !e.high) ||
		    (e.low <= e.value && e.value <= e.high));
	free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_saved s;
	char err[80];
	size_t i;

	fuzz_begin(size);
	memset(err, 'x', sizeof(err));
	if (bench_saved_parse((const char *)data, size, &s, err, sizeof(err))) {
		fuzz_assert(memchr(err, '\0', sizeof(err)) && err[0]);
		for (i = 0; err[i]; i++)
			fuzz_assert(err[i] >= 0x20 && err[i] < 0x7f);
		fuzz_end();
		return 0;
	}
	fuzz_assert(s.nr >= 1 && s.env && s.config && s.root);
	for (i = 0; i < s.nr; i++) {
		fuzz_assert(s.cells[i].variant[0] && s.cells[i].mode[0]);
		check_cell(&s.cells[i]);
	}
	bench_saved_free(&s);
	fuzz_end();
	return 0;
}
