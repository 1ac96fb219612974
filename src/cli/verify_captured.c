// SPDX-License-Identifier: GPL-2.0
/*
 * verify_captured.c - `hotscore verify --captured FILE`: every call a live
 * kdamond made, as hotscore.ko mode=capture recorded it (the inputs and
 * what damon_hot_score() or damon_cold_score() returned), scored again by
 * each profile of the model.  It answers two questions on real inputs: does
 * the model compute what this kernel computed, and which kernel versions'
 * arithmetic would have returned the same on every call.  And it says what
 * that is worth: the classes and edges the calls reach, which pairs of
 * profiles some call tells apart, and (6.7+) whether the kernel's running
 * moving sum is the model's closed form.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/json_out.h>
#include <hotscore/score.h>
#include <hotscore/spec.h>
#include <hotscore/verify.h>

#include "cli.h"
#include "report/layout.h"
#include "input.h"
#include "outfile.h"
#include "verify_captured.h"

#define MAX_SPECS 32

/**
 * struct first_diff - the first call on which a profile differs.
 * @line:	its line in the file.
 * @in:		its inputs.
 * @fn:		hot or cold.
 * @returned:	what the kernel returned.
 * @model:	what the profile gives ("undef" where it divides by zero,
 *		"hang" where a candidate's call ran past --call_limit).
 */
struct first_diff {
	size_t line;
	struct hs_input in;
	enum input_fn fn;
	int returned;
	char model[16];
};

/*
 * One profile or candidate and its count of agreements; a candidate that
 * hangs is not called again (each hang would cost the limit again).
 */
struct checked {
	struct hs_spec spec;
	size_t agrees, differs;
	struct first_diff first;
	bool hung;
	struct first_diff hang;
};

/* The capture's calls, and the range of each input column. */
struct capture_stats {
	size_t calls, hot, cold, nested;
	unsigned long min[INPUT_NR_COLUMNS], max[INPUT_NR_COLUMNS];
};

/*
 * The edge features a call can reach: the inputs where the kernel versions'
 * arithmetic can differ (docs/verify.md, "What it finds"), read off the
 * trace of the kernel's profile where the trace has them.
 */
enum edge {
	EDGE_WEIGHT_SUM,	/* fw + aw wraps */
	EDGE_WEIGHTED,		/* fw * freq + aw * age subscore wraps */
	EDGE_ABOVE_MAX,		/* the count above its divisor */
	EDGE_SAMPLE0,
	EDGE_AGGR0,
	EDGE_AGGR_LT_SAMPLE,
	EDGE_RATIO_WIDE,	/* aggr / sample above UINT_MAX */
	EDGE_AGE_TOP,		/* age_in_sec >= 2^31: age_in_log 32 */
	EDGE_AGE_TRUNC,		/* age * aggr / 10^6 above UINT_MAX */
	EDGE_AGE_WRAP,		/* age * aggr wraps the unsigned long */
	EDGE_BP,		/* 6.7+: bp / 10000 != nr_accesses */
	NR_EDGES
};

static const struct {
	const char *text, *json;
} edges[NR_EDGES] = {
	{ "weight_nr_accesses + weight_age wraps (unsigned int)",
	  "weight_sum_wraps" },
	{ "the weighted sum wraps (unsigned int)", "weighted_sum_wraps" },
	{ "nr_accesses above the divisor (freq_subscore > 100)",
	  "above_divisor" },
	{ "sample_us 0", "sample_0" },
	{ "aggr_us 0", "aggr_0" },
	{ "aggr_us < sample_us", "aggr_below_sample" },
	{ "aggr_us / sample_us > UINT_MAX", "ratio_above_uint" },
	{ "age_in_sec >= 2^31 (age_in_log 32)", "age_in_log_32" },
	{ "age * aggr_us / 10^6 > UINT_MAX (age_in_sec truncated)",
	  "age_in_sec_truncated" },
	{ "age * aggr_us wraps (unsigned long)", "age_product_wraps" },
	{ "nr_accesses_bp / 10000 != nr_accesses (6.7+)",
	  "bp_not_nr_accesses" },
};

