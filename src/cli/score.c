// SPDX-License-Identifier: GPL-2.0
/*
 * score.c - `hotscore score`: the model on one input (flags) or many (CSV).
 *
 * A CSV run parses and checks every row before it prints any, so a bad row
 * leaves stdout empty: a script gets all the rows or none.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/score.h>

#include "cli.h"
#include "opt.h"

/*
 * One numeric column of the input.  Its index is also its option's id in
 * score_opts[], whose name is the flag (the kernel's field name).
 */
struct column {
	const char *csv;
	size_t offset;		/* in struct hs_input */
	bool is_long;		/* unsigned long, else unsigned int */
	bool is_time;		/* us; the flag takes units */
	unsigned long dflt;
};

#define COL_UL(c, m, t, d) { c, offsetof(struct hs_input, m), true, t, d }
#define COL_U(c, m, d) { c, offsetof(struct hs_input, m), false, false, d }

static const struct column columns[] = {
	COL_UL("sample_us", sample_us, true, 5000),
	COL_UL("aggr_us", aggr_us, true, 100000),
	COL_U("nr_accesses", nr_accesses, 0),
	COL_U("last_nr_accesses", last_nr_accesses, 0),
	COL_U("age", age, 0),
	COL_UL("passed_sis", passed_sis, false, 0),
	COL_UL("next_aggr_sis", next_aggr_sis, false, 0),
	COL_U("weight_nr_accesses", weight_nr_accesses, 1),
	COL_U("weight_age", weight_age, 1),
};
#define NR_COLUMNS (sizeof(columns) / sizeof(columns[0]))
#define PROFILE_COL NR_COLUMNS	/* the profile column's index */
#define IGNORED_COL (NR_COLUMNS + 1)	/* hot, cold, status: re-fed output */
#define MAX_SPECS 32		/* profiles side by side */

enum { O_PROFILE = NR_COLUMNS, O_INPUT, O_CSV, O_LIST, O_BASE };

#define U32 4294967295UL
#define FIELD(i, n, h, m, d, e) { .id = i, .name = n, .type = OPT_COUNT, \
	.arg = "N", .dflt = d, .help = h, .max = m, .example = e }
static const struct opt score_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .type = OPT_LIST, .arg = "LIST",
	  .dflt = HS_DEFAULT_PROFILE, .words = "@profiles+all",
	  .help = "profiles, FREQ+DIVISOR+AGE+CLAMP combinations, all, or"
		  " candidate files (./mine.c, NAME=./mine.c), side by side",
	  .example = "v6.6,hotfix" },
	{ .id = O_BASE, .name = "base", .type = OPT_STR, .arg = "PROFILE",
	  .dflt = "the first profile of --profile, else hotfix",
	  .words = "@profiles",
	  .help = "whose damon_max_nr_accesses() a candidate's kernel has",
	  .example = "v6.6" },
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "FILE",
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

/*
 * A profile, component list or candidate file, resolved, with its name as
 * printed.  A candidate is loaded once the base profile is known.
 */
struct spec {
	struct hs_components comp;
	char name[64];
	char cand_spec[256];		/* "./mine.c", "LABEL=./mine.c", "" */
	const struct hs_cand *cand;
};

/* The divisor helper a candidate's environment defines (--base). */
static enum hs_divisor cand_base = HS_DIV_SAFE;

struct row {
	struct hs_input in;
	struct spec spec;
	bool has_profile;	/* from the CSV's profile column */
};

/* The command: the flags' input, the profiles, where rows come from. */
struct score {
	struct row dflt;
	struct spec specs[MAX_SPECS];
	unsigned int nr_specs;
	const char *input;
	const struct hs_profile *base;	/* --base */
};

static void column_set(const struct column *c, struct hs_input *in,
		       unsigned long v)
{
	char *p = (char *)in + c->offset;

	if (c->is_long)
		memcpy(p, &v, sizeof(v));
	else {
		unsigned int u = (unsigned int)v;

		memcpy(p, &u, sizeof(u));
	}
}

static unsigned long column_get(const struct column *c,
				const struct hs_input *in)
{
	const char *p = (const char *)in + c->offset;
	unsigned long v;
	unsigned int u;

	if (c->is_long) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	memcpy(&u, p, sizeof(u));
	return u;
}

