// SPDX-License-Identifier: GPL-2.0
/*
 * verify_text.c - `hotscore verify`'s report on stdout: a summary table
 * (one row per profile), the age_in_log methods, the pairs of profiles,
 * the invariants and the prepared scorer, each finding as a `hotscore
 * score` command to paste.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hotscore/score_fast.h>
#include <hotscore/kernel.h>
#include <hotscore/verify.h>

#include "../cli.h"
#include "../cmd_verify.h"
#include "layout.h"

/* "hot 125 out-of-range", or the div0 status alone. */
static void result_text(const struct hs_result *r, char *buf, size_t size)
{
	if (r->status == HS_DIV0)
		snprintf(buf, size, "%s", hs_status_name(r));
	else
		snprintf(buf, size, "hot %d %s", r->hot, hs_status_name(r));
}

/* The model's result on @in, as result_text() words it. */
static void outcome(const struct hs_components *c, const struct hs_input *in,
		    char *buf, size_t size)
{
	struct hs_result r = hs_score(c, in, NULL);

	result_text(&r, buf, size);
}

static void print_agelog(const struct verify *v)
{
	const struct hs_agelog_stats *st = &v->res.agelog;
	unsigned int k;

	printf("\nage_in_log, every method and fls implementation against the"
	       " shift loop\n(%u ways: fls and ilog2 on the arch, generic,"
	       " builtin%s fls):\n", st->ways, HS_HAVE_BSR ? " and bsr" : "");
	if (agelog_equal(&v->res)) {
		printf("  loop = fls = ilog2 on all %llu values of age_in_sec%s\n",
		       (unsigned long long)st->values, v->cfg.quick ?
		       " tried (--quick: boundaries and a stride)" : "");
		return;
	}
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (st->mismatches[k])
			printf("  %s differs from loop on %llu values, first"
			       " age_in_sec %u   FAIL\n",
			       hs_agelog_name(k / HS_NR_FLS_IMPL,
					      k % HS_NR_FLS_IMPL),
			       (unsigned long long)st->mismatches[k],
			       st->first[k]);
}

/* What the input is compared with, for a monotonicity invariant. */
static const char *neighbour(const struct hs_components *c,
			     enum hs_invariant inv, const struct hs_input *in)
{
	static char buf[96];
	struct hs_input next = *in;
	struct hs_result r;

	if (inv == HS_INV_RANGE || inv == HS_INV_SUM)
		return "";
	if (inv == HS_INV_ACCESSES)
		hs_more_access(c, &next);
	else
		next.age++;
	r = hs_score(c, &next, NULL);
	snprintf(buf, sizeof(buf), "; with %s: hot %d",
		 inv == HS_INV_ACCESSES ? "one more access" :
		 "one interval older", r.hot);
	return buf;
}

/* The prepared scorer's result on @in, as outcome() gives the model's. */
static void fast_outcome(const struct hs_components *c,
			 const struct hs_input *in, char *buf, size_t size)
{
	static struct hs_prep p;
	struct hs_result r;

	hs_prep_init(&p, c, in);
	r = hs_fast_score(&p, hs_fast_nr_of(c, in), in->last_nr_accesses,
			  in->age);
	result_text(&r, buf, size);
}

/* Text output fits this many columns (the CLI conventions). */
#define COLS 100
/* Room for the names of every profile, " = " between them. */
#define NAMES_MAX (HS_VERIFY_MAX_PROFILES * 67)

/*
 * The wrap of verify's text: spaces as given, and a word longer than a
 * line cut, so the limit holds for any profile name.
 */
#define VERIFY_WRAP (LAYOUT_KEEP_SPACES | LAYOUT_CUT)

/* A `hotscore score` command, ready to paste (layout_command()). */
static void put_command(const char *lead, int cont, const char *cmd,
			const char *comment)
{
	layout_command(stdout, lead, cont, cmd, comment, COLS);
}

/* The first profile of @mask: the class's representative in examples. */
static unsigned int first_of(unsigned int mask)
{
	return (unsigned int)__builtin_ctz(mask);
}

