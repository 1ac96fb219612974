// SPDX-License-Identifier: GPL-2.0
/*
 * spec.c - what scores (include/hotscore/spec.h): a --profile item parsed
 * once, its base, its candidate loaded once, and its score on an input.
 *
 * The candidates a process loads are kept here, each once per (file, base
 * divisor, placement): bench times a candidate at several placements, and
 * a file named twice is compiled once.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <hotscore/bench.h>
#include <hotscore/bench_damon.h>
#include <hotscore/spec.h>

/* sixteen files, each also at HS_NR_PLACEMENTS placements for bench */
#define MAX_CANDS (16 * (1 + HS_NR_PLACEMENTS))

static struct {
	char given[HS_SPEC_GIVEN];
	enum hs_divisor base;
	int placement;
	struct hs_cand cand;
} cands[MAX_CANDS];
static unsigned int nr_cands;

/*
 * A candidate file: a path that holds a '/' or ends in ".c" (whether it
 * exists or not: the error then names the file), or one that holds a '.'
 * and exists, not as a directory ("mine.txt").  A bare word is never a
 * file: a profile's or a combination's names hold no '/', and a file
 * named "hotfix" beside the user must not shadow the profile.
 */
static bool is_file(const char *path)
{
	size_t len = strlen(path);
	struct stat st;

	if (strchr(path, '/') || (len > 2 && !strcmp(path + len - 2, ".c")))
		return true;
	return strchr(path, '.') && !stat(path, &st) && !S_ISDIR(st.st_mode);
}

/* PATH of "LABEL=PATH" (a label holds no '/'), else @s itself. */
static const char *label_path(const char *s)
{
	const char *eq = strchr(s, '=');

	if (eq && eq > s && !memchr(s, '/', (size_t)(eq - s)))
		return eq + 1;
	return s;
}

/**
 * hs_spec_cand_path() - the file a --profile item names: PATH of
 * "LABEL=PATH" (a label holds no '/') or the item itself; NULL when it
 * names a profile or a combination, unless @file says it is a file.
 * @s:		the item.
 * @file:	the option takes only files (verify --candidate).
 *
 * A built-in profile's name wins over a file of that name; a name with a
 * '/' or ending in ".c" is a file, and so is one with a '.' that exists
 * (is_file()).
 *
 * Return: a pointer into @s, or NULL.
 */
const char *hs_spec_cand_path(const char *s, bool file)
{
	if (!file && (hs_profile_find(s) ||
		      (!is_file(s) && !is_file(label_path(s)))))
		return NULL;
	return label_path(s);
}

/**
 * hs_spec_parse_file() - a candidate file, named where only a file can
 * stand (verify --candidate): "./mine.c", "LABEL=./mine", not loaded yet.
 * @s:		the item.
 * @out:	the spec.
 *
 * Return: 0, or HS_SPEC_TOO_LONG.
 */
int hs_spec_parse_file(const char *s, struct hs_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (strlen(s) >= sizeof(out->given))
		return HS_SPEC_TOO_LONG;
	out->kind = HS_SPEC_CAND;
	snprintf(out->given, sizeof(out->given), "%s", s);
	snprintf(out->name, sizeof(out->name), "%s", s);
	return 0;
}

/**
 * hs_spec_parse() - a --profile item: a built-in profile, a combination
 * FREQ+DIVISOR+AGE+CLAMP, or a candidate file (not loaded yet: its base is
 * known only once every item is, hs_spec_base()).
 * @s:		the item.
 * @out:	the spec.
 *
 * Return: 0, or an enum hs_spec_err.
 */
int hs_spec_parse(const char *s, struct hs_spec *out)
{
	const struct hs_profile *p = hs_profile_find(s);
	int err;

	memset(out, 0, sizeof(*out));
	if (strlen(s) >= sizeof(out->given))
		return HS_SPEC_TOO_LONG;
	if (hs_spec_cand_path(s, false))
		return hs_spec_parse_file(s, out);
	snprintf(out->given, sizeof(out->given), "%s", s);
	err = hs_components_parse(s, &out->comp);
	if (err == -2)
		return HS_SPEC_NO_BSR;
	if (err)
		return HS_SPEC_UNKNOWN;
	out->kind = p ? HS_SPEC_PROFILE : HS_SPEC_COMBINATION;
	if (p)
		snprintf(out->name, sizeof(out->name), "%s", p->name);
	else
		hs_components_format(&out->comp, out->name, sizeof(out->name));
	return 0;
}

/**
 * hs_spec_is_model() - whether @sp is computed by the model (a profile or a
 * combination), not by a candidate.
 * @sp:		the spec.
 */
bool hs_spec_is_model(const struct hs_spec *sp)
{
	return sp->kind != HS_SPEC_CAND;
}

/**
 * hs_spec_base() - the base of the candidates among @specs: @given, else
 * the first model of @specs, else the hotfix (hs_base_pick()).
 * @specs:	the items, in the order given.
 * @nr:		how many.
 * @given:	--base or --against, or NULL.
 * @base:	receives the base, as a model spec.
 */
void hs_spec_base(const struct hs_spec *specs, unsigned int nr,
		  const struct hs_profile *given, struct hs_spec *base)
{
	const struct hs_spec *first = NULL;
	unsigned int k;

	for (k = 0; !first && k < nr; k++)
		if (hs_spec_is_model(&specs[k]))
			first = &specs[k];
	memset(base, 0, sizeof(*base));
	hs_base_pick(given, first ? &first->comp : NULL,
		     first ? first->given : NULL, &base->comp, base->name,
		     sizeof(base->name));
	base->kind = hs_profile_find(base->name) ? HS_SPEC_PROFILE :
		HS_SPEC_COMBINATION;
	snprintf(base->given, sizeof(base->given), "%s", base->name);
}

