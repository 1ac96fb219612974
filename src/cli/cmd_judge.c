// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_judge.c - hotscore judge FILE.c: the seed thread's workflow in one
 * command.  Is the change equal (verify, quick then full)?  Is it faster
 * (bench, the candidate and --against through the same door)?  Does it
 * matter (sim on stairs and zigzag, rank on the user's record)?
 *
 * Each question is answered by this program's own subcommand, run as a
 * child with its --json in a private directory (cli_out_scratch()), so
 * every figure of the verdict block comes with the command that gives it
 * again.  The block fits a commit message: 72 columns.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hotscore/spec.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"
#include "report/layout.h"

#define JUDGE_COLS	72	/* a commit message's width */
#define JUDGE_ARGS	24	/* words of one child's command */

enum { O_CANDIDATE, O_AGAINST, O_RECORD, O_QUICK };

/* The block, kept until every step ran: a refusal prints none of it. */
static FILE *out;

static const struct opt judge_opts[] = {
	{ .id = O_CANDIDATE, .name = "candidate", .type = OPT_STR,
	  .arg = "FILE", .flags = OPT_INPUT | OPT_CANDS, .words = "@file",
	  .help = "your damon_hot_score() (a C file, as for verify"
		  " --candidate); also the bare argument",
	  .example = "examples/candidates/hotfix.c" },
	{ .id = O_AGAINST, .name = "against", .type = OPT_STR,
	  .arg = "PROFILE", .dflt = CLI_DEFAULT_PROFILE,
	  .flags = OPT_CANDS, .words = "@profiles",
	  .help = "what the candidate replaces: a profile or a candidate",
	  .example = "v2-ilog2", .with = "--candidate ./mine.c" },
	{ .id = O_RECORD, .name = "record", .type = OPT_STR, .arg = "RECORD",
	  .flags = OPT_INPUT, .words = "@file",
	  .help = "a damo record of your workload: rank it under both",
	  .example = "tests/data/rank/damo-written.json",
	  .with = "--candidate ./mine.c" },
	{ .id = O_QUICK, .name = "quick", .type = OPT_FLAG,
	  .help = "verify's quick domains only, and a shorter bench" },
};

/**
 * struct judge - the command line, and what each step found.
 * @cand:	the candidate file, as typed.
 * @against:	--against, as typed.
 * @record:	--record, or NULL.
 * @quick:	--quick.
 * @equal:	verify found no input where they differ.
 * @first:	verify's first difference, a score command, or "".
 * @inputs:	the inputs verify compared.
 * @differ:	how many of them differ.
 * @speed:	bench's verdicts, "seed slower, uniform faster".
 * @matters:	the workloads (and record) whose decisions differ.
 * @cmds:	each step's command, as the user would type it.
 * @nr_cmds:	how many.
 */
struct judge {
	const char *cand, *against, *record;
	bool quick;
	bool equal;
	char first[1024];
	unsigned long long inputs, differ;
	char speed[256], matters[128];
	char cmds[8][1024];
	unsigned int nr_cmds;
};

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct judge *j = ctx;
	struct hs_spec sp;

	(void)nr;
	switch (o->id) {
	case O_CANDIDATE:
		if (j->cand)
			cli_usage_die("one candidate at a time (%s and %s)",
				      j->cand, v->s);
		j->cand = v->s;
		break;
	case O_AGAINST:
		cli_spec_parse("--against", v->s, &sp);
		j->against = v->s;
		break;
	case O_RECORD:
		j->record = v->s;
		break;
	case O_QUICK:
		j->quick = true;
		break;
	}
}

/**
 * struct step - one child: a subcommand of this program.
 * @argv:	its words, from the subcommand's name, NULL-terminated.
 * @argc:	how many.
 * @json:	where its --json goes (a scratch file), or NULL.
 * @out:	where its stdout goes (a scratch file), or NULL: nowhere.
 * @err:	where its stderr goes (a scratch file).
 * @status:	its exit status.
 * @doc:	its --json, read, or NULL.
 */
struct step {
	const char *argv[JUDGE_ARGS + 1];
	int argc;
	const char *json, *out, *err;
	int status;
	json_t *doc;
};

static void arg(struct step *s, const char *word)
{
	if (s->argc == JUDGE_ARGS)
		cli_die("internal: a step of more than %d words", JUDGE_ARGS);
	s->argv[s->argc++] = word;
	s->argv[s->argc] = NULL;
}

