// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_score.c - `hotscore score`: the model on one input (flags) or many (CSV).
 *
 * A CSV run parses and checks every row before it prints any, so a bad row
 * leaves stdout empty: a script gets all the rows or none.  The columns,
 * the profile column and the CSV reader are input.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/cand_steps.h>
#include <hotscore/score.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "input.h"
#include "opt.h"
#include "report/layout.h"

#define MAX_SPECS 32		/* profiles side by side */

/* A column's option id is its index in input_columns[]. */
enum { O_PROFILE = INPUT_NR_COLUMNS, O_INPUT, O_CSV, O_LIST, O_BASE,
       O_CALL_LIMIT, O_BP };

#define U32 4294967295UL
#define FIELD(i, n, h, m, d, e) { .id = i, .name = n, .type = OPT_COUNT, \
	.arg = "N", .dflt = d, .help = h, .max = m, .example = e }
static const struct opt score_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .type = OPT_LIST, .arg = "LIST",
	  .dflt = CLI_DEFAULT_PROFILE, .flags = OPT_CANDS,
	  .words = "@profiles+all",
	  .help = "profiles, FREQ+DIVISOR+AGE+CLAMP combinations, all, or"
		  " candidate files (./mine.c, NAME=./mine.c), side by side",
	  .example = "v6.6,hotfix" },
	CLI_BASE_OPT(O_BASE, "the first profile of --profile, else hotfix", 0,
		     NULL),
	CLI_CALL_LIMIT_OPT(O_CALL_LIMIT, 0, NULL),
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_INPUT | OPT_STDIN,
	  .help = "score every row of a CSV file (- for stdin) instead of"
		  " one input", .words = "@file", .example = "-" },
	{ .id = 0, .name = "sample", .old = "sample-us", .type = OPT_TIME,
	  .arg = "T", .dflt = "5ms", .max = ULONG_MAX,
	  .help = "the sampling interval, attrs.sample_interval",
	  .example = "5ms" },
	{ .id = 1, .name = "aggr", .old = "aggr-us", .type = OPT_TIME,
	  .arg = "T", .dflt = "100ms", .max = ULONG_MAX,
	  .help = "the aggregation interval, attrs.aggr_interval",
	  .example = "100ms" },
	FIELD(2, "nr_accesses", "the region's nr_accesses", U32, "0", "21"),
	FIELD(3, "last_nr_accesses", "the region's last_nr_accesses (the"
	      " moving sum's)", U32, "0", "3"),
	FIELD(O_BP, "nr_accesses_bp", "the region's nr_accesses_bp (6.7+,"
	      " what bp profiles read); without it, nr_accesses * 10000 as an"
	      " unsigned int, the kernel's after a merge", U32,
	      "nr_accesses * 10000", "52000"),
	FIELD(4, "age", "the region's age, in aggregation intervals", U32,
	      "0", "50"),
	FIELD(5, "passed_sis", "ctx->passed_sample_intervals (the moving"
	      " sum's)", ULONG_MAX, "0", "7"),
	FIELD(6, "next_aggr_sis", "ctx->next_aggregation_sis (the moving"
	      " sum's)", ULONG_MAX, "0", "20"),
	FIELD(7, "weight_nr_accesses", "the scheme's quota weight_nr_accesses",
	      U32, "1", "3"),
	FIELD(8, "weight_age", "the scheme's quota weight_age", U32, "1",
	      "0"),
	{ .id = O_LIST, .name = "list-profiles", .type = OPT_FLAG,
	  .flags = OPT_EXIT,
	  .help = "the built-in profiles and their components" },
	{ .id = O_CSV, .name = "csv", .type = OPT_FLAG,
	  .flags = OPT_DEPRECATED, .help = "the same as --input -" },
};

/* The command: the flags' input, the profiles, where rows come from. */
struct score {
	struct row dflt;
	struct hs_spec specs[MAX_SPECS];
	unsigned int nr_specs;
	const char *input;
	const struct hs_profile *base;	/* --base */
};