/* A distinct input: every column, and nr_accesses_bp. */
struct input_key {
	unsigned long v[INPUT_NR_COLUMNS + 1];
};

/* A class: all the score depends on once the weights are read. */
struct class_key {
	int div0, freq_subscore, age_in_log;
	unsigned int fw, aw;
};

/*
 * What the capture covers under the kernel's profile (the first --profile):
 * its distinct inputs and classes (collected, sorted at the end), and how
 * many calls reach each edge.
 */
struct coverage {
	struct input_key *inputs;
	struct class_key *classes;
	size_t nr, cap;
	size_t edge[NR_EDGES];
	size_t nr_inputs, nr_classes;
};

/* The first call on which two profiles give different results. */
struct pair_diff {
	size_t differs;
	size_t line;
	struct hs_input in;
	enum input_fn fn;
	char a[16], b[16];
};

/*
 * The kernel's running moving sum (nr_accesses_bp / 10000) against the
 * model's closed form, hs_nr_accesses_mvsum(), on a 6.7+ capture.
 */
struct mvsum_check {
	bool has_bp;
	size_t calls, differs;
	unsigned int max_diff;
	size_t line;
	struct hs_input in;
	unsigned int bp, model;
};

static struct {
	struct hs_spec specs[MAX_SPECS];	/* as given, for the base */
	struct hs_spec base;			/* the candidates' */
	struct checked c[MAX_SPECS];
	unsigned int nr;
	struct capture_stats st;
	struct coverage cov;
	struct pair_diff pair[MAX_SPECS][MAX_SPECS];	/* [a][b], a < b */
	struct mvsum_check mv;
} cap;

static void add_spec(void *ctx, const char *name)
{
	(void)ctx;
	cli_spec_add("--profile", name, cap.specs, &cap.nr, MAX_SPECS, true);
	cap.c[cap.nr - 1].spec = cap.specs[cap.nr - 1];
}

/*
 * What @sp returns for the captured call's function, as text: "undef"
 * where the kernel would trap (a division by zero in the model, a trap in
 * a candidate), "hang" where a candidate's call ran past the limit.
 * Return: whether it is a number equal to @r->returned.
 */
static bool same_as_kernel(const struct hs_spec_result *res,
			   const struct row *r, char *text, size_t size)
{
	int v = r->fn == INPUT_FN_HOT ? res->hot : res->cold;

	if (res->undef) {
		snprintf(text, size, "%s", res->trap == HS_CAND_HANG ?
			 "hang" : "undef");
		return false;
	}
	snprintf(text, size, "%d", v);
	return v == r->returned;
}

static void count_call(const struct row *r)
{
	struct capture_stats *st = &cap.st;
	unsigned long v;
	size_t i;

	for (i = 0; i < INPUT_NR_COLUMNS; i++) {
		v = input_column_get(i, &r->in);
		if (!st->calls || v < st->min[i])
			st->min[i] = v;
		if (!st->calls || v > st->max[i])
			st->max[i] = v;
	}
	st->calls++;
	st->hot += r->fn == INPUT_FN_HOT;
	st->cold += r->fn == INPUT_FN_COLD;
	st->nested += r->nested;
}

/*
 * A row's nr_accesses_bp: the one place that reads it, so that it can
 * follow the column into struct hs_input.  Return: whether the capture
 * has the column (6.7+).
 */
static bool row_bp(const struct row *r, unsigned int *bp)
{
	*bp = r->nr_accesses_bp;
	return cap.mv.has_bp;
}

/* Room for one more input and class in @cov. */
static void cover_grow(struct coverage *cov)
{
	size_t n = cov->cap ? 2 * cov->cap : 1024;

	if (cov->nr < cov->cap)
		return;
	cov->inputs = realloc(cov->inputs, n * sizeof(*cov->inputs));
	cov->classes = realloc(cov->classes, n * sizeof(*cov->classes));
	if (!cov->inputs || !cov->classes)
		cli_die("out of memory");
	cov->cap = n;
}

