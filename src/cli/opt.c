// SPDX-License-Identifier: GPL-2.0
/*
 * opt.c - parse a subcommand's argv against its table of struct opt, and
 * print its help from the same table.
 *
 * What every subcommand gets the same way: '-' and '_' alike in names,
 * "--name=value", units on times and sizes, "-h"/"--help", one error
 * format ("hotscore CMD: --opt: 'value': why; try 'hotscore CMD --help'")
 * and exit status 2 for any bad input.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/layout.h"
#include "io.h"
#include "opt.h"

#define MAX_HITS	256
#define HELP_COL	30	/* where an option's help starts */

/* One option as given, kept for opt_given(), reproduce lines and checks. */
struct hit {
	const struct opt *o;
	struct opt_val v[OPT_MAX_VALUES];
	unsigned int nr;
	bool bare;	/* a bare argument: the command's operand */
};

static struct hit hits[MAX_HITS];
static unsigned int nr_hits;
static bool files_checked;	/* cli_io_check() has passed them all */

/* @typed (@len bytes) names @name, '-' and '_' being the same. */
static bool same_name(const char *typed, size_t len, const char *name)
{
	size_t i;

	if (!name || strlen(name) != len)
		return false;
	for (i = 0; i < len; i++) {
		char a = typed[i] == '_' ? '-' : typed[i];
		char b = name[i] == '_' ? '-' : name[i];

		if (a != b)
			return false;
	}
	return true;
}

static const struct opt *find(const struct cli_cmd *cmd, const char *typed,
			      size_t len)
{
	size_t i;

	for (i = 0; i < cmd->nr_opts; i++)
		if (same_name(typed, len, cmd->opts[i].name) ||
		    same_name(typed, len, cmd->opts[i].old))
			return &cmd->opts[i];
	return NULL;
}

/*
 * Refuse the unknown option @typed (@len bytes after its "--"), with the
 * nearest of @cmd's options when one is near (near.c).
 */
static void __attribute__((noreturn))
unknown(const struct cli_cmd *cmd, const char *typed, size_t len)
{
	struct cli_near n;
	const char *best;
	size_t i;

	cli_near_init(&n, typed, len);
	for (i = 0; i < cmd->nr_opts; i++)
		if (!(cmd->opts[i].flags & OPT_DEPRECATED))
			cli_near_add(&n, cmd->opts[i].name);
	cli_near_add(&n, "help");
	best = cli_near_best(&n);
	if (best)
		cli_die("unknown option '--%.*s'; did you mean '--%s'?",
			(int)len, typed, best);
	cli_usage_die("unknown option '--%.*s'", (int)len, typed);
}

static enum opt_type type_of(const struct opt *o, unsigned int k)
{
	return o->types ? o->types[k] : o->type;
}

/* The upper bound of a number option; 0 in the table means none. */
static uint64_t max_of(const struct opt *o, enum opt_type t)
{
	if (o->max)
		return o->max;
	return t == OPT_COUNT ? ULONG_MAX : UINT64_MAX;
}

/*
 * Convert @v->s to @v->u by @t, or exit 2 naming @label: "--name" for an
 * option's value, its argument's name ("RECORD") for a bare argument.
 */
static void convert(const struct opt *o, const char *label, enum opt_type t,
		    struct opt_val *v)
{
	const char *err = NULL;
	unsigned long n;

	if ((o->flags & OPT_MINMAX) && t != OPT_STR && t != OPT_LIST &&
	    (!strcmp(v->s, "min") || !strcmp(v->s, "max"))) {
		v->u = !strcmp(v->s, "max") ? OPT_NO_LIMIT : 0;
		return;
	}
	switch (t) {
	case OPT_FLAG:
		return;
	case OPT_STR:
	case OPT_LIST:
		if (!*v->s)
			err = "empty value";
		break;
	case OPT_COUNT:
		err = cli_parse_number(v->s, ULONG_MAX, &n);
		v->u = n;
		break;
	case OPT_TIME:
	case OPT_MS:
		err = cli_parse_time(v->s, t == OPT_MS, &v->u);
		break;
	case OPT_SIZE:
		err = cli_parse_size(v->s, &v->u);
		break;
	case OPT_RATE:
		err = cli_parse_rate(v->s, &v->u);
		break;
	}
	if (!err && (t == OPT_COUNT || t == OPT_TIME || t == OPT_MS) &&
	    (v->u < o->min || v->u > max_of(o, t))) {
		char lo[32], hi[32];

		if (t == OPT_TIME) {
			cli_format_time_us(o->min, lo, sizeof(lo));
			cli_format_time_us(max_of(o, t), hi, sizeof(hi));
		} else {
			snprintf(lo, sizeof(lo), "%llu",
				 (unsigned long long)o->min);
			snprintf(hi, sizeof(hi), "%llu%s",
				 (unsigned long long)max_of(o, t),
				 t == OPT_MS ? "ms" : "");
		}
		cli_usage_die("%s: '%s' is out of range (%s..%s)", label,
			      v->s, lo, hi);
	}
	if (err)
		cli_usage_die("%s: '%s': %s", label, v->s, err);
}