/** cli_list_profiles() - the built-in profiles and the component syntax. */
void cli_list_profiles(void)
{
	unsigned int i;

	printf("%-15s %-5s %-9s %-5s %-5s  %s\n", "profile", "freq",
	       "divisor", "age", "clamp", "kernels");
	for (i = 0; i < hs_nr_profiles; i++) {
		const struct hs_profile *p = &hs_profiles[i];

		int n = printf("%-15s %-5s %-9s %-5s %-5s  ", p->name,
			       hs_freq_name(p->comp.freq),
			       hs_divisor_name(p->comp.divisor),
			       hs_agelog_name(p->comp.agelog, p->comp.fls),
			       hs_clamp_name(p->comp.clamp));

		layout_wrap(stdout, p->what, (size_t)n, (size_t)n, 100, 0);
	}
	printf("\nAny combination: --profile FREQ+DIVISOR+AGE+CLAMP, e.g. "
	       "raw+max-nr+fls-bsr+none\n"
	       "  FREQ     raw | mvsum | bp\n"
	       "  DIVISOR  u32-trunc | max-nr | safe\n"
	       "  AGE      loop | fls | ilog2, or fls-IMPL | ilog2-IMPL with "
	       "IMPL generic | bsr | builtin\n"
	       "           (plain fls/ilog2 use the kernel's own: bsr on "
	       "x86-64)\n"
	       "  CLAMP    none | clamp\n");
}

static void print_csv_header(bool bp)
{
	size_t i;

	fputs("profile", stdout);
	for (i = 0; i < INPUT_NR_COLUMNS; i++)
		printf(",%s", input_columns[i].csv);
	fputs(bp ? ",nr_accesses_bp,hot,cold,status\n" : ",hot,cold,status\n",
	      stdout);
}

/* hot, cold and status as printed: "undef" where the kernel traps. */
static void outcome_of(const struct hs_spec *sp, const struct hs_input *in,
		       char *hot, char *cold, char *status, size_t size)
{
	struct hs_spec_result r = hs_spec_score(sp, in);
	char buf[32];

	snprintf(status, size, "%s", hs_spec_status(sp, &r, buf, sizeof(buf)));
	snprintf(hot, size, r.undef ? "undef" : "%d", r.hot);
	snprintf(cold, size, r.undef ? "undef" : "%d", r.cold);
}

static void print_csv_row(const struct row *r, const struct hs_spec *spec,
			  bool bp)
{
	char hot[32], cold[32], status[32];
	size_t i;

	outcome_of(spec, &r->in, hot, cold, status, sizeof(hot));
	fputs(spec->name, stdout);
	for (i = 0; i < INPUT_NR_COLUMNS; i++)
		printf(",%lu", input_column_get(i, &r->in));
	if (bp)
		printf(",%u", r->in.nr_accesses_bp);
	printf(",%s,%s,%s\n", hot, cold, status);
}

static bool spec_reads_bp(const struct hs_spec *sp)
{
	return !sp->cand && sp->comp.freq == HS_FREQ_BP;
}

/*
 * Whether the output has an nr_accesses_bp column: where the input gives
 * one or a profile reads it, so that other runs print what they did.
 */
static bool csv_shows_bp(const struct score *sc)
{
	unsigned int k;
	bool bp = sc->dflt.has_bp || input_has_column("nr_accesses_bp");

	for (k = 0; k < sc->nr_specs; k++)
		bp |= spec_reads_bp(&sc->specs[k]);
	return bp;
}

/* Each row under its own profile, or else under every --profile. */
static int run_csv(const struct score *sc)
{
	struct input_mark body;
	struct row r;
	unsigned int k;
	int pass;
	bool bp;

	input_open("--input", sc->input);
	input_header();
	body = input_mark();
	bp = csv_shows_bp(sc);
	for (pass = 0; pass < 2; pass++) {	/* check all, then print */
		input_rewind(body);
		if (pass)
			print_csv_header(bp);
		hs_cand_watch_begin();	/* one timer for the candidates' calls */
		for (r = sc->dflt; input_next_row(&r); r = sc->dflt) {
			if (!pass) {
				bp |= r.has_profile && spec_reads_bp(&r.spec);
				continue;
			}
			if (r.has_profile)
				print_csv_row(&r, &r.spec, bp);
			else
				for (k = 0; k < sc->nr_specs; k++)
					print_csv_row(&r, &sc->specs[k], bp);
		}
		hs_cand_watch_end();
	}
	input_close();
	return 0;
}

/* The computation's steps, one row each; "-" where a step is not taken. */
enum { ST_COMP, ST_WINDOW, ST_LEFT, ST_MVSUM, ST_BP, ST_BPCOUNT, ST_MAXNR,
       ST_FREQ, ST_AGESEC, ST_AGELOG, ST_AGELOG32, ST_AGESUB, ST_WSUM,
       ST_WMEAN, ST_SCALED, ST_HOT, ST_COLD, ST_STATUS, NR_STEPS };

