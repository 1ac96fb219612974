// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_kunit.c - hotscore kunit --kernel 6.1|6.12: a table-driven KUnit
 * suite for damon_hot_score() and damon_cold_score(), written as
 * mm/damon/tests/ops-common-kunit.h in the style of mm/damon/tests/.
 *
 * Each row is an input of the kernel's profile that verify singles out:
 * for every other profile, the smallest input (hs_shrink()) of each way the
 * two disagree (hs_pair_class()) in verify's quick grid and its random
 * domain, so that a patch computing any other version's arithmetic fails
 * the suite; and the boundary classes the hotfix and the 2026 patches are
 * about.  Its expected score is the kernel's profile's hs_score(), which
 * must be ok: both kernels clamp and never divide by zero.  The same
 * build writes the same bytes on every run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hotscore/verify.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"
#include "verify/domain.h"

#define KUNIT_MAX_ROWS 64
#define KUNIT_RANDOM 100000	/* inputs of verify's random domain, seed 1 */

/**
 * struct kunit_kernel - a kernel the suite is written for.
 * @version:	--kernel's word.
 * @profile:	the profile that models its damon_hot_score().
 * @bp:		its regions carry nr_accesses_bp (6.7+), which it scores.
 */
struct kunit_kernel {
	const char *version;
	const char *profile;
	bool bp;
};

static const struct kunit_kernel kunit_kernels[] = {
	{ "6.1", "debian-6.1.192", false },
	{ "6.12", "debian-6.12.117", true },
};

/**
 * struct kunit_row - one row of the table.
 * @in:		the input (the fields a KUnit test sets; the others 0).
 * @hot:	the kernel's profile's damon_hot_score().
 * @what:	its boundary class, or NULL.
 * @nr_diff:	how many other profiles score it differently.
 * @diff:	each of them (an index into hs_profiles[]) and its class.
 */
struct kunit_row {
	struct hs_input in;
	int hot;
	const char *what;
	unsigned int nr_diff;
	struct {
		unsigned int profile, cls;
	} diff[HS_VERIFY_MAX_PROFILES];
};

/**
 * struct kunit_gen - the suite being built.
 * @k:		the kernel.
 * @comp:	its profile's components.
 * @rows:	the rows, in the order they are written.
 * @nr:		how many.
 * @equal:	the profiles that differ from @k's only in how age_in_log
 *		is computed (hs_claimed_equal()) and score no input apart.
 * @unseen:	the others that scored no input of the search apart.
 */
struct kunit_gen {
	const struct kunit_kernel *k;
	struct hs_components comp;
	struct kunit_row rows[KUNIT_MAX_ROWS];
	unsigned int nr;
	char equal[256];
	char unseen[256];
};

enum { O_KERNEL, O_OUTPUT };

static const struct opt kunit_opts[] = {
	{ .id = O_KERNEL, .name = "kernel", .type = OPT_STR,
	  .arg = "VERSION", .words = "6.1 6.12",
	  .help = "the kernel the suite is for: 6.1 (debian-6.1.192) or 6.12"
		  " (debian-6.12.117)", .example = "6.1" },
	{ .id = O_OUTPUT, .name = "output", .type = OPT_STR, .arg = "FILE",
	  .dflt = "-", .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "where to write mm/damon/tests/ops-common-kunit.h",
	  .example = "ops-common-kunit.h", .with = "--kernel 6.1" },
};

/**
 * struct kunit_cmd - the command line.
 * @k:		--kernel.
 * @output:	--output, or NULL for standard output.
 */
struct kunit_cmd {
	const struct kunit_kernel *k;
	const char *output;
};

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct kunit_cmd *c = ctx;
	size_t i;

	(void)nr;
	if (o->id == O_OUTPUT) {
		c->output = v->s;
		return;
	}
	for (i = 0; i < sizeof(kunit_kernels) / sizeof(kunit_kernels[0]); i++)
		if (!strcmp(kunit_kernels[i].version, v->s))
			c->k = &kunit_kernels[i];
	if (!c->k || strcmp(c->k->version, v->s))
		cli_usage_die("--kernel: '%s' is not 6.1 or 6.12", v->s);
}