/* "v6.6 = rfc-fls = v2-ilog2": the profiles of @mask. */
static const char *names_of(const struct verify *v, unsigned int mask,
			    char *buf, size_t size)
{
	size_t at = 0;
	unsigned int a;

	buf[0] = '\0';
	for (a = 0; a < v->cfg.nr; a++)
		if (has(mask, a) && at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       at ? " = " : "", v->specs[a].given);
	return buf;
}

/* The count of class @k with @x as profile "a", whichever is stored first. */
static uint64_t pair_count(const struct verify *v, unsigned int x,
			   unsigned int y, unsigned int k)
{
	if (x > y)
		k = k % HS_NR_STATUS_CODES * HS_NR_STATUS_CODES +
		    k / HS_NR_STATUS_CODES;
	return pair_of(v, x, y)->count[k];
}

/* @x, @y and @x0, @y0 compare alike: the same inputs, counts and claim. */
static bool pair_alike(const struct verify *v, unsigned int x, unsigned int y,
		       unsigned int x0, unsigned int y0)
{
	const struct hs_pair_stats *p = pair_of(v, x, y);
	const struct hs_pair_stats *p0 = pair_of(v, x0, y0);
	unsigned int k;

	if (p->inputs != p0->inputs || p->agree != p0->agree ||
	    claimed(v, x, y) != claimed(v, x0, y0))
		return false;
	for (k = 0; k < HS_NR_PAIR_CLASSES; k++)
		if (pair_count(v, x, y, k) != pair_count(v, x0, y0, k))
			return false;
	return true;
}

/*
 * Does every pair of a profile of @mx and another of @my compare as their
 * first ones do?  Then one block, naming them all, stands for every pair.
 */
static bool pairs_uniform(const struct verify *v, unsigned int mx,
			  unsigned int my)
{
	unsigned int x0 = first_of(mx), y0 = first_of(my & ~(1U << x0));
	unsigned int x, y;

	for (x = 0; x < v->cfg.nr; x++)
		for (y = 0; y < v->cfg.nr; y++)
			if (x != y && has(mx, x) && has(my, y) &&
			    !pair_alike(v, x, y, x0, y0))
				return false;
	return true;
}

/*
 * An example on which @a and @b differ: a command for each, with its
 * result as a comment; side by side, aligned, when both lines fit.
 */
static void put_pair_example(const struct verify *v, unsigned int a,
			     unsigned int b, const struct hs_input *in)
{
	static const char fmt[] = "%s hotscore score %s%s--profile %-*s  # %s";
	static const char lead[] = "      e.g.";
	char args[512], ca[700], cb[700], ra[64], rb[64];
	int w = (int)(strlen(v->specs[a].given) > strlen(v->specs[b].given) ?
		      strlen(v->specs[a].given) : strlen(v->specs[b].given));
	const char *sp;

	cli_score_args(in, args, sizeof(args));
	sp = *args ? " " : "";
	outcome(&v->cfg.comp[a], in, ra, sizeof(ra));
	outcome(&v->cfg.comp[b], in, rb, sizeof(rb));
	if (snprintf(NULL, 0, fmt, lead, args, sp, w, "", ra) <= COLS &&
	    snprintf(NULL, 0, fmt, lead, args, sp, w, "", rb) <= COLS) {
		printf(fmt, lead, args, sp, w, v->specs[a].given, ra);
		printf("\n");
		printf(fmt, "          ", args, sp, w, v->specs[b].given, rb);
		printf("\n");
		return;
	}
	snprintf(ca, sizeof(ca), "hotscore score %s%s--profile %s", args, sp,
		 v->specs[a].given);
	snprintf(cb, sizeof(cb), "hotscore score %s%s--profile %s", args, sp,
		 v->specs[b].given);
	put_command("      e.g. ", 13, ca, ra);
	put_command("           ", 13, cb, rb);
}

/*
 * @a and @b (a < b), which differ somewhere, under the titles @ta and @tb
 * (their names, or their classes'): a count and an example per pair class.
 */