static const char *const step_names[NR_STEPS] = {
	"components", "window_len", "left_window_bp", "mvsum",
	"nr_accesses_bp", "bp/10000", "max_nr_accesses", "freq_subscore",
	"age_in_sec", "age_in_log",
	"age_in_log+32", "age_subscore", "weighted_sum", "weighted_mean",
	"hotness*99/100", "hot", "cold", "status",
};

typedef char step_text[HS_SPEC_GIVEN];	/* as long as a spec's name */

/*
 * The steps a candidate's variables show, by the kernel's names for them:
 * the first value each takes (age_in_log before its sign flip, as the
 * model's row).  The rest of the kernel's steps have no variable of their
 * own (weighted_sum, hotness*99/100 are all 'hotness'): the list after
 * the table shows every assignment.
 */
static const struct { unsigned int step; const char *name; } cand_rows[] = {
	{ ST_MAXNR, "max_nr_accesses" }, { ST_FREQ, "freq_subscore" },
	{ ST_AGESEC, "age_in_sec" }, { ST_AGELOG, "age_in_log" },
	{ ST_AGESUB, "age_subscore" },
};

static void cand_steps(const struct hs_spec *sp, const struct hs_input *in,
		       step_text *v, struct hs_cand_steps *st)
{
	const struct hs_cand_step *s;
	unsigned int k;

	memset(st, 0, sizeof(*st));
	if (strcmp(v[ST_STATUS], "ok") &&
	    strcmp(v[ST_STATUS], "out-of-range")) {
		snprintf(st->why, sizeof(st->why), "it ends in %s",
			 v[ST_STATUS]);
		return;	/* a trap or a hang: not called again */
	}
	if (hs_cand_steps(sp->cand->path, sp->cand->base, in, st))
		return;
	for (k = 0; k < sizeof(cand_rows) / sizeof(cand_rows[0]); k++) {
		s = hs_cand_step_find(st, cand_rows[k].name);
		if (!s)
			continue;
		if (s->is_signed)
			snprintf(v[cand_rows[k].step], sizeof(*v), "%lld",
				 (long long)s->value);
		else
			snprintf(v[cand_rows[k].step], sizeof(*v), "%llu",
				 s->value);
	}
}

static void steps_of(const struct hs_spec *sp, const struct hs_input *in,
		     step_text *v, struct hs_cand_steps *st)
{
	struct hs_trace t;
	struct hs_result res;
	unsigned int k;

	for (k = 0; k < NR_STEPS; k++)
		snprintf(v[k], sizeof(v[k]), "-");
	if (sp->cand) {	/* its answer, and its variables' steps */
		hs_spec_describe(sp, v[ST_COMP], sizeof(*v));
		outcome_of(sp, in, v[ST_HOT], v[ST_COLD], v[ST_STATUS],
			   sizeof(*v));
		cand_steps(sp, in, v, st);
		return;
	}
	res = hs_score(&sp->comp, in, &t);
	hs_components_format(&sp->comp, v[ST_COMP], sizeof(v[ST_COMP]));
	if (sp->comp.freq == HS_FREQ_MVSUM && res.div0 != HS_DIV0_SAMPLE) {
		snprintf(v[ST_WINDOW], sizeof(*v), "%lu", t.window_len);
		if (res.div0 != HS_DIV0_WINDOW) {
			snprintf(v[ST_LEFT], sizeof(*v), "%lu",
				 t.left_window_bp);
			snprintf(v[ST_MVSUM], sizeof(*v), "%u", t.mvsum);
		}
	}
	if (sp->comp.freq == HS_FREQ_BP) {	/* the count it divides */
		snprintf(v[ST_BP], sizeof(*v), "%u", in->nr_accesses_bp);
		snprintf(v[ST_BPCOUNT], sizeof(*v), "%u",
			 in->nr_accesses_bp / 10000);
	}
	snprintf(v[ST_STATUS], sizeof(*v), "%s", hs_status_name(&res));
	if (res.status == HS_DIV0) {
		snprintf(v[ST_HOT], sizeof(*v), "undef");
		snprintf(v[ST_COLD], sizeof(*v), "undef");
		return;
	}
	snprintf(v[ST_MAXNR], sizeof(*v), "%u", t.max_nr);
	snprintf(v[ST_FREQ], sizeof(*v), "%d", t.freq_subscore);
	snprintf(v[ST_AGESEC], sizeof(*v), "%u", t.age_in_sec);
	snprintf(v[ST_AGELOG], sizeof(*v), "%d", t.age_in_log);
	snprintf(v[ST_AGELOG32], sizeof(*v), "%d", t.age_log_scaled);
	snprintf(v[ST_AGESUB], sizeof(*v), "%d", t.age_subscore);
	snprintf(v[ST_WSUM], sizeof(*v), "%d", t.weighted);
	snprintf(v[ST_WMEAN], sizeof(*v), "%d", t.averaged);
	snprintf(v[ST_SCALED], sizeof(*v), "%d", t.scaled);
	snprintf(v[ST_HOT], sizeof(*v), "%d", res.hot);
	snprintf(v[ST_COLD], sizeof(*v), "%d", res.cold);
}

