// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - score inputs: the columns (the kernel's field names), a row's
 * profile column, and the CSV reader.  `hotscore score --input`,
 * `bench --dist file:`, `verify --captured` and the fuzz harnesses read
 * through here.  A capture from hotscore.ko (mode=capture) is such a CSV
 * with four more columns: fn (hot or cold), caller (ops, or cold for a
 * damon_hot_score() call made inside damon_cold_score()), returned (what the
 * kernel's function returned) and nr_accesses_bp (>= 6.7; what the bp
 * profiles read).  Any input without nr_accesses_bp takes the kernel's
 * value after a merge, nr_accesses * 10000 (input_bp_default()).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/score.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "input.h"
#include "opt.h"

/* The most of a field a message quotes: the rest is "...". */
#define QUOTE_MAX 24
#define QUOTE_MORE(s) (strlen(s) > QUOTE_MAX ? "..." : "")

/* Header columns past the inputs: a profile, a capture's, or ignored. */
enum {
	PROFILE_COL = INPUT_NR_COLUMNS,
	FN_COL,
	CALLER_COL,
	RETURNED_COL,
	BP_COL,		/* nr_accesses_bp */
	IGNORED_COL,	/* hot, cold, status: score's output read back */
	NR_COLS
};

static const char *const extra_columns[NR_COLS - PROFILE_COL] = {
	"profile", "fn", "caller", "returned", "nr_accesses_bp",
};

#define INPUT_COLUMN(i, c, f, m, l, t, d) \
	[i] = { c, f, offsetof(struct hs_input, m), l, t, d },
const struct input_column input_columns[INPUT_NR_COLUMNS] = {
	INPUT_COLUMNS(INPUT_COLUMN)
};

/*
 * nr_accesses_bp, apart from INPUT_COLUMNS so that score's output keeps its
 * columns where no bp is given; its default follows nr_accesses.
 */
const struct input_column input_bp_column = {
	"nr_accesses_bp", "nr_accesses_bp",
	offsetof(struct hs_input, nr_accesses_bp), false, false, 0
};

/**
 * input_bp_default() - nr_accesses_bp of a row that gives none: the
 * kernel's after a merge or an attrs change, nr_accesses * 10000
 * (hs_bp_of_nr()).
 * @r:	the row; left alone when @r->has_bp.
 */
void input_bp_default(struct row *r)
{
	if (!r->has_bp)
		r->in.nr_accesses_bp = hs_bp_of_nr(r->in.nr_accesses);
}

/* What a profile column's candidate is compiled for (--base). */
static struct hs_spec row_base;
static bool has_base;

