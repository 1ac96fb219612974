// SPDX-License-Identifier: GPL-2.0
/*
 * near.c - "did you mean": the name nearest to a mistyped one, for every
 * message that refuses a name (a command, an option, a profile).
 *
 * The distance is the optimal string alignment one (Levenshtein's, with
 * two swapped neighbours as one edit, as git's "did you mean" counts),
 * with '-' and '_' alike, as the option layer takes them, and case folded.
 * A name is near when at most a third of the typed letters must change,
 * or, failing that, when the typed word begins exactly one name
 * ("--iter" for "--iterations").
 */
#include <stdbool.h>
#include <string.h>

#include "cli.h"

/* Longer words get no suggestion: no name is this long. */
#define NEAR_MAX 64

static char fold(char c)
{
	if (c == '_')
		return '-';
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

/* The optimal string alignment distance of @a and @b (each < NEAR_MAX). */
static unsigned int distance(const char *a, size_t la, const char *b,
			     size_t lb)
{
	unsigned int row[3][NEAR_MAX + 1];
	unsigned int *prev2 = row[0], *prev = row[1], *cur = row[2], *t;
	size_t i, j;

	for (j = 0; j <= lb; j++)
		prev[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		cur[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int cost = fold(a[i - 1]) != fold(b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    fold(a[i - 1]) == fold(b[j - 2]) &&
			    fold(a[i - 2]) == fold(b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

static bool begins(const char *typed, size_t len, const char *name)
{
	size_t i;

	if (strlen(name) <= len)
		return false;
	for (i = 0; i < len; i++)
		if (fold(typed[i]) != fold(name[i]))
			return false;
	return true;
}

/**
 * cli_near_init() - start looking for the name nearest to @typed.
 * @n:		the search.
 * @typed:	what was typed: compared as given, so a caller strips what
 *		is not part of the name ("--" of an option, "=value").
 * @len:	its length.
 */
void cli_near_init(struct cli_near *n, const char *typed, size_t len)
{
	memset(n, 0, sizeof(*n));
	n->typed = typed;
	n->len = len;
	n->dist = (unsigned int)-1;
}

/**
 * cli_near_add() - one name @n->typed may have meant; the first of the
 * nearest is kept.
 * @n:		the search.
 * @name:	a valid name (NULL is ignored).
 */
void cli_near_add(struct cli_near *n, const char *name)
{
	size_t lb = name ? strlen(name) : 0;
	unsigned int d;

	if (!name || !lb || n->len >= NEAR_MAX || lb >= NEAR_MAX)
		return;
	d = distance(n->typed, n->len, name, lb);
	if (d < n->dist) {
		n->dist = d;
		n->best = name;
	}
	if (n->len >= 3 && begins(n->typed, n->len, name)) {
		n->prefix = n->prefixes ? NULL : name;
		n->prefixes++;
	}
}

/**
 * cli_near_best() - the name to suggest, or NULL when none is near: within
 * a third of the typed length in edits, else the one name the typed word
 * begins.
 * @n:		the search, every name added.
 */
const char *cli_near_best(const struct cli_near *n)
{
	if (n->best && n->dist <= (n->len + 1) / 3)
		return n->best;
	return n->prefixes == 1 ? n->prefix : NULL;
}