/* One row of the table: the label, then columns [from, to). */
static void print_step_row(const char *label, step_text (*v)[NR_STEPS],
			   unsigned int k, const int *w, unsigned int from,
			   unsigned int to)
{
	struct layout_table t = { .nr_cols = 1 + to - from, .gap = 1 };
	const char *row[1 + MAX_SPECS];
	unsigned int j;

	_Static_assert(1 + MAX_SPECS <= LAYOUT_MAX_COLS, "a column a spec");
	t.width[0] = 18;
	row[0] = label;
	for (j = from; j < to; j++) {
		t.width[1 + j - from] = (size_t)w[j];
		row[1 + j - from] = v[j][k];
	}
	layout_row(stdout, &t, row);
}

/*
 * Whether step @k differs between the columns that take it ("-" is a step
 * not taken, or a candidate's not shown): the rows a reader looks at.
 */
static bool step_differs(step_text (*v)[NR_STEPS], unsigned int nr,
			 unsigned int k)
{
	const char *first = NULL;
	unsigned int j;

	if (k == ST_COMP)
		return false;	/* the columns are there to differ in it */
	for (j = 0; j < nr; j++) {
		if (!strcmp(v[j][k], "-"))
			continue;
		if (first && strcmp(first, v[j][k]))
			return true;
		first = first ? first : v[j][k];
	}
	return false;
}

/* A candidate's every assignment, after the table; or why there are none. */
static void print_cand_steps(const struct hs_spec *sp,
			     const struct hs_cand_steps *st)
{
	unsigned int i;

	if (!st->nr) {
		printf("%s: no steps to show: %s\n", sp->name, st->why);
		return;
	}
	printf("%s, each variable as its statement left it:\n", sp->name);
	for (i = 0; i < st->nr; i++) {
		const struct hs_cand_step *s = &st->step[i];

		if (s->is_signed)
			printf("  line %u, %s(): %s = %lld\n", s->line, s->func,
			       s->name, (long long)s->value);
		else
			printf("  line %u, %s(): %s = %llu\n", s->line, s->func,
			       s->name, s->value);
	}
	if (st->total > st->nr)
		printf("  and %u more\n", st->total - st->nr);
}

/* The tables: as many columns a table as fit 100 columns. */
static void print_tables(const struct score *sc, step_text (*v)[NR_STEPS],
			 step_text (*names)[NR_STEPS], const int *w,
			 const bool *marked)
{
	unsigned int j, k, from, to, width;
	char label[32];
	size_t i;

	for (from = 0; from < sc->nr_specs; from = to) {
		width = 18;
		for (to = from; to < sc->nr_specs &&
		     (to == from || width + 1 + (unsigned int)w[to] <= 100); to++)
			width += 1 + (unsigned int)w[to];
		if (from)
			putchar('\n');
		print_step_row("profile", names, 0, w, from, to);
		for (i = 0; i < INPUT_NR_COLUMNS && !from; i++)
			printf("%-18s %lu\n", input_columns[i].csv,
			       input_column_get(i, &sc->dflt.in));
		for (k = 0; k < NR_STEPS; k++) {
			bool taken = false;

			for (j = from; j < to; j++)
				taken |= strcmp(v[j][k], "-") != 0;
			if (!taken)
				continue;
			snprintf(label, sizeof(label), marked[k] ? "%-16s *" :
				 "%s", step_names[k]);
			print_step_row(label, v, k, w, from, to);
		}
	}
}

/*
 * One input from flags: the inputs, then every step under each profile,
 * side by side, a '*' beside each step on which they differ; then each
 * candidate's assignments as they ran.
 */