static void print_pair_block(const struct verify *v, unsigned int a,
			     unsigned int b, const char *ta, const char *tb)
{
	const struct hs_pair_stats *ps = &v->res.pair[a][b];
	static char line[2 * NAMES_MAX + 128];
	unsigned int k;

	snprintf(line, sizeof(line),
		 "%s vs %s: differ on %llu of %llu inputs%s", ta, tb,
		 (unsigned long long)(ps->inputs - ps->agree),
		 (unsigned long long)ps->inputs,
		 claimed(v, a, b) ? " (claimed equal: FAIL)" : "");
	printf("  ");
	layout_wrap(stdout, line, 2, 6, COLS, VERIFY_WRAP);
	for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
		unsigned int ca = k / HS_NR_STATUS_CODES;
		unsigned int cb = k % HS_NR_STATUS_CODES;

		if (!ps->count[k])
			continue;
		snprintf(line, sizeof(line), "%s %s, %s %s%s: %llu inputs",
			 v->specs[a].given, hs_status_code_name(ca), v->specs[b].given,
			 hs_status_code_name(cb),
			 ca == cb ? ", hot differs" : "",
			 (unsigned long long)ps->count[k]);
		printf("    ");
		layout_wrap(stdout, line, 4, 8, COLS, VERIFY_WRAP);
		put_pair_example(v, a, b, &ps->ex[k].in);
	}
}

/* @a and @b agree on every input: "@titles: agree on all N inputs". */
static void print_equal(const struct verify *v, unsigned int a, unsigned int b,
			const char *titles)
{
	static char line[NAMES_MAX + 96];

	snprintf(line, sizeof(line), "%s: agree on all %llu inputs%s", titles,
		 (unsigned long long)pair_of(v, a, b)->inputs,
		 claimed(v, a, b) ? " (claimed equal: ok)" : "");
	printf("  ");
	layout_wrap(stdout, line, 2, 6, COLS, VERIFY_WRAP);
}

/*
 * The class @mx against the class @my (or against itself: its equality),
 * once for all their members when every pair of them compares alike, else
 * pair by pair.
 */
static void print_class_pair(const struct verify *v, unsigned int mx,
			     unsigned int my)
{
	static char tx[NAMES_MAX], ty[NAMES_MAX];
	unsigned int x, y, x0 = first_of(mx), y0 = first_of(my & ~(1U << x0));

	if (pairs_uniform(v, mx, my)) {
		names_of(v, mx, tx, sizeof(tx));
		names_of(v, my, ty, sizeof(ty));
		if (mx == my)
			print_equal(v, x0, y0, tx);
		else
			print_pair_block(v, x0, y0, tx, ty);
		return;
	}
	for (x = 0; x < v->cfg.nr; x++)
		for (y = x + 1; y < v->cfg.nr; y++) {
			if (!(has(mx, x) && has(my, y)) &&
			    !(has(mx, y) && has(my, x)))
				continue;
			names_of(v, 1U << x | 1U << y, tx, sizeof(tx));
			if (mx == my)
				print_equal(v, x, y, tx);
			else
				print_pair_block(v, x, y, v->specs[x].given,
						 v->specs[y].given);
		}
}

/* Each class's equality, then each pair of classes, once. */
static void print_pairs(const struct verify *v, const struct classes *c)
{
	unsigned int x, y;

	printf("\nprofile pairs, over the grid and random inputs:\n");
	if (v->cfg.nr < 2)
		printf("  none: one profile\n");
	for (x = 0; x < c->nr; x++)
		if (c->members[x] & (c->members[x] - 1))
			print_class_pair(v, c->members[x], c->members[x]);
	for (x = 0; x < c->nr; x++)
		for (y = x + 1; y < c->nr; y++)
			print_class_pair(v, c->members[x], c->members[y]);
}

typedef bool (*same_fn)(const struct verify *v, unsigned int a,
			unsigned int b);
typedef void (*part_fn)(const struct verify *v, unsigned int mask,
			void *ctx);

/*
 * Split each class into parts whose members @same calls identical, and
 * call @fn on each part, in profile order: a table prints a part once.
 */
