// SPDX-License-Identifier: GPL-2.0
/*
 * csource.c - what hotscore reads in a candidate file, on fuzzed text:
 * the lexer (src/cand/lex.c), the step recorder's rewrite
 * (hs_cand_instrument(), src/cand/steps.c) and, the input taken for a
 * compiler's output, the one-line diagnosis of a failed compile
 * (hs_cand_explain(), hs_cand_scrub(), src/cand/diag.c).  The compiler
 * itself is never run.
 *
 * The lexer's promises: tokens in order, within the text, not
 * overlapping, each on the line its offset is on.  The rewrite's: it only
 * adds (the text is a subsequence of the copy after its #line directive)
 * and adds no line, so the compiler's line numbers are the user's.  The
 * diagnosis is one non-empty line and empties the log only when it says
 * why; a scrubbed log no longer holds the temporary path.
 */
#include <stdlib.h>
#include <string.h>

#include "cand/cand_internal.h"
#include "fuzz.h"

#define PATH	"/nonexistent/x.c"

static void check_tokens(const char *s, size_t len)
{
	struct hs_ctok *t;
	size_t nr, i, at = 0;
	unsigned int line = 1;

	if (hs_clex(s, len, &t, &nr))
		return;
	for (i = 0; i < nr; i++) {
		fuzz_assert(t[i].off >= at && t[i].len > 0);
		fuzz_assert(t[i].off + t[i].len <= len);
		for (; at < t[i].off; at++)
			line += s[at] == '\n';
		fuzz_assert(t[i].line == line);
		for (; at < t[i].off + t[i].len; at++)
			line += s[at] == '\n';
	}
	free(t);
}

static size_t lines(const char *s, size_t len)
{
	size_t n = 0;

	while (len--)
		n += *s++ == '\n';
	return n;
}

static void check_rewrite(const char *s, size_t len)
{
	static const char mark[] = "#line 1 \"" PATH "\"\n";
	size_t n, i, j;
	char *copy = hs_cand_instrument(s, len, PATH, &n);
	const char *body;

	if (!copy)
		return;
	fuzz_assert(strlen(copy) <= n);
	body = strstr(copy, mark);
	fuzz_assert(body);
	body += strlen(mark);
	n -= (size_t)(body - copy);
	fuzz_assert(lines(body, n) == lines(s, len));
	for (i = j = 0; i < len && j < n; j++)	/* a subsequence */
		if (body[j] == s[i])
			i++;
	fuzz_assert(i == len);
	free(copy);
}

static void check_explain(const char *s, size_t len)
{
	char *log = malloc(len + 1), err[256];

	if (!log)
		abort();
	memcpy(log, s, len);
	log[len] = '\0';
	err[0] = '\0';
	hs_cand_explain(PATH, log, err, sizeof(err), "cc", 1);
	fuzz_assert(*err && strlen(err) < sizeof(err) && !strchr(err, '\n'));
	if (len && !*log)	/* emptied: the line says why */
		fuzz_assert(strncmp(err, "does not compile", 16));
	memcpy(log, s, len);
	log[len] = '\0';
	hs_cand_scrub(log, "/tmp/x.h", "env.h");
	fuzz_assert(!strstr(log, "/tmp/x.h"));
	free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);

	fuzz_begin(size);
	check_tokens((const char *)data, size);
	check_rewrite((const char *)data, size);
	check_explain(s, strlen(s));
	free(s);
	fuzz_end();
	return 0;
}