/* r->nr_accesses_bp in @in, the field 6.7+ kernels score from. */
static unsigned int *input_bp(struct hs_input *in)
{
	return &in->nr_accesses_bp;
}

static unsigned int row_bp(const struct hs_input *in)
{
	struct hs_input t = *in;
	unsigned int *bp = input_bp(&t);

	return bp ? *bp : 0;
}

/*
 * What a KUnit row can hold: the moving sum's fields are 0 (a zeroed
 * context and region), and a 6.12 region's nr_accesses_bp is its
 * nr_accesses in basis points, as at the end of an aggregation.
 */
static void project(const struct kunit_gen *g, struct hs_input *in)
{
	unsigned int *bp = input_bp(in);

	in->last_nr_accesses = 0;
	in->passed_sis = 0;
	in->next_aggr_sis = 0;
	if (bp && g->k->bp)
		*bp = (unsigned int)((uint64_t)in->nr_accesses * 10000);
}

static bool same_row(const struct hs_input *a, const struct hs_input *b)
{
	return a->sample_us == b->sample_us && a->aggr_us == b->aggr_us &&
	       a->nr_accesses == b->nr_accesses && a->age == b->age &&
	       row_bp(a) == row_bp(b) &&
	       a->weight_nr_accesses == b->weight_nr_accesses &&
	       a->weight_age == b->weight_age;
}

/* The row that holds @in, or NULL. */
static struct kunit_row *find_row(struct kunit_gen *g,
				  const struct hs_input *in)
{
	unsigned int i;

	for (i = 0; i < g->nr; i++)
		if (same_row(&g->rows[i].in, in))
			return &g->rows[i];
	return NULL;
}

/*
 * Add @in with its boundary class @what (or NULL), unless a row has it
 * already; its score must be ok.  Return the row that holds it.
 */
static struct kunit_row *add_row(struct kunit_gen *g,
				 const struct hs_input *in, const char *what)
{
	struct hs_result r = hs_score(&g->comp, in, NULL);
	struct kunit_row *row = find_row(g, in);

	if (r.status != HS_OK)
		cli_die("--kernel %s: %s is %s on a row: its kernel would not pass it",
			g->k->version, g->k->profile, hs_status_name(&r));
	if (row)
		return row;
	if (g->nr == KUNIT_MAX_ROWS)
		cli_die("more than %d rows: a bug", KUNIT_MAX_ROWS);
	row = &g->rows[g->nr++];
	row->in = *in;
	row->hot = r.hot;
	row->what = what;
	return row;
}

/* Append @word to the list @buf ("a, b"). */
static void list_add(char *buf, size_t size, const char *word)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s%s", len ? ", " : "", word);
}

/**
 * struct pair_ctx - what hs_shrink() keeps: @p disagrees with the kernel
 * in class @cls on the projected input.
 * @g:		the suite: the kernel's profile.
 * @p:		the other profile.
 * @cls:	the class (hs_pair_class()).
 */
struct pair_ctx {
	const struct kunit_gen *g;
	const struct hs_components *p;
	unsigned int cls;
};

static bool pair_pred(const struct hs_input *in, const void *ctx)
{
	const struct pair_ctx *c = ctx;
	struct hs_input t = *in;
	unsigned int cls;

	project(c->g, &t);
	return hs_pair_class(&c->g->comp, c->p, &t, &cls) && cls == c->cls;
}

/* Note the first input of each class in which @p disagrees, in order. */
static void note_pair(const struct kunit_gen *g, const struct hs_components *p,
		      struct hs_input *in, struct hs_example *ex)
{
	unsigned int cls;

	project(g, in);
	if (hs_pair_class(&g->comp, p, in, &cls) && !ex[cls].found) {
		ex[cls].found = true;
		ex[cls].in = *in;
	}
}

