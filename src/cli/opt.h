/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opt.h - the one option layer of every subcommand.
 *
 * Each subcommand describes its options in a table of struct opt; the layer
 * parses argv against it (either spelling, "--name=value", units, lists),
 * prints --help, and hands each option to the subcommand's set() as typed
 * values.  docs/cli.md, the man page and the bash completion are generated
 * from the same tables (src/doc/gendoc.c), so they cannot drift apart.
 * The rules the tables follow are docs/cli-conventions.md.
 */
#ifndef HOTSCORE_CLI_OPT_H
#define HOTSCORE_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OPT_MAX_VALUES	6	/* --damos_quotas takes six */
#define OPT_NO_LIMIT	UINT64_MAX	/* "max" of a size, rate or age */

/**
 * enum opt_type - what an option's values are.
 * @OPT_FLAG:	no value.
 * @OPT_STR:	a word or a file; the subcommand checks it.
 * @OPT_LIST:	comma-separated words; the subcommand checks each.
 * @OPT_COUNT:	a plain integer (or 0x hex) within [min, max].
 * @OPT_TIME:	a time with a unit; a bare number is microseconds.  In us.
 * @OPT_MS:	a time with a unit; a bare number is milliseconds, as damo's
 *		quotas.  In ms.
 * @OPT_SIZE:	a size with a unit (B, KiB, KB ...).  In bytes.
 * @OPT_RATE:	a percentage, "%" optional.  In 1/100 of a percent.
 */
enum opt_type { OPT_FLAG, OPT_STR, OPT_LIST, OPT_COUNT, OPT_TIME, OPT_MS,
		OPT_SIZE, OPT_RATE };

/* struct opt.flags */
#define OPT_OUTPUT	0x1	/* names an output: not in a reproduce line */
#define OPT_REPEAT	0x2	/* each use is one more (a scheme's) */
#define OPT_MINMAX	0x4	/* "min" and "max" are values too */
#define OPT_EXIT	0x8	/* prints something and exits: --list-... */
#define OPT_NOIMPORT	0x10	/* measures: meaningless with an OPT_IMPORT */
#define OPT_DEPRECATED	0x20	/* an old form, listed apart in help */
#define OPT_IMPORT	0x40	/* reports what was measured: no OPT_NOIMPORT */
#define OPT_INPUT	0x80	/* names a file read, "-" stdin (io.c) */
#define OPT_CANDS	0x100	/* takes candidate files: each is read; not twice */
#define OPT_WRITE	0x200	/* names a file written (cli_out_open()) */
#define OPT_STDIN	0x400	/* an OPT_INPUT that reads "-" as stdin */

/**
 * struct opt - one option of one subcommand.
 * @id:		the subcommand's own number for it, passed to set().
 * @name:	the spelling help and docs print: damo's where damo has the
 *		option, the kernel's field name for a score input, else ours.
 *		'-' and '_' are interchangeable when it is typed.
 * @old:	a deprecated spelling that documented examples used, or NULL.
 * @type:	of each value.
 * @nr_values:	how many values; 0 is 1.
 * @min_values:	how many of them are required (0: all), the rest
 *		optional.
 * @types:	for several values, the type of each; NULL: all @type.
 * @arg:	the value's name in help ("T", "FILE", "MIN MAX").
 * @dflt:	the default as help prints it, or NULL.
 * @help:	one line.
 * @min:	lower bound of an OPT_COUNT, OPT_TIME or OPT_MS value.
 * @max:	upper bound of an OPT_COUNT, OPT_TIME or OPT_MS value.
 * @flags:	OPT_OUTPUT, OPT_REPEAT, OPT_MINMAX, OPT_EXIT, OPT_NOIMPORT,
 *		OPT_DEPRECATED, OPT_IMPORT; and what the value names, so
 *		that no output replaces an input (io.c): OPT_WRITE a file
 *		written, OPT_INPUT a file read (in a list whose words hold
 *		"file:", its file:PATH items), OPT_CANDS the candidate
 *		files ("./mine.c", "NAME=./mine.c") where profiles go;
 *		OPT_STDIN an OPT_INPUT that reads "-" as standard input
 *		(without it, "-" is refused: the file is read more than
 *		once, or by name).
 * @words:	the words a value may be, for help and completion ("vaddr
 *		paddr"), "@profiles" for the profile names ("@profiles+all"
 *		with all), "@variants" for bench's, "@file" for a file
 *		(beside any words), or NULL.
 * @example:	a good value, for the table-driven test.
 * @with:	other options it goes with, for that test, or NULL.
 */
struct opt {
	int id;
	const char *name;
	const char *old;
	enum opt_type type;
	unsigned char nr_values, min_values;
	const enum opt_type *types;
	const char *arg;
	const char *dflt;
	const char *help;
	uint64_t min, max;
	unsigned int flags;
	const char *words;
	const char *example;
	const char *with;
};

/**
 * struct opt_val - one value, as typed and as converted.
 * @s:		the text (for OPT_STR and OPT_LIST, the whole value).
 * @u:		the number: a count, us, ms, bytes or 1/100 percent;
 *		OPT_NO_LIMIT for "max".
 */
struct opt_val {
	const char *s;
	uint64_t u;
};

struct cli_cmd;

/**
 * struct cli_cmd - a subcommand: its table, its help and its entry point.
 * @name:	"score".
 * @summary:	one line for `hotscore help`.
 * @usage:	the synopsis lines, each "hotscore score ...", '\n'-separated.
 * @about:	paragraphs printed before the options.
 * @notes:	paragraphs printed after them, or NULL.
 * @opts:	the table.
 * @nr_opts:	how many entries @opts has.
 * @operand:	the option one bare argument stands for ("input"), or NULL
 *		when bare arguments are errors.
 * @run:	the entry point: argv[0] is the subcommand's name.
 */
struct cli_cmd {
	const char *name;
	const char *summary;
	const char *usage;
	const char *about;
	const char *notes;
	const struct opt *opts;
	size_t nr_opts;
	const char *operand;
	int (*run)(int argc, char **argv);
};

/* set(): one option as given; return nothing, exit 2 through cli_die(). */
typedef void (*opt_set_fn)(void *ctx, const struct opt *o,
			   const struct opt_val *v, unsigned int nr);

int opt_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      opt_set_fn set, void *ctx);
void opt_parsed(const struct cli_cmd *cmd);
void opt_usage(const struct cli_cmd *cmd, FILE *f);
const char *opt_spelling(const struct opt *o, char *buf, size_t size);
void opt_reproduce(const struct cli_cmd *cmd, char *buf, size_t size);
bool opt_given(int id);
bool opt_output_checked(const char *name);

/* Units, shared with the parsers that read files (masim configs). */
const char *cli_parse_time(const char *s, bool bare_ms, uint64_t *out);
const char *cli_parse_size(const char *s, uint64_t *out);
const char *cli_parse_rate(const char *s, uint64_t *out);
void cli_format_time_us(uint64_t us, char *buf, size_t size);

#endif /* HOTSCORE_CLI_OPT_H */
