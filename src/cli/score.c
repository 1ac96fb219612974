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

#include <hotscore/score.h>

#include "cli.h"

/* One numeric column of the input, by its CSV name and its flag name. */
struct column {
	const char *csv;
	const char *flag;
	size_t offset;		/* in struct hs_input */
	bool is_long;		/* unsigned long, else unsigned int */
	unsigned long dflt;
};

#define COL_UL(c, f, m, d) { c, f, offsetof(struct hs_input, m), true, d }
#define COL_U(c, f, m, d) { c, f, offsetof(struct hs_input, m), false, d }

static const struct column columns[] = {
	COL_UL("sample_us", "sample-us", sample_us, 5000),
	COL_UL("aggr_us", "aggr-us", aggr_us, 100000),
	COL_U("nr_accesses", "nr-accesses", nr_accesses, 0),
	COL_U("last_nr_accesses", "last-nr-accesses", last_nr_accesses, 0),
	COL_U("age", "age", age, 0),
	COL_UL("passed_sis", "passed-sis", passed_sis, 0),
	COL_UL("next_aggr_sis", "next-aggr-sis", next_aggr_sis, 0),
	COL_U("weight_nr_accesses", "weight-nr-accesses", weight_nr_accesses, 1),
	COL_U("weight_age", "weight-age", weight_age, 1),
};
#define NR_COLUMNS (sizeof(columns) / sizeof(columns[0]))
#define PROFILE_COL NR_COLUMNS	/* the profile column's index */
#define IGNORED_COL (NR_COLUMNS + 1)	/* hot, cold, status: re-fed output */
#define DEFAULT_PROFILE "hotfix"

/* A profile or component list, resolved, with its name as printed. */
struct spec {
	struct hs_components comp;
	char name[64];
};

struct row {
	struct hs_input in;
	struct spec spec;
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
		hs_die("%s: '%s' is out of range for %s (0..%lu)", where, s,
		       c->is_long ? "unsigned long" : "unsigned int", max);
	if (err)
		hs_die("%s: '%s': %s", where, s, err);
	column_set(c, in, v);
}

static void spec_parse(const char *s, struct spec *out, const char *where)
{
	const struct hs_profile *p = hs_profile_find(s);
	int err = hs_components_parse(s, &out->comp);

	if (err == -2)
		hs_die("%s: '%s' needs the x86 bsr instruction, not on this machine",
		       where, s);
	if (err)
		hs_die("%s: unknown profile '%s' (see --list-profiles)", where,
		       s);
	if (p)
		snprintf(out->name, sizeof(out->name), "%s", p->name);
	else
		hs_components_format(&out->comp, out->name, sizeof(out->name));
}