/* The edges of the intervals and of the age: the inputs alone decide. */
static void cover_intervals(const struct hs_input *in, size_t *edge)
{
	unsigned long prod;
	bool wraps = __builtin_mul_overflow((unsigned long)in->age,
					    in->aggr_us, &prod);

	edge[EDGE_SAMPLE0] += !in->sample_us;
	edge[EDGE_AGGR0] += !in->aggr_us;
	edge[EDGE_AGGR_LT_SAMPLE] += in->aggr_us < in->sample_us;
	edge[EDGE_RATIO_WIDE] += in->sample_us &&
		in->aggr_us / in->sample_us > UINT_MAX;
	edge[EDGE_AGE_WRAP] += wraps;
	edge[EDGE_AGE_TRUNC] += !wraps && prod / 1000000UL > UINT_MAX;
}

/*
 * One call's class and edges under the kernel's profile @comp, from the
 * model's trace: the divisor and the count it divides, the subscores, and
 * the weighted sum as the kernel's unsigned int holds it.
 */
static void cover_call(const struct hs_components *comp, const struct row *r)
{
	struct coverage *cov = &cap.cov;
	const struct hs_input *in = &r->in;
	unsigned int fw = in->weight_nr_accesses, aw = in->weight_age;
	struct class_key *k;
	struct hs_trace t;
	struct hs_result res = hs_score(comp, in, &t);
	unsigned int count, bp = 0;
	uint64_t sum;
	size_t i;

	cover_grow(cov);
	memset(&cov->inputs[cov->nr], 0, sizeof(cov->inputs[0]));
	for (i = 0; i < INPUT_NR_COLUMNS; i++)
		cov->inputs[cov->nr].v[i] = input_column_get(i, in);
	if (row_bp(r, &bp)) {
		cov->inputs[cov->nr].v[INPUT_NR_COLUMNS] = bp;
		cov->edge[EDGE_BP] += bp / 10000 != in->nr_accesses;
	}
	k = &cov->classes[cov->nr++];
	memset(k, 0, sizeof(*k));
	k->div0 = res.status == HS_DIV0;
	k->fw = fw;
	k->aw = aw;
	cov->edge[EDGE_WEIGHT_SUM] += fw + aw < fw;
	cover_intervals(in, cov->edge);
	if (k->div0)	/* the kernel traps before the age */
		return;
	k->freq_subscore = t.freq_subscore;
	k->age_in_log = t.age_in_log;
	/* the count the frequency line divides: any other is 6.12's bp */
	if (comp->freq == HS_FREQ_RAW)
		count = in->nr_accesses;
	else
		count = comp->freq == HS_FREQ_MVSUM ? t.mvsum : bp / 10000;
	cov->edge[EDGE_ABOVE_MAX] += count > t.max_nr;
	sum = (uint64_t)fw * (uint32_t)t.freq_subscore +
	      (uint64_t)aw * (uint32_t)t.age_subscore;
	cov->edge[EDGE_WEIGHTED] += sum != (uint32_t)t.weighted;
	cov->edge[EDGE_AGE_TOP] += t.age_in_sec >= 1U << 31;
}

static int cmp_input(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct input_key));
}

static int cmp_class(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct class_key));
}

/* How many of @n sorted items of @size differ from the one before. */
static size_t count_distinct(void *items, size_t n, size_t size,
			     int (*cmp)(const void *, const void *))
{
	const char *p = items;
	size_t i, d = n ? 1 : 0;

	qsort(items, n, size, cmp);
	for (i = 1; i < n; i++)
		d += cmp(p + (i - 1) * size, p + i * size) != 0;
	return d;
}

