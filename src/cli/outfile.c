// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - output files replaced whole, or not at all.
 *
 * An output (--json, --csv, --svg, --record, --heatmap) is written to a
 * temporary file beside its target, ".NAME.XXXXXX", and renamed over the
 * target only when every output of the run is complete (cli_out_commit()).
 * Until then an earlier file of that name is untouched: a bad input, a
 * failed write or Ctrl-C leaves it byte for byte as it was, and no
 * temporary file behind (the exit handler and the signal handler remove
 * them).  "-" is standard output; a target that exists and is not a
 * regular file (/dev/null, a FIFO) is written in place.
 *
 * Renaming over a target replaces whatever file had its name, so no output
 * may be an input or another output: the option layer refuses that before
 * anything runs (io.c), and this opens only outputs it has checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"

#define MAX_OUTS 8

/*
 * One output.  The signal handler reads @tmp and @live, so they are set
 * before the file exists and cleared only after it is gone or renamed.
 */
struct out {
	FILE *f;
	const char *opt;
	const char *shown;		/* the target as the user gave it */
	char path[PATH_MAX];		/* the target, links followed */
	char tmp[PATH_MAX];		/* beside it; "" when written in place */
	volatile sig_atomic_t live;	/* tmp exists and is ours to remove */
	bool done;			/* complete, waiting for the commit */
};

static struct out outs[MAX_OUTS];
static volatile sig_atomic_t nr_outs;
static volatile sig_atomic_t committed;
static char interrupted_msg[128];

/*
 * A private directory of a run's intermediate files (hotscore judge's
 * children's reports), removed with them at exit and on a signal.
 */
#define MAX_SCRATCH 16
static char scratch_dir[PATH_MAX];
static char scratch[MAX_SCRATCH][PATH_MAX];
static volatile sig_atomic_t nr_scratch;

/* Remove the scratch files and their directory: async-signal-safe. */
static void remove_scratch(void)
{
	sig_atomic_t i;

	for (i = 0; i < nr_scratch; i++)
		unlink(scratch[i]);
	if (*scratch_dir)
		rmdir(scratch_dir);
}

/* Remove every temporary file not yet renamed: async-signal-safe. */
static void remove_temps(void)
{
	sig_atomic_t i;

	remove_scratch();

	for (i = 0; i < nr_outs; i++)
		if (outs[i].live) {
			unlink(outs[i].tmp);
			outs[i].live = 0;
		}
}

static void on_signal(int sig)
{
	static const char after[] =
		" (the output files were complete and are in place)\n";
	size_t len = strlen(interrupted_msg);

	remove_temps();
	if (write(STDERR_FILENO, interrupted_msg, len - 1) < 0 ||
	    write(STDERR_FILENO, committed ? after : "\n",
		  committed ? sizeof(after) - 1 : 1) < 0)
		_exit(CLI_EXIT_INTERRUPTED);
	(void)sig;
	_exit(CLI_EXIT_INTERRUPTED);
}

static void on_exit_remove(void)
{
	remove_temps();
}

/**
 * cli_out_init() - remove temporary outputs at any exit, and on SIGINT or
 * SIGTERM: say so on stderr and exit 130.  Called once a command is known.
 * @cmd:	the subcommand's name, for the message.
 *
 * A SIGINT ignored from the start (nohup, a background job of a shell
 * without job control) stays ignored.
 */
void cli_out_init(const char *cmd)
{
	struct sigaction sa, old;

	snprintf(interrupted_msg, sizeof(interrupted_msg),
		 "hotscore %s: interrupted; no output file was changed\n", cmd);
	atexit(on_exit_remove);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGINT, &sa, NULL);
}

/**
 * cli_out_scratch() - the path of an intermediate file @name in a private
 * directory (mkdtemp under $TMPDIR, else /tmp), which it and the directory
 * leave at any exit and on SIGINT or SIGTERM.  After cli_out_init().
 * @name:	a file name, no '/'.
 *
 * Return: the path; exit 2 when the directory cannot be made.
 */
const char *cli_out_scratch(const char *name)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];

	if (!*scratch_dir) {
		if (!tmp || !*tmp)
			tmp = "/tmp";
		if ((size_t)snprintf(dir, sizeof(dir), "%s/hotscore.XXXXXX",
				     tmp) >= sizeof(dir) || !mkdtemp(dir))
			cli_die("cannot make a directory in %s: %s", tmp,
				strerror(errno));
		memcpy(scratch_dir, dir, sizeof(dir));
	}
	if (nr_scratch == MAX_SCRATCH ||
	    (size_t)snprintf(scratch[nr_scratch], PATH_MAX, "%s/%s",
			     scratch_dir, name) >= PATH_MAX)
		cli_die("too many intermediate files (%d)", MAX_SCRATCH);
	return scratch[nr_scratch++];
}

