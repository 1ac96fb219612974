// SPDX-License-Identifier: GPL-2.0
/*
 * spec_parse.c - --profile items for the subcommands (include/hotscore/spec.h),
 * refused the CLI's way: one line naming the option, exit 2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/spec.h>

#include "cli.h"

/* The command whose --list-profiles lists what @opt takes. */
static const char *list_cmd(void)
{
	if (!cli_cmd_name || !strcmp(cli_cmd_name, "compare-records"))
		return "score";
	return cli_cmd_name;
}

/* The names of combination slot @slot (FREQ, DIVISOR, AGE, CLAMP), one each. */
static const char *slot_name(unsigned int slot, unsigned int i)
{
	switch (slot) {
	case 0:
		return i < HS_NR_FREQ ? hs_freq_name(i) : NULL;
	case 1:
		return i < HS_NR_DIVISOR ? hs_divisor_name(i) : NULL;
	case 2:
		return i < HS_NR_AGELOG * HS_NR_FLS_IMPL ?
			hs_agelog_name(i / HS_NR_FLS_IMPL,
				       i % HS_NR_FLS_IMPL) : NULL;
	default:
		return i < HS_NR_CLAMP ? hs_clamp_name(i) : NULL;
	}
}

/*
 * The combination nearest to @s, FREQ+DIVISOR+AGE+CLAMP with each word
 * that names nothing replaced by its slot's nearest name, into @buf; NULL
 * when @s has not four words or a word has no near name.
 */
static const char *near_combination(const char *s, char *buf, size_t size)
{
	const char *word = s, *best;
	struct cli_near n;
	unsigned int slot, i;
	size_t len, at = 0;

	for (slot = 0; slot < 4; slot++, word += len + 1) {
		len = strcspn(word, "+");
		cli_near_init(&n, word, len);
		for (i = 0; slot_name(slot, i); i++)
			cli_near_add(&n, slot_name(slot, i));
		best = cli_near_best(&n);
		if (!best || (word[len] == '+') != (slot < 3))
			return NULL;
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
				       slot ? "+" : "", best);
		if (at >= size)
			return NULL;
	}
	return buf;
}

/*
 * The name nearest to @s that --profile takes: a profile, bench's timed
 * variants in bench, or a combination; NULL when none is near.
 */
static const char *near_profile(const char *s, char *buf, size_t size)
{
	struct cli_near n;
	unsigned int i;

	if (strchr(s, '+'))
		return near_combination(s, buf, size);
	cli_near_init(&n, s, strlen(s));
	for (i = 0; i < hs_nr_profiles; i++)
		cli_near_add(&n, hs_profiles[i].name);
	for (i = 0; cli_cmd_name && !strcmp(cli_cmd_name, "bench") &&
	     i < hs_nr_variants; i++)
		cli_near_add(&n, hs_variants[i].name);
	return cli_near_best(&n);
}

/**
 * cli_spec_unknown() - refuse @s, which names no profile, naming @opt:
 * the nearest name when one is near, else where the list is.  Exit 2.
 * @opt:	the option ("--profile"), or where a CSV row is.
 * @s:		the item, as typed.
 */
void cli_spec_unknown(const char *opt, const char *s)
{
	char buf[128];
	const char *best = near_profile(s, buf, sizeof(buf));

	if (best)
		cli_die("%s: no profile '%s'; did you mean '%s'?", opt, s,
			best);
	cli_die("%s: no profile '%s' (see 'hotscore %s --list-profiles')",
		opt, s, list_cmd());
}

/**
 * cli_spec_parse() - a profile, a combination or a candidate file; a bad
 * one exits 2 naming @opt.
 * @opt:	the option ("--profile"), or where a CSV row is.
 * @s:		the item.
 * @out:	the spec.
 */
void cli_spec_parse(const char *opt, const char *s, struct hs_spec *out)
{
	switch (hs_spec_parse(s, out)) {
	case 0:
		return;
	case HS_SPEC_TOO_LONG:
		cli_die("%s: '%.40s...' is too long", opt, s);
	case HS_SPEC_NO_BSR:
		cli_die("%s: '%s' needs the x86 bsr instruction, not on this machine",
			opt, s);
	default:
		cli_spec_unknown(opt, s);
	}
}