/* verify's quick grid, then its random domain: the first of each class. */
static void search_pair(const struct kunit_gen *g,
			const struct hs_components *p, struct hs_example *ex)
{
	static struct hs_input buf[HS_GRID_UNIT_MAX];
	unsigned int u;
	uint64_t i;
	size_t n, j;

	for (u = 0; u < hs_grid_units(false); u++) {
		n = hs_grid_unit(u, true, false, buf);
		for (j = 0; j < n; j++)
			note_pair(g, p, &buf[j], ex);
	}
	for (i = 0; i < KUNIT_RANDOM; i++) {
		hs_random_input(CLI_DEFAULT_SEED, i, &buf[0]);
		note_pair(g, p, &buf[0], ex);
	}
}

/* What the other profile does where it differs (the kernel's is ok). */
static const char *class_name(unsigned int cls)
{
	static const char *const names[HS_NR_STATUS_CODES] = {
		"another score", "a score out of [0, 99]",
		"a division by 0 (sample_interval)",
		"a division by 0 (max_nr_accesses)",
		"a division by 0 (window_len)" };

	return names[cls % HS_NR_STATUS_CODES];
}

/* For each other profile, the smallest input of each way it differs. */
static void pair_rows(struct kunit_gen *g)
{
	struct hs_example ex[HS_NR_PAIR_CLASSES];
	struct kunit_row *row;
	struct hs_input dflt;
	unsigned int i, cls, found;

	cli_score_defaults(&dflt);
	for (i = 0; i < hs_nr_profiles; i++) {
		const struct hs_profile *p = &hs_profiles[i];
		struct pair_ctx c = { g, &p->comp, 0 };

		if (!strcmp(p->name, g->k->profile))
			continue;
		memset(ex, 0, sizeof(ex));
		search_pair(g, &p->comp, ex);
		for (cls = found = 0; cls < HS_NR_PAIR_CLASSES; cls++) {
			if (!ex[cls].found)
				continue;
			c.cls = cls;
			hs_shrink(&ex[cls].in, &dflt, pair_pred, &c);
			project(g, &ex[cls].in);
			row = add_row(g, &ex[cls].in, NULL);
			if (row->nr_diff < HS_VERIFY_MAX_PROFILES) {
				row->diff[row->nr_diff].profile = i;
				row->diff[row->nr_diff++].cls = cls;
			}
			found++;
		}
		if (!found)
			list_add(hs_claimed_equal(&g->comp, &p->comp) ?
				 g->equal : g->unseen, sizeof(g->equal),
				 p->name);
	}
}

/**
 * struct kunit_edge - a boundary class, as a row.
 * @sample:	attrs.sample_interval.
 * @aggr:	attrs.aggr_interval.
 * @nr:		r->nr_accesses.
 * @bp:		r->nr_accesses_bp; ~0: @nr in basis points.
 * @age:	r->age.
 * @wn:		quota.weight_nr_accesses.
 * @wa:		quota.weight_age.
 * @what:	the class.
 */
struct kunit_edge {
	unsigned long sample, aggr;
	unsigned int nr, bp, age, wn, wa;
	const char *what;
};

#define NR_BP (~0u)
#define SEC 1000000UL

