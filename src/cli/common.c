// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - error reporting, number and CSV field parsing for the CLI.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/score.h>
#include <hotscore/simd.h>

#include "cli.h"
#include "opt.h"

const char *cli_cmd_name;
char **hs_argv;
void (*cli_die_hook)(const char *msg);

/*
 * The length of the UTF-8 character at @p: 2 to 4 for a well-formed one
 * (no overlong form, no surrogate, at most U+10FFFF), else 0.
 */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/*
 * @msg as one line a terminal shows as it is: printable ASCII and
 * well-formed UTF-8 as they are, every other byte (a control character, a
 * newline inside an argument, a stray CR, a byte of a binary file) as
 * \xNN.  Return the columns it took, counting a UTF-8 character as one.
 */
static size_t put_escaped(const char *msg, FILE *f)
{
	const unsigned char *p = (const unsigned char *)msg;
	size_t n, cols = 0;

	while (*p) {
		n = *p >= 0x80 ? utf8_len(p) : 0;
		if (n) {
			fwrite(p, 1, n, f);
			p += n;
			cols++;
		} else if (*p < 0x20 || *p >= 0x7f) {
			fprintf(f, "\\x%02x", *p++);
			cols += 4;
		} else {
			fputc(*p++, f);
			cols++;
		}
	}
	return cols;
}

/*
 * One line, always (put_escaped()).  A usage error ends "; try 'hotscore
 * CMD --help'" where the line still fits the 100 columns of text output.
 */
static void __attribute__((noreturn))
die_line(const char *hint, const char *fmt, va_list ap)
{
	const char *cmd = cli_cmd_name ? cli_cmd_name : "";
	const char *sp = cli_cmd_name ? " " : "";
	char msg[2048], help[64];
	size_t cols;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (cli_die_hook)
		cli_die_hook(msg);	/* a fuzz harness: it does not return */
	fflush(stdout);
	snprintf(help, sizeof(help), "; try 'hotscore%s%s --help'", sp, cmd);
	cols = (size_t)fprintf(stderr, "hotscore%s%s: ", sp, cmd);
	cols += put_escaped(msg, stderr);
	if (hint && cols + strlen(help) <= CLI_COLS)
		fputs(help, stderr);
	fputc('\n', stderr);
	exit(CLI_EXIT_USAGE);
}

void cli_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_line(NULL, fmt, ap);
}

void cli_usage_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_line("", fmt, ap);
}

/**
 * cli_prog() - the program as the user invoked it (argv[0]: "hotscore",
 * "build/hotscore"), for the commands a report prints to be pasted back;
 * quoted for a shell where it needs it; "hotscore" when unknown.
 *
 * Return: a static string.
 */
const char *cli_prog(void)
{
	static char buf[512];
	const char *p = hs_argv && hs_argv[0] && *hs_argv[0] ? hs_argv[0] :
		"hotscore";
	size_t at = 0, i;

	/* no one types that: the name will do (and 4 bytes a byte fit) */
	for (i = 0; p[i]; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || i >= 100)
			return "hotscore";
	if (p[strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		     "0123456789-_=.,:/+@%")] == '\0')
		return p;
	buf[at++] = '\'';
	for (; *p; p++)	/* a quote inside: '\'' */
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, *p == '\'' ?
				       "'\\''" : "%c", *p);
	snprintf(buf + at, sizeof(buf) - at, "'");
	return buf;
}

/**
 * cli_finish() - the exit status, after stdout is flushed: a full disk or
 * a closed pipe must not pass for success.
 * @status:	what the command returned.
 *
 * Return: @status, or 1 if writing stdout failed.
 */
int cli_finish(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "hotscore%s%s: writing the output: %s\n",
			cli_cmd_name ? " " : "", cli_cmd_name ? cli_cmd_name : "",
			strerror(errno));
		return CLI_EXIT_FINDING;
	}
	return status;
}

void cli_exit(int status)
{
	exit(cli_finish(status));
}

static int cli_digit(char c, unsigned int base)
{
	unsigned int v;

	if (c >= '0' && c <= '9')
		v = (unsigned int)(c - '0');
	else if (c >= 'a' && c <= 'f')
		v = (unsigned int)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		v = (unsigned int)(c - 'A' + 10);
	else
		return -1;
	return v < base ? (int)v : -1;
}

/*
 * strtoul() would accept signs, leading spaces and octal, and wrap "-1" to
 * ULONG_MAX; a kernel value needs none of that, so parse by hand.
 */