static void cover_done(struct coverage *cov)
{
	cov->nr_inputs = count_distinct(cov->inputs, cov->nr,
					sizeof(*cov->inputs), cmp_input);
	cov->nr_classes = count_distinct(cov->classes, cov->nr,
					 sizeof(*cov->classes), cmp_class);
	free(cov->inputs);
	free(cov->classes);
	cov->inputs = NULL;
	cov->classes = NULL;
}

/* The kernel's running moving sum against the model's, on one call. */
static void check_mvsum(const struct row *r, size_t line)
{
	struct mvsum_check *mv = &cap.mv;
	unsigned int bp, kernel, model, diff;

	if (!row_bp(r, &bp))
		return;
	kernel = bp / 10000;
	model = hs_nr_accesses_mvsum(&r->in);
	mv->calls++;
	if (kernel == model)
		return;
	diff = kernel > model ? kernel - model : model - kernel;
	if (diff > mv->max_diff)
		mv->max_diff = diff;
	if (mv->differs++)
		return;
	mv->line = line;
	mv->in = r->in;
	mv->bp = bp;
	mv->model = model;
}

/* Two results are the same: both trap alike, or the same score. */
static bool same_result(const struct hs_spec_result *x,
			const struct hs_spec_result *y)
{
	if (x->undef || y->undef)
		return x->undef == y->undef &&
		       (x->trap == HS_CAND_HANG) == (y->trap == HS_CAND_HANG);
	return x->hot == y->hot;
}

/* Which pairs of profiles this call tells apart. */
static void check_pairs(const struct row *r, size_t line,
			const struct hs_spec_result *res, const bool *have)
{
	unsigned int a, b;

	for (a = 0; a < cap.nr; a++)
		for (b = a + 1; b < cap.nr; b++) {
			struct pair_diff *p = &cap.pair[a][b];

			if (!have[a] || !have[b] ||
			    same_result(&res[a], &res[b]) || p->differs++)
				continue;
			p->line = line;
			p->in = r->in;
			p->fn = r->fn;
			same_as_kernel(&res[a], r, p->a, sizeof(p->a));
			same_as_kernel(&res[b], r, p->b, sizeof(p->b));
		}
}

static void check_call(const struct row *r, size_t line)
{
	struct hs_spec_result res[MAX_SPECS];
	bool have[MAX_SPECS] = { false };
	unsigned int k;

	count_call(r);
	cover_call(&cap.c[0].spec.comp, r);
	check_mvsum(r, line);
	for (k = 0; k < cap.nr; k++) {
		struct checked *c = &cap.c[k];
		struct first_diff d = { line, r->in, r->fn, r->returned, "" };

		if (c->hung)
			continue;
		res[k] = hs_spec_score(&c->spec, &r->in);
		have[k] = true;
		if (same_as_kernel(&res[k], r, d.model, sizeof(d.model))) {
			c->agrees++;
			continue;
		}
		if (!c->differs++)
			c->first = d;
		if (!strcmp(d.model, "hang")) {
			c->hung = true;
			c->hang = d;
		}
	}
	check_pairs(r, line, res, have);
}

/* Every row of the capture, checked by every profile. */
static void check_file(const char *path)
{
	struct row dflt, r;

	input_open("--captured", path);
	input_header();
	if (!input_is_capture())
		cli_die("--captured: %s: not a capture: it has no fn column",
			path);
	cap.mv.has_bp = input_has_column("nr_accesses_bp");
	input_row_defaults(&dflt);
	hs_cand_watch_begin();	/* one timer for the candidates' calls */
	for (r = dflt; input_next_row(&r); r = dflt)
		check_call(&r, input_mark().lineno);
	hs_cand_watch_end();
	input_close();
	if (!cap.st.calls)
		cli_die("--captured: %s: no calls", path);
	cover_done(&cap.cov);
}

static const char *fn_name(enum input_fn fn)
{
	return fn == INPUT_FN_HOT ? "damon_hot_score()" : "damon_cold_score()";
}