static const struct kunit_edge kunit_edges[] = {
	{ 0, 100000, 50000, NR_BP, 0, 1, 0, "sample_interval 0: divides by 1" },
	{ 5000, 0, 1, NR_BP, 0, 1, 0, "aggr_interval 0: max_nr_accesses 1" },
	{ 0, 0, 1, NR_BP, 3, 1, 1, "both intervals 0" },
	{ 100000, 5000, 1, NR_BP, 0, 1, 0, "sample > aggr: max_nr_accesses 1" },
	{ 1, (1UL << 32) + 5, 5, NR_BP, 0, 1, 0,
	  "aggr / sample above UINT_MAX: min() keeps UINT_MAX" },
	{ 3, 3UL << 32, 1, NR_BP, 0, 1, 1,
	  "aggr / sample = 3 << 32: its low 32 bits are 0" },
	{ 5000, 100000, 21, NR_BP, 0, 1, 0,
	  "nr_accesses above max_nr_accesses: clamped to 99" },
	{ 5000, 100000, 42949673, NR_BP, 0, 1, 0,
	  "nr_accesses * 100 wraps in unsigned int" },
	{ 5000, 100000, 11, NR_BP, 0, 1u << 31, 1u << 31,
	  "weights 2^31 each: their sum wraps to 0" },
	{ 5000, 100000, 11, NR_BP, 0, 1u << 25, 1u << 25,
	  "weights 2^25 each: the weighted sum wraps" },
	{ 5000, 100000, 1, NR_BP, 0, (1u << 31) + 3, (1u << 31) - 1,
	  "weights 2^31 + 3 and 2^31 - 1: their sum wraps to 2, and hotness * DAMOS_MAX_SCORE overflows int (the kernel builds with -fno-strict-overflow: it wraps)" },
	{ 5000, 100000, 10, NR_BP, 0, 0, 0, "weights 0 and 0: no division" },
	{ 5000, SEC, 200, NR_BP, 2, 0, 1, "age_in_sec 2^1" },
	{ 5000, SEC, 200, NR_BP, 1u << 15, 0, 1, "age_in_sec 2^15" },
	{ 5000, SEC, 200, NR_BP, (1u << 16) - 1, 0, 1, "age_in_sec 2^16 - 1" },
	{ 5000, SEC, 200, NR_BP, 1u << 30, 0, 1, "age_in_sec 2^30" },
	{ 5000, SEC, 200, NR_BP, 1u << 31, 0, 1,
	  "age_in_sec 2^31: age_in_log 32" },
	{ 5000, SEC, 200, NR_BP, ~0u, 0, 1, "age_in_sec 2^32 - 1" },
	{ 5000, 2 * SEC, 200, NR_BP, 1u << 31, 0, 1,
	  "age_in_sec 2^32: truncated to 0" },
	{ 10, 1UL << 40, 0, NR_BP, 1u << 24, 0, 1,
	  "age * aggr_interval wraps unsigned long" },
	{ 5000, SEC, 0, NR_BP, 1u << 31, 1, 1, "freq 0, old: age_subscore 0" },
	{ 5000, SEC, 2, NR_BP, 1u << 31, 1, 1, "freq > 0, old: age_subscore 100" },
	{ 5000, 100000, 0, 150000, 0, 1, 0,
	  "nr_accesses_bp / 10000 = 15, nr_accesses 0" },
	{ 5000, 100000, 20, 9999, 0, 1, 0,
	  "nr_accesses_bp / 10000 = 0, nr_accesses 20" },
};

static struct hs_input edge_input(const struct kunit_gen *g,
				  const struct kunit_edge *e)
{
	struct hs_input in;
	unsigned int *bp = input_bp(&in);

	memset(&in, 0, sizeof(in));
	in.sample_us = e->sample;
	in.aggr_us = e->aggr;
	in.nr_accesses = e->nr;
	in.age = e->age;
	in.weight_nr_accesses = e->wn;
	in.weight_age = e->wa;
	project(g, &in);
	if (bp && g->k->bp && e->bp != NR_BP)
		*bp = e->bp;
	return in;
}

/*
 * The row that ilog2() without its + 1 fails: age_in_sec 1 (a 1 s
 * aggregation, age 1), whose age_in_log is 1, not 0.  At x >= 1 that
 * wrong age_in_log is the right one of x >> 1, so the row is checked to
 * score differently from age 0.
 */
static void ilog2_row(struct kunit_gen *g)
{
	struct kunit_edge e = { 5000, SEC, 200, NR_BP, 1, 0, 1, NULL };
	struct hs_input in = edge_input(g, &e), zero = in;

	zero.age = 0;
	if (hs_score(&g->comp, &in, NULL).hot ==
	    hs_score(&g->comp, &zero, NULL).hot)
		cli_die("--kernel %s: the ilog2 row does not tell age_in_log 1 from 0: a bug",
			g->k->version);
	add_row(g, &in, "age_in_sec 1: age_in_log is ilog2(1) + 1");
}

static void edge_rows(struct kunit_gen *g)
{
	size_t i;

	ilog2_row(g);
	for (i = 0; i < sizeof(kunit_edges) / sizeof(kunit_edges[0]); i++) {
		const struct kunit_edge *e = &kunit_edges[i];
		struct hs_input in = edge_input(g, e);

		if (e->bp == NR_BP || g->k->bp)	/* no bp before 6.7 */
			add_row(g, &in, e->what);
	}
}