static void list_profiles(void)
{
	unsigned int i;

	printf("%-15s %-5s %-9s %-5s %-5s  %s\n", "profile", "freq",
	       "divisor", "age", "clamp", "kernels");
	for (i = 0; i < hs_nr_profiles; i++) {
		const struct hs_profile *p = &hs_profiles[i];

		printf("%-15s %-5s %-9s %-5s %-5s  %s\n", p->name,
		       hs_freq_name(p->comp.freq),
		       hs_divisor_name(p->comp.divisor),
		       hs_agelog_name(p->comp.agelog, p->comp.fls),
		       hs_clamp_name(p->comp.clamp), p->what);
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

static void usage(void)
{
	size_t i;

	printf("usage: hotscore score [--profile P] [--FIELD N ...]\n"
	       "       hotscore score --csv [--profile P] [--FIELD N ...] < in.csv\n"
	       "       hotscore score --list-profiles\n\n"
	       "One input from flags prints every step of the computation.\n"
	       "With --csv, stdin is CSV whose header names any of:\n  profile");
	for (i = 0; i < NR_COLUMNS; i++)
		printf(",%s", columns[i].csv);
	printf("\nMissing columns take the flags' values.  Output: every column,"
	       " then hot,cold,status.\nFlags (default):\n"
	       "  --profile P (%s)\n", DEFAULT_PROFILE);
	for (i = 0; i < NR_COLUMNS; i++)
		printf("  --%s N (%lu)\n", columns[i].flag, columns[i].dflt);
}

static void print_csv_header(void)
{
	size_t i;

	fputs("profile", stdout);
	for (i = 0; i < NR_COLUMNS; i++)
		printf(",%s", columns[i].csv);
	fputs(",hot,cold,status\n", stdout);
}

static void print_csv_row(const struct row *r)
{
	struct hs_result res = hs_score(&r->spec.comp, &r->in, NULL);
	size_t i;

	fputs(r->spec.name, stdout);
	for (i = 0; i < NR_COLUMNS; i++)
		printf(",%lu", column_get(&columns[i], &r->in));
	if (res.status == HS_DIV0)
		printf(",undef,undef,%s\n", hs_status_name(&res));
	else
		printf(",%d,%d,%s\n", res.hot, res.cold, hs_status_name(&res));
}

/*
 * The CSV on stdin, read whole.  It is parsed twice: once to check every row,
 * once to print, so an error leaves stdout empty while memory stays about the
 * size of the input.  File scope keeps every buffer reachable when hs_die()
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
} csv;

static void csv_read(FILE *f)
{
	size_t n;

	for (;;) {
		if (csv.cap - csv.len < 65536) {
			csv.cap = csv.cap ? 2 * csv.cap : 1 << 20;
			csv.buf = realloc(csv.buf, csv.cap + 1);
			if (!csv.buf)
				hs_die("%sout of memory reading %s", csv.what,
				       csv.source);
		}
		n = fread(csv.buf + csv.len, 1, csv.cap - csv.len, f);
		csv.len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		hs_die("%serror reading %s", csv.what, csv.source);
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
		hs_die("%sline %zu: contains a NUL byte", csv.what,
		       csv.lineno);
	if (n + 1 > csv.line_cap) {
		csv.line_cap = 2 * n + 1;
		csv.line = realloc(csv.line, csv.line_cap);
		if (!csv.line)
			hs_die("out of memory");
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
		hs_die("%s%sno header line on %s", csv.what,
		       *csv.what ? "" : "--csv: ", csv.source);
	csv.ncols = hs_csv_count(csv.line);
	csv.fields = calloc(csv.ncols, sizeof(*csv.fields));
	csv.map = calloc(csv.ncols, sizeof(*csv.map));
	if (!csv.fields || !csv.map)
		hs_die("out of memory");
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
			hs_die("%sline %zu: unknown column '%s'", csv.what,
			       csv.lineno, name);
		if (seen[j])
			hs_die("%sline %zu: column '%s' appears twice",
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
		hs_die("%sline %zu: %zu fields, the header has %zu", csv.what,
		       csv.lineno,
		       n, csv.ncols);
	for (i = 0; i < csv.ncols; i++) {
		size_t col = csv.map[i];

		if (col == IGNORED_COL)
			continue;
		if (col == PROFILE_COL) {
			snprintf(where, sizeof(where), "%sline %zu: profile",
				 csv.what, csv.lineno);
			spec_parse(csv.fields[i], &r->spec, where);
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
	memset(&csv, 0, sizeof(csv));
}

/* Every column at its default, and the default profile. */
static void row_defaults(struct row *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NR_COLUMNS; i++)
		column_set(&columns[i], &r->in, columns[i].dflt);
	spec_parse(DEFAULT_PROFILE, &r->spec, "default profile");
}

/** hs_score_defaults() - the input `hotscore score` uses with no flags. */
void hs_score_defaults(struct hs_input *in)
{
	struct row r;

	row_defaults(&r);
	*in = r.in;
}

/**
 * hs_score_args() - the `hotscore score` flags that give @in: each column
 * that differs from its default, as --flag VALUE.
 * @in:		the input.
 * @buf:	receives the flags, space-separated (empty if all default).
 * @size:	of @buf.
 */
void hs_score_args(const struct hs_input *in, char *buf, size_t size)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_COLUMNS && at < size; i++) {
		unsigned long v = column_get(&columns[i], in);

		if (v != columns[i].dflt)
			at += (size_t)snprintf(buf + at, size - at, "%s--%s %lu",
					       at ? " " : "", columns[i].flag,
					       v);
	}
}

/**
 * hs_read_inputs() - the rows of a `hotscore score --csv` file as inputs.
 * @path:	the file.
 * @out:	receives a malloc'ed array of the rows; columns absent from
 *		the file take the score command's defaults.
 *
 * Any error exits with a one-line message naming @path and the line.
 *
 * Return: the number of rows (0 if the file has only a header).
 */
size_t hs_read_inputs(const char *path, struct hs_input **out)
{
	static char what[PATH_MAX + 8];
	struct hs_input *rows = NULL;
	size_t n = 0, cap = 0;
	struct row dflt, r;
	FILE *f = fopen(path, "r");

	if (!f)
		hs_die("%s: %s", path, strerror(errno));
	snprintf(what, sizeof(what), "%s: ", path);
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
			rows = realloc(rows, cap * sizeof(*rows));
			if (!rows)
				hs_die("%sout of memory", csv.what);
		}
		rows[n++] = r.in;
	}
	csv_free();
	*out = rows;
	return n;
}

