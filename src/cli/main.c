// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - hotscore: dispatch to one subcommand.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

char **hs_argv;

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "score", hs_cmd_score,
	  "damon_hot_score()/damon_cold_score() of any kernel version" },
	{ "bench", hs_cmd_bench,
	  "the DAMON Perf Test: variants timed in batches, compared paired" },
	{ "verify", hs_cmd_verify,
	  "variants proven equal over whole domains; where versions differ" },
	{ "sim", hs_cmd_sim,
	  "kdamond and DAMOS in user space: what the quota picks, what scoring costs" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: hotscore COMMAND [OPTIONS]   (hotscore COMMAND --help)\n\n",
	      f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
}

/* A full disk or a closed pipe must not pass for success. */
static int finish(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "hotscore: writing the output: %s\n",
			strerror(errno));
		return 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	size_t i;

	hs_argv = argv;
	if (argc < 2)
		hs_die("no command given; try 'hotscore --help'");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish(0);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].run(argc - 1, argv + 1));
	hs_die("unknown command '%s'; try 'hotscore --help'", argv[1]);
}