/* The step's command as the user would type it, into @j's list. */
static void remember(struct judge *j, const struct step *s)
{
	char *buf = j->cmds[j->nr_cmds++];
	size_t len = strlen(hs_argv[0]);
	int i;

	memcpy(buf, hs_argv[0], len + 1);
	for (i = 0; i < s->argc; i++) {
		size_t w = strlen(s->argv[i]);

		if (len + 1 + w + 1 > sizeof(j->cmds[0]))
			break;
		buf[len++] = ' ';
		memcpy(buf + len, s->argv[i], w + 1);
		len += w;
	}
}

/*
 * A child's failure to run (exit 2): its stderr, with its last line as
 * judge's own, "hotscore judge: STEP: ...", then exit 2.
 */
static void step_die(const struct step *s)
{
	char line[1024], last[1024] = "";
	const char *msg = last, *pfx;
	FILE *f = fopen(s->err, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (*last)
			fputs(last, stderr);
		memcpy(last, line, sizeof(line));
	}
	if (f)
		fclose(f);
	last[strcspn(last, "\n")] = '\0';
	pfx = strstr(last, ": ");
	if (!strncmp(last, "hotscore ", 9) && pfx)
		msg = pfx + 2;
	cli_die("%s: %s", s->argv[0], *msg ? msg : "failed with no message");
}

/* Run @s as a child of this program; read its --json when it wrote one. */
static void step_run(struct step *s)
{
	json_error_t e;
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		cli_die("fork: %m");
	if (!pid) {
		char *v[JUDGE_ARGS + 2];
		int i;

		fd = open(s->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    !freopen(s->out ? s->out : "/dev/null", "w", stdout))
			_exit(CLI_EXIT_USAGE);
		/* argv[0] as typed: the child's reproducers say it too */
		v[0] = hs_argv[0];
		for (i = 0; i <= s->argc; i++)
			v[i + 1] = (char *)s->argv[i];
		execv("/proc/self/exe", v);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		cli_die("waitpid: %m");
	if (WIFSIGNALED(status))
		cli_die("%s: ended by signal %d", s->argv[0],
			WTERMSIG(status));
	s->status = WEXITSTATUS(status);
	if (s->status == CLI_EXIT_INTERRUPTED)
		cli_exit(CLI_EXIT_INTERRUPTED);
	if (s->status == CLI_EXIT_USAGE || s->status == 127)
		step_die(s);
	if (s->json) {
		s->doc = json_load_file(s->json, 0, &e);
		if (!s->doc)
			cli_die("%s: its report: %s", s->argv[0], e.text);
	}
}

/*
 * step_new() - a step named @name (its scratch files NAME.json, NAME.err),
 * its command started with the subcommand @cmd.
 */
static void step_new(struct step *s, const char *cmd, const char *name)
{
	char file[64];

	memset(s, 0, sizeof(*s));
	snprintf(file, sizeof(file), "%s.json", name);
	s->json = cli_out_scratch(file);
	snprintf(file, sizeof(file), "%s.err", name);
	s->err = cli_out_scratch(file);
	arg(s, cmd);
}

/* The step's --json goes last, after its command is remembered. */
static void step_go(struct judge *j, struct step *s)
{
	remember(j, s);
	arg(s, "--json");
	arg(s, s->json);
	cli_progress("judge: %s", j->cmds[j->nr_cmds - 1] +
		     strlen(hs_argv[0]) + 1);
	step_run(s);
	cli_progress_done();
}

static const char *str_of(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

static double num_of(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* Equal?  verify, quick, then (without --quick) every domain. */
static void judge_verify(struct judge *j, bool quick)
{
	unsigned long long agree;
	struct step s;
	json_t *c;

	step_new(&s, "verify", quick ? "verify-quick" : "verify");
	if (quick)
		arg(&s, "--quick");
	arg(&s, "--candidate");
	arg(&s, j->cand);
	arg(&s, "--against");
	arg(&s, j->against);
	step_go(j, &s);
	j->equal = s.status == 0;
	j->inputs = (unsigned long long)json_integer_value(
		json_object_get(s.doc, "inputs"));
	c = json_array_get(json_object_get(s.doc, "classes"), 0);
	snprintf(j->first, sizeof(j->first), "%s", str_of(c, "command"));
	agree = (unsigned long long)json_integer_value(
		json_object_get(s.doc, "agree"));
	j->differ = j->inputs - agree;
	if (j->equal)
		fprintf(out, "Equal:   yes, on all %llu inputs (verify%s)\n",
		       j->inputs, quick ? " --quick" : ", every domain");
	else
		fprintf(out, "Equal:   NO, differs on %llu of %llu inputs (verify%s)\n",
		       j->inputs - agree, j->inputs,
		       quick ? " --quick" : ", every domain");
	if (!j->equal && *j->first)
		layout_command(out, "         first: ", 9, j->first, NULL,
			       JUDGE_COLS);
	json_decref(s.doc);
}

/*
 * "file:PATH" for @path, relative to the working directory where it lies
 * under it: the block never shows a path the user did not type.
 */
static const char *relative(const char *path)
{
	static char rel[PATH_MAX + 128];
	char *real = realpath(path, NULL), *cwd = getcwd(NULL, 0);
	const char *p = real ? real : path;
	size_t n = cwd ? strlen(cwd) : 0;

	if (cwd && !strncmp(p, cwd, n) && p[n] == '/')
		p += n + 1;
	if ((size_t)snprintf(rel, sizeof(rel), "file:%s", p) >= sizeof(rel))
		*rel = '\0';
	free(real);
	free(cwd);
	return rel;
}

/* The bench's captured inputs: beside the build, or where make installs. */
static const char *captured_inputs(void)
{
	static const char *const rel[] = {
		"../tests/data/capture-6.1.192.csv",
		"../../tests/data/capture-6.1.192.csv",	/* build/san */
		"../share/hotscore/capture-6.1.192.csv",
	};
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	size_t i;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	slash[1] = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s%s", exe,
				     rel[i]) < sizeof(path) &&
		    !access(path, R_OK))
			return *relative(path) ? relative(path) : NULL;
	}
	return NULL;
}

