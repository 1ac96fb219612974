// SPDX-License-Identifier: GPL-2.0
/*
 * diag.c - why a candidate did not compile, in one line that names the
 * user's line, where the compiler's words would mislead or say nothing
 * that helps:
 *
 *   - no damon_hot_score(), or another signature than the kernel's;
 *   - an #include of a kernel header (the file was copied whole out of
 *     ops-common.c): hotscore's environment (object/env.h) stands in for
 *     the kernel's headers;
 *   - a call of a function that neither the file nor the environment
 *     defines (printf(): a candidate has no libc, as the kernel has none);
 *   - a definition of what the environment provides (damon_max_nr_accesses(),
 *     fls(), struct damon_region): the base kernel's, chosen by --base.
 *
 * Anything else keeps the compiler's words, for the user's file:line,
 * with the environment's temporary paths named as its sources are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cand_internal.h"

/* src/cand/object/env.h, carried in the binary (embed.c) */
extern const char hs_cand_env_h[];

static const char sig[] = "int damon_hot_score(struct damon_ctx *c, "
	"struct damon_region *r, struct damos *s)";

/*
 * The name quoted after @after in @line ('x', `x', or the locale's
 * curly quotes), without a "struct " in front; false if none.
 */
static bool quoted_name(const char *line, const char *after, char *name,
			size_t size, bool *is_struct)
{
	const char *p = strstr(line, after), *end;
	size_t n;

	if (!p)
		return false;
	p += strlen(after);
	if (*p == '\'' || *p == '`')
		p++;
	else if (!strncmp(p, "\xe2\x80\x98", 3))	/* U+2018 */
		p += 3;
	else
		return false;
	*is_struct = !strncmp(p, "struct ", 7);
	if (*is_struct)
		p += 7;
	for (end = p; *end && *end != '\'' && *end != '\n' &&
	     strncmp(end, "\xe2\x80\x99", 3); end++)
		;
	n = (size_t)(end - p);
	if (!n || n >= size)
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

/* The line number of "PATH:LINE:COL: ..." where PATH is the user's file. */
static unsigned int line_of(const char *line, const char *path)
{
	size_t n = strlen(path);

	if (strncmp(line, path, n) || line[n] != ':')
		return 0;
	return (unsigned int)strtoul(line + n + 1, NULL, 10);
}

/* Whether @name is an identifier env.h defines or declares. */
static bool env_has(const char *name)
{
	const char *p = hs_cand_env_h;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		bool left = p == hs_cand_env_h || !(p[-1] == '_' ||
			    (p[-1] >= 'a' && p[-1] <= 'z') ||
			    (p[-1] >= 'A' && p[-1] <= 'Z') ||
			    (p[-1] >= '0' && p[-1] <= '9'));
		char c = p[n];

		if (left && !(c == '_' || (c >= 'a' && c <= 'z') ||
			      (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return true;
		p += n;
	}
	return false;
}

static bool is_entry(const char *name)
{
	return !strcmp(name, "damon_hot_score") ||
	       !strcmp(name, "damon_cold_score") ||
	       !strcmp(name, "damon_pageout_score");
}

/* The first line of @src that calls @name (an identifier, then '('). */
static unsigned int call_line(const char *path, const char *name)
{
	FILE *f = fopen(path, "rb");
	char *src = malloc(1 << 20);
	struct hs_ctok *t = NULL;
	unsigned int line = 0;
	size_t len, nr, i;

	if (!f || !src) {
		if (f)
			fclose(f);
		free(src);
		return 0;
	}
	len = fread(src, 1, 1 << 20, f);
	fclose(f);
	if (!hs_clex(src, len, &t, &nr))
		for (i = 0; i + 1 < nr && !line; i++)
			if (t[i].kind == HS_CT_IDENT &&
			    hs_ctok_is(src, &t[i], name) &&
			    hs_ctok_is(src, &t[i + 1], "("))
				line = t[i].line;
	free(t);
	free(src);
	return line;
}

/* "line 5: " or "" */
static const char *at_line(unsigned int line, char *buf, size_t size)
{
	if (!line)
		return "";
	snprintf(buf, size, "line %u: ", line);
	return buf;
}

/*
 * The header of "fatal error: linux/x.h: No such file or directory" (gcc)
 * or "fatal error: 'linux/x.h' file not found" (clang).
 */
static bool header_name(const char *msg, char *name, size_t size)
{
	const char *p = msg + strlen("error: "), *end;
	bool is_struct;

	if (strstr(msg, "file not found"))
		return quoted_name(msg, "error: ", name, size, &is_struct);
	if (!strstr(msg, ": No such file or directory"))
		return false;
	end = strchr(p, ':');
	if (!end || end == p || (size_t)(end - p) >= size)
		return false;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	return true;
}

/* Functions of libc a function copied into the kernel might call. */
static bool is_libc(const char *name)
{
	static const char *const libc[] = {
		"printf", "fprintf", "sprintf", "snprintf", "puts", "putchar",
		"malloc", "calloc", "realloc", "free", "memcpy", "memset",
		"memmove", "memcmp", "strlen", "strcmp", "strncmp", "strcpy",
		"abs", "labs", "llabs", "div", "ldiv", "exit", "abort",
		"__assert_fail", "pow", "log", "log2", "log10", "exp", "sqrt",
		"floor", "ceil", "round", "lround", "fabs", "rand", "srand",
		"time", "clock_gettime", "qsort", "bsearch", "atoi", "strtol",
		"strtoul", "__stack_chk_fail",
	};
	size_t i;

	for (i = 0; i < sizeof(libc) / sizeof(libc[0]); i++)
		if (!strcmp(name, libc[i]))
			return true;
	return false;
}

/* A call of what neither the file nor the environment defines. */
static void missing_call(const char *name, unsigned int line, char *err,
			 size_t errlen)
{
	char where[32];

	if (is_libc(name))
		snprintf(err, errlen, "%scalls %s(), which is libc's: kernel code has no libc",
			 at_line(line, where, sizeof(where)), name);
	else
		snprintf(err, errlen, "%scalls %s(), which hotscore's kernel does not define (docs/your-change.md)",
			 at_line(line, where, sizeof(where)), name);
}

/*
 * One compiler error line of the user's file, explained in @err; false
 * when it is none hotscore knows better than the compiler.
 */
static bool explain_error(const char *path, const char *line, char *err,
			  size_t errlen)
{
	unsigned int n = line_of(line, path);
	const char *msg = strstr(line, "error: ");
	char name[128], where[32];
	bool is_struct = false;

	if (!msg)
		return false;
	if (header_name(msg, name, sizeof(name))) {
		snprintf(err, errlen, "%sdelete the #include of %s: hotscore provides what kernel headers would",
			 at_line(n, where, sizeof(where)), name);
		return true;
	}
	if (quoted_name(msg, "implicit declaration of function ", name,
			sizeof(name), &is_struct) ||
	    quoted_name(msg, "call to undeclared function ", name,
			sizeof(name), &is_struct)) {
		missing_call(name, n, err, errlen);
		return true;
	}
	if (!quoted_name(msg, "redefinition of ", name, sizeof(name),
			 &is_struct) &&
	    !quoted_name(msg, "conflicting types for ", name, sizeof(name),
			 &is_struct) &&
	    !quoted_name(msg, "static declaration of ", name, sizeof(name),
			 &is_struct))
		return false;
	if (!is_struct && is_entry(name)) {
		snprintf(err, errlen, "line %u: another signature than the kernel's %s",
			 n, sig);
		return true;
	}
	if (!env_has(name))
		return false;
	snprintf(err, errlen, "%s%s%s%s comes with the kernel%s: delete your definition",
		 at_line(n, where, sizeof(where)), is_struct ? "struct " : "",
		 name, is_struct ? "" : "()", is_struct ? "" : " (--base)");
	return true;
}

/*
 * A link error: no damon_hot_score(), or a call of what the kernel lacks
 * (printf()); the line is the first call in the file.
 */
static bool explain_link(const char *path, const char *log, char *err,
			 size_t errlen)
{
	const char *p = strstr(log, "undefined reference to ");
	char name[128];
	bool is_struct;

	if (!p || !quoted_name(p, "undefined reference to ", name,
			       sizeof(name), &is_struct))
		return false;
	if (!strcmp(name, "damon_hot_score")) {
		snprintf(err, errlen, "defines no damon_hot_score(): a candidate is the function as mm/damon/ops-common.c has it");
		return true;
	}
	missing_call(name, call_line(path, name), err, errlen);
	return true;
}

/**
 * hs_cand_explain() - why the compiler failed on @path, in one line.  A
 * case hotscore knows (see the top of this file) is said plainly, naming
 * the line, and the compiler's words are dropped; anything else keeps
 * them in @log, for the user's file:line.
 * @path:	the candidate file, as the compiler was given it.
 * @log:	the compiler's and the linker's output; emptied when the
 *		line says it all.
 * @err:	receives the line.
 * @errlen:	its size.
 * @cc:		the compiler, for the generic line.
 * @rc:		its exit status.
 */
void hs_cand_explain(const char *path, char *log, char *err, size_t errlen,
		     const char *cc, int rc)
{
	char one[1024];		/* a line alone: no match runs past it */
	const char *line;
	size_t n;

	for (line = log; *line; line += n + (line[n] == '\n')) {
		n = strcspn(line, "\n");
		snprintf(one, sizeof(one), "%.*s", (int)n, line);
		if (!line_of(one, path) || !strstr(one, "error: "))
			continue;
		if (explain_error(path, one, err, errlen)) {
			*log = '\0';
			return;
		}
		break;	/* the first error is the one that counts */
	}
	if (!strstr(log, "error: ") || strstr(log, "ld returned")) {
		if (explain_link(path, log, err, errlen)) {
			*log = '\0';
			return;
		}
	}
	snprintf(err, errlen, "does not compile (%s, exit %d)", cc, rc);
}

/**
 * hs_cand_scrub() - name a temporary file of the compile as hotscore's
 * sources are named, in the compiler's words: @tmp (the cache's
 * env-HASH.PID.h, gone once the compile ends) becomes @shown.
 * @log:	the compiler's output, rewritten in place.
 * @tmp:	the path to replace.
 * @shown:	what to print instead; no longer than @tmp.
 */
void hs_cand_scrub(char *log, const char *tmp, const char *shown)
{
	size_t n = strlen(tmp), m = strlen(shown);
	char *p;

	if (!n || m > n)
		return;
	while ((p = strstr(log, tmp))) {
		memcpy(p, shown, m);
		memmove(p + m, p + n, strlen(p + n) + 1);
	}
}
