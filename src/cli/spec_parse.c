// SPDX-License-Identifier: GPL-2.0
/*
 * spec_parse.c - --profile items for the subcommands (include/hotscore/spec.h),
 * refused the CLI's way: one line naming the option, exit 2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <hotscore/spec.h>

#include "cli.h"

/* The command whose --list-profiles lists what @opt takes. */
static const char *list_cmd(void)
{
	if (!cli_cmd_name || !strcmp(cli_cmd_name, "compare-records"))
		return "score";
	return cli_cmd_name;
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
		cli_die("%s: no profile '%s' (see 'hotscore %s --list-profiles')",
			opt, s, list_cmd());
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
		cli_usage_die("%s: no profile '%s' (see 'hotscore %s --list-profiles')",
			      opt, name, list_cmd());
	return p;
}