static void for_each_part(const struct verify *v, const struct classes *c,
			  same_fn same, part_fn fn, void *ctx)
{
	unsigned int x, a, b, done, part;

	for (x = 0; x < c->nr; x++) {
		done = 0;
		for (a = 0; a < v->cfg.nr; a++) {
			if (!has(c->members[x], a) || has(done, a))
				continue;
			part = 0;
			for (b = a; b < v->cfg.nr; b++)
				if (has(c->members[x], b) && !has(done, b) &&
				    same(v, a, b))
					part |= 1U << b;
			done |= part;
			fn(v, part, ctx);
		}
	}
}

static bool inv_same(const struct verify *v, unsigned int a, unsigned int b)
{
	unsigned int k;

	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if (v->res.inv[a][k].checked != v->res.inv[b][k].checked ||
		    v->res.inv[a][k].violations != v->res.inv[b][k].violations)
			return false;
	return true;
}

/* The invariants of the profiles of @mask, which have the same counts. */
static void print_inv_part(const struct verify *v, unsigned int mask,
			   void *ctx)
{
	static char names[NAMES_MAX];
	char args[512], cmd[700], r[200];
	unsigned int a = first_of(mask), k;
	int w = *(int *)ctx;

	printf("  ");
	layout_wrap(stdout, names_of(v, mask, names, sizeof(names)), 2, 4,
		    COLS, VERIFY_WRAP);
	for (k = 0; k < HS_NR_INVARIANTS; k++) {
		const struct hs_inv_stats *is = &v->res.inv[a][k];

		printf("    %-*s  %llu of %llu inputs\n", w,
		       hs_invariant_name(k), (unsigned long long)is->violations,
		       (unsigned long long)is->checked);
		if (!is->violations)
			continue;
		cli_score_args(&is->ex.in, args, sizeof(args));
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 v->specs[a].given, *args ? " " : "", args);
		outcome(&v->cfg.comp[a], &is->ex.in, r, sizeof(r));
		strncat(r, neighbour(&v->cfg.comp[a], k, &is->ex.in),
			sizeof(r) - strlen(r) - 1);
		put_command("      e.g. ", 13, cmd, r);
	}
}

static void print_invariants(const struct verify *v, const struct classes *c)
{
	int w = 0;
	unsigned int k;

	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if ((int)strlen(hs_invariant_name(k)) > w)
			w = (int)strlen(hs_invariant_name(k));
	printf("\ninvariants (violations of checked inputs):\n");
	for_each_part(v, c, inv_same, print_inv_part, &w);
}

static bool fast_same(const struct verify *v, unsigned int a, unsigned int b)
{
	const struct hs_fast_stats *x = &v->res.fast[a], *y = &v->res.fast[b];

	return !memcmp(x->inputs, y->inputs, sizeof(x->inputs)) &&
	       !memcmp(x->schemes, y->schemes, sizeof(x->schemes)) &&
	       x->mismatches == y->mismatches &&
	       !memcmp(x->batch, y->batch, sizeof(x->batch)) &&
	       !memcmp(x->batch_mismatches, y->batch_mismatches,
		       sizeof(x->batch_mismatches));
}

/* The prepared scorer's row: its counts, after the names. */
static void fast_row(const struct hs_fast_stats *fs, char *buf, size_t size)
{
	snprintf(buf, size, "%llu of %llu grid + %llu random inputs;"
		 " %llu + %llu schemes prepared",
		 (unsigned long long)fs->mismatches,
		 (unsigned long long)fs->inputs[HS_DOM_GRID],
		 (unsigned long long)fs->inputs[HS_DOM_RANDOM],
		 (unsigned long long)fs->schemes[HS_DOM_GRID],
		 (unsigned long long)fs->schemes[HS_DOM_RANDOM]);
}

/* The names column's width: the longest names, if the rows still fit. */
struct fast_width {
	int names, row;
};