/*
 * A row whose unsigned long values (the intervals, age * aggr_interval)
 * do not fit 32 bits: a 32-bit kernel computes it differently.
 */
static bool row_64bit(const struct hs_input *in)
{
	return in->sample_us > UINT32_MAX || in->aggr_us > UINT32_MAX ||
	       (unsigned __int128)in->age * in->aggr_us > UINT32_MAX;
}

static void emit_long(FILE *f, unsigned long v)
{
	fprintf(f, v > UINT32_MAX ? "%luUL, " : "%lu, ", v);
}

/*
 * @text as comment lines "@lead word word ...", each within 80 columns
 * (@lead starts with a tab: 8 of them).
 */
static void emit_wrapped(FILE *f, const char *lead, const char *text)
{
	size_t width = 80 - (strlen(lead) + 7), at = 0, len;
	const char *w = text;

	while (*w) {
		len = strcspn(w, " ");
		if (at && at + 1 + len > width) {
			fputc('\n', f);
			at = 0;
		}
		if (!at)
			at = (size_t)fprintf(f, "%s", lead) - strlen(lead);
		else
			at += (size_t)fprintf(f, " ");
		at += (size_t)fprintf(f, "%.*s", (int)len, w);
		w += len + strspn(w + len, " ");
	}
	fputc('\n', f);
}

/* A row's comment: on one line if it fits, else a block. */
static void emit_row_comment(FILE *f, const char *text)
{
	if (strlen(text) + 6 + 8 <= 80) {
		fprintf(f, "\t/* %s */\n", text);
		return;
	}
	fprintf(f, "\t/*\n");
	emit_wrapped(f, "\t * ", text);
	fprintf(f, "\t */\n");
}

/*
 * "row N: " and what the row is: its boundary class, or the profiles
 * that differ on it, grouped by what they give: "a, b give X; c gives Y".
 */
static void row_text(const struct kunit_row *r, unsigned int i, char *buf,
		     size_t size)
{
	size_t at = (size_t)snprintf(buf, size, "row %u: ", i);
	unsigned int k, j, n;
	const char *name;

	if (r->what || !r->nr_diff) {
		snprintf(buf + at, size - at, "%s", r->what ? r->what : "");
		return;
	}
	for (k = 0; k < r->nr_diff && at < size; k += n) {
		for (n = 1; k + n < r->nr_diff &&
			    r->diff[k + n].cls == r->diff[k].cls; n++)
			;
		for (j = 0; j < n && at < size; j++) {
			name = hs_profiles[r->diff[k + j].profile].name;
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       !j ? (k ? "; " : "") : ", ",
					       name);
		}
		if (at < size)
			at += (size_t)snprintf(buf + at, size - at, " give%s %s",
					       n > 1 ? "" : "s",
					       class_name(r->diff[k].cls));
	}
}

static void emit_row(FILE *f, const struct kunit_gen *g, unsigned int i)
{
	const struct kunit_row *r = &g->rows[i];
	char text[384];

	row_text(r, i, text, sizeof(text));
	emit_row_comment(f, text);
	fprintf(f, "\t{ ");
	emit_long(f, r->in.sample_us);
	emit_long(f, r->in.aggr_us);
	fprintf(f, "%u, ", r->in.nr_accesses);
	if (g->k->bp)
		fprintf(f, "%u, ", row_bp(&r->in));
	fprintf(f, "%u, %u, %u, %d },\n", r->in.age, r->in.weight_nr_accesses,
		r->in.weight_age, r->hot);
}

/* Rows that hold on a 32-bit kernel first, then the 64-bit ones. */
static void sort_rows(struct kunit_gen *g)
{
	struct kunit_row tmp;
	unsigned int i, j;

	for (i = 1; i < g->nr; i++)
		for (j = i; j > 0 && row_64bit(&g->rows[j - 1].in) &&
			    !row_64bit(&g->rows[j].in); j--) {
			tmp = g->rows[j];
			g->rows[j] = g->rows[j - 1];
			g->rows[j - 1] = tmp;
		}
}

