/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - helpers shared by the subcommands: errors, numbers, CSV fields.
 */
#ifndef HOTSCORE_CLI_H
#define HOTSCORE_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include <hotscore/score.h>
#include <hotscore/simd.h>

/* Exit status: 0 success, 1 a finding, 2 bad input or usage, 130 Ctrl-C. */
#define CLI_EXIT_FINDING 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_INTERRUPTED 130

/* Text output fits this many columns (docs/cli-conventions.md). */
#define CLI_COLS 100

/* The program's whole argv, for a command that re-executes itself. */
extern char **hs_argv;
/* The subcommand running ("score"), for messages; NULL before one is. */
extern const char *cli_cmd_name;
/* argv[0] as typed ("build/hotscore"), for commands a report prints. */
const char *cli_prog(void);

/*
 * The fuzz harnesses' way back from a parser's bad-input exit: when set,
 * cli_die() and cli_usage_die() call it with the message instead of
 * printing and exiting; it must not return (it longjmp()s).
 */
extern void (*cli_die_hook)(const char *msg);

/* "hotscore CMD: <msg>" as one line on stderr, then exit with status 2. */
void cli_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* The same, ending "; try 'hotscore CMD --help'": a usage error. */
void cli_usage_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Flush stdout and exit: a write error (a full disk) is exit status 1. */
void cli_exit(int status) __attribute__((noreturn));
int cli_finish(int status);

/*
 * Parse a decimal (or 0x-prefixed hexadecimal) number no larger than @max.
 * Return NULL on success, else a static description of what is wrong.
 */
const char *cli_parse_number(const char *s, unsigned long max,
			    unsigned long *out);

/* A number option within [min, max], or a one-line error and exit 2. */
unsigned long cli_option_number(const char *opt, const char *s,
			       unsigned long min, unsigned long max);

/**
 * struct cli_near - the search for the name nearest to a mistyped one
 * (near.c): cli_near_init(), cli_near_add() for each valid name, then
 * cli_near_best().
 * @typed:	what was typed.
 * @len:	its length.
 * @best:	the nearest name so far.
 * @dist:	its distance.
 * @prefix:	the one name @typed begins, if there is one.
 * @prefixes:	how many names @typed begins.
 */
struct cli_near {
	const char *typed;
	size_t len;
	const char *best;
	unsigned int dist;
	const char *prefix;
	unsigned int prefixes;
};

void cli_near_init(struct cli_near *n, const char *typed, size_t len);
void cli_near_add(struct cli_near *n, const char *name);
const char *cli_near_best(const struct cli_near *n);

/*
 * A status line on stderr when it is a terminal (progress.c), with how far
 * the stage is and its ETA for cli_progress_at(); cli_progress_done() clears.
 */
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_at(double done, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_progress_done(void);
enum hs_fast_impl cli_simd_choice(void);
void *cli_xcalloc(size_t n, size_t size);

void cli_each_profile(const char *opt, const char *list,
		      void (*add)(void *ctx, const char *name), void *ctx);

/* Strip spaces and tabs at both ends, in place. */
char *cli_trim(char *s);

/* The number of comma-separated fields in @line. */
size_t cli_csv_count(const char *line);

/*
 * Split @line in place at commas.  Return the number of fields; only the
 * first @max pointers are stored.
 */
size_t cli_split_csv(char *line, char **fields, size_t max);

struct hs_input;
size_t cli_read_inputs(const char *opt, const char *path,
		      struct hs_input **out, size_t *nested);
void cli_score_args(const struct hs_input *in, char *buf, size_t size);
void cli_score_defaults(struct hs_input *in);
void cli_list_profiles(void);

/* "s" unless @n is 1: "1 run", "2 runs". */
static inline const char *cli_s(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

void cli_csv_field(FILE *f, const char *s);
char *cli_read_stream(FILE *f, size_t max, size_t *len);

/* The profile every subcommand scores with unless told otherwise. */
#define CLI_DEFAULT_PROFILE "hotfix"
/* A 6.12 kdamond's trace is scored as the kernel that made it scores. */
#define CLI_TRACE_PROFILE "debian-6.12.117"
/* The seed every subcommand's random inputs start from unless told. */
#define CLI_DEFAULT_SEED 1

struct hs_cand;
struct hs_spec;

void cli_spec_parse(const char *opt, const char *s, struct hs_spec *out);
void cli_spec_unknown(const char *opt, const char *s)
	__attribute__((noreturn));
void cli_spec_add(const char *opt, const char *s, struct hs_spec *list,
		  unsigned int *nr, unsigned int max, bool unique);
void cli_spec_profiles(const struct hs_spec *sp, const char *shown,
		       const struct hs_spec *base, char *buf, size_t size);
void cli_pair_command(const struct hs_spec *a, const struct hs_spec *b,
		      const struct hs_spec *base, const struct hs_input *in,
		      char *buf, size_t size);
const struct hs_profile *cli_profile_named(const char *opt,
					   const char *name);
void cli_spec_load(const char *opt, struct hs_spec *sp,
		   const struct hs_spec *base);
const struct hs_cand *cli_cand_placed(const char *opt,
				      const struct hs_spec *sp,
				      enum hs_divisor base, int placement);

/*
 * --call_limit, in every subcommand that calls a candidate: how much of a
 * thread's CPU time one call may take before it ends as status hang.
 */
/*
 * --base, in every subcommand that loads a candidate: whose
 * damon_max_nr_accesses() the candidate's kernel has (hs_spec_base()).
 */
#define CLI_BASE_OPT(ID, DFLT, FLAGS, WITH)				\
	{ .id = (ID), .name = "base", .type = OPT_STR, .arg = "PROFILE",	\
	  .dflt = (DFLT), .flags = (FLAGS), .words = "@profiles",	\
	  .help = "whose damon_max_nr_accesses() a candidate's kernel has", \
	  .example = "v6.6", .with = (WITH) }

#define CLI_CALL_LIMIT_OPT(ID, FLAGS, WITH)				\
	{ .id = (ID), .name = "call_limit", .type = OPT_TIME, .arg = "T",	\
	  .dflt = "1s", .min = 1000, .max = 3600000000ULL,		\
	  .flags = (FLAGS), .with = (WITH),				\
	  .help = "a candidate's call that runs longer than this (CPU"	\
		  " time) ends as status hang", .example = "50ms" }
void cli_call_limit_set(uint64_t us);
const char *cli_call_limit_text(void);
const char *cli_call_limit_arg(void);

struct cli_cmd;
extern const struct cli_cmd cmd_score, cmd_bench, cmd_verify, cmd_sim,
	cmd_rank, cmd_workload, cmd_convert, cmd_compare_records, cmd_kunit,
	cmd_judge, cmd_replay;
/* Every subcommand, NULL-terminated, in the order help lists them. */
extern const struct cli_cmd *const cli_commands[];
const struct cli_cmd *cli_command_find(const char *name);
void cli_command_unknown(const char *name) __attribute__((noreturn));

#endif /* HOTSCORE_CLI_H */