/* Where the temporary file goes: beside what @path names, links followed. */
static void target_of(struct out *o, const char *path)
{
	char *real = realpath(path, NULL), tmp[PATH_MAX];
	const char *target = real ? real : path, *base = strrchr(target, '/');
	int dir = base ? (int)(base - target + 1) : 0;

	base = base ? base + 1 : target;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", dir, target,
			     base) >= sizeof(tmp) ||
	    strlen(target) >= sizeof(o->path))
		cli_die("%s: %s: the path is too long", o->opt, path);
	memcpy(o->path, target, strlen(target) + 1);
	memcpy(o->tmp, tmp, strlen(tmp) + 1);
	free(real);
}

/* The mode fopen() would have given: the old file's, or 0666 & ~umask. */
static mode_t mode_for(const struct stat *st, bool exists)
{
	mode_t mask;

	if (exists)
		return st->st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/**
 * cli_out_open() - start an output file: a temporary one beside @path,
 * checked before any work so that a bad path fails at once.
 * @opt:	the option ("--json"): an OPT_WRITE one of the command line,
 *		which opt_parse() has checked against the inputs.
 * @path:	the target; NULL for none, "-" for standard output.
 *
 * Return: the stream to write, or NULL when @path is NULL.  Errors exit 2.
 */
FILE *cli_out_open(const char *opt, const char *path)
{
	struct out *o;
	struct stat st;
	bool exists;
	int fd;

	if (!path)
		return NULL;
	if (!opt_output_checked(opt))	/* not OPT_WRITE in its table */
		cli_die("%s: not checked against the inputs (no OPT_WRITE in its table): a bug",
			opt);
	if (nr_outs == MAX_OUTS)
		cli_die("%s: more than %d output files", opt, MAX_OUTS);
	o = &outs[nr_outs];
	memset(o, 0, sizeof(*o));
	o->opt = opt;
	o->shown = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		nr_outs++;
		return o->f;
	}
	exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		cli_die("%s: %s: %s", opt, path, strerror(EISDIR));
	if (exists && !S_ISREG(st.st_mode)) {	/* a device, a FIFO */
		o->f = fopen(path, "we");
		if (!o->f)
			cli_die("%s: %s: %s", opt, path, strerror(errno));
		snprintf(o->path, sizeof(o->path), "%s", path);
		nr_outs++;
		return o->f;
	}
	if (exists && access(path, W_OK))
		cli_die("%s: %s: %s", opt, path, strerror(errno));
	target_of(o, path);
	nr_outs++;		/* the handler now knows the template */
	fd = mkostemp(o->tmp, O_CLOEXEC);	/* not into invocations */
	if (fd < 0) {
		int err = errno;

		nr_outs--;
		cli_die("%s: %s: %s", opt, path, strerror(err));
	}
	o->live = 1;
	if (fchmod(fd, mode_for(&st, exists)) || !(o->f = fdopen(fd, "w")))
		cli_die("%s: %s: %s", opt, path, strerror(errno));
	return o->f;
}

static struct out *find(FILE *f)
{
	sig_atomic_t i;

	for (i = 0; i < nr_outs; i++)
		if (outs[i].f == f && !outs[i].done)
			return &outs[i];
	return NULL;
}

/**
 * cli_out_done() - the output is complete: flush and close it, or exit 2
 * naming it if anything failed (a full disk).  It is put in place by
 * cli_out_commit().
 * @f:		a stream from cli_out_open(); NULL does nothing.
 */
void cli_out_done(FILE *f)
{
	struct out *o = f ? find(f) : NULL;

	if (!o)
		return;
	if (fflush(f) || ferror(f))
		cli_die("%s: %s: write error: %s", o->opt, o->shown,
			strerror(errno));
	if (f != stdout && fclose(f))
		cli_die("%s: %s: write error: %s", o->opt, o->shown,
			strerror(errno));
	o->done = true;
}

/**
 * cli_out_commit() - put every complete output in place, all of them
 * under one blocked SIGINT/SIGTERM, so that an interrupt changes either
 * none of them or none is left half-way.
 */
void cli_out_commit(void)
{
	sigset_t block, old;
	sig_atomic_t i;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < nr_outs; i++) {
		struct out *o = &outs[i];

		if (!o->done || !o->live)
			continue;
		if (rename(o->tmp, o->path)) {
			int err = errno;

			sigprocmask(SIG_SETMASK, &old, NULL);
			cli_die("%s: %s: %s", o->opt, o->shown, strerror(err));
		}
		o->live = 0;
	}
	committed = 1;
	sigprocmask(SIG_SETMASK, &old, NULL);
}