static void emit_head(FILE *f, const struct kunit_gen *g)
{
	char text[768];
	int n;

	n = snprintf(text, sizeof(text),
		     "Each row is an input of damon_hot_score() and the score"
		     " that this kernel's arithmetic gives it; damon_cold_score()"
		     " must be DAMOS_MAX_SCORE minus it.  The rows are generated"
		     " from hotscore's model of the function (its %s profile, by"
		     " \"hotscore kunit --kernel %s\"): for each other kernel"
		     " version's arithmetic, the smallest inputs on which it"
		     " scores differently, and the boundary classes of the"
		     " intervals, the weights and the ages.",
		     g->k->profile, g->k->version);
	if (*g->equal)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "  No row can tell the model's %s from it: they"
			      " compute age_in_log another way, and score every"
			      " input the same.", g->equal);
	if (*g->unseen)
		snprintf(text + n, sizeof(text) - (size_t)n,
			 "  The search found no input on which the model's %s"
			 " scores differently.", g->unseen);
	fprintf(f, "/* SPDX-License-Identifier: GPL-2.0 */\n/*\n"
		" * Data Access Monitor Unit Tests: damon_hot_score() and"
		" damon_cold_score()\n *\n");
	emit_wrapped(f, " * ", text);
	fprintf(f, " */\n\n#ifdef CONFIG_DAMON_KUNIT_TEST\n\n"
		"#ifndef _DAMON_OPS_COMMON_TEST_H\n"
		"#define _DAMON_OPS_COMMON_TEST_H\n\n"
		"#include <kunit/test.h>\n\n"
		"struct damon_score_test {\n"
		"\tunsigned long sample_interval;\n"
		"\tunsigned long aggr_interval;\n"
		"\tunsigned int nr_accesses;\n");
	if (g->k->bp)
		fprintf(f, "\tunsigned int nr_accesses_bp;\n");
	fprintf(f, "\tunsigned int age;\n"
		"\tunsigned int weight_nr_accesses;\n"
		"\tunsigned int weight_age;\n"
		"\tint hot;\n"
		"};\n\n");
}

static void emit_table(FILE *f, const struct kunit_gen *g)
{
	unsigned int i;
	bool wide = false;

	fprintf(f, "static const struct damon_score_test damon_score_tests[] = {\n");
	for (i = 0; i < g->nr; i++) {
		if (!wide && row_64bit(&g->rows[i].in)) {
			/* these values or their products need 64 bits */
			fprintf(f, "#if BITS_PER_LONG == 64\n");
			wide = true;
		}
		emit_row(f, g, i);
	}
	fprintf(f, "%s};\n\n", wide ? "#endif\n" : "");
}

/*
 * One KUnit case per row (KUNIT_ARRAY_PARAM), so that the log names each
 * row that fails: "not ok N row N", which scripts/kernel-report turns back
 * into a `hotscore score` command from the table.
 */