static void measure_fast_part(const struct verify *v, unsigned int mask,
			      void *ctx)
{
	static char names[NAMES_MAX];
	struct fast_width *fw = ctx;
	char row[256];

	fast_row(&v->res.fast[first_of(mask)], row, sizeof(row));
	if ((int)strlen(names_of(v, mask, names, sizeof(names))) > fw->names)
		fw->names = (int)strlen(names);
	if ((int)strlen(row) > fw->row)
		fw->row = (int)strlen(row);
}

/* A part's row; names too long for the column get a line of their own. */
static void print_fast_part(const struct verify *v, unsigned int mask,
			    void *ctx)
{
	static char names[NAMES_MAX];
	const struct hs_fast_stats *fs = &v->res.fast[first_of(mask)];
	unsigned int a = first_of(mask);
	char row[256], args[512], cmd[700], model[64], fast[64], r[140];
	int w = *(int *)ctx;

	names_of(v, mask, names, sizeof(names));
	if ((int)strlen(names) > w) {
		printf("  ");
		layout_wrap(stdout, names, 2, 4, COLS, VERIFY_WRAP);
		names[0] = '\0';
	}
	fast_row(fs, row, sizeof(row));
	printf("  %-*s  ", w, names);
	layout_wrap(stdout, row, (size_t)(4 + w), (size_t)(4 + w), COLS,
		    VERIFY_WRAP);
	if (!fs->mismatches)
		return;
	cli_score_args(&fs->ex.in, args, sizeof(args));
	snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
		 v->specs[a].given, *args ? " " : "", args);
	outcome(&v->cfg.comp[a], &fs->ex.in, model, sizeof(model));
	fast_outcome(&v->cfg.comp[a], &fs->ex.in, fast, sizeof(fast));
	snprintf(r, sizeof(r), "%s; prepared: %s", model, fast);
	put_command("      e.g. ", 13, cmd, r);
}

/* "scalar, avx2 and avx512": the batch scorers of @mask. */
static void impl_names(unsigned int mask, char *buf, size_t size)
{
	unsigned int k, n = (unsigned int)__builtin_popcount(mask), i = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (k = 0; k < HS_NR_FAST_IMPLS && at < size; k++)
		if (mask & (1u << k))
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       !i++ ? "" : i == n ? " and " : ", ",
					       hs_fast_impl_name(k));
}

/* "scalar 3, avx2 0": profile @a's differences, per batch scorer. */
static void batch_counts(const struct verify *v, unsigned int a, char *buf,
			 size_t size)
{
	const struct hs_fast_stats *fs = &v->res.fast[a];
	unsigned int k;
	size_t at = 0;

	buf[0] = '\0';
	for (k = 0; k < HS_NR_FAST_IMPLS && at < size; k++)
		if (v->cfg.batch_impls & (1u << k))
			at += (size_t)snprintf(buf + at, size - at, "%s%s %llu",
					       at ? ", " : "",
					       hs_fast_impl_name(k),
					       (unsigned long long)
					       fs->batch_mismatches[k]);
}

/*
 * The batch scorers, under the prepared scorer's rows: one line if none
 * differs, else each profile's counts and its first difference, shrunk.
 */
static void print_batches(const struct verify *v)
{
	static struct hs_prep p;
	char names[64], counts[96], line[NAMES_MAX + 160], args[512], cmd[700];
	char model[64], got[64], r[160];
	bool differ = false;
	unsigned int a;

	if (!v->cfg.batch_impls)
		return;
	impl_names(v->cfg.batch_impls, names, sizeof(names));
	for (a = 0; a < v->cfg.nr; a++)
		differ |= v->res.fast[a].batch_ex.found;
	printf("  in batches by %s, on every grid input: %s\n", names,
	       differ ? "some differ" : "none differs");
	for (a = 0; a < v->cfg.nr; a++) {
		const struct hs_fast_stats *fs = &v->res.fast[a];
		struct hs_result b;

		if (!fs->batch_ex.found)
			continue;
		batch_counts(v, a, counts, sizeof(counts));
		snprintf(line, sizeof(line),
			 "%s: grid inputs that differ in a batch: %s",
			 v->specs[a].given, counts);
		printf("  ");
		layout_wrap(stdout, line, 2, 4, COLS, VERIFY_WRAP);
		cli_score_args(&fs->batch_ex.in, args, sizeof(args));
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 v->specs[a].given, *args ? " " : "", args);
		outcome(&v->cfg.comp[a], &fs->batch_ex.in, model,
			sizeof(model));
		b = hs_batch_result(&p, &v->cfg.comp[a], fs->batch_impl,
				    &fs->batch_ex.in);
		result_text(&b, got, sizeof(got));
		snprintf(r, sizeof(r), "%s; %s batch: %s", model,
			 hs_fast_impl_name(fs->batch_impl), got);
		put_command("      e.g. ", 13, cmd, r);
	}
}