/* "hotscore score --profile P ARGS": the call's inputs, for a reader. */
static void command_of(const struct checked *c, const struct first_diff *d,
		       char *buf, size_t size)
{
	char args[512], profile[416];

	cli_score_args(&d->in, args, sizeof(args));
	if (c->spec.cand)
		cli_spec_profiles(&c->spec, NULL, &cap.base, profile,
				  sizeof(profile));
	else
		snprintf(profile, sizeof(profile), "--profile %s",
			 c->spec.name);
	snprintf(buf, size, "%s score %s%s%s%s", cli_prog(), profile,
		 *args ? " " : "", args,
		 c->spec.cand ? cli_call_limit_arg() : "");
}

/* "hotscore score --profile A,B ARGS": the call that tells A from B. */
static void pair_command(unsigned int a, unsigned int b, char *buf,
			 size_t size)
{
	cli_pair_command(&cap.c[a].spec, &cap.c[b].spec, &cap.base,
			 &cap.pair[a][b].in, buf, size);
}

/*
 * Two models that differ only in the age_in_log method: verify's
 * exhaustive age_in_log proof makes them equal on every input.
 */
static bool equal_by_proof(unsigned int a, unsigned int b)
{
	const struct hs_spec *sa = &cap.c[a].spec, *sb = &cap.c[b].spec;

	return !sa->cand && !sb->cand &&
	       hs_claimed_equal(&sa->comp, &sb->comp) &&
	       !cap.pair[a][b].differs;
}

static void print_inputs(void)
{
	const struct capture_stats *st = &cap.st;
	char text[2048] = "", piece[128];
	size_t i;

	for (i = 0; i < INPUT_NR_COLUMNS; i++) {
		if (st->min[i] == st->max[i])
			snprintf(piece, sizeof(piece), "%s%s %lu", i ? ", " : "",
				 input_columns[i].csv, st->min[i]);
		else
			snprintf(piece, sizeof(piece), "%s%s %lu-%lu",
				 i ? ", " : "", input_columns[i].csv,
				 st->min[i], st->max[i]);
		strncat(text, piece, sizeof(text) - strlen(text) - 1);
	}
	printf("  inputs   ");
	layout_wrap(stdout, text, 11, 11, 100, 0);
}

/* The classes and edges the capture reaches, under the kernel's profile. */
static void print_coverage(void)
{
	const struct coverage *cov = &cap.cov;
	char text[512];
	unsigned int e, reached = 0;

	printf("\nclasses covered, under %s\n", cap.c[0].spec.name);
	snprintf(text, sizeof(text), "%zu call%s, %zu distinct input%s, %zu"
		 " class%s of (freq_subscore, age_in_log, weight_nr_accesses,"
		 " weight_age)", cap.st.calls, cli_s(cap.st.calls),
		 cov->nr_inputs, cli_s(cov->nr_inputs), cov->nr_classes,
		 cov->nr_classes == 1 ? "" : "es");
	printf("  ");
	layout_wrap(stdout, text, 2, 4, 100, 0);
	printf("  %-58s %8s\n", "edge", "calls");
	for (e = 0; e < NR_EDGES; e++) {
		if (e == EDGE_BP && !cap.mv.has_bp)
			continue;
		printf("  %-58s %8zu\n", edges[e].text, cov->edge[e]);
		reached += cov->edge[e] != 0;
	}
	printf("edges reached: %u of %u\n", reached,
	       NR_EDGES - !cap.mv.has_bp);
}