/* A value must not be the next option: "--json --csv" lacks a file. */
static bool is_value(const char *s)
{
	return s && strncmp(s, "--", 2) && strcmp(s, "-h");
}

static void record(const struct opt *o, const struct opt_val *v,
		   unsigned int nr, bool bare)
{
	unsigned int i = 0;

	if (o->flags & OPT_REPEAT)
		i = nr_hits;	/* each use is one more */
	for (; i < nr_hits; i++)
		if (hits[i].o == o)
			break;	/* given again: the last one wins */
	/* but a candidate file is never dropped unseen */
	if (i < nr_hits && (o->flags & OPT_CANDS) && o->type == OPT_LIST)
		cli_usage_die("--%s given twice: give one list, --%s A,B",
			      o->name, o->name);
	if (i < nr_hits && (o->flags & OPT_CANDS))
		cli_usage_die("--%s given twice: it takes one", o->name);
	if (i == nr_hits) {
		if (nr_hits == MAX_HITS)
			cli_usage_die("more than %d options", MAX_HITS);
		nr_hits++;
	}
	hits[i].o = o;
	hits[i].nr = nr;
	hits[i].bare = bare;
	memcpy(hits[i].v, v, nr * sizeof(*v));
}

/* Take the option at argv[*i] and its values; return it. */
static const struct opt *take(const struct cli_cmd *cmd, int argc,
			      char **argv, int *i, struct opt_val *v,
			      unsigned int *nr)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	const struct opt *o = find(cmd, arg + 2, len);
	unsigned int k = 0, want = o && o->nr_values ? o->nr_values : 1;
	unsigned int need = o && o->min_values ? o->min_values : want;

	if (!o)
		unknown(cmd, arg + 2, len);
	if (o->type == OPT_FLAG) {
		if (eq)
			cli_usage_die("--%s takes no value", o->name);
		*nr = 0;
		return o;
	}
	if (eq)
		v[k++].s = eq + 1;
	while (k < want && *i + 1 < argc && is_value(argv[*i + 1]))
		v[k++].s = argv[++*i];
	if (k < need)
		cli_usage_die("--%s needs %s%s", o->name,
			      need > 1 ? "values: " : "a value: ", o->arg);
	*nr = k;
	return o;
}

/* The option at argv[i], if it is one; NULL for a value or a stranger. */
static const struct opt *peek(const struct cli_cmd *cmd, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (strncmp(arg, "--", 2) || !arg[2])
		return NULL;
	return find(cmd, arg + 2, eq ? (size_t)(eq - arg - 2) :
		    strlen(arg + 2));
}

/*
 * An option that reports what was measured elsewhere (bench --import)
 * makes every option that chooses what to measure meaningless: refuse
 * them all alike, before any of their values is judged.
 */
static void check_import(const struct cli_cmd *cmd, int argc, char **argv)
{
	const struct opt *o, *import = NULL;
	int i;

	for (i = 1; i < argc; i++)	/* help first, whatever else is there */
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return;
	for (i = 1; i < argc && !import; i++)
		if ((o = peek(cmd, argv[i])) && (o->flags & OPT_IMPORT))
			import = o;
	for (i = 1; import && i < argc; i++)
		if ((o = peek(cmd, argv[i])) && (o->flags & OPT_NOIMPORT))
			cli_usage_die("--%s does not apply to --%s: what was imported was measured as it was",
				      o->name, import->name);
}

/*
 * A bare argument: the one operand of a command that has one ("rank
 * RECORD" is "rank --input RECORD"), or a usage error; an OPT_REPEAT
 * operand takes every bare argument ("compare-records REAL SIM").
 */
static const struct opt *operand(const struct cli_cmd *cmd, const char *arg,
				 unsigned int *seen)
{
	const struct opt *o = NULL;

	if (cmd->operand)
		o = find(cmd, cmd->operand, strlen(cmd->operand));
	if (!o || ((*seen)++ && !(o->flags & OPT_REPEAT)))
		cli_usage_die("unexpected argument '%s'", arg);
	return o;
}