/* Parse @s into column @c, or return why not (where names the input). */
static void column_parse(const struct column *c, const char *s,
			 struct hs_input *in, const char *where)
{
	unsigned long max = c->is_long ? ULONG_MAX : UINT_MAX;
	const char *err;
	unsigned long v;

	err = hs_parse_number(s, max, &v);
	if (err && !strcmp(err, "out of range"))
		cli_die("%s: '%s' is out of range for %s (0..%lu)", where, s,
		       c->is_long ? "unsigned long" : "unsigned int", max);
	if (err)
		cli_die("%s: '%s': %s", where, s, err);
	column_set(c, in, v);
}

static void spec_parse(const char *s, struct spec *out, const char *where)
{
	const struct hs_profile *p = hs_profile_find(s);
	int err;

	out->cand = NULL;
	out->cand_spec[0] = '\0';
	if (!p && hs_cand_is_file(s)) {
		/* kept: @s may be a list's copy, freed before loading */
		if (strlen(s) >= sizeof(out->cand_spec))
			cli_die("%s: '%.40s...' is too long", where, s);
		snprintf(out->cand_spec, sizeof(out->cand_spec), "%s", s);
		snprintf(out->name, sizeof(out->name), "%s", s);
		return;
	}
	err = hs_components_parse(s, &out->comp);

	if (err == -2)
		cli_die("%s: '%s' needs the x86 bsr instruction, not on this machine",
		       where, s);
	if (err)
		cli_die("%s: unknown profile '%s' (see 'hotscore score --list-profiles')",
			where, s);
	if (p)
		snprintf(out->name, sizeof(out->name), "%s", p->name);
	else
		hs_components_format(&out->comp, out->name, sizeof(out->name));
}

/* A candidate spec, loaded (once) for the base profile; its label. */
static void load_cand(struct spec *sp, const char *where)
{
	const char *label;

	if (!sp->cand_spec[0])
		return;
	sp->cand = cli_cand_get(where, sp->cand_spec, cand_base, &label);
	snprintf(sp->name, sizeof(sp->name), "%s", label);
}

/** hs_list_profiles() - the built-in profiles and the component syntax. */
void hs_list_profiles(void)
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

		cli_wrap(stdout, p->what, (size_t)n, (size_t)n, 100);
	}
	printf("\nAny combination: --profile FREQ+DIVISOR+AGE+CLAMP, e.g. "
	       "raw+max-nr+fls-bsr+none\n"
	       "  FREQ     raw | mvsum\n"
	       "  DIVISOR  u32-trunc | max-nr | safe\n"
	       "  AGE      loop | fls | ilog2, or fls-IMPL | ilog2-IMPL with "
	       "IMPL generic | bsr | builtin\n"
	       "           (plain fls/ilog2 use the kernel's own: bsr on "
	       "x86-64)\n"
	       "  CLAMP    none | clamp\n");
}

static void print_csv_header(void)
{
	size_t i;

	fputs("profile", stdout);
	for (i = 0; i < NR_COLUMNS; i++)
		printf(",%s", columns[i].csv);
	fputs(",hot,cold,status\n", stdout);
}

/* hot, cold and status as printed: "undef" where the kernel traps. */
static void outcome_of(const struct spec *sp, const struct hs_input *in,
		       char *hot, char *cold, char *status, size_t size)
{
	struct hs_result res;
	struct hs_cand_result cr;

	if (sp->cand) {
		cr = hs_cand_score(sp->cand, in);
		snprintf(status, size, "%s", cli_cand_status(&cr));
		snprintf(hot, size, cr.trap ? "undef" : "%d", cr.hot);
		snprintf(cold, size, cr.trap ? "undef" : "%d", cr.cold);
		return;
	}
	res = hs_score(&sp->comp, in, NULL);
	snprintf(status, size, "%s", hs_status_name(&res));
	snprintf(hot, size, res.status == HS_DIV0 ? "undef" : "%d", res.hot);
	snprintf(cold, size, res.status == HS_DIV0 ? "undef" : "%d", res.cold);
}

