// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - the value parsers and the option layer, on a fuzzed command
 * line.  The input is lines: the first names a subcommand (any other text
 * picks one by its length), the rest are its argv words.
 *
 * Each word goes through cli_parse_time() (us and ms) and the module's
 * hs_kparam_time_ns(), cli_parse_size(), cli_parse_rate(),
 * cli_parse_number() (four bounds) and the profile and variant name
 * lookups, with what their results promise checked: a time is taken only
 * if it has the documented form (written apart here) and one of that form
 * is refused only as too large or too fine, a time printed by
 * cli_format_time_us() reads back the same, the module's 64-bit value of
 * a time is the CLI's 128-bit one (one parser reads both, src/bench/
 * kparam.c; each does its own arithmetic), a number agrees with
 * strtoul(), a rate is at most 100 %, a time with a unit is the same in
 * us and in ms.  Then the words are the subcommand's argv for
 * opt_parse(), with a set() that checks each value against its option's
 * table entry and splits each list as cli_each_profile() does, and
 * opt_reproduce() writes the command back into a large buffer and into
 * one too small.  The scheme options are kept as sim and rank keep them
 * and turned into schemes (cli_damos_specs()): a quota goal's script has
 * 1 to HS_GOAL_MAX_STEPS values and a target that is not 0.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/bench_kparam.h>
#include <hotscore/score.h>

#include "cli/cli.h"
#include "cli/damos_opt.h"
#include "cli/opt.h"
#include "fuzz.h"

#define MAX_WORDS	256

/* Across the jump: static, never a local of a function that setjmp()s. */
static char *text, *argv[MAX_WORDS + 2], *repro;
static struct cli_schemes schemes;
static struct cli_scheme_spec specs[HS_MAX_SCHEMES];

/* "5ms" and "1.5 s" have a unit; "5000", "2." and "7 " do not. */
static bool has_unit(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		n--;
	return n && !(s[n - 1] >= '0' && s[n - 1] <= '9') && s[n - 1] != '.';
}

/*
 * The module's duration= (hs_kparam_time_ns(), in 64 bits) takes what the
 * CLI takes (in 128 bits), up to its bound: a whole us the same, a
 * fraction of a us refused by the CLI, anything else refused by both.
 */
static void kernel_time(const char *s, bool ok_us, uint64_t us)
{
	uint64_t ns;
	bool ok = hs_kparam_time_ns(s, &ns);

	fuzz_assert(!ok || ns <= HS_KPARAM_TIME_MAX_NS);
	if (ok && ns % 1000 == 0)
		fuzz_assert(ok_us && us == ns / 1000);
	else if (ok)
		fuzz_assert(!ok_us);
	else
		fuzz_assert(!ok_us || us > HS_KPARAM_TIME_MAX_NS / 1000);
}

/*
 * A time as documented: digits with at most one '.', at least one digit
 * and at most 9 after the '.', any spaces, then nothing or one of ns us ms
 * s m h.  Not the parser's code, so that the parser is held to it.
 */
static bool time_form(const char *s)
{
	static const char *const units[] = { "", "ns", "us", "ms", "s", "m",
					     "h" };
	size_t whole = 0, decimals = 0, i;
	bool dot = false;

	for (; (*s >= '0' && *s <= '9') || (*s == '.' && !dot); s++) {
		if (*s == '.')
			dot = true;
		else if (dot)
			decimals++;
		else
			whole++;
	}
	if (!whole && !decimals)
		return false;
	while (*s == ' ')
		s++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, units[i]))
			return decimals <= 9;
	return false;
}

/* The CLI takes a time only in its form, and refuses one only by size. */
static void form(const char *s, const char *err, const char *finer)
{
	if (time_form(s))
		fuzz_assert(!err || !strcmp(err, "too large") ||
			    !strcmp(err, finer));
	else
		fuzz_assert(err);
}

static void times(const char *s)
{
	uint64_t us = 0, ms, again;
	char buf[32];
	const char *err_us = cli_parse_time(s, false, &us);
	const char *err_ms = cli_parse_time(s, true, &ms);
	bool ok_us = !err_us, ok_ms = !err_ms;

	form(s, err_us, "finer than 1 us");
	form(s, err_ms, "finer than 1 ms");
	if (ok_us) {
		cli_format_time_us(us, buf, sizeof(buf));
		fuzz_assert(!cli_parse_time(buf, false, &again) && again == us);
	}
	if (ok_us && ok_ms && has_unit(s))
		fuzz_assert(ms <= UINT64_MAX / 1000 && us == ms * 1000);
	kernel_time(s, ok_us, us);
}

static void numbers(const char *s)
{
	static const unsigned long maxes[] = { ULONG_MAX, UINT_MAX, 100, 0 };
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long n;
	unsigned int i;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		if (cli_parse_number(s, maxes[i], &n))
			continue;
		fuzz_assert(n <= maxes[i]);
		fuzz_assert(n == strtoul(hex ? s + 2 : s, NULL, hex ? 16 : 10));
	}
}