static void column_set(const struct input_column *c, struct hs_input *in,
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

static unsigned long column_get(const struct input_column *c,
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

/** input_column_get() - column @i of @in. */
unsigned long input_column_get(size_t i, const struct hs_input *in)
{
	return column_get(&input_columns[i], in);
}

/** input_column_set() - set column @i of @in to @v. */
void input_column_set(size_t i, struct hs_input *in, unsigned long v)
{
	column_set(&input_columns[i], in, v);
}

/* Parse @s into column @c, or return why not (where names the input). */
static void column_parse(const struct input_column *c, const char *s,
			 struct hs_input *in, const char *where)
{
	unsigned long max = c->is_long ? ULONG_MAX : UINT_MAX;
	const char *err;
	unsigned long v;

	err = cli_parse_number(s, max, &v);
	if (err && !strcmp(err, "out of range"))
		cli_die("%s: '%s' is out of range for %s (0..%lu)", where, s,
		       c->is_long ? "unsigned long" : "unsigned int", max);
	if (err)
		cli_die("%s: '%.*s'%s: %s", where, QUOTE_MAX, s,
			QUOTE_MORE(s), err);
	column_set(c, in, v);
}

/**
 * input_set_base() - the base a profile column's candidate is loaded for
 * (hs_spec_base() of the command's --profile and --base).
 * @base:	the base.
 */
void input_set_base(const struct hs_spec *base)
{
	row_base = *base;
	has_base = true;
}

/* A row's profile column: a spec, its candidate loaded for the base. */
static void row_spec(const char *s, struct hs_spec *sp, const char *where)
{
	cli_spec_parse(where, s, sp);
	if (!has_base)
		hs_spec_base(NULL, 0, NULL, &row_base);
	has_base = true;
	cli_spec_load(where, sp, &row_base);
}

/*
 * The CSV on stdin, read whole.  It is parsed twice: once to check every row,
 * once to print, so an error leaves stdout empty while memory stays about the
 * size of the input.  File scope keeps every buffer reachable when cli_die()
 * exits from deep inside.
 */
static struct {
	const char *what;	/* "" for stdin, "OPT: PATH: " for a file */
	char *buf;		/* all of stdin, NUL-terminated */
	size_t len, pos;	/* size, and the start of the next line */
	size_t lineno;		/* of the line last returned */
	char *line;		/* that line, copied: split in place */
	size_t cap, line_cap;	/* of buf, of line */
	size_t ncols;
	size_t *map;		/* header field -> column index */
	bool capture;		/* the header has fn and returned */
	char **fields;
	struct hs_input *rows;	/* cli_read_inputs()'s, until returned */
} csv;

/*
 * Whether the first line of the input (its first 4 KiB at most) is binary:
 * a control character other than a tab, or a byte that is no part of UTF-8
 * text.  A damo record (zlib) or an object file given for a CSV is said to
 * be binary, not quoted byte by byte.
 */
static bool csv_binary(void)
{
	const unsigned char *p = (const unsigned char *)csv.buf;
	size_t i, n = csv.len < 4096 ? csv.len : 4096;

	for (i = 0; i < n && p[i] != '\n' && p[i] != '\r'; i++)
		if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f ||
		    p[i] == 0xc0 || p[i] == 0xc1 || p[i] >= 0xf5)
			return true;
	return false;
}

/*
 * Read @f whole into csv.buf, and close it unless it is stdin: before any
 * cli_die(), which a fuzz harness's hook turns into a longjmp() that would
 * leave the file open (one descriptor a rejected input).
 */
static void csv_read(FILE *f)
{
	const char *src = *csv.what ? "" : "stdin: ";
	int err;

	csv.buf = cli_read_stream(f, 0, &csv.len);
	err = errno;
	if (f != stdin)
		fclose(f);
	if (!csv.buf)
		cli_die("%s%s%s", csv.what, src, strerror(err));
	csv.cap = csv.len;
	/* a UTF-8 byte-order mark is not part of the first column's name */
	if (csv.len >= 3 && !memcmp(csv.buf, "\xef\xbb\xbf", 3))
		csv.pos = 3;
	if (csv_binary())
		cli_die("%s%sbinary data, not CSV text", csv.what, src);
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

/* A header field's column index, or NR_COLS for an unknown one. */
static size_t column_index(const char *name)
{
	size_t j;

	if (!strcmp(name, "hot") || !strcmp(name, "cold") ||
	    !strcmp(name, "status"))
		return IGNORED_COL;
	for (j = 0; j < INPUT_NR_COLUMNS; j++)
		if (!strcmp(name, input_columns[j].csv))
			return j;
	for (j = PROFILE_COL; j < IGNORED_COL; j++)
		if (!strcmp(name, extra_columns[j - PROFILE_COL]))
			return j;
	return NR_COLS;
}

/*
 * A capture names its function and what it returned, or neither; and it
 * has every column hotscore.ko writes (6.1's, and from 6.7 the moving
 * sum's two), so that no input of a real call is scored at a default.
 */
static void check_capture_header(const bool *seen)
{
	/*
	 * caller, then INPUT_COLUMNS' indices: sample_us, aggr_us,
	 * nr_accesses, last_nr_accesses, age, weight_nr_accesses, weight_age
	 */
	static const int need[] = { CALLER_COL, 0, 1, 2, 3, 4, 7, 8 };
	size_t i;

	if (seen[FN_COL] != seen[RETURNED_COL])
		cli_die("%sline %zu: a capture has both fn and returned columns",
			csv.what, csv.lineno);
	if (seen[CALLER_COL] && !seen[FN_COL])
		cli_die("%sline %zu: a caller column needs fn and returned columns",
			csv.what, csv.lineno);
	if (!seen[FN_COL])
		return;
	if (seen[PROFILE_COL])
		cli_die("%sline %zu: a capture has no profile column (its kernel is the profile)",
			csv.what, csv.lineno);
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!seen[need[i]])
			cli_die("%sline %zu: a capture has a %s column (hotscore.ko writes it)",
				csv.what, csv.lineno, need[i] == CALLER_COL ?
				"caller" : input_columns[need[i]].csv);
	if (seen[5] != seen[6])		/* passed_sis, next_aggr_sis */
		cli_die("%sline %zu: a capture has passed_sis and next_aggr_sis, or neither",
			csv.what, csv.lineno);
}

/* Map each header field to a column index; reject unknown and repeats. */
static void csv_header(void)
{
	bool seen[NR_COLS] = { false };
	size_t i, j;

	if (!csv_next_line() || !*cli_trim(csv.line))
		cli_die("%s%sno header line", csv.what,
			*csv.what ? "" : "stdin: ");
	csv.ncols = cli_csv_count(csv.line);
	csv.fields = calloc(csv.ncols, sizeof(*csv.fields));
	csv.map = calloc(csv.ncols, sizeof(*csv.map));
	if (!csv.fields || !csv.map)
		cli_die("out of memory");
	cli_split_csv(csv.line, csv.fields, csv.ncols);
	for (i = 0; i < csv.ncols && column_index(csv.fields[i]) == NR_COLS;
	     i++)
		;
	if (i == csv.ncols)	/* a trace, a log: not a CSV of inputs */
		cli_die("%sline %zu: no known column name", csv.what,
			csv.lineno);
	for (i = 0; i < csv.ncols; i++) {
		const char *name = csv.fields[i];

		j = column_index(name);
		if (j == NR_COLS)	/* quoted in part: it may be a line */
			cli_die("%sline %zu: unknown column '%.*s'%s",
				csv.what, csv.lineno, QUOTE_MAX, name,
				QUOTE_MORE(name));
		if (seen[j] && j != IGNORED_COL)
			cli_die("%sline %zu: column '%s' appears twice",
			       csv.what, csv.lineno, name);
		seen[j] = true;
		csv.map[i] = j;
	}
	check_capture_header(seen);
	csv.capture = seen[FN_COL];
}

/**
 * input_is_capture() - whether the CSV whose header was read is a capture
 * (it has the fn and returned columns).
 */
bool input_is_capture(void)
{
	return csv.capture;
}

/**
 * input_has_column() - whether the header just read has column @name.
 * @name:	a CSV column name ("nr_accesses_bp").
 */
bool input_has_column(const char *name)
{
	size_t j = column_index(name), i;

	for (i = 0; i < csv.ncols && j != NR_COLS; i++)
		if (csv.map[i] == j)
			return true;
	return false;
}

/* A captured call's fn, caller or returned field, into @r. */
static void capture_field(size_t col, const char *s, struct row *r)
{
	long long v;
	char *end;

	if (col == FN_COL && (!strcmp(s, "hot") || !strcmp(s, "cold"))) {
		r->fn = s[0] == 'h' ? INPUT_FN_HOT : INPUT_FN_COLD;
		return;
	}
	if (col == CALLER_COL && (!strcmp(s, "ops") || !strcmp(s, "cold"))) {
		r->nested = s[0] == 'c';
		return;
	}
	if (col == RETURNED_COL) {
		errno = 0;
		v = strtoll(s, &end, 10);
		if (*s && !errno && !*end && v >= INT_MIN && v <= INT_MAX &&
		    !strchr(s, ' ')) {
			r->returned = (int)v;
			return;
		}
		cli_die("%sline %zu: returned: '%s' is not an int", csv.what,
			csv.lineno, s);
	}
	cli_die("%sline %zu: %s: '%s' is not %s", csv.what, csv.lineno,
		extra_columns[col - PROFILE_COL], s,
		col == FN_COL ? "hot or cold" : "ops or cold");
}

/* Parse the current line into @r, which holds the defaults. */
static void csv_row(struct row *r)
{
	size_t n = cli_split_csv(csv.line, csv.fields, csv.ncols), i;
	char where[PATH_MAX + 64];

	if (n != csv.ncols)
		cli_die("%sline %zu: %zu field%s, the header has %zu", csv.what,
			csv.lineno, n, cli_s(n), csv.ncols);
	for (i = 0; i < csv.ncols; i++) {
		size_t col = csv.map[i];

		if (col == IGNORED_COL)
			continue;
		if (col == BP_COL) {
			snprintf(where, sizeof(where), "%sline %zu: nr_accesses_bp",
				 csv.what, csv.lineno);
			column_parse(&input_bp_column, csv.fields[i], &r->in,
				     where);
			r->has_bp = true;
			r->nr_accesses_bp = r->in.nr_accesses_bp;
			continue;
		}
		if (col > PROFILE_COL) {
			capture_field(col, csv.fields[i], r);
			continue;
		}
		if (col == PROFILE_COL) {
			snprintf(where, sizeof(where), "%sline %zu: profile",
				 csv.what, csv.lineno);
			row_spec(csv.fields[i], &r->spec, where);
			r->has_profile = true;
		} else {
			snprintf(where, sizeof(where), "%sline %zu: %s",
				 csv.what, csv.lineno, input_columns[col].csv);
			column_parse(&input_columns[col], csv.fields[i], &r->in,
				     where);
		}
	}
	if (r->nested && r->fn != INPUT_FN_HOT)
		cli_die("%sline %zu: caller cold goes with fn hot only",
			csv.what, csv.lineno);
	input_bp_default(r);
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
void cli_csv_reset(void);
void cli_csv_reset(void)
{
	csv_free();
}

/** input_row_defaults() - every column at its default, and the default profile. */
void input_row_defaults(struct row *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < INPUT_NR_COLUMNS; i++)
		column_set(&input_columns[i], &r->in, input_columns[i].dflt);
	input_bp_default(r);
	cli_spec_parse("default profile", CLI_DEFAULT_PROFILE, &r->spec);
}

/** cli_score_defaults() - the input `hotscore score` uses with no flags. */
void cli_score_defaults(struct hs_input *in)
{
	struct row r;

	input_row_defaults(&r);
	*in = r.in;
}

/**
 * cli_score_args() - the `hotscore score` flags that give @in: each column
 * that differs from its default, as --flag VALUE, times with units, and
 * --nr_accesses_bp unless it is nr_accesses * 10000.
 * @in:		the input.
 * @buf:	receives the flags, space-separated (empty if all default).
 * @size:	of @buf.
 */
void cli_score_args(const struct hs_input *in, char *buf, size_t size)
{
	char value[32];
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < INPUT_NR_COLUMNS && at < size; i++) {
		unsigned long v = column_get(&input_columns[i], in);

		if (v == input_columns[i].dflt)
			continue;
		if (input_columns[i].is_time)
			cli_format_time_us(v, value, sizeof(value));
		else
			snprintf(value, sizeof(value), "%lu", v);
		at += (size_t)snprintf(buf + at, size - at, "%s--%s %s",
				       at ? " " : "", input_columns[i].flag,
				       value);
	}
	if (at < size && in->nr_accesses_bp != hs_bp_of_nr(in->nr_accesses))
		snprintf(buf + at, size - at, "%s--nr_accesses_bp %u",
			 at ? " " : "", in->nr_accesses_bp);
}