/* One line: the kernel's moving sum against the model's (6.7+ only). */
static void print_mvsum(void)
{
	const struct mvsum_check *mv = &cap.mv;
	struct first_diff d = { mv->line, mv->in, INPUT_FN_HOT, 0, "" };
	struct checked mm = { .spec = { .name = "mm-new" } };
	char cmd[1600], text[2048];

	if (!mv->has_bp)
		return;
	if (!mv->differs) {
		printf("moving sum: nr_accesses_bp / 10000 equals the model's"
		       " hs_nr_accesses_mvsum() on %zu of %zu calls\n",
		       mv->calls, mv->calls);
		return;
	}
	command_of(&mm, &d, cmd, sizeof(cmd));
	snprintf(text, sizeof(text), "moving sum: nr_accesses_bp / 10000"
		 " differs from the model's hs_nr_accesses_mvsum() on %zu of"
		 " %zu calls, by at most %u; first: line %zu, nr_accesses_bp"
		 " %u (%u) where the model's mvsum is %u: %s", mv->differs,
		 mv->calls, mv->max_diff, mv->line, mv->bp, mv->bp / 10000,
		 mv->model, cmd);
	layout_wrap(stdout, text, 0, 2, 100, 0);
}

/* One pair's row: told apart (how often, first call), by proof, or not. */
static void print_pair(unsigned int a, unsigned int b, char *untold,
		       size_t size)
{
	const struct pair_diff *p = &cap.pair[a][b];
	char name[160], cmd[1600], text[2048];

	snprintf(name, sizeof(name), "%s / %s", cap.c[a].spec.name,
		 cap.c[b].spec.name);
	if (!p->differs) {
		printf("  %-36s %10s  %s\n", name, "0",
		       equal_by_proof(a, b) ? "equal by proof (they differ"
		       " only in age_in_log)" : "not told apart");
		if (!equal_by_proof(a, b))
			snprintf(untold + strlen(untold), size - strlen(untold),
				 "%s%s/%s", *untold ? ", " : "",
				 cap.c[a].spec.name, cap.c[b].spec.name);
		return;
	}
	pair_command(a, b, cmd, sizeof(cmd));
	snprintf(text, sizeof(text), "  %-36s %10zu  line %zu, %s: %s gives"
		 " %s, %s %s: %s", name, p->differs, p->line, fn_name(p->fn),
		 cap.c[a].spec.name, p->a, cap.c[b].spec.name, p->b, cmd);
	layout_wrap(stdout, text, 0, 6, 100, LAYOUT_KEEP_SPACES);
}

/* For each pair of profiles: does some captured call tell them apart? */
static void print_pairs(void)
{
	char untold[4096] = "", text[4200];
	unsigned int a, b, pairs = 0, told = 0, proof = 0;

	if (cap.nr < 2)
		return;
	printf("\n  %-36s %10s  %s\n", "pair", "calls", "first call that"
	       " tells them apart");
	for (a = 0; a < cap.nr; a++)
		for (b = a + 1; b < cap.nr; b++) {
			print_pair(a, b, untold, sizeof(untold));
			pairs++;
			told += cap.pair[a][b].differs != 0;
			proof += equal_by_proof(a, b);
		}
	snprintf(text, sizeof(text), "pairs: %u of %u told apart, %u equal"
		 " by proof; not told apart: %s", told, pairs, proof,
		 *untold ? untold : "none");
	layout_wrap(stdout, text, 0, 2, 100, 0);
}

