// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - hotscore: dispatch to one subcommand; help and version.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"

#ifndef HS_VERSION
#define HS_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	int width = 8;
	size_t i;

	for (i = 0; cli_commands[i]; i++)	/* the names, in one column */
		if ((int)strlen(cli_commands[i]->name) > width)
			width = (int)strlen(cli_commands[i]->name);

	fputs("usage: hotscore COMMAND [OPTIONS]\n"
	      "       hotscore help [COMMAND]\n"
	      "       hotscore --version\n\n"
	      "DAMON's damon_hot_score() and damon_cold_score(), every kernel"
	      " version of them:\nscored, timed, proven and simulated.\n\n"
	      "commands:\n", f);
	for (i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-*s %s\n", width, cli_commands[i]->name,
			cli_commands[i]->summary);
	fputs("\n'hotscore help COMMAND' or 'hotscore COMMAND --help' tells"
	      " more; docs/cli.md has\nevery option of every command.  Exit"
	      " status: 0 success, 1 a finding (a\ndifference, a failed"
	      " check), 2 bad input, 130 interrupted.\n", f);
}

/* hotscore help [COMMAND] */
static int help(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (argc > 2)
		cli_usage_die("help takes one command, not '%s'", argv[2]);
	cmd = cli_command_find(argv[1]);
	if (!cmd)
		cli_command_unknown(argv[1]);
	opt_usage(cmd, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	hs_argv = argv;
	if (argc < 2)
		cli_usage_die("no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return cli_finish(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hotscore %s\n", HS_VERSION);
		return cli_finish(0);
	}
	if (!strcmp(argv[1], "help"))
		return cli_finish(help(argc - 1, argv + 1));
	cmd = cli_command_find(argv[1]);
	if (!cmd)
		cli_command_unknown(argv[1]);
	cli_cmd_name = cmd->name;
	cli_out_init(cmd->name);
	return cli_finish(cmd->run(argc - 1, argv + 1));
}