/**
 * cli_read_inputs() - the rows of a `hotscore score --input` file as inputs.
 * @opt:	the option that named it, for messages ("--dist").
 * @path:	the file.
 * @out:	receives a malloc'ed array of the rows; columns absent from
 *		the file take the score command's defaults.
 * @nested:	receives how many rows of a capture were left out: the
 *		damon_hot_score() calls made inside damon_cold_score(), whose
 *		inputs are their cold row's, so that each score the kernel
 *		computed is one input (may be NULL).
 *
 * Any error exits with a one-line message naming @path and the line.
 *
 * Return: the number of rows (0 if the file has only a header).
 */
size_t cli_read_inputs(const char *opt, const char *path,
		      struct hs_input **out, size_t *nested)
{
	static char what[PATH_MAX + 40];
	size_t n = 0, cap = 0;
	struct row dflt, r;
	FILE *f = fopen(path, "r");

	if (!f)
		cli_die("%s: %s: %s", opt, path, strerror(errno));
	snprintf(what, sizeof(what), "%s: %s: ", opt, path);
	csv.what = what;
	input_row_defaults(&dflt);
	csv_read(f);
	csv_header();
	if (nested)
		*nested = 0;
	while (csv_next_line()) {
		if (!*cli_trim(csv.line))
			continue;
		r = dflt;
		csv_row(&r);
		if (r.nested) {
			if (nested)
				(*nested)++;
			continue;
		}
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

/**
 * input_open() - read the CSV whole: a file, or stdin for "-"; then
 * input_header(), input_next_row() to its end, input_close().
 * @opt:	the option that named it, for a file that cannot be opened.
 * @path:	the file.
 */
void input_open(const char *opt, const char *path)
{
	static char what[PATH_MAX + 40];
	FILE *f;

	if (!strcmp(path, "-")) {
		csv.what = "";
		csv_read(stdin);
		return;
	}
	f = fopen(path, "r");
	if (!f)
		cli_die("%s: %s: %s", opt, path, strerror(errno));
	snprintf(what, sizeof(what), "%s: %s: ", opt, path);
	csv.what = what;
	csv_read(f);
}

/** input_header() - the header line: each field mapped to a column. */
void input_header(void)
{
	csv_header();
}

/** input_mark() - where the rows start, for input_rewind(). */
struct input_mark input_mark(void)
{
	return (struct input_mark){ csv.pos, csv.lineno };
}

/** input_rewind() - back to @m, to read the rows again. */
void input_rewind(struct input_mark m)
{
	csv.pos = m.pos;
	csv.lineno = m.lineno;
}

/**
 * input_next_row() - the next row that is not blank, parsed into @r, which
 * holds the defaults; a bad row exits 2 naming the line.
 * @r:		the row.
 *
 * Return: true, or false at the end.
 */
bool input_next_row(struct row *r)
{
	while (csv_next_line()) {
		if (!*cli_trim(csv.line))
			continue;	/* a blank line is not a row */
		csv_row(r);
		return true;
	}
	return false;
}

/** input_close() - free what the CSV held. */
void input_close(void)
{
	csv_free();
}