static void print_fast(const struct verify *v, const struct classes *c)
{
	struct fast_width fw = { 0, 0 };
	int w;

	if (!v->cfg.fast)
		return;
	printf("\nprepared scorer (score_fast.h), each against its profile"
	       " (differ of compared):\n");
	for_each_part(v, c, fast_same, measure_fast_part, &fw);
	w = fw.names < COLS - 4 - fw.row ? fw.names : COLS - 4 - fw.row;
	if (w < 1)
		w = 1;
	for_each_part(v, c, fast_same, print_fast_part, &w);
	print_batches(v);
}

/*
 * The summary: a table of one row per profile, its columns as wide as
 * their content, narrowed (cells wrapped) until a row fits COLS
 * (layout_fit()).
 */
enum { T_LETTER, T_NAME, T_EQUAL, T_DIFFERS, T_INV, T_FAST, T_COLS };
#define CELL 512

struct table {
	unsigned int rows;
	char cell[HS_VERIFY_MAX_PROFILES + 1][T_COLS][CELL];
};

/* Short names for the summary; the legend under it spells them out. */
static const char *const inv_tag[HS_NR_INVARIANTS] = {
	"range", "sum", "accesses", "age(hot)", "age(idle)"
};

/* Append @item to a cell, after ", " unless it is the first. */
static void cell_add(char *cell, const char *item)
{
	size_t at = strlen(cell);

	snprintf(cell + at, CELL - at, "%s%s", at ? ", " : "", item);
}

/* "B C D: 14472, G: 189450": the profiles @a differs from, by letter. */
static void differs_cell(const struct verify *v, const struct classes *c,
			 unsigned int a, char *cell)
{
	unsigned int b, b2, done = 0;
	char item[2 * HS_VERIFY_MAX_PROFILES + 32];
	int at;

	for (b = 0; b < v->cfg.nr; b++) {
		if (c->of[b] == c->of[a] || has(done, b))
			continue;
		at = 0;
		for (b2 = b; b2 < v->cfg.nr; b2++)
			if (c->of[b2] != c->of[a] && !has(done, b2) &&
			    differ(v, a, b2) == differ(v, a, b)) {
				at += sprintf(item + at, "%s%c", at ? " " : "",
					      'A' + b2);
				done |= 1U << b2;
			}
		sprintf(item + at, ": %llu",
			(unsigned long long)differ(v, a, b));
		cell_add(cell, item);
	}
	if (!*cell)
		strcpy(cell, "-");
}

