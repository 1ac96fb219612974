// SPDX-License-Identifier: GPL-2.0
/*
 * commands.c - the subcommands, in the order help lists them.  The CLI and
 * the reference generator (src/doc/gendoc.c) both read this list.
 */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

const struct cli_cmd *const cli_commands[] = {
	&cmd_score, &cmd_bench, &cmd_verify, &cmd_sim, &cmd_rank, &cmd_workload,
	&cmd_convert, &cmd_compare_records, &cmd_replay, &cmd_kunit, &cmd_judge,
	NULL,
};

/** cli_command_find() - the subcommand named @name, or NULL. */
const struct cli_cmd *cli_command_find(const char *name)
{
	size_t i;

	for (i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

/**
 * cli_command_unknown() - refuse @name, which names no subcommand, in the
 * one form `hotscore nosuch` and `hotscore help nosuch` share: the
 * nearest command when one is near, else where the list is.  Exit 2.
 * @name:	as typed.
 */
void cli_command_unknown(const char *name)
{
	struct cli_near n;
	const char *best;
	size_t i;

	cli_near_init(&n, name, strlen(name));
	for (i = 0; cli_commands[i]; i++)
		cli_near_add(&n, cli_commands[i]->name);
	cli_near_add(&n, "help");
	best = cli_near_best(&n);
	if (best)
		cli_die("unknown command '%s'; did you mean '%s'?", name, best);
	cli_usage_die("unknown command '%s'", name);
}