/* A profile or combination, written out, reads back as the same. */
static void profiles(const char *s)
{
	struct hs_components a, b;
	char buf[64];

	if (hs_components_parse(s, &a))
		return;
	fuzz_assert(hs_profile_find(s) || strchr(s, '+'));
	fuzz_assert(hs_components_format(&a, buf, sizeof(buf)) <
		    (int)sizeof(buf));
	fuzz_assert(!hs_components_parse(buf, &b));
	fuzz_assert(a.freq == b.freq && a.divisor == b.divisor &&
		    a.agelog == b.agelog && a.fls == b.fls &&
		    a.clamp == b.clamp);
}

static void values(const char *s)
{
	uint64_t u;

	times(s);
	numbers(s);
	(void)cli_parse_size(s, &u);
	if (!cli_parse_rate(s, &u))
		fuzz_assert(u <= 10000);
	profiles(s);
	(void)hs_variant_find(s);
}

static void each_profile(void *ctx, const char *name)
{
	(void)ctx;
	fuzz_assert(*name && !strchr(name, ','));
	profiles(name);
}

static enum opt_type type_of(const struct opt *o, unsigned int k)
{
	return o->types ? o->types[k] : o->type;
}

/* Each value as opt_parse() hands it over: within its option's bounds. */
static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	unsigned int want = o->nr_values ? o->nr_values : 1, k;
	enum opt_type t;

	(void)ctx;
	fuzz_assert(o->type == OPT_FLAG ? nr == 0 :
		    nr <= want && nr >= (o->min_values ? o->min_values : want));
	for (k = 0; k < nr; k++) {
		t = type_of(o, k);
		fuzz_assert(v[k].s);
		if ((o->flags & OPT_MINMAX) && (!strcmp(v[k].s, "min") ||
						!strcmp(v[k].s, "max")))
			continue;
		if (t == OPT_COUNT || t == OPT_TIME || t == OPT_MS)
			fuzz_assert(v[k].u >= o->min &&
				    (!o->max || v[k].u <= o->max));
		if (t == OPT_RATE)
			fuzz_assert(v[k].u <= 10000);
		if (t == OPT_STR || t == OPT_LIST)
			fuzz_assert(*v[k].s);
		/* the list splitter score and verify use (cli_die: empty) */
		if (t == OPT_LIST)
			cli_each_profile(o->name, v[k].s, each_profile, NULL);
	}
	cli_damos_take(&schemes, o, v, nr);
}

/* The schemes the scheme options make: every goal within its bounds. */
static void check_schemes(void)
{
	unsigned int n = cli_damos_specs(&schemes, specs), i;

	fuzz_assert(n >= 1 && n <= HS_MAX_SCHEMES);
	for (i = 0; i < n; i++) {
		const struct hs_quota_goal *g = &specs[i].goal;

		if (g->metric == HS_GOAL_NONE)
			continue;
		fuzz_assert(g->target);
		fuzz_assert(g->nr_script >= 1 &&
			    g->nr_script <= HS_GOAL_MAX_STEPS);
	}
}

/* Split text into lines: argv[0] the subcommand, then the words. */
static int split(const struct cli_cmd **cmd)
{
	char *p = text, *nl;
	int argc = 0;
	size_t n;

	while (argc < MAX_WORDS + 1) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		/* -h and --help print the help and exit 0: not a finding */
		if (argc && (!strcmp(p, "-h") || !strcmp(p, "--help")))
			p = "--x";
		argv[argc++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	argv[argc] = NULL;
	*cmd = cli_command_find(argv[0]);
	if (!*cmd) {
		for (n = 0; cli_commands[n]; n++)
			;
		*cmd = cli_commands[strlen(argv[0]) % n];
	}
	return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int argc, i;
	static const struct cli_cmd *cmd;
	static size_t small;

	fuzz_begin(size);
	text = fuzz_string(data, size);
	argc = split(&cmd);
	for (i = 1; i < argc; i++)
		values(argv[i]);
	if (!setjmp(fuzz_jmp)) {
		memset(&schemes, 0, sizeof(schemes));
		opt_parse(cmd, argc, argv, set, NULL);
		check_schemes();
		/* the reproduce line, whole, and cut short */
		small = (size_t)argc * 5 % 61 + 1;
		repro = malloc(4096);
		opt_reproduce(cmd, repro, 4096);
		fuzz_assert(!strncmp(repro, "hotscore ", 9));
		free(repro);
		repro = malloc(small);
		opt_reproduce(cmd, repro, small);
		fuzz_assert(strlen(repro) < small);
	}
	free(repro);
	repro = NULL;
	free(text);
	text = NULL;
	fuzz_end();
	return 0;
}