static void print_csv_row(const struct row *r, const struct spec *spec)
{
	char hot[32], cold[32], status[32];
	size_t i;

	outcome_of(spec, &r->in, hot, cold, status, sizeof(hot));
	fputs(spec->name, stdout);
	for (i = 0; i < NR_COLUMNS; i++)
		printf(",%lu", column_get(&columns[i], &r->in));
	printf(",%s,%s,%s\n", hot, cold, status);
}

/*
 * The CSV on stdin, read whole.  It is parsed twice: once to check every row,
 * once to print, so an error leaves stdout empty while memory stays about the
 * size of the input.  File scope keeps every buffer reachable when cli_die()
 * exits from deep inside.
 */
static struct {
	const char *what;	/* "" for stdin, "PATH: " for a file */
	const char *source;	/* "stdin" or the path */
	char *buf;		/* all of stdin, NUL-terminated */
	size_t len, pos;	/* size, and the start of the next line */
	size_t lineno;		/* of the line last returned */
	char *line;		/* that line, copied: split in place */
	size_t cap, line_cap;	/* of buf, of line */
	size_t ncols;
	size_t *map;		/* header field -> column index */
	char **fields;
	struct hs_input *rows;	/* hs_read_inputs()'s, until returned */
} csv;

static void csv_read(FILE *f)
{
	size_t n;

	for (;;) {
		if (csv.cap - csv.len < 65536) {
			csv.cap = csv.cap ? 2 * csv.cap : 1 << 20;
			csv.buf = realloc(csv.buf, csv.cap + 1);
			if (!csv.buf)
				cli_die("%sout of memory reading %s", csv.what,
				       csv.source);
		}
		n = fread(csv.buf + csv.len, 1, csv.cap - csv.len, f);
		csv.len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		cli_die("%serror reading %s", csv.what, csv.source);
	csv.buf[csv.len] = '\0';
	/* a UTF-8 byte-order mark is not part of the first column's name */
	if (csv.len >= 3 && !memcmp(csv.buf, "\xef\xbb\xbf", 3))
		csv.pos = 3;
}

/* Copy the next line (ended by LF, CRLF or CR) to csv.line. */
static bool csv_next_line(void)
{
	const char *start = csv.buf + csv.pos, *end = start;
	size_t n;

	if (csv.pos >= csv.len)
		return false;
	while (end < csv.buf + csv.len && *end != '\n' && *end != '\r')
		end++;
	n = (size_t)(end - start);
	csv.lineno++;
	if (memchr(start, '\0', n))
		cli_die("%sline %zu: contains a NUL byte", csv.what,
		       csv.lineno);
	if (n + 1 > csv.line_cap) {
		csv.line_cap = 2 * n + 1;
		csv.line = realloc(csv.line, csv.line_cap);
		if (!csv.line)
			cli_die("out of memory");
	}
	memcpy(csv.line, start, n);
	csv.line[n] = '\0';
	if (end < csv.buf + csv.len && *end == '\r' && end[1] == '\n')
		end++;
	csv.pos = (size_t)(end - csv.buf) + 1;
	return true;
}

/* Map each header field to a column index; reject unknown and repeats. */
static void csv_header(void)
{
	bool seen[PROFILE_COL + 1] = { false };
	size_t i, j;

	if (!csv_next_line() || !*hs_trim(csv.line))
		cli_die("%s%sno header line on %s", csv.what,
			*csv.what ? "" : "--input: ", csv.source);
	csv.ncols = hs_csv_count(csv.line);
	csv.fields = calloc(csv.ncols, sizeof(*csv.fields));
	csv.map = calloc(csv.ncols, sizeof(*csv.map));
	if (!csv.fields || !csv.map)
		cli_die("out of memory");
	hs_split_csv(csv.line, csv.fields, csv.ncols);
	for (i = 0; i < csv.ncols; i++) {
		const char *name = csv.fields[i];

		if (!strcmp(name, "hot") || !strcmp(name, "cold") ||
		    !strcmp(name, "status")) {
			csv.map[i] = IGNORED_COL;
			continue;
		}
		for (j = 0; j < NR_COLUMNS; j++)
			if (!strcmp(name, columns[j].csv))
				break;
		if (j == NR_COLUMNS && strcmp(name, "profile"))
			cli_die("%sline %zu: unknown column '%s'", csv.what,
			       csv.lineno, name);
		if (seen[j])
			cli_die("%sline %zu: column '%s' appears twice",
			       csv.what, csv.lineno, name);
		seen[j] = true;
		csv.map[i] = j;	/* NR_COLUMNS is PROFILE_COL */
	}
}

/* Parse the current line into @r, which holds the defaults. */
static void csv_row(struct row *r)
{
	size_t n = hs_split_csv(csv.line, csv.fields, csv.ncols), i;
	char where[PATH_MAX + 64];

	if (n != csv.ncols)
		cli_die("%sline %zu: %zu field%s, the header has %zu", csv.what,
			csv.lineno, n, cli_s(n), csv.ncols);
	for (i = 0; i < csv.ncols; i++) {
		size_t col = csv.map[i];

		if (col == IGNORED_COL)
			continue;
		if (col == PROFILE_COL) {
			snprintf(where, sizeof(where), "%sline %zu: profile",
				 csv.what, csv.lineno);
			spec_parse(csv.fields[i], &r->spec, where);
			load_cand(&r->spec, where);
			r->has_profile = true;
		} else {
			snprintf(where, sizeof(where), "%sline %zu: %s",
				 csv.what, csv.lineno, columns[col].csv);
			column_parse(&columns[col], csv.fields[i], &r->in,
				     where);
		}
	}
}

static void csv_free(void)
{
	free(csv.buf);
	free(csv.line);
	free(csv.fields);
	free(csv.map);
	free(csv.rows);
	memset(&csv, 0, sizeof(csv));
}

/*
 * For tests/fuzz/: a harness whose cli_die() hook longjmp()s out of a read
 * frees what the read had allocated.  Not part of the CLI's interface.
 */
void hs_csv_reset(void);
void hs_csv_reset(void)
{
	csv_free();
}

/* Every column at its default, and the default profile. */
static void row_defaults(struct row *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NR_COLUMNS; i++)
		column_set(&columns[i], &r->in, columns[i].dflt);
	spec_parse(HS_DEFAULT_PROFILE, &r->spec, "default profile");
}