/*
 * No output over an input, no two outputs on one file (io.c): checked
 * here, once every option's last value is known and before the subcommand
 * reads, compiles or measures anything, so that every subcommand gets it
 * the same way and none can open an output first.
 */
static void check_files(void)
{
	struct cli_io io[MAX_HITS];
	unsigned int i;

	for (i = 0; i < nr_hits; i++) {
		io[i].o = hits[i].o;
		io[i].value = hits[i].nr ? hits[i].v[0].s : NULL;
		io[i].bare = hits[i].bare;
	}
	cli_io_inputs(io, nr_hits);
	cli_io_check(io, nr_hits);
	files_checked = true;
}

/**
 * opt_parse() - parse argv against @cmd's table, calling @set for each
 * option in order.
 * @cmd:	the subcommand.
 * @argc:	how many arguments @argv holds.
 * @argv:	its arguments, argv[0] being its name.
 * @set:	receives each option and its converted values.
 * @ctx:	for @set.
 *
 * -h and --help print the help and exit 0.  Any bad argument exits 2 with
 * one line, and so does an output that is an input or another output.
 *
 * Return: 0.
 */
int opt_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      opt_set_fn set, void *ctx)
{
	struct opt_val v[OPT_MAX_VALUES];
	unsigned int nr, k, operands = 0;
	const struct opt *o;
	char label[80];
	int i;

	nr_hits = 0;
	files_checked = false;
	check_import(cmd, argc, argv);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			opt_usage(cmd, stdout);
			cli_exit(0);
		}
		memset(v, 0, sizeof(v));
		if (strncmp(argv[i], "--", 2) || !argv[i][2]) {
			o = operand(cmd, argv[i], &operands);
			v[0].s = argv[i];
			convert(o, o->arg ? o->arg : o->name, o->type, &v[0]);
			record(o, v, 1, true);
			set(ctx, o, v, 1);
			continue;
		}
		o = take(cmd, argc, argv, &i, v, &nr);
		snprintf(label, sizeof(label), "--%s", o->name);
		for (k = 0; k < nr; k++)
			convert(o, label, type_of(o, k), &v[k]);
		record(o, v, nr, false);
		set(ctx, o, v, nr);
	}
	check_files();
	return 0;
}

/** opt_given() - whether the option numbered @id was given. */
bool opt_given(int id)
{
	unsigned int i;

	for (i = 0; i < nr_hits; i++)
		if (hits[i].o->id == id)
			return true;
	return false;
}

/**
 * opt_output_checked() - whether @name ("--json") is an output option
 * (OPT_WRITE) given on this command line, its file checked against the
 * inputs and the other outputs: cli_out_open() opens no other.
 * @name:	the option as cli_out_open() names it.
 */
bool opt_output_checked(const char *name)
{
	unsigned int i;

	if (!files_checked || strncmp(name, "--", 2))
		return false;
	for (i = 0; i < nr_hits; i++)
		if ((hits[i].o->flags & OPT_WRITE) &&
		    !strcmp(hits[i].o->name, name + 2))
			return true;
	return false;
}

/* A value as the check prints it: converted, "max" kept. */
static void print_value(const struct opt *o, unsigned int k,
			const struct opt_val *v)
{
	enum opt_type t = type_of(o, k);

	if (t == OPT_STR || t == OPT_LIST)
		printf(" %s", v->s);
	else if ((o->flags & OPT_MINMAX) && v->u == OPT_NO_LIMIT)
		printf(" max");
	else
		printf(" %llu", (unsigned long long)v->u);
}

/**
 * opt_parsed() - the subcommand has parsed and checked its options.  Under
 * HOTSCORE_CHECK_ARGS=1 (the tests' and the docs test's way to try a
 * command without running it) print each option as converted, one a line
 * ("sample 5000", "damos_quotas 10 8388608 1000 0 3 7"), and exit 0.
 * @cmd:	the subcommand.
 */
void opt_parsed(const struct cli_cmd *cmd)
{
	const char *check = getenv("HOTSCORE_CHECK_ARGS");
	unsigned int i, k;

	if (!check || strcmp(check, "1"))
		return;
	printf("%s: options ok\n", cmd->name);
	for (i = 0; i < nr_hits; i++) {
		printf("%s", hits[i].o->name);
		for (k = 0; k < hits[i].nr; k++)
			print_value(hits[i].o, k, &hits[i].v[k]);
		putchar('\n');
	}
	cli_exit(0);
}