static void summary_row(const struct verify *v, const struct classes *c,
			unsigned int a, char (*row)[CELL])
{
	const struct hs_fast_stats *fs = &v->res.fast[a];
	unsigned int b, k;
	char item[40];

	snprintf(row[T_LETTER], CELL, "%c", 'A' + a);
	snprintf(row[T_NAME], CELL, "%s", v->specs[a].given);
	for (b = 0; b < v->cfg.nr; b++)
		if (b != a && c->of[b] == c->of[a])
			snprintf(row[T_EQUAL] + strlen(row[T_EQUAL]),
				 CELL - strlen(row[T_EQUAL]), "%s%c",
				 *row[T_EQUAL] ? " " : "", 'A' + b);
	if (!*row[T_EQUAL])
		strcpy(row[T_EQUAL], "-");
	differs_cell(v, c, a, row[T_DIFFERS]);
	for (k = 0; k < HS_NR_INVARIANTS; k++) {
		uint64_t n = v->res.inv[a][k].violations;

		if (!n)
			continue;
		snprintf(item, sizeof(item), "%s %llu", inv_tag[k],
			 (unsigned long long)n);
		cell_add(row[T_INV], item);
	}
	if (!*row[T_INV])
		strcpy(row[T_INV], "ok");
	if (v->cfg.fast)
		snprintf(row[T_FAST], CELL, "%llu of %llu%s",
			 (unsigned long long)fs->mismatches,
			 (unsigned long long)(fs->inputs[HS_DOM_GRID] +
					      fs->inputs[HS_DOM_RANDOM]),
			 fs->batch_ex.found ? ", batch differs" : "");
	else
		strcpy(row[T_FAST], "-");
}

/*
 * First, one row per profile: whom it equals and differs from (by letter),
 * which invariants it breaks, and whether its prepared scorer is exact.
 */
static void print_summary(const struct verify *v, const struct classes *c)
{
	static const char *const head[T_COLS] = {
		"", "profile", "equal to", "differs from", "invariants",
		"prepared" };
	static const char *cells[(HS_VERIFY_MAX_PROFILES + 1) * T_COLS];
	struct layout_table lt = { .nr_cols = T_COLS, .lead = 2, .gap = 2,
				   .flags = LAYOUT_WRAP_CELLS | LAYOUT_TRIM };
	static struct table t;
	unsigned int a, k;

	memset(&t, 0, sizeof(t));
	for (k = 0; k < T_COLS; k++)
		snprintf(t.cell[0][k], CELL, "%s", head[k]);
	for (a = 0; a < v->cfg.nr; a++)
		summary_row(v, c, a, t.cell[a + 1]);
	t.rows = v->cfg.nr + 1;
	for (a = 0; a < t.rows; a++)
		for (k = 0; k < T_COLS; k++)
			cells[a * T_COLS + k] = t.cell[a][k];
	layout_fit(&lt, cells, t.rows, COLS, T_EQUAL);
	printf("\n");
	layout_wrap(stdout, "summary, one row per profile. Equal to: agree on"
		    " every input checked. The counts are inputs: those on"
		    " which the two differ, those that violate the invariant,"
		    " and those on which the prepared scorer differs, of those"
		    " compared.",
		    0, 0, COLS, VERIFY_WRAP);
	for (a = 0; a < t.rows; a++)
		layout_row(stdout, &lt, cells + a * T_COLS);
	printf("  ");
	layout_wrap(stdout, "invariants: range: hot in [0, 99]; sum: hot + cold"
		    " = 99; accesses: more accesses never colder; age(hot):"
		    " freq > 0, older never colder; age(idle): freq = 0, older"
		    " never hotter",
		    2, 4, COLS, VERIFY_WRAP);
}

/**
 * verify_print_report() - the report of @v's run, on stdout.
 * @v:		the run, its result in.
 */
void verify_print_report(const struct verify *v)
{
	const struct hs_verify_result *res = &v->res;
	struct classes c;
	unsigned int d;

	find_classes(v, &c);
	printf("hotscore verify: %u profiles, %u threads, --seed %llu%s\n",
	       v->cfg.nr, v->cfg.threads, (unsigned long long)v->cfg.seed,
	       v->cfg.quick ? ", --quick" : "");
	for (d = 0; d < HS_NR_DOMAINS; d++)
		printf("  %-7s %12llu %s in %.2f s\n", hs_domain_name(d),
		       (unsigned long long)res->inputs[d],
		       d == HS_DOM_AGELOG ? "age_in_sec values" : "inputs",
		       res->seconds[d]);
	print_summary(v, &c);
	print_agelog(v);
	print_pairs(v, &c);
	print_invariants(v, &c);
	print_fast(v, &c);
	printf("\n%s\n", verdict(v) ? "FAIL: variants claimed equal differ" :
	       "ok: every variant claimed equal is equal on every input checked");
}
