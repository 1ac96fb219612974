/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - helpers shared by the subcommands: errors, numbers, CSV fields.
 */
#ifndef HOTSCORE_CLI_H
#define HOTSCORE_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#define HS_EXIT_USAGE 2

/* The program's whole argv, for a command that re-executes itself. */
extern char **hs_argv;

/* Print "hotscore: <msg>" as one line on stderr and exit with status 2. */
void hs_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * Parse a decimal (or 0x-prefixed hexadecimal) number no larger than @max.
 * Return NULL on success, else a static description of what is wrong.
 */
const char *hs_parse_number(const char *s, unsigned long max,
			    unsigned long *out);

/* A number option within [min, max], or a one-line error and exit 2. */
unsigned long hs_option_number(const char *opt, const char *s,
			       unsigned long min, unsigned long max);

/* A status line on stderr when it is a terminal; hs_progress_done() clears. */
void hs_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hs_progress_done(void);
void hs_check_simd_env(void);
void *hs_xcalloc(size_t n, size_t size);

/* Open @path for writing, or exit 2 naming @opt; NULL path: NULL. */
FILE *hs_open_output(const char *opt, const char *path);

/* "hotscore CMD ARGS", shell-quoted where needed, for reports. */
void hs_command_line(char *buf, size_t size, int argc, char **argv);

/* Strip spaces and tabs at both ends, in place. */
char *hs_trim(char *s);

/* The number of comma-separated fields in @line. */
size_t hs_csv_count(const char *line);

/*
 * Split @line in place at commas.  Return the number of fields; only the
 * first @max pointers are stored.
 */
size_t hs_split_csv(char *line, char **fields, size_t max);

/* The option at argv[*i]: matches --@name or --@name=VALUE. */
bool hs_opt(int argc, char **argv, int *i, const char *name,
	    const char **value);

struct hs_input;
size_t hs_read_inputs(const char *path, struct hs_input **out);
void hs_score_args(const struct hs_input *in, char *buf, size_t size);
void hs_score_defaults(struct hs_input *in);

int hs_cmd_score(int argc, char **argv);
int hs_cmd_bench(int argc, char **argv);
int hs_cmd_verify(int argc, char **argv);
int hs_cmd_sim(int argc, char **argv);

#endif /* HOTSCORE_CLI_H */