/**
 * hs_spec_load_placed() - the candidate @sp names, compiled for @base
 * with its functions entering at byte @placement of a 64-byte line (-1:
 * as compiled), loaded once for the process.
 * @sp:		a candidate spec.
 * @base:	the divisor helper its environment defines.
 * @placement:	-1 or HS_PLACEMENT_OFFSET(k).
 * @log:	receives the compiler's messages (free()), or NULL.
 * @err:	receives why it failed.
 * @errlen:	size of @err.
 *
 * Return: the candidate, or NULL with @err set.
 */
const struct hs_cand *hs_spec_load_placed(const struct hs_spec *sp,
					  enum hs_divisor base, int placement,
					  char **log, char *err, size_t errlen)
{
	const char *path = hs_spec_cand_path(sp->given, true);
	unsigned int i;

	*log = NULL;
	for (i = 0; i < nr_cands; i++)
		if (!strcmp(cands[i].given, sp->given) &&
		    cands[i].base == base && cands[i].placement == placement)
			return &cands[i].cand;
	if (nr_cands == MAX_CANDS) {
		snprintf(err, errlen, "more than %d candidates", MAX_CANDS);
		return NULL;
	}
	i = nr_cands;
	if (hs_cand_load(path, base, placement, &cands[i].cand, log, err,
			 errlen))
		return NULL;
	snprintf(cands[i].given, sizeof(cands[i].given), "%s", sp->given);
	cands[i].base = base;
	cands[i].placement = placement;
	cands[i].cand.path = hs_spec_cand_path(cands[i].given, true);
	nr_cands++;
	return &cands[i].cand;
}

/**
 * hs_spec_load() - load a candidate spec for its base, as compiled, and
 * name it by its label ("LABEL=PATH") or path; nothing for a model.
 * @sp:		the spec.
 * @base:	its base's components (hs_spec_base()).
 * @log:	receives the compiler's messages (free()), or NULL.
 * @err:	receives why it failed.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_spec_load(struct hs_spec *sp, const struct hs_components *base,
		 char **log, char *err, size_t errlen)
{
	const char *path = hs_spec_cand_path(sp->given, true);

	*log = NULL;
	if (hs_spec_is_model(sp))
		return 0;
	sp->cand = hs_spec_load_placed(sp, base->divisor, -1, log, err,
				       errlen);
	if (!sp->cand)
		return -1;
	sp->comp = *base;
	if (path == sp->given)
		snprintf(sp->name, sizeof(sp->name), "%s", sp->given);
	else
		snprintf(sp->name, sizeof(sp->name), "%.*s",
			 (int)(path - sp->given - 1), sp->given);
	return 0;
}

/**
 * hs_spec_score() - damon_hot_score() and damon_cold_score() of @in, by
 * the model, or by the loaded candidate with its trap and hang caught.
 * @sp:		the spec (a candidate loaded).
 * @in:		the input.
 *
 * Return: the result.
 */
struct hs_spec_result hs_spec_score(const struct hs_spec *sp,
				    const struct hs_input *in)
{
	struct hs_spec_result r = { 0 };
	struct hs_cand_result cr;

	if (sp->cand) {
		cr = hs_cand_score(sp->cand, in);
		r.hot = cr.hot;
		r.cold = cr.cold;
		r.trap = cr.trap;
		r.undef = cr.trap != 0;
		return r;
	}
	r.model = hs_score(&sp->comp, in, NULL);
	r.hot = r.model.hot;
	r.cold = r.model.cold;
	r.undef = r.model.status == HS_DIV0;
	return r;
}

/**
 * hs_spec_status() - a result in the model's words: "ok", "div0-...",
 * "out-of-range", or a candidate's "trap(SIGFPE)" or "hang".
 * @sp:		the spec that gave @r.
 * @r:		the result.
 * @buf:	room for a trap's name.
 * @size:	its size.
 *
 * Return: @buf or a constant string.
 */
const char *hs_spec_status(const struct hs_spec *sp,
			   const struct hs_spec_result *r, char *buf,
			   size_t size)
{
	if (!sp->cand)
		return hs_status_name(&r->model);
	if (r->trap == HS_CAND_HANG)
		return "hang";
	if (r->trap) {
		snprintf(buf, size, "trap(%s)", hs_cand_trap_name(r->trap));
		return buf;
	}
	return r->hot < 0 || r->hot > 99 ? "out-of-range" : "ok";
}

/**
 * hs_spec_variant() - the bench's compiled variant that computes a model
 * spec (a profile's own, or one with the same components), or NULL: a
 * candidate, or a combination nothing compiles.
 * @sp:		the spec.
 *
 * Return: the variant, or NULL.
 */
const struct hs_variant *hs_spec_variant(const struct hs_spec *sp)
{
	const struct hs_variant *v = hs_variant_find(sp->given);
	unsigned int i;

	if (v || !hs_spec_is_model(sp))
		return v;
	for (i = 0; i < hs_nr_variants; i++)
		if (hs_variants[i].call == HS_CALL_INPUT &&
		    !memcmp(&hs_variants[i].comp, &sp->comp, sizeof(sp->comp)))
			return &hs_variants[i];
	return NULL;
}

/**
 * hs_spec_describe() - how @sp computes, as `hotscore score` shows it: its
 * components, or "candidate, base DIVISOR" (its environment's helper).
 * @sp:		the spec.
 * @buf:	destination.
 * @size:	its size.
 */
void hs_spec_describe(const struct hs_spec *sp, char *buf, size_t size)
{
	if (hs_spec_is_model(sp))
		hs_components_format(&sp->comp, buf, (unsigned int)size);
	else
		snprintf(buf, size, "candidate, base %s",
			 hs_divisor_name(sp->comp.divisor));
}
