// SPDX-License-Identifier: GPL-2.0
/*
 * dist_file.c - `hotscore bench --dist file:PATH`: the rows as
 * cli_read_inputs() reads them for --dist, then, for every variant alone
 * (as `bench --profile VARIANT --dist file:PATH` would), bench's checks
 * before timing: a row the variant would divide by zero on refuses the
 * file; else every row's score from the variant's own function must be
 * the model's, and the prepared and batch variants' calls are built
 * (bench_build_calls(): the rows must share one scheme) and checked
 * (bench_vet_calls()).
 *
 * bench_inputs.c's bench_build_pool() and bench_check_inputs() exit the
 * process on a finding: their checks are repeated here as they are
 * written there.  A disagreement between a
 * variant and the model is a finding: bench exits 1 ("internal error"),
 * the harness aborts.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/score.h>

#include "cli/cmd_bench.h"
#include "cli/cli.h"
#include "fuzz.h"

/* Across the jump: static, never a local of a function that setjmp()s. */
static struct bench b;
static struct bench_dist d;
static struct hs_input *rows;
static size_t nr_rows;

/* @x and @y are scored under one scheme: intervals, weights, window. */
static bool same_scheme(const struct hs_input *x, const struct hs_input *y)
{
	return x->sample_us == y->sample_us && x->aggr_us == y->aggr_us &&
	       x->weight_nr_accesses == y->weight_nr_accesses &&
	       x->weight_age == y->weight_age &&
	       x->passed_sis == y->passed_sis &&
	       x->next_aggr_sis == y->next_aggr_sis;
}

/*
 * Whether to call @var's own function on row @j.  fast-prepare prepares
 * the scheme on every call (3,366 model calls, 30 us under the sanitizers:
 * on every row of a 2,000-row input, most of the harness's time), then
 * scores the region as `fast` does: it is called on the first 4 rows and
 * on each row whose scheme is not the row before's.  Every other variant
 * is called on every row.
 */
static bool call_on(const struct hs_variant *var, size_t j)
{
	if (strcmp(var->name, "fast-prepare"))
		return true;
	return j < 4 || !same_scheme(&rows[j], &rows[j - 1]);
}

/*
 * bench_inputs.c's bench_check_inputs(), for one variant; false where bench refuses.
 * A division by zero is looked for on every row, as bench does.
 */
static bool check_inputs(const struct hs_variant *var)
{
	struct hs_result r;
	size_t j;

	for (j = 0; j < nr_rows; j++) {
		r = hs_score(&var->comp, &rows[j], NULL);
		if (r.status == HS_DIV0)
			return false;	/* "the kernel would trap" */
		if (var->call == HS_CALL_INPUT && call_on(var, j))
			fuzz_assert(var->fn(&rows[j]) == r.hot);
	}
	return true;
}

/* `bench --profile VAR --dist file:PATH` up to the timing. */
static void check_variant(const struct hs_variant *var)
{
	if (!check_inputs(var) || var->call == HS_CALL_INPUT)
		return;
	b.variants[0] = var;
	b.nr_variants = 1;
	d.pool = rows;
	d.nr_pool = nr_rows;
	if (!setjmp(fuzz_jmp)) {
		bench_build_calls(&b, &d);
		bench_vet_calls(&b, &d);	/* exit(1) on a difference */
	}
	hs_calls_free(&d.calls[0].c, &bench_alloc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int v;

	fuzz_begin(size);
	snprintf(d.name, sizeof(d.name), "file:fuzz.csv");
	d.kind = HS_NR_DISTS;
	if (!setjmp(fuzz_jmp))
		nr_rows = cli_read_inputs("--dist", fuzz_file(data, size),
					 &rows, NULL);
	cli_csv_reset();		/* after a rejection, what the read held */
	for (v = 0; nr_rows && v < hs_nr_variants; v++)	/* bench: "no rows" */
		check_variant(&hs_variants[v]);
	free(rows);
	rows = NULL;
	nr_rows = 0;
	fuzz_end();
	return 0;
}