static void print_report(const char *path)
{
	const struct capture_stats *st = &cap.st;
	char cmd[1600], agree[2048] = "", text[2048];
	unsigned int k;

	printf("hotscore verify --captured %s\n", path);
	snprintf(text, sizeof(text), "%zu: %zu damon_hot_score() (%zu of"
		 " them inside damon_cold_score()), %zu damon_cold_score()",
		 st->calls, st->hot, st->nested, st->cold);
	printf("  calls    ");
	layout_wrap(stdout, text, 11, 11, 100, 0);
	print_inputs();
	printf("\n  %-30s %10s %10s\n", "profile", "agrees", "differs");
	for (k = 0; k < cap.nr; k++) {
		const struct checked *c = &cap.c[k];

		printf("  %-30s %10zu %10zu\n", c->spec.name, c->agrees,
		       c->differs);
		if (!c->differs) {
			snprintf(agree + strlen(agree),
				 sizeof(agree) - strlen(agree), "%s%s",
				 *agree ? ", " : "", c->spec.name);
			continue;
		}
		command_of(c, &c->first, cmd, sizeof(cmd));
		snprintf(text, sizeof(text), "first: line %zu, %s returned %d"
			 " where the profile gives %s: %s", c->first.line,
			 fn_name(c->first.fn), c->first.returned,
			 c->first.model, cmd);
		printf("    ");
		layout_wrap(stdout, text, 4, 6, 100, 0);
		if (!c->hung)
			continue;
		command_of(c, &c->hang, cmd, sizeof(cmd));
		snprintf(text, sizeof(text), "stopped at line %zu: a call ran"
			 " past --call_limit %s (hang), and its %zu later"
			 " call%s were not checked%s%s", c->hang.line,
			 cli_call_limit_text(),
			 st->calls - c->agrees - c->differs,
			 cli_s(st->calls - c->agrees - c->differs),
			 c->hang.line == c->first.line ? "" : ": ",
			 c->hang.line == c->first.line ? "" : cmd);
		printf("    ");
		layout_wrap(stdout, text, 4, 6, 100, 0);
	}
	printf("\nagree with every captured call: ");
	layout_wrap(stdout, *agree ? agree : "none", 32, 2, 100, 0);
	print_coverage();
	print_mvsum();
	print_pairs();
}

/* A call on which @c differs: where, what, and the command that shows it. */
static json_t *json_diff(const struct checked *c, const struct first_diff *d)
{
	char cmd[1600];

	command_of(c, d, cmd, sizeof(cmd));
	return json_pack("{s:o, s:s, s:i, s:s, s:o}", "line",
			 hs_json_u64(d->line), "fn",
			 d->fn == INPUT_FN_HOT ? "hot" : "cold", "returned",
			 d->returned, "model", d->model, "command",
			 hs_json_text(cmd));
}

static json_t *json_checked(const struct checked *c)
{
	json_t *o = json_pack("{s:o, s:o, s:o}", "profile",
			      hs_json_text(c->spec.name), "agrees",
			      hs_json_u64(c->agrees), "differs",
			      hs_json_u64(c->differs));

	if (o && c->differs)
		json_object_set_new(o, "first", json_diff(c, &c->first));
	if (o && c->hung)	/* the calls after it were not checked */
		json_object_set_new(o, "hang", json_diff(c, &c->hang));
	return o;
}

/* The classes and edges: "classes": { profile, calls, inputs, ... }. */
static json_t *json_coverage(void)
{
	const struct coverage *cov = &cap.cov;
	json_t *e = json_object();
	unsigned int k;

	for (k = 0; k < NR_EDGES; k++)
		if (k != EDGE_BP || cap.mv.has_bp)
			json_object_set_new(e, edges[k].json,
					    hs_json_u64(cov->edge[k]));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "profile",
			 hs_json_text(cap.c[0].spec.name), "calls",
			 hs_json_u64(cap.st.calls), "inputs",
			 hs_json_u64(cov->nr_inputs), "classes",
			 hs_json_u64(cov->nr_classes), "edges", e);
}

/* One pair: told apart on how many calls, the first, or equal by proof. */
static json_t *json_pair(unsigned int a, unsigned int b)
{
	const struct pair_diff *p = &cap.pair[a][b];
	char cmd[1600];
	json_t *o = json_pack("{s:o, s:o, s:b, s:b, s:o}", "a",
			      hs_json_text(cap.c[a].spec.name), "b",
			      hs_json_text(cap.c[b].spec.name), "told_apart",
			      p->differs != 0, "equal_by_proof",
			      equal_by_proof(a, b), "calls",
			      hs_json_u64(p->differs));

	if (!o || !p->differs)
		return o;
	pair_command(a, b, cmd, sizeof(cmd));
	json_object_set_new(o, "first", json_pack("{s:o, s:s, s:s, s:s, s:o}",
			    "line", hs_json_u64(p->line), "fn",
			    p->fn == INPUT_FN_HOT ? "hot" : "cold", "a_gives",
			    p->a, "b_gives", p->b, "command",
			    hs_json_text(cmd)));
	return o;
}