static int run_one(const struct score *sc)
{
	static step_text v[MAX_SPECS][NR_STEPS];
	static step_text names[MAX_SPECS][NR_STEPS];
	static struct hs_cand_steps st[MAX_SPECS];
	bool marked[NR_STEPS], any = false;
	int w[MAX_SPECS];
	unsigned int j, k;

	for (j = 0; j < sc->nr_specs; j++) {
		steps_of(&sc->specs[j], &sc->dflt.in, v[j], &st[j]);
		snprintf(names[j][0], sizeof(names[j][0]), "%s",
			 sc->specs[j].name);
		w[j] = (int)strlen(names[j][0]);
		for (k = 0; k < NR_STEPS; k++)
			if ((int)strlen(v[j][k]) > w[j])
				w[j] = (int)strlen(v[j][k]);
	}
	for (k = 0; k < NR_STEPS; k++)
		any |= marked[k] = step_differs(v, sc->nr_specs, k);
	print_tables(sc, v, names, w, marked);
	if (any)
		printf("* the columns differ in this step\n");
	for (j = 0; j < sc->nr_specs; j++) {
		if (!sc->specs[j].cand)
			continue;
		putchar('\n');
		print_cand_steps(&sc->specs[j], &st[j]);
	}
	return 0;
}

static void add_spec(void *ctx, const char *name)
{
	struct score *sc = ctx;

	cli_spec_add("--profile", name, sc->specs, &sc->nr_specs, MAX_SPECS,
		     false);
}


static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct score *sc = ctx;

	(void)nr;
	switch (o->id) {
	case O_LIST:
		cli_list_profiles();
		cli_exit(0);
	case O_PROFILE:
		sc->nr_specs = 0;
		cli_each_profile("--profile", v->s, add_spec, sc);
		break;
	case O_INPUT:
		sc->input = v->s;
		break;
	case O_CSV:
		sc->input = "-";
		break;
	case O_CALL_LIMIT:
		cli_call_limit_set(v->u);
		break;
	case O_BASE:
		sc->base = cli_profile_named("--base", v->s);
		break;
	case O_BP:
		sc->dflt.in.nr_accesses_bp = (unsigned int)v->u;
		sc->dflt.has_bp = true;
		break;
	default:
		input_column_set((size_t)o->id, &sc->dflt.in, (unsigned long)v->u);
	}
}

/* The candidates, loaded for their base; profile columns' too. */
static void load_specs(struct score *sc)
{
	struct hs_spec base;
	unsigned int k;

	hs_spec_base(sc->specs, sc->nr_specs, sc->base, &base);
	input_set_base(&base);
	for (k = 0; k < sc->nr_specs; k++)
		cli_spec_load("--profile", &sc->specs[k], &base);
}

static int score_run(int argc, char **argv)
{
	static struct score sc;

	input_row_defaults(&sc.dflt);
	sc.specs[0] = sc.dflt.spec;
	sc.nr_specs = 1;
	opt_parse(&cmd_score, argc, argv, set, &sc);
	opt_parsed(&cmd_score);
	input_bp_default(&sc.dflt);
	load_specs(&sc);
	sc.dflt.spec = sc.specs[0];
	return sc.input ? run_csv(&sc) : run_one(&sc);
}

const struct cli_cmd cmd_score = {
	.name = "score",
	.summary = "damon_hot_score()/damon_cold_score() of any kernel version",
	.usage = "hotscore score [--profile LIST] [--sample T] [--aggr T]"
		 " [--nr_accesses N] [--age N] ...\n"
		 "hotscore score --input FILE|- [--profile LIST] [--FIELD VALUE ...]\n"
		 "hotscore score --list-profiles",
	.about = "One input from flags prints every step of the computation,"
		 " one column a profile,\na '*' beside each step on which the"
		 " columns differ; a candidate's steps are the\nvalues its"
		 " variables take, listed after the table.\nWith --input, each"
		 " CSV row is scored:"
		 " its header names any of profile,\nsample_us, aggr_us,"
		 " nr_accesses, last_nr_accesses, age, passed_sis,\n"
		 "next_aggr_sis, weight_nr_accesses, weight_age, nr_accesses_bp"
		 " (the kernel's\nfield names; times in us).  Columns the file"
		 " lacks take the flags' values\n(nr_accesses_bp: nr_accesses *"
		 " 10000); a row without a profile column is\nscored under every"
		 " --profile.  Output: every column (nr_accesses_bp where\n"
		 "given or read), then hot,cold,status; nothing is printed"
		 " unless every row\nis good.",
	.notes = "T is a time: 5000 (us), 5ms, 1.5s; ns, us, ms, s, m, h.",
	.opts = score_opts,
	.nr_opts = sizeof(score_opts) / sizeof(score_opts[0]),
	.run = score_run,
};