/** hs_score_defaults() - the input `hotscore score` uses with no flags. */
void hs_score_defaults(struct hs_input *in)
{
	struct row r;

	row_defaults(&r);
	*in = r.in;
}

/* The flag of column @i: its option's name (the option's id is @i). */
static const char *column_flag(size_t i)
{
	size_t k;

	for (k = 0; k < sizeof(score_opts) / sizeof(score_opts[0]); k++)
		if (score_opts[k].id == (int)i)
			return score_opts[k].name;
	return "?";
}

/**
 * hs_score_args() - the `hotscore score` flags that give @in: each column
 * that differs from its default, as --flag VALUE, times with units.
 * @in:		the input.
 * @buf:	receives the flags, space-separated (empty if all default).
 * @size:	of @buf.
 */
void hs_score_args(const struct hs_input *in, char *buf, size_t size)
{
	char value[32];
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_COLUMNS && at < size; i++) {
		unsigned long v = column_get(&columns[i], in);

		if (v == columns[i].dflt)
			continue;
		if (columns[i].is_time)
			hs_format_time_us(v, value, sizeof(value));
		else
			snprintf(value, sizeof(value), "%lu", v);
		at += (size_t)snprintf(buf + at, size - at, "%s--%s %s",
				       at ? " " : "", column_flag(i), value);
	}
}

/**
 * hs_read_inputs() - the rows of a `hotscore score --input` file as inputs.
 * @opt:	the option that named it, for messages ("--dist").
 * @path:	the file.
 * @out:	receives a malloc'ed array of the rows; columns absent from
 *		the file take the score command's defaults.
 *
 * Any error exits with a one-line message naming @path and the line.
 *
 * Return: the number of rows (0 if the file has only a header).
 */
size_t hs_read_inputs(const char *opt, const char *path,
		      struct hs_input **out)
{
	static char what[PATH_MAX + 40];
	size_t n = 0, cap = 0;
	struct row dflt, r;
	FILE *f = fopen(path, "r");