/**
 * cli_spec_add() - cli_spec_parse() onto the end of a list: more than @max
 * items, or with @unique an item already listed, exits 2.
 * @opt:	the option.
 * @s:		the item.
 * @list:	the list.
 * @nr:		its length, incremented.
 * @max:	its room.
 * @unique:	refuse an item listed twice.
 */
void cli_spec_add(const char *opt, const char *s, struct hs_spec *list,
		  unsigned int *nr, unsigned int max, bool unique)
{
	unsigned int i;

	for (i = 0; unique && i < *nr; i++)
		if (!strcmp(list[i].given, s))
			cli_die("%s: '%s' is listed twice", opt, s);
	if (*nr == max)
		cli_die("%s: more than %u profiles", opt, max);
	cli_spec_parse(opt, s, &list[*nr]);
	(*nr)++;
}

/**
 * cli_spec_profiles() - the --profile of a `hotscore score` command that
 * computes candidate @sp as it was computed here: @shown beside it, and
 * its base named with --base only where score would not pick it itself
 * (the first model of --profile, else hotfix).
 * @sp:		the candidate.
 * @shown:	what to show beside it (--against: a model, or another
 *		candidate file), or NULL: its base then, unless that is
 *		hotfix.
 * @base:	its base (hs_spec_base()); a profile where it differs from
 *		@shown (--base takes profiles only).
 * @buf:	receives "--profile [SHOWN,]FILE[ --base BASE]".
 * @size:	its size.
 */
void cli_spec_profiles(const struct hs_spec *sp, const char *shown,
		       const struct hs_spec *base, char *buf, size_t size)
{
	const char *picked;	/* the base score would take */

	if (!shown && strcmp(base->name, CLI_DEFAULT_PROFILE))
		shown = base->name;
	picked = shown && !hs_spec_cand_path(shown, false) ? shown :
		CLI_DEFAULT_PROFILE;
	snprintf(buf, size, "--profile %s%s%s%s%s", shown ? shown : "",
		 shown ? "," : "", sp->given,
		 strcmp(base->name, picked) ? " --base " : "",
		 strcmp(base->name, picked) ? base->name : "");
}

/**
 * cli_pair_command() - the `hotscore score` command that shows @a and @b
 * side by side on @in: each named as score takes it, their candidates'
 * base with --base where score would not pick it itself (the first model
 * named, else hotfix), and --call_limit where a candidate needs it.
 * @a:		the first profile or candidate.
 * @b:		the second.
 * @base:	the candidates' base (hs_spec_base()); unused without one.
 * @in:		the input.
 * @buf:	receives the command.
 * @size:	its size.
 */
void cli_pair_command(const struct hs_spec *a, const struct hs_spec *b,
		      const struct hs_spec *base, const struct hs_input *in,
		      char *buf, size_t size)
{
	const char *picked = CLI_DEFAULT_PROFILE;
	bool cand = a->cand || b->cand;
	char args[512];

	if (!a->cand)
		picked = a->name;
	else if (!b->cand)
		picked = b->name;
	cli_score_args(in, args, sizeof(args));
	snprintf(buf, size, "%s score --profile %s,%s%s%s%s%s%s", cli_prog(),
		 a->cand ? a->given : a->name, b->cand ? b->given : b->name,
		 cand && strcmp(base->name, picked) ? " --base " : "",
		 cand && strcmp(base->name, picked) ? base->name : "",
		 *args ? " " : "", args, cand ? cli_call_limit_arg() : "");
}

/**
 * cli_profile_named() - a built-in profile by name, for --base and
 * --against (which take no combination or file); exit 2 if none, saying
 * so apart where @name is a candidate file.
 * @opt:	the option.
 * @name:	the name.
 *
 * Return: the profile.
 */
const struct hs_profile *cli_profile_named(const char *opt, const char *name)
{
	const struct hs_profile *p = hs_profile_find(name);

	if (!p && hs_spec_cand_path(name, false))
		cli_usage_die("%s: '%s' is a file: %s takes a built-in profile here",
			      opt, name, opt);
	if (!p)
		cli_spec_unknown(opt, name);
	return p;
}