static json_t *json_pairs(void)
{
	json_t *rows = json_array();
	unsigned int a, b;

	for (a = 0; a < cap.nr; a++)
		for (b = a + 1; b < cap.nr; b++)
			json_array_append_new(rows, json_pair(a, b));
	return rows;
}

/* "moving_sum": the kernel's running one against the model's, or null. */
static json_t *json_mvsum(void)
{
	const struct mvsum_check *mv = &cap.mv;
	json_t *o;

	if (!mv->has_bp)
		return json_null();
	o = json_pack("{s:o, s:o, s:o, s:o}", "calls", hs_json_u64(mv->calls),
		      "equal", hs_json_u64(mv->calls - mv->differs), "differ",
		      hs_json_u64(mv->differs), "max_diff",
		      hs_json_u64(mv->max_diff));
	if (o && mv->differs)
		json_object_set_new(o, "first", json_pack("{s:o, s:o, s:o}",
				    "line", hs_json_u64(mv->line),
				    "nr_accesses_bp", hs_json_u64(mv->bp),
				    "model", hs_json_u64(mv->model)));
	return o;
}

static int write_json(const struct verify_captured *vc, FILE *f)
{
	const struct capture_stats *st = &cap.st;
	json_t *doc, *rows = json_array(), *agree = json_array();
	unsigned int k;

	for (k = 0; k < cap.nr; k++) {
		json_array_append_new(rows, json_checked(&cap.c[k]));
		if (!cap.c[k].differs)
			json_array_append_new(agree,
					      hs_json_text(cap.c[k].spec.name));
	}
	doc = json_pack("{s:s, s:i, s:o, s:o, s:{s:o, s:o, s:o, s:o},"
			" s:o, s:o}", "tool", "hotscore verify --captured",
			"schema", 1, "command", hs_json_text(vc->command),
			"capture", hs_json_text(vc->path), "calls",
			"all", hs_json_u64(st->calls), "hot",
			hs_json_u64(st->hot), "cold", hs_json_u64(st->cold),
			"nested", hs_json_u64(st->nested), "profiles", rows,
			"agree_with_all", agree);
	if (doc) {
		json_object_set_new(doc, "classes", json_coverage());
		json_object_set_new(doc, "pairs", json_pairs());
		json_object_set_new(doc, "moving_sum", json_mvsum());
	}
	return hs_json_write_doc(f, doc, JSON_COMPACT);
}

/* Exit 1: a profile named by --profile differs, or none agrees. */
static int verdict(const struct verify_captured *vc)
{
	unsigned int k, agree = 0;

	for (k = 0; k < cap.nr; k++) {
		if (vc->profiles && cap.c[k].differs)
			return 1;
		agree += !cap.c[k].differs;
	}
	return agree ? 0 : 1;
}

/**
 * verify_captured() - check every call of a capture against each profile.
 * @vc:		the file, the profiles and the outputs.
 *
 * Return: 0, or 1 when a profile named in @vc->profiles differs from the
 * kernel on some call, or (no profiles named) when none agrees with all.
 */
int verify_captured(const struct verify_captured *vc)
{
	FILE *json;
	unsigned int k;

	if (vc->profiles) {
		cli_each_profile("--profile", vc->profiles, add_spec, NULL);
	} else {
		for (k = 0; k < hs_nr_profiles; k++)
			add_spec(NULL, hs_profiles[k].name);
	}
	hs_spec_base(cap.specs, cap.nr, vc->base, &cap.base);
	for (k = 0; k < cap.nr; k++)
		cli_spec_load("--profile", &cap.c[k].spec, &cap.base);
	json = cli_out_open("--json", vc->json);
	check_file(vc->path);
	print_report(vc->path);
	if (json) {
		if (write_json(vc, json))
			cli_die("--json: %s: %s", vc->json, strerror(errno));
		cli_out_done(json);
		cli_out_commit();
	}
	return verdict(vc);
}