	if (!f)
		cli_die("%s: %s: %s", opt, path, strerror(errno));
	snprintf(what, sizeof(what), "%s: %s: ", opt, path);
	csv.what = what;
	csv.source = path;
	row_defaults(&dflt);
	csv_read(f);
	fclose(f);
	csv_header();
	while (csv_next_line()) {
		if (!*hs_trim(csv.line))
			continue;
		r = dflt;
		csv_row(&r);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			csv.rows = realloc(csv.rows, cap * sizeof(*csv.rows));
			if (!csv.rows)
				cli_die("%sout of memory", csv.what);
		}
		csv.rows[n++] = r.in;
	}
	*out = csv.rows;
	csv.rows = NULL;	/* the caller's now */
	csv_free();
	return n;
}

/* Open the CSV: a file, or stdin for "-". */
static void csv_open(const char *path)
{
	static char what[PATH_MAX + 8];
	FILE *f;

	if (!strcmp(path, "-")) {
		csv.what = "";
		csv.source = "stdin";
		csv_read(stdin);
		return;
	}
	f = fopen(path, "r");
	if (!f)
		cli_die("--input: %s: %s", path, strerror(errno));
	snprintf(what, sizeof(what), "%s: ", path);
	csv.what = what;
	csv.source = path;
	csv_read(f);
	fclose(f);
}

/* Each row under its own profile, or else under every --profile. */
static int run_csv(const struct score *sc)
{
	size_t body, body_lineno;
	unsigned int k;
	int pass;

	csv_open(sc->input);
	csv_header();
	body = csv.pos;
	body_lineno = csv.lineno;
	for (pass = 0; pass < 2; pass++) {	/* check all, then print */
		csv.pos = body;
		csv.lineno = body_lineno;
		if (pass)
			print_csv_header();
		while (csv_next_line()) {
			struct row r = sc->dflt;

			if (!*hs_trim(csv.line))
				continue;	/* a blank line is not a row */
			csv_row(&r);
			if (!pass)
				continue;
			if (r.has_profile)
				print_csv_row(&r, &r.spec);
			else
				for (k = 0; k < sc->nr_specs; k++)
					print_csv_row(&r, &sc->specs[k]);
		}
	}
	csv_free();
	return 0;
}

/* The computation's steps, one row each; "-" where a step is not taken. */
enum { ST_COMP, ST_WINDOW, ST_LEFT, ST_MVSUM, ST_MAXNR, ST_FREQ, ST_AGESEC,
       ST_AGELOG, ST_AGELOG32, ST_AGESUB, ST_WSUM, ST_WMEAN, ST_SCALED,
       ST_HOT, ST_COLD, ST_STATUS, NR_STEPS };

static const char *const step_names[NR_STEPS] = {
	"components", "window_len", "left_window_bp", "mvsum",
	"max_nr_accesses", "freq_subscore", "age_in_sec", "age_in_log",
	"age_in_log+32", "age_subscore", "weighted_sum", "weighted_mean",
	"hotness*99/100", "hot", "cold", "status",
};

typedef char step_text[64];	/* as long as a spec's name */