/* Append " s" to @buf, quoted for a shell where it needs it. */
static size_t append_word(char *buf, size_t size, size_t at, const char *s)
{
	bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "-_=.,:/+@%") == strlen(s);

	if (at >= size)
		return at;
	if (plain)
		return at + (size_t)snprintf(buf + at, size - at, " %s", s);
	at += (size_t)snprintf(buf + at, size - at, " '");
	for (; *s && at < size; s++)	/* a quote inside: '\'' */
		at += (size_t)snprintf(buf + at, size - at, *s == '\'' ?
				       "'\\''" : "%c", *s);
	if (at < size)
		at += (size_t)snprintf(buf + at, size - at, "'");
	return at;
}

/**
 * opt_reproduce() - the command that measures the same thing again:
 * "hotscore CMD" and each option given, in the spelling help prints,
 * without the options that only name outputs (--json FILE, --format).
 * @cmd:	the subcommand.
 * @buf:	receives it, truncated to @size.
 * @size:	of @buf.
 */
void opt_reproduce(const struct cli_cmd *cmd, char *buf, size_t size)
{
	char name[80];
	size_t at;
	unsigned int i, k;

	at = (size_t)snprintf(buf, size, "hotscore %s", cmd->name);
	for (i = 0; i < nr_hits; i++) {
		const struct hit *h = &hits[i];

		if (h->o->flags & (OPT_OUTPUT | OPT_EXIT))
			continue;
		snprintf(name, sizeof(name), "--%s", h->o->name);
		at = append_word(buf, size, at, name);
		for (k = 0; k < h->nr; k++)
			at = append_word(buf, size, at, h->v[k].s);
	}
}

/**
 * opt_spelling() - "--name ARG" as help prints an option.
 * @o:		the option.
 * @buf:	receives it.
 * @size:	of @buf.
 *
 * Return: @buf.
 */
const char *opt_spelling(const struct opt *o, char *buf, size_t size)
{
	snprintf(buf, size, "--%s%s%s", o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	return buf;
}

static void usage_line(FILE *f, const struct opt *o, const char *left)
{
	char text[512];
	int n = fprintf(f, "  %s", left);

	if (n >= HELP_COL - 1) {
		fprintf(f, "\n%*s", HELP_COL, "");
		n = HELP_COL;
	} else {
		fprintf(f, "%*s", HELP_COL - n, "");
		n = HELP_COL;
	}
	snprintf(text, sizeof(text), "%s%s%s%s", o->help,
		 o->dflt ? " (default: " : "", o->dflt ? o->dflt : "",
		 o->dflt ? ")" : "");
	layout_wrap(f, text, (size_t)n, HELP_COL, CLI_COLS, 0);
}

/**
 * opt_usage() - the subcommand's help: usage, what it does, every option
 * with its default, deprecated spellings, notes.
 * @cmd:	the subcommand.
 * @f:		where to print.
 */
void opt_usage(const struct cli_cmd *cmd, FILE *f)
{
	char left[128];
	const char *p = cmd->usage;
	size_t i;
	bool any_old = false;

	for (i = 0; *p; i++) {
		size_t len = strcspn(p, "\n");

		fprintf(f, "%s%.*s\n", i ? "       " : "usage: ", (int)len, p);
		p += len + (p[len] == '\n');
	}
	fprintf(f, "\n%s\n\noptions:\n", cmd->about);
	fprintf(f, "  -h, --help%*sthis help\n", HELP_COL - 12, "");
	for (i = 0; i < cmd->nr_opts; i++) {
		const struct opt *o = &cmd->opts[i];

		any_old |= o->old || (o->flags & OPT_DEPRECATED);
		if (o->flags & OPT_DEPRECATED)
			continue;
		usage_line(f, o, opt_spelling(o, left, sizeof(left)));
	}
	if (any_old) {
		fprintf(f, "\ndeprecated spellings, kept for earlier examples:\n");
		for (i = 0; i < cmd->nr_opts; i++) {
			const struct opt *o = &cmd->opts[i];

			if (o->flags & OPT_DEPRECATED)
				usage_line(f, o, opt_spelling(o, left,
							      sizeof(left)));
			else if (o->old)
				fprintf(f, "  --%-*s = --%s\n", HELP_COL - 5,
					o->old, o->name);
		}
	}
	if (cmd->notes)
		fprintf(f, "\n%s\n", cmd->notes);
}