static int run_csv(const struct row *dflt)
{
	size_t body, body_lineno;
	int pass;

	csv.what = "";
	csv.source = "stdin";
	csv_read(stdin);
	csv_header();
	body = csv.pos;
	body_lineno = csv.lineno;
	for (pass = 0; pass < 2; pass++) {	/* check all, then print */
		csv.pos = body;
		csv.lineno = body_lineno;
		if (pass)
			print_csv_header();
		while (csv_next_line()) {
			struct row r = *dflt;

			if (!*hs_trim(csv.line))
				continue;	/* a blank line is not a row */
			csv_row(&r);
			if (pass)
				print_csv_row(&r);
		}
	}
	csv_free();
	return 0;
}

static void print_input(const struct row *r)
{
	size_t i;

	printf("%-18s %s\n", "profile", r->spec.name);
	for (i = 0; i < NR_COLUMNS; i++)
		printf("%-18s %lu\n", columns[i].csv,
		       column_get(&columns[i], &r->in));
}

static int run_one(const struct row *r)
{
	struct hs_trace t;
	struct hs_result res = hs_score(&r->spec.comp, &r->in, &t);
	char comp[64];

	hs_components_format(&r->spec.comp, comp, sizeof(comp));
	print_input(r);
	printf("%-18s %s\n", "components", comp);
	if (r->spec.comp.freq == HS_FREQ_MVSUM && res.div0 != HS_DIV0_SAMPLE) {
		printf("%-18s %lu\n", "window_len", t.window_len);
		if (res.div0 != HS_DIV0_WINDOW)
			printf("%-18s %lu\n%-18s %u\n", "left_window_bp",
			       t.left_window_bp, "mvsum", t.mvsum);
	}
	if (res.status == HS_DIV0) {
		printf("%-18s undef\n%-18s undef\n%-18s %s\n", "hot", "cold",
		       "status", hs_status_name(&res));
		return 0;
	}
	printf("%-18s %u\n", "max_nr_accesses", t.max_nr);
	printf("%-18s %d\n", "freq_subscore", t.freq_subscore);
	printf("%-18s %u\n", "age_in_sec", t.age_in_sec);
	printf("%-18s %d\n", "age_in_log", t.age_in_log);
	printf("%-18s %d\n", "age_in_log+32", t.age_log_scaled);
	printf("%-18s %d\n", "age_subscore", t.age_subscore);
	printf("%-18s %d\n", "weighted_sum", t.weighted);
	printf("%-18s %d\n", "weighted_mean", t.averaged);
	printf("%-18s %d\n", "hotness*99/100", t.scaled);
	printf("%-18s %d\n%-18s %d\n%-18s %s\n", "hot", res.hot, "cold",
	       res.cold, "status", hs_status_name(&res));
	return 0;
}

/**
 * hs_cmd_score() - `hotscore score`.
 * @argc: argument count, argv[0] being "score".
 * @argv: arguments.
 *
 * Return: exit status.
 */
int hs_cmd_score(int argc, char **argv)
{
	struct row r;
	bool csv_mode = false;
	const char *v;
	char where[64];
	size_t c;
	int i;

	row_defaults(&r);

	for (i = 1; i < argc; i++) {
		if (hs_opt(argc, argv, &i, "help", NULL)) {
			usage();
			return 0;
		}
		if (hs_opt(argc, argv, &i, "list-profiles", NULL)) {
			list_profiles();
			return 0;
		}
		if (hs_opt(argc, argv, &i, "csv", NULL)) {
			csv_mode = true;
			continue;
		}
		if (hs_opt(argc, argv, &i, "profile", &v)) {
			spec_parse(v, &r.spec, "--profile");
			continue;
		}
		if (strncmp(argv[i], "--", 2))
			hs_die("score: unexpected argument '%s'", argv[i]);
		for (c = 0; c < NR_COLUMNS; c++)
			if (hs_opt(argc, argv, &i, columns[c].flag, &v))
				break;
		if (c == NR_COLUMNS)
			hs_die("score: unknown option '%s'; see 'hotscore score --help'",
			       argv[i]);
		snprintf(where, sizeof(where), "--%s", columns[c].flag);
		column_parse(&columns[c], v, &r.in, where);
	}
	return csv_mode ? run_csv(&r) : run_one(&r);
}