/* Faster?  bench: the candidate and --against, like with like. */
static void judge_bench(struct judge *j)
{
	static char profiles[PATH_MAX * 2], dists[PATH_MAX + 128];
	const char *cap = captured_inputs();
	struct step s;
	json_t *c;
	size_t i;

	snprintf(profiles, sizeof(profiles), "%s,%s", j->against, j->cand);
	snprintf(dists, sizeof(dists), "seed,uniform%s%s", cap ? "," : "",
		 cap ? cap : "");
	step_new(&s, "bench", "bench");
	arg(&s, "--profile");
	arg(&s, profiles);
	arg(&s, "--against");
	arg(&s, j->against);
	arg(&s, "--dist");
	arg(&s, dists);
	arg(&s, "--mode");
	arg(&s, "throughput");
	if (!j->equal)
		arg(&s, "--allow-different");
	if (j->quick) {
		arg(&s, "--invocations");
		arg(&s, "3");
	}
	step_go(j, &s);
	fprintf(out, "Faster:  the candidate's speed over %s's (> 1: faster)\n",
	       j->against);
	json_array_foreach(json_object_get(s.doc, "comparisons"), i, c) {
		const char *d = str_of(c, "dist");

		if (strcmp(str_of(c, "variant"), j->cand))
			continue;
		d = strncmp(d, "file:", 5) ? d : "captured";
		fprintf(out, "         %-8s %.3f [%.3f - %.3f] %s\n", d,
		       num_of(c, "ratio"), num_of(c, "ci_low"),
		       num_of(c, "ci_high"), str_of(c, "verdict"));
		snprintf(j->speed + strlen(j->speed),
			 sizeof(j->speed) - strlen(j->speed), "%s%s %s",
			 *j->speed ? ", " : "", d, str_of(c, "verdict"));
	}
	if (!cap)
		fprintf(out, "         (no captured inputs: tests/data is not beside"
		       " this binary)\n");
	json_decref(s.doc);
}

/* Does it matter?  sim on one workload, each call scored by both. */
static void judge_sim(struct judge *j, const char *workload)
{
	static char profiles[PATH_MAX * 2];
	json_t *sc, *ax;
	struct step s;
	bool same;

	snprintf(profiles, sizeof(profiles), "%s,%s", j->against, j->cand);
	step_new(&s, "sim", workload);
	arg(&s, "--workload");
	arg(&s, workload);
	arg(&s, "--profile");
	arg(&s, profiles);
	arg(&s, "--no-timing");
	step_go(j, &s);
	sc = json_object_get(s.doc, "scores");
	ax = json_object_get(s.doc, "actions_not_in_other");
	same = json_is_true(json_object_get(s.doc, "identical_decisions"));
	fprintf(out, "         %-8s scores differ on %lld of %lld calls; %s\n",
		workload, json_integer_value(json_object_get(sc, "differ")),
		json_integer_value(json_object_get(sc, "calls")),
		same ? "decisions identical" : "decisions differ");
	if (!same) {
		snprintf(j->matters + strlen(j->matters),
			 sizeof(j->matters) - strlen(j->matters), "%s%s",
			 *j->matters ? ", " : "", workload);
		fprintf(out, "         %-8s %lld actions only under %s, %lld"
			" only under the candidate\n", "",
			json_integer_value(json_array_get(ax, 0)), j->against,
			json_integer_value(json_array_get(ax, 1)));
	}
	json_decref(s.doc);
}