static void emit_test(FILE *f, const struct kunit_gen *g)
{
	fprintf(f, "static void damon_score_test_desc(const struct damon_score_test *t,\n"
		"\t\t\t\t  char *desc)\n"
		"{\n"
		"\tsnprintf(desc, KUNIT_PARAM_DESC_SIZE, \"row %%u\",\n"
		"\t\t (unsigned int)(t - damon_score_tests));\n"
		"}\n\n"
		"KUNIT_ARRAY_PARAM(damon_score, damon_score_tests, damon_score_test_desc);\n\n"
		"static void damon_test_hot_cold_score(struct kunit *test)\n"
		"{\n"
		"\tconst struct damon_score_test *t = test->param_value;\n"
		"\tstruct damon_region r = {};\n"
		"\tstruct damon_ctx *c;\n"
		"\tstruct damos *s;\n\n"
		"\tc = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);\n"
		"\tKUNIT_ASSERT_NOT_NULL(test, c);\n"
		"\ts = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);\n"
		"\tKUNIT_ASSERT_NOT_NULL(test, s);\n\n"
		"\tc->attrs.sample_interval = t->sample_interval;\n"
		"\tc->attrs.aggr_interval = t->aggr_interval;\n"
		"\tr.nr_accesses = t->nr_accesses;\n");
	if (g->k->bp)
		fprintf(f, "\tr.nr_accesses_bp = t->nr_accesses_bp;\n");
	fprintf(f, "\tr.age = t->age;\n"
		"\ts->quota.weight_nr_accesses = t->weight_nr_accesses;\n"
		"\ts->quota.weight_age = t->weight_age;\n"
		"\tKUNIT_EXPECT_EQ(test, damon_hot_score(c, &r, s), t->hot);\n"
		"\tKUNIT_EXPECT_EQ(test, damon_cold_score(c, &r, s),\n"
		"\t\t\tDAMOS_MAX_SCORE - t->hot);\n"
		"}\n\n"
		"static struct kunit_case damon_ops_common_test_cases[] = {\n"
		"\tKUNIT_CASE_PARAM(damon_test_hot_cold_score, damon_score_gen_params),\n"
		"\t{},\n"
		"};\n\n"
		"static struct kunit_suite damon_ops_common_test_suite = {\n"
		"\t.name = \"damon-ops-common\",\n"
		"\t.test_cases = damon_ops_common_test_cases,\n"
		"};\n\n"
		"kunit_test_suite(damon_ops_common_test_suite);\n\n"
		"#endif /* _DAMON_OPS_COMMON_TEST_H */\n\n"
		"#endif\t/* CONFIG_DAMON_KUNIT_TEST */\n");
}

static int kunit_run(int argc, char **argv)
{
	static struct kunit_gen g;
	struct kunit_cmd c = { NULL, NULL };
	const struct hs_profile *p;
	struct hs_input probe;
	FILE *f;

	opt_parse(&cmd_kunit, argc, argv, set, &c);
	opt_parsed(&cmd_kunit);
	if (!c.k)
		cli_usage_die("which kernel? (--kernel 6.1 or --kernel 6.12)");
	p = hs_profile_find(c.k->profile);
	if (!p)
		cli_die("--kernel %s: this build has no %s profile",
			c.k->version, c.k->profile);
	if (c.k->bp && !input_bp(&probe))
		cli_die("--kernel %s: this build's inputs have no nr_accesses_bp",
			c.k->version);
	g.k = c.k;
	g.comp = p->comp;
	/* standard output needs no temporary file */
	f = opt_given(O_OUTPUT) ? cli_out_open("--output", c.output) : stdout;
	pair_rows(&g);
	edge_rows(&g);
	sort_rows(&g);
	emit_head(f, &g);
	emit_table(f, &g);
	emit_test(f, &g);
	cli_out_done(f);
	cli_out_commit();
	return 0;
}

const struct cli_cmd cmd_kunit = {
	.name = "kunit",
	.summary = "a KUnit suite of damon_hot_score() for a kernel, from its profile",
	.usage = "hotscore kunit --kernel 6.1|6.12 [--output FILE]",
	.about = "Write mm/damon/tests/ops-common-kunit.h: a table-driven KUnit"
		 " test of\ndamon_hot_score() and damon_cold_score() for the"
		 " kernel's profile (6.1:\ndebian-6.1.192, 6.12: debian-6.12.117)."
		 "  Its rows are, for every other profile,\nthe smallest inputs"
		 " of each way it scores differently (verify's quick grid and"
		 "\nrandom domain, shrunk), and the boundary classes: intervals"
		 " of 0, sample >\naggr, aggr / sample above UINT_MAX, wrapping"
		 " weights, long ages, freq 0 and\nnot, nr_accesses_bp (6.12)."
		 "  Each row's score is the profile's; the same\nbytes on every"
		 " run.",
	.notes = "ops-common.c includes the file at its end, as core.c"
		 " includes tests/core-kunit.h;\nCONFIG_DAMON_KUNIT_TEST=y runs"
		 " it at boot.  scripts/kunit-patch.sh makes it a patch\nagainst"
		 " a kernel tree; make kunit writes both kernels' files"
		 " (docs/kernel.md).",
	.opts = kunit_opts,
	.nr_opts = sizeof(kunit_opts) / sizeof(kunit_opts[0]),
	.run = kunit_run,
};
