// SPDX-License-Identifier: GPL-2.0
/*
 * io.c - no output over an input, and no two outputs on one file.
 *
 * An output is written to a temporary file and renamed over its target
 * (outfile.c), so an output named as an input replaces it whole: `rank
 * damon.data --csv damon.data` would leave a CSV where the record was, and
 * of two outputs on one file only the last renamed would be left.  The
 * option layer hands every option's last value here once argv is parsed,
 * before a subcommand reads, compiles or measures anything; a clash is one
 * line and exit 2, and no file has been touched.
 *
 * The option tables say which values name files: OPT_WRITE an output,
 * OPT_INPUT a file read (in a list whose words hold "file:", as bench's
 * --dist, only its file:PATH items), OPT_CANDS the candidate files where
 * profiles go ("NAME=./mine.c" reads ./mine.c).  "-" is a stream, one of
 * the option's words is not a file even if a file has its name (sim's
 * built-in "stairs" comes first), and an output that exists and is not a
 * regular file (/dev/null, a FIFO) is written in place, so it is exempt.
 * Two names are one file when they resolve to one path (x, ./x, d/../x, a
 * symlink to x) or, both existing, to one inode (a hard link).
 *
 * The inputs are checked first, in one form for every command: a file
 * that is not there, cannot be read or is a directory, and "-" where
 * standard input cannot stand (OPT_STDIN), each one line before any work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hotscore/spec.h>

#include "cli.h"
#include "io.h"
#include "opt.h"

/*
 * A file an option names.  @item is as typed (one item of a list), for the
 * message; @path is the file, links and dots resolved.
 */
struct named {
	const struct opt *o;
	const char *item;
	int len;
	bool exists;
	struct stat st;
	char path[PATH_MAX];
};

/* @item (@len bytes) is one of @o's words ("stairs"), not a file. */
static bool is_word(const struct opt *o, const char *item, size_t len)
{
	const char *w = o->words;
	size_t n;

	while (w && *w) {
		n = strcspn(w, " ");
		if (n == len && *w != '@' && !strncmp(w, item, len))
			return true;
		w += n + (w[n] == ' ');
	}
	return false;
}

/*
 * The file that @item (@len bytes: a value, or an item of a list) of @o
 * names, into @buf; false when it names none.
 */
static bool item_file(const struct opt *o, const char *item, size_t len,
		      char *buf)
{
	const char *path;

	if ((len == 1 && *item == '-') || is_word(o, item, len))
		return false;
	if (is_word(o, "file:", 5)) {	/* --dist: only file:PATH is one */
		if (len < 5 || strncmp(item, "file:", 5))
			return false;
		item += 5;
		len -= 5;
	}
	if (len >= PATH_MAX)	/* no file has that name: open() says so */
		return false;
	memcpy(buf, item, len);
	buf[len] = '\0';
	if (!(o->flags & OPT_CANDS))
		return true;
	/* NAME=./mine.c reads ./mine.c; a profile is no file */
	path = hs_spec_cand_path(buf, o->flags & OPT_INPUT);
	if (!path)
		return false;
	memmove(buf, path, strlen(path) + 1);
	return true;
}

/*
 * @n->path: @file with links and dots resolved; for a file not there yet,
 * its directory resolved and its name, where outfile.c will create it.
 */
static void resolve(struct named *n, const char *file)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	char dir[PATH_MAX], real[PATH_MAX];

	if (realpath(file, n->path))
		return;
	/* the directory with its slash: "d/", "/"; or "." */
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(base - file) : 1,
		 slash ? file : ".");
	if (*base && realpath(dir, real) &&
	    (size_t)snprintf(n->path, sizeof(n->path), "%s/%s",
			     strcmp(real, "/") ? real : "", base) <
	    sizeof(n->path))
		return;
	snprintf(n->path, sizeof(n->path), "%s", file);
}

/*
 * Item @k of @e's value (each item of a list, else the value whole): 1 and
 * @n filled when it names a file, 0 when it does not, -1 past the last.
 */
static int nth(const struct cli_io *e, unsigned int k, struct named *n)
{
	const char *p = e->value;
	size_t len;
	char file[PATH_MAX];

	for (;; k--) {
		len = e->o->type == OPT_LIST ? strcspn(p, ",") : strlen(p);
		if (!k)
			break;
		if (!p[len])
			return -1;
		p += len + 1;
	}
	if (!item_file(e->o, p, len, file))
		return 0;
	n->o = e->o;
	n->item = p;
	n->len = (int)len;
	n->exists = !stat(file, &n->st);
	resolve(n, file);
	return 1;
}

static bool check_only;	/* HOTSCORE_CHECK_ARGS=1: no file is opened */

/*
 * For a name that is no file, the words @o takes besides files (sim's
 * built-in workloads): the nearest, or all of them; "" when it has none.
 */
