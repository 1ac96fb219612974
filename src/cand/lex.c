// SPDX-License-Identifier: GPL-2.0
/*
 * lex.c - the tokens of a candidate file, for what hotscore says about it
 * (diag.c: the line a libc call is on) and for its step recorder (steps.c).
 *
 * Enough C for a function copied out of ops-common.c: comments, string
 * and character literals and preprocessor lines are each one token (or
 * none), so that nothing inside them is taken for code; numbers are
 * pp-numbers; punctuators are kept whole, longest first.  It never reads
 * past @len, and any byte sequence lexes: what it does not know is a
 * one-byte punctuator.
 */
#include <stdlib.h>
#include <string.h>

#include "cand_internal.h"

/* Longest first: "<<=" before "<<" before "<". */
static const char *const puncts[] = {
	"...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
};

static bool is_ident_start(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c >= 0x80;
}

static bool is_ident(unsigned char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

struct lexer {
	const char *s;
	size_t len, at;
	unsigned int line;
};

/* Step over one byte, counting lines. */
static void advance(struct lexer *lx)
{
	if (lx->s[lx->at] == '\n')
		lx->line++;
	lx->at++;
}

/* A comment, or nothing; true if one was skipped. */
static bool skip_comment(struct lexer *lx)
{
	if (lx->at + 1 >= lx->len || lx->s[lx->at] != '/')
		return false;
	if (lx->s[lx->at + 1] == '/') {
		while (lx->at < lx->len && lx->s[lx->at] != '\n')
			advance(lx);
		return true;
	}
	if (lx->s[lx->at + 1] != '*')
		return false;
	advance(lx);
	advance(lx);
	while (lx->at < lx->len &&
	       !(lx->s[lx->at] == '*' && lx->at + 1 < lx->len &&
		 lx->s[lx->at + 1] == '/'))
		advance(lx);
	if (lx->at < lx->len) {
		advance(lx);
		advance(lx);
	}
	return true;
}

/* Up to the closing @q, escapes stepped over; an unclosed one ends there. */
static void skip_quoted(struct lexer *lx, char q)
{
	advance(lx);
	while (lx->at < lx->len && lx->s[lx->at] != q &&
	       lx->s[lx->at] != '\n') {
		if (lx->s[lx->at] == '\\' && lx->at + 1 < lx->len)
			advance(lx);
		advance(lx);
	}
	if (lx->at < lx->len && lx->s[lx->at] == q)
		advance(lx);
}

/* A preprocessor line, its backslash continuations included. */
static void skip_pp(struct lexer *lx)
{
	while (lx->at < lx->len && lx->s[lx->at] != '\n') {
		if (lx->s[lx->at] == '\\' && lx->at + 1 < lx->len &&
		    lx->s[lx->at + 1] == '\n')
			advance(lx);
		else if (skip_comment(lx))
			continue;
		advance(lx);
	}
}

/* A pp-number: digits, letters, '.', and a sign after e, E, p or P. */
static void skip_number(struct lexer *lx)
{
	char prev = 0;

	while (lx->at < lx->len) {
		char c = lx->s[lx->at];

		if (!is_ident((unsigned char)c) && c != '.' &&
		    !((c == '+' || c == '-') && (prev == 'e' || prev == 'E' ||
						  prev == 'p' || prev == 'P')))
			break;
		prev = c;
		advance(lx);
	}
}

static size_t punct_len(const struct lexer *lx)
{
	size_t i, n;

	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		n = strlen(puncts[i]);
		if (lx->at + n <= lx->len &&
		    !memcmp(lx->s + lx->at, puncts[i], n))
			return n;
	}
	return 1;
}

/* Whether only blanks stand between the line's start and @at. */
static bool line_start(const struct lexer *lx)
{
	size_t i = lx->at;

	while (i > 0 && (lx->s[i - 1] == ' ' || lx->s[i - 1] == '\t'))
		i--;
	return i == 0 || lx->s[i - 1] == '\n';
}

/* The next token into @t; false at the end. */
static bool next(struct lexer *lx, struct hs_ctok *t)
{
	unsigned char c;

	for (;;) {
		while (lx->at < lx->len && lx->s[lx->at] &&
		       strchr(" \t\r\n\v\f", lx->s[lx->at]))
			advance(lx);
		if (lx->at >= lx->len)
			return false;
		if (!skip_comment(lx))
			break;
	}
	t->off = lx->at;
	t->line = lx->line;
	c = (unsigned char)lx->s[lx->at];
	if (c == '#' && line_start(lx)) {
		t->kind = HS_CT_PP;
		skip_pp(lx);
	} else if (c == '"' || c == '\'') {
		t->kind = c == '"' ? HS_CT_STRING : HS_CT_CHAR;
		skip_quoted(lx, (char)c);
	} else if ((c >= '0' && c <= '9') ||
		   (c == '.' && lx->at + 1 < lx->len &&
		    lx->s[lx->at + 1] >= '0' && lx->s[lx->at + 1] <= '9')) {
		t->kind = HS_CT_NUMBER;
		skip_number(lx);
	} else if (is_ident_start(c)) {
		t->kind = HS_CT_IDENT;
		while (lx->at < lx->len &&
		       is_ident((unsigned char)lx->s[lx->at]))
			advance(lx);
	} else {
		size_t n = punct_len(lx);

		t->kind = HS_CT_PUNCT;
		while (n--)
			advance(lx);
	}
	t->len = lx->at - t->off;
	return true;
}

/**
 * hs_clex() - the tokens of C text.
 * @src:	the text (it need not end in a NUL).
 * @len:	its length.
 * @toks:	receives a malloc'ed array of the tokens (free()).
 * @nr:		receives how many.
 *
 * Return: 0, or -1 when memory ran out or there are more than
 * HS_CLEX_MAX tokens.
 */
int hs_clex(const char *src, size_t len, struct hs_ctok **toks, size_t *nr)
{
	struct lexer lx = { src, len, 0, 1 };
	size_t cap = 256;
	struct hs_ctok t;

	*nr = 0;
	*toks = malloc(cap * sizeof(**toks));
	if (!*toks)
		return -1;
	while (next(&lx, &t)) {
		if (*nr == HS_CLEX_MAX)
			goto fail;
		if (*nr == cap) {
			struct hs_ctok *more = realloc(*toks, 2 * cap *
						       sizeof(**toks));

			if (!more)
				goto fail;
			*toks = more;
			cap *= 2;
		}
		(*toks)[(*nr)++] = t;
	}
	return 0;
fail:
	free(*toks);
	*toks = NULL;
	*nr = 0;
	return -1;
}

/**
 * hs_ctok_is() - whether token @t of @src is the text @s.
 * @src:	the text lexed.
 * @t:		a token of it.
 * @s:		what to compare with.
 */
bool hs_ctok_is(const char *src, const struct hs_ctok *t, const char *s)
{
	return strlen(s) == t->len && !memcmp(src + t->off, s, t->len);
}
