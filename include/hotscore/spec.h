/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spec.h - what scores: a built-in profile, a combination of components
 * (raw+max-nr+fls-bsr+none) or a candidate file (./mine.c, LABEL=./mine.c).
 *
 * Every subcommand, verify --captured and compare-records take their
 * --profile items through here: one parser, one base rule (which kernel a
 * candidate is compiled for and compared with), one way to score an input
 * through the model or through the candidate.  User space only (a
 * candidate is a dlopen()ed object); the module's base rule is
 * hs_base_pick() in src/score/profiles.c, which hs_spec_base() calls too.
 */
#ifndef HOTSCORE_SPEC_H
#define HOTSCORE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include <hotscore/cand.h>
#include <hotscore/score.h>

struct hs_variant;

/* What a spec names. */
enum hs_spec_kind {
	HS_SPEC_PROFILE,	/* a built-in profile: hotfix, v6.6, ... */
	HS_SPEC_COMBINATION,	/* FREQ+DIVISOR+AGE+CLAMP */
	HS_SPEC_CAND,		/* a candidate file */
};

/* Why hs_spec_parse() refused an item. */
enum hs_spec_err {
	HS_SPEC_UNKNOWN = -1,	/* neither a profile nor a file */
	HS_SPEC_NO_BSR = -2,	/* needs x86's bsr, not on this machine */
	HS_SPEC_TOO_LONG = -3,	/* longer than struct hs_spec keeps */
};

/* The longest --profile item kept, with its NUL: a deep checkout's path. */
#define HS_SPEC_GIVEN 256

/**
 * struct hs_spec - a --profile item, parsed.
 * @kind:	what it names.
 * @given:	as given (a candidate's "LABEL=./mine.c" is kept whole).
 * @name:	as printed: the profile's name, the formatted components, or
 *		(once loaded) the candidate's label.
 * @comp:	a model's components; a candidate's base's, once loaded.
 * @cand:	the candidate, once hs_spec_load() has loaded it.
 */
struct hs_spec {
	enum hs_spec_kind kind;
	char given[HS_SPEC_GIVEN];
	char name[HS_SPEC_GIVEN];
	struct hs_components comp;
	const struct hs_cand *cand;
};

/**
 * struct hs_spec_result - what a spec gives on one input.
 * @hot:	damon_hot_score(), unless @undef.
 * @cold:	damon_cold_score(), unless @undef.
 * @undef:	the kernel would trap: the model divides by 0, or the
 *		candidate raised a signal or ran past the call limit.
 * @trap:	a candidate's signal, HS_CAND_HANG, or 0.
 * @model:	a model's whole result (its status and division site).
 */
struct hs_spec_result {
	int hot, cold;
	bool undef;
	int trap;
	struct hs_result model;
};

int hs_spec_parse(const char *s, struct hs_spec *out);
int hs_spec_parse_file(const char *s, struct hs_spec *out);
const char *hs_spec_cand_path(const char *s, bool file);
bool hs_spec_is_model(const struct hs_spec *sp);
void hs_spec_base(const struct hs_spec *specs, unsigned int nr,
		  const struct hs_profile *given, struct hs_spec *base);
int hs_spec_load(struct hs_spec *sp, const struct hs_components *base,
		 char **log, char *err, size_t errlen);
const struct hs_cand *hs_spec_load_placed(const struct hs_spec *sp,
					  enum hs_divisor base, int placement,
					  char **log, char *err, size_t errlen);
struct hs_spec_result hs_spec_score(const struct hs_spec *sp,
				    const struct hs_input *in);
const char *hs_spec_status(const struct hs_spec *sp,
			   const struct hs_spec_result *r, char *buf,
			   size_t size);
void hs_spec_describe(const struct hs_spec *sp, char *buf, size_t size);
const struct hs_variant *hs_spec_variant(const struct hs_spec *sp);

#endif /* HOTSCORE_SPEC_H */