static void steps_of(const struct spec *sp, const struct hs_input *in,
		     step_text *v)
{
	struct hs_trace t;
	struct hs_result res;
	unsigned int k;

	for (k = 0; k < NR_STEPS; k++)
		snprintf(v[k], sizeof(v[k]), "-");
	if (sp->cand) {	/* a candidate shows its answer, not its steps */
		snprintf(v[ST_COMP], sizeof(*v), "candidate, base %s",
			 hs_divisor_name(cand_base));
		outcome_of(sp, in, v[ST_HOT], v[ST_COLD], v[ST_STATUS],
			   sizeof(*v));
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
	unsigned int j;

	printf("%-18s", label);
	for (j = from; j < to; j++)
		printf(" %-*s", j + 1 < to ? w[j] : 0, v[j][k]);
	putchar('\n');
}

/*
 * One input from flags: the inputs, then every step under each profile,
 * side by side; as many columns a table as fit 100 columns.
 */
static int run_one(const struct score *sc)
{
	static step_text v[MAX_SPECS][NR_STEPS];
	static step_text names[MAX_SPECS][NR_STEPS];
	int w[MAX_SPECS];
	unsigned int j, k, from, to, width;
	size_t i;

	for (j = 0; j < sc->nr_specs; j++) {
		steps_of(&sc->specs[j], &sc->dflt.in, v[j]);
		snprintf(names[j][0], sizeof(names[j][0]), "%s",
			 sc->specs[j].name);
		w[j] = (int)strlen(names[j][0]);
		for (k = 0; k < NR_STEPS; k++)
			if ((int)strlen(v[j][k]) > w[j])
				w[j] = (int)strlen(v[j][k]);
	}
	for (from = 0; from < sc->nr_specs; from = to) {
		width = 18;
		for (to = from; to < sc->nr_specs &&
		     (to == from || width + 1 + (unsigned int)w[to] <= 100); to++)
			width += 1 + (unsigned int)w[to];
		if (from)
			putchar('\n');
		print_step_row("profile", names, 0, w, from, to);
		for (i = 0; i < NR_COLUMNS && !from; i++)
			printf("%-18s %lu\n", columns[i].csv,
			       column_get(&columns[i], &sc->dflt.in));
		for (k = 0; k < NR_STEPS; k++) {
			bool taken = false;

			for (j = from; j < to; j++)
				taken |= strcmp(v[j][k], "-") != 0;
			if (taken)
				print_step_row(step_names[k], v, k, w, from,
					       to);
		}
	}
	return 0;
}

static void add_spec(void *ctx, const char *name)
{
	struct score *sc = ctx;

	if (sc->nr_specs == MAX_SPECS)
		cli_usage_die("--profile: more than %d profiles", MAX_SPECS);
	spec_parse(name, &sc->specs[sc->nr_specs++], "--profile");
}


static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct score *sc = ctx;

	(void)nr;
	switch (o->id) {
	case O_LIST:
		hs_list_profiles();
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
	case O_BASE:
		sc->base = hs_profile_find(v->s);
		if (!sc->base)
			cli_usage_die("--base: no profile '%s' (see 'hotscore score --list-profiles')",
				      v->s);
		break;
	default:
		column_set(&columns[o->id], &sc->dflt.in, (unsigned long)v->u);
	}
}

/* A candidate's base: --base, else the first profile it is shown with. */
static void choose_base(struct score *sc)
{
	unsigned int k;

	if (sc->base) {
		cand_base = sc->base->comp.divisor;
		return;
	}
	for (k = 0; k < sc->nr_specs; k++)
		if (!sc->specs[k].cand_spec[0]) {
			cand_base = sc->specs[k].comp.divisor;
			return;
		}
}

static int score_run(int argc, char **argv)
{
	static struct score sc;
	unsigned int k;

	row_defaults(&sc.dflt);
	sc.specs[0] = sc.dflt.spec;
	sc.nr_specs = 1;
	opt_parse(&cmd_score, argc, argv, set, &sc);
	choose_base(&sc);
	opt_parsed(&cmd_score);
	for (k = 0; k < sc.nr_specs; k++)
		load_cand(&sc.specs[k], "--profile");
	sc.dflt.spec = sc.specs[0];
	return sc.input ? run_csv(&sc) : run_one(&sc);
}

const struct hs_cmd cmd_score = {
	.name = "score",
	.summary = "damon_hot_score()/damon_cold_score() of any kernel version",
	.usage = "hotscore score [--profile LIST] [--sample T] [--aggr T]"
		 " [--nr_accesses N] [--age N] ...\n"
		 "hotscore score --input FILE|- [--profile LIST] [--FIELD VALUE ...]\n"
		 "hotscore score --list-profiles",
	.about = "One input from flags prints every step of the computation,"
		 " one column a profile.\nWith --input, each CSV row is scored:"
		 " its header names any of profile,\nsample_us, aggr_us,"
		 " nr_accesses, last_nr_accesses, age, passed_sis,\n"
		 "next_aggr_sis, weight_nr_accesses, weight_age (the kernel's"
		 " field names; times\nin us).  Columns the file lacks take the"
		 " flags' values; a row without a profile\ncolumn is scored under"
		 " every --profile.  Output: every column, then\n"
		 "hot,cold,status; nothing is printed unless every row is good.",
	.notes = "T is a time: 5000 (us), 5ms, 1.5s; ns, us, ms, s, m, h.",
	.opts = score_opts,
	.nr_opts = sizeof(score_opts) / sizeof(score_opts[0]),
	.run = score_run,
};