/* ... and on the user's own record: rank's summary line. */
static void judge_rank(struct judge *j)
{
	static char profiles[PATH_MAX * 2];
	char line[1024], said[1024] = "no summary";
	struct step s;
	FILE *f;

	snprintf(profiles, sizeof(profiles), "%s,%s", j->against, j->cand);
	step_new(&s, "rank", "rank");
	s.out = cli_out_scratch("rank.txt");
	arg(&s, "--input");
	arg(&s, j->record);
	arg(&s, "--profile");
	arg(&s, profiles);
	step_go(j, &s);
	f = fopen(s.out, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "  they ", 7))
			snprintf(said, sizeof(said), "%s", line + 7);
	if (f)
		fclose(f);
	said[strcspn(said, "\n")] = '\0';
	if (!strncmp(said, "differ", 6))
		snprintf(j->matters + strlen(j->matters),
			 sizeof(j->matters) - strlen(j->matters), "%s%s",
			 *j->matters ? ", " : "", "the record");
	fprintf(out, "         record   they %s\n", said);
	json_decref(s.doc);
}

/* One verdict: equal or not, the speed, and where decisions changed. */
static void judge_verdict(const struct judge *j)
{
	char text[1024];

	char on[64];

	snprintf(on, sizeof(on), "%llu%s", j->equal ? j->inputs : j->differ,
		 j->equal ? "" : " of");
	snprintf(text, sizeof(text), "Verdict: %s %s on %s %llu inputs; speed:"
		 " %s; DAMOS decisions %s%s",
		 j->equal ? "equal to" : "DIFFERENT from", j->against,
		 j->equal ? "all" : on, j->inputs,
		 *j->speed ? j->speed : "not timed",
		 *j->matters ? "differ on " : "identical on every workload",
		 j->matters);
	layout_printf(out, JUDGE_COLS, "%s\n", text);
}

/* The commands, one a line, wrapped to the block's width. */
static void judge_commands(const struct judge *j)
{
	unsigned int i;

	fprintf(out, "Reproduce:\n");
	for (i = 0; i < j->nr_cmds; i++)
		layout_command(out, "  ", 4, j->cmds[i], NULL, JUDGE_COLS);
}

static int judge_run(int argc, char **argv)
{
	static struct judge j;
	size_t len;
	char *buf;

	j.against = CLI_DEFAULT_PROFILE;
	opt_parse(&cmd_judge, argc, argv, set, &j);
	opt_parsed(&cmd_judge);
	if (!j.cand)
		cli_usage_die("which candidate? (hotscore judge FILE.c)");
	out = open_memstream(&buf, &len);
	if (!out)
		cli_die("open_memstream: %m");
	fprintf(out, "hotscore judge: %s against %s\n", j.cand, j.against);
	judge_verify(&j, true);
	if (j.equal && !j.quick)
		judge_verify(&j, false);
	judge_bench(&j);
	fprintf(out, "Matters: the simulator's DAMOS, each score call made by"
	       " both\n");
	judge_sim(&j, "stairs");
	judge_sim(&j, "zigzag");
	if (j.record)
		judge_rank(&j);
	judge_verdict(&j);
	judge_commands(&j);
	fclose(out);
	fwrite(buf, 1, len, stdout);
	free(buf);
	return j.equal ? 0 : CLI_EXIT_FINDING;
}

const struct cli_cmd cmd_judge = {
	.name = "judge",
	.summary = "is your change equal, faster, and does it matter: one verdict",
	.usage = "hotscore judge FILE.c [--against P] [--record RECORD] [--quick]",
	.about = "The seed thread's workflow in one command, for a"
		 " damon_hot_score() of your own:\nverify (quick, then every"
		 " domain), bench (the candidate and --against through\nthe"
		 " same door, on the seed's ages, uniform ages and a live"
		 " kdamond's captured\ninputs), sim (stairs and zigzag, every"
		 " score call made by both) and, with\n--record, rank.  Each"
		 " runs as this program's own subcommand; the block it\nprints"
		 " fits a commit message and ends with the commands that give"
		 " each figure\nagain.",
	.notes = "Exit 0 equal, 1 different, 2 bad input (the step that"
		 " refused it named).\nA different candidate is still timed"
		 " (bench --allow-different).",
	.opts = judge_opts,
	.nr_opts = sizeof(judge_opts) / sizeof(judge_opts[0]),
	.operand = "candidate",
	.run = judge_run,
};
