// SPDX-License-Identifier: GPL-2.0
/*
 * score.c - `hotscore score`: the model on one input (flags) or many (CSV).
 *
 * A CSV run parses and checks every row before it prints any, so a bad row
 * leaves stdout empty: a script gets all the rows or none.
 */
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

/* Map each header field to a column index; reject unknown and repeats. */
static size_t parse_header(char *line, size_t **map_out)
{
	size_t n = hs_csv_count(line), i, j;
	char **fields = calloc(n, sizeof(*fields));
	size_t *map = calloc(n, sizeof(*map));

	if (!fields || !map)
		hs_die("out of memory");
	hs_split_csv(line, fields, n);
	for (i = 0; i < n; i++) {
		if (!strcmp(fields[i], "profile"))
			map[i] = PROFILE_COL;
		else if (!strcmp(fields[i], "hot") || !strcmp(fields[i], "cold") ||
			 !strcmp(fields[i], "status"))
			map[i] = IGNORED_COL;
		else {
			for (j = 0; j < NR_COLUMNS; j++)
				if (!strcmp(fields[i], columns[j].csv))
					break;
			if (j == NR_COLUMNS)
				hs_die("line 1: unknown column '%s'", fields[i]);
			map[i] = j;
		}
		for (j = 0; j < i; j++)
			if (map[j] == map[i] && map[i] != IGNORED_COL)
				hs_die("line 1: column '%s' appears twice",
				       fields[i]);
	}
	free(fields);
	*map_out = map;
	return n;
}

static void parse_row(char *line, size_t lineno, const size_t *map,
		      size_t ncols, char **fields, struct row *r)
{
	size_t n = hs_split_csv(line, fields, ncols), i;
	char where[64];

	if (n != ncols)
		hs_die("line %zu: %zu fields, the header has %zu", lineno, n,
		       ncols);
	for (i = 0; i < ncols; i++) {
		if (map[i] == IGNORED_COL)
			continue;
		if (map[i] == PROFILE_COL) {
			snprintf(where, sizeof(where), "line %zu: profile",
				 lineno);
			spec_parse(fields[i], &r->spec, where);
		} else {
			snprintf(where, sizeof(where), "line %zu: %s", lineno,
				 columns[map[i]].csv);
			column_parse(&columns[map[i]], fields[i], &r->in, where);
		}
	}
}

static void strip_eol(char *line, ssize_t *len)
{
	while (*len > 0 && (line[*len - 1] == '\n' || line[*len - 1] == '\r'))
		line[--*len] = '\0';
}

static int run_csv(const struct row *dflt)
{
	size_t lineno = 0, nrows = 0, cap = 0, ncols = 0, *map = NULL, i;
	struct row *rows = NULL;
	char *line = NULL, **fields = NULL;
	size_t linecap = 0;
	ssize_t len;

	while ((len = getline(&line, &linecap, stdin)) >= 0) {
		lineno++;
		strip_eol(line, &len);
		if (strlen(line) != (size_t)len)
			hs_die("line %zu: contains a NUL byte", lineno);
		if (!map) {
			if (!*hs_trim(line))
				hs_die("line %zu: empty header", lineno);
			ncols = parse_header(line, &map);
			fields = calloc(ncols, sizeof(*fields));
			if (!fields)
				hs_die("out of memory");
			continue;
		}
		if (!*hs_trim(line))
			continue;	/* a blank line is not a row */
		if (nrows == cap) {
			cap = cap ? 2 * cap : 1024;
			rows = realloc(rows, cap * sizeof(*rows));
			if (!rows)
				hs_die("out of memory");
		}
		rows[nrows] = *dflt;
		parse_row(line, lineno, map, ncols, fields, &rows[nrows]);
		nrows++;
	}
	if (ferror(stdin))
		hs_die("error reading stdin");
	if (!map)
		hs_die("--csv: no header line on stdin");

	print_csv_header();
	for (i = 0; i < nrows; i++)
		print_csv_row(&rows[i]);
	free(line);
	free(fields);
	free(map);
	free(rows);
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
	struct row r = { 0 };
	bool csv = false;
	const char *v;
	char where[64];
	size_t c;
	int i;

	for (c = 0; c < NR_COLUMNS; c++)
		column_set(&columns[c], &r.in, columns[c].dflt);
	spec_parse(DEFAULT_PROFILE, &r.spec, "default profile");

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
			csv = true;
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
	return csv ? run_csv(&r) : run_one(&r);
}