static const char *words_hint(const struct opt *o, const char *typed,
			      char *buf, size_t size)
{
	char words[128], *w, *save = NULL;
	const char *best;
	struct cli_near n;
	size_t at = 0;

	snprintf(words, sizeof(words), "%s", o->words ? o->words : "");
	cli_near_init(&n, typed, strlen(typed));
	buf[0] = '\0';
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (*w == '@' || strchr(w, ':'))
			continue;	/* "@file", "file:": files */
		cli_near_add(&n, w);
		at += (size_t)snprintf(buf + at, at < size ? size - at : 0,
				       "%s%s", at ? ", " : " (built-in: ", w);
	}
	best = cli_near_best(&n);
	if (best)
		snprintf(buf, size, "; did you mean '%s'?", best);
	else if (at && at + 1 < size)
		strcat(buf, ")");
	return buf;
}

/*
 * Item @p (@len bytes) of input @e: refuse "-" where standard input
 * cannot stand, and a file that cannot be read as one.
 */
static void input_item(const struct cli_io *e, const char *p, size_t len)
{
	const char *label = e->bare ? "" : e->o->name;
	const char *sep = e->bare ? "" : ": ";
	const char *dash = e->bare ? "" : "--";
	const char *path = p;
	size_t plen = len;
	char file[PATH_MAX], hint[160];
	struct stat st;

	if (is_word(e->o, "file:", 5)) {	/* --dist: only file:PATH is one */
		if (len < 5 || strncmp(p, "file:", 5))
			return;
		path += 5;
		plen -= 5;
	}
	if (plen == 1 && *path == '-' && !(e->o->flags & OPT_STDIN))
		cli_die("%s%s%s'-': standard input cannot be read here; save it to a file and name that",
			dash, label, sep);
	if (!item_file(e->o, p, len, file) || check_only)
		return;
	if (stat(file, &st) || access(file, R_OK))
		cli_die("%s%s%s%s: %s%s", dash, label, sep, file,
			strerror(errno), errno == ENOENT && path == p ?
			words_hint(e->o, file, hint, sizeof(hint)) : "");
	if (S_ISDIR(st.st_mode))
		cli_die("%s%s%s%s: %s", dash, label, sep, file,
			strerror(EISDIR));
}

/**
 * cli_io_inputs() - refuse, with one line and exit 2, an input that cannot
 * be read: "--input: x.csv: No such file or directory", "--input: /tmp:
 * Is a directory", "-" for an option that does not read standard input;
 * an operand is named by its file alone.
 * @io:		every option given, with its last value.
 * @n:		how many @io holds.
 */
void cli_io_inputs(const struct cli_io *io, size_t n)
{
	const char *p, *check = getenv("HOTSCORE_CHECK_ARGS");
	size_t i, len;

	/* HOTSCORE_CHECK_ARGS=1 checks the words typed, not the files */
	check_only = check && !strcmp(check, "1");

	for (i = 0; i < n; i++) {
		if (!io[i].value || !(io[i].o->flags & (OPT_INPUT | OPT_CANDS)))
			continue;
		for (p = io[i].value;; p += len + 1) {
			len = io[i].o->type == OPT_LIST ? strcspn(p, ",") :
				strlen(p);
			if ((io[i].o->flags & OPT_INPUT) || len != 1 || *p != '-')
				input_item(&io[i], p, len);
			if (!p[len])
				break;
		}
	}
}

static bool same(const struct named *a, const struct named *b)
{
	if (a->exists && b->exists && a->st.st_dev == b->st.st_dev &&
	    a->st.st_ino == b->st.st_ino)
		return true;
	return !strcmp(a->path, b->path);
}

/* @out against every file of @e: exit 2 on the first that is @out. */
static void against(const struct named *out, const struct cli_io *e,
		    bool input)
{
	struct named n;
	unsigned int k;
	int r;

	for (k = 0; (r = nth(e, k, &n)) >= 0; k++)
		if (r && same(out, &n))
			cli_die("--%s %.*s: is also %s (--%s %.*s); choose another file",
				out->o->name, out->len, out->item,
				input ? "an input" : "an output", n.o->name,
				n.len, n.item);
}

/**
 * cli_io_check() - refuse a command line whose output is one of its inputs
 * or another of its outputs, with one line and exit 2.
 * @io:		every option given, in the order first given, with its
 *		last value.
 * @n:		how many @io holds.
 *
 * Each output (OPT_WRITE) is checked against every input (OPT_INPUT,
 * OPT_CANDS) and every output before it; see the top of this file for what
 * names a file and when two names are one file.
 */
void cli_io_check(const struct cli_io *io, size_t n)
{
	struct named out;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!(io[i].o->flags & OPT_WRITE) || !io[i].value ||
		    nth(&io[i], 0, &out) <= 0)
			continue;
		if (out.exists && !S_ISREG(out.st.st_mode))
			continue;	/* written in place: nothing replaced */
		for (j = 0; j < n; j++) {
			if (!io[j].value || j == i)
				continue;
			if (io[j].o->flags & (OPT_INPUT | OPT_CANDS))
				against(&out, &io[j], true);
			else if (j < i && (io[j].o->flags & OPT_WRITE))
				against(&out, &io[j], false);
		}
	}
}