const char *cli_parse_number(const char *s, unsigned long max,
			    unsigned long *out)
{
	unsigned int base = 10;
	unsigned long v = 0;
	int d;

	if (!*s)
		return "empty value";
	if (*s == '-')
		return "negative value";
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return "not a number";
	}
	for (; *s; s++) {
		d = cli_digit(*s, base);
		if (d < 0)
			return "not a number";
		if ((unsigned long)d > max ||
		    v > (max - (unsigned long)d) / base)
			return "out of range";
		v = v * base + (unsigned long)d;
	}
	*out = v;
	return NULL;
}

char *cli_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

size_t cli_csv_count(const char *line)
{
	size_t n = 1;

	for (; *line; line++)
		n += *line == ',';
	return n;
}

/* A field wholly in double quotes (RFC 4180) stands for its contents. */
static char *cli_unquote(char *s)
{
	size_t len = strlen(s);

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s[len - 1] = '\0';
		return cli_trim(s + 1);
	}
	return s;
}

size_t cli_split_csv(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (n < max)
			fields[n] = cli_unquote(cli_trim(p));
		n++;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

/**
 * cli_option_number() - the number an option was given, or exit 2.
 * @opt:	the option, for the message ("--runs").
 * @s:		its value.
 * @min:	smallest allowed.
 * @max:	largest allowed.
 *
 * Return: the value.
 */
unsigned long cli_option_number(const char *opt, const char *s,
			       unsigned long min, unsigned long max)
{
	unsigned long n;
	const char *err = cli_parse_number(s, ULONG_MAX, &n);

	if (err)
		cli_die("%s: '%s': %s", opt, s, err);
	if (n < min || n > max)
		cli_die("%s: '%s' is out of range (%lu..%lu)", opt, s, min, max);
	return n;
}

/**
 * cli_each_profile() - call @add for each profile of a comma list, "all"
 * standing for every built-in profile; an empty list is an error.
 * @opt:	the option, for the message.
 * @list:	"v6.6,hotfix", "all", "raw+safe+loop+clamp".
 * @add:	receives @ctx and each name.
 * @ctx:	for @add.
 */
void cli_each_profile(const char *opt, const char *list,
		      void (*add)(void *ctx, const char *name), void *ctx)
{
	char *copy = strdup(list), *item, *save = NULL;
	unsigned int i, n = 0;

	if (!copy)
		cli_die("out of memory");
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save), n++) {
		if (strcmp(item, "all")) {
			add(ctx, item);
			continue;
		}
		for (i = 0; i < hs_nr_profiles; i++)
			add(ctx, hs_profiles[i].name);
	}
	free(copy);
	if (!n)
		cli_usage_die("%s: empty list", opt);
}

/**
 * cli_simd_choice() - the batch scorer HOTSCORE_SIMD asks for on this CPU,
 * for bench's and sim's fast-batch; exit 2 with one line when it names no
 * scorer, or one this CPU cannot run (hs_simd_choose() words the two cases
 * apart).  The front end reads the environment, not the library.
 *
 * Return: the choice, to pass to the library.
 */
enum hs_fast_impl cli_simd_choice(void)
{
	enum hs_fast_impl impl;
	char err[256];

	if (hs_simd_choose(getenv("HOTSCORE_SIMD"), hs_cpu_features(), &impl,
			   err, sizeof(err)))
		cli_die("%s", err);
	return impl;
}

/**
 * cli_xcalloc() - calloc() that never returns NULL: out of memory is one
 * line on stderr and exit status 2.
 * @n:		elements (0 is taken as 1, so the result is never NULL).
 * @size:	bytes each.
 */
void *cli_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		cli_die("out of memory");
	return p;
}

/**
 * cli_csv_field() - one CSV field, quoted (RFC 4180) only when it has to
 * be: when it holds a comma, a quote or a line break.
 * @f:		where to write.
 * @s:		the field.
 */
void cli_csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static uint64_t call_limit_us = HS_CAND_LIMIT_NS / 1000;

/** cli_call_limit_set() - --call_limit: the limit of a candidate's call. */
void cli_call_limit_set(uint64_t us)
{
	call_limit_us = us;
	hs_cand_set_limit(us * 1000);
}

/** cli_call_limit_text() - the limit as --call_limit takes it: "1s". */
const char *cli_call_limit_text(void)
{
	static char buf[32];

	cli_format_time_us(call_limit_us, buf, sizeof(buf));
	return buf;
}

/**
 * cli_call_limit_arg() - what a `hotscore score` reproducer adds so that
 * a hang reproduces under the same limit: " --call_limit 50ms", or "" at
 * the default.
 */
const char *cli_call_limit_arg(void)
{
	static char buf[48];

	if (call_limit_us == HS_CAND_LIMIT_NS / 1000)
		return "";
	snprintf(buf, sizeof(buf), " --call_limit %s", cli_call_limit_text());
	return buf;
}
