/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand_internal.h - what the files of src/cand/ share and nothing outside
 * uses but the tests and the fuzz harness: a C lexer for the user's file,
 * the one-line diagnosis of a failed compile, and the step recorder's
 * source rewrite.  The public API is <hotscore/cand.h> and
 * <hotscore/cand_steps.h>.
 */
#ifndef HOTSCORE_CAND_INTERNAL_H
#define HOTSCORE_CAND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* What a token is; punctuators are kept whole ("<<=", "->"). */
enum hs_ctok_kind { HS_CT_IDENT, HS_CT_NUMBER, HS_CT_STRING, HS_CT_CHAR,
		    HS_CT_PUNCT, HS_CT_PP };

/**
 * struct hs_ctok - one token of a C file.
 * @kind:	what it is; HS_CT_PP is a whole preprocessor line.
 * @off:	where it starts in the text.
 * @len:	its length.
 * @line:	its line, from 1.
 */
struct hs_ctok {
	enum hs_ctok_kind kind;
	size_t off, len;
	unsigned int line;
};

/* The tokens of a file: at most HS_CLEX_MAX, or hs_clex() fails. */
#define HS_CLEX_MAX	(1u << 18)

int hs_clex(const char *src, size_t len, struct hs_ctok **toks, size_t *nr);
bool hs_ctok_is(const char *src, const struct hs_ctok *t, const char *s);

int hs_cand_cache_dir(char *buf, size_t size);
void hs_cand_explain(const char *path, char *log, char *err, size_t errlen,
		     const char *cc, int rc);
void hs_cand_scrub(char *log, const char *tmp, const char *shown);

char *hs_cand_instrument(const char *src, size_t len, const char *path,
			 size_t *out_len);

#endif /* HOTSCORE_CAND_INTERNAL_H */
