// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - what verify checks on one input: two profiles against each
 * other, a profile against its invariants (the age_in_log sweep is in
 * sweep.c).
 */
#include <hotscore/verify.h>

#include "score/score_impl.h"
#include "verify_internal.h"

/**
 * hs_status_code() - 0 ok, 1 out-of-range, 2..4 div0 at each site.
 * @r: a result.
 *
 * Return: a code below HS_NR_STATUS_CODES.
 */
unsigned int hs_status_code(const struct hs_result *r)
{
	if (r->status == HS_OK)
		return 0;
	if (r->status == HS_OUT_OF_RANGE)
		return 1;
	return 1 + (unsigned int)r->div0;
}

const char *hs_status_code_name(unsigned int code)
{
	static const char *const names[HS_NR_STATUS_CODES] = {
		"ok", "out-of-range", "div0(sample_interval)",
		"div0(max_nr_accesses)", "div0(window_len)" };

	return code < HS_NR_STATUS_CODES ? names[code] : "?";
}

/**
 * hs_claimed_equal() - do @a and @b differ only in how age_in_log is
 * computed?  Those are the pairs the 2026 patches claim to be the same.
 * @a:	a profile's components.
 * @b:	another profile's components.
 *
 * Return: true if @a and @b have the same frequency, divisor and clamp.
 */
bool hs_claimed_equal(const struct hs_components *a,
		      const struct hs_components *b)
{
	return a->freq == b->freq && a->divisor == b->divisor &&
	       a->clamp == b->clamp;
}

/* Two results agree: same status, and the same score unless it is div0. */
static bool hs_same(const struct hs_result *x, const struct hs_result *y)
{
	unsigned int cx = hs_status_code(x);

	return cx == hs_status_code(y) && (cx >= 2 || x->hot == y->hot);
}

/**
 * hs_fast_same() - does the prepared scorer's result equal the model's?
 * @model:	hs_score().
 * @fast:	hs_fast_score() on the same input.
 *
 * Bit for bit: the status and the trapping division; hot and cold unless
 * the kernel would have trapped.
 *
 * Return: true if they agree.
 */
bool hs_fast_same(const struct hs_result *model, const struct hs_result *fast)
{
	if (model->status != fast->status || model->div0 != fast->div0)
		return false;
	return model->status == HS_DIV0 ||
	       (model->hot == fast->hot && model->cold == fast->cold);
}

/**
 * hs_batch_result() - the region of @in scored by batch scorer @impl under
 * @in's scheme, as hs_score() gives a result: 16 copies in one batch, so
 * that a vector scorer scores it in its vector loop, not its scalar tail.
 * What a batch's difference found on the grid is shrunk and shown with.
 * @p:		room for the prepared scheme (3.9 KB: the caller's).
 * @c:		the profile.
 * @impl:	the batch scorer; one hs_fast_impl_supported().
 * @in:		the input.
 *
 * Return: the first copy's result that differs from the others', else the
 * first's; its status is the batch's, unless the batch trapped.
 */
struct hs_result hs_batch_result(struct hs_prep *p,
				 const struct hs_components *c,
				 enum hs_fast_impl impl,
				 const struct hs_input *in)
{
	unsigned int nr[16], last[16], age[16], k, at = 0;
	struct hs_fast_regions r = { nr, last, age };
	struct hs_result res = { 0, 0, HS_DIV0, 0 };
	enum hs_status st;
	int hot[16];

	hs_prep_init(p, c, in);
	for (k = 0; k < 16; k++) {
		nr[k] = hs_fast_nr_of(c, in);
		last[k] = in->last_nr_accesses;
		age[k] = in->age;
	}
	st = hs_fast_batch_with(impl, p, &r, 16, hot);
	if (st == HS_DIV0) {
		res.div0 = p->div0;
		return res;
	}
	for (k = 1; k < 16 && !at; k++)
		at = hot[k] != hot[0] ? k : 0;
	res = hs_result_of(hot[at]);
	res.status = st;
	return res;
}

/**
 * hs_more_access() - @in with one more access, as profile @c counts it:
 * nr_accesses + 1, or for bp 10000 more nr_accesses_bp (one more accessed
 * sample: damon_moving_sum() adds 10000).
 * @c:	the profile.
 * @in:	the input; changed only where the count has room.
 *
 * Return: false where the count is at its top (no neighbour).
 */
bool hs_more_access(const struct hs_components *c, struct hs_input *in)
{
	if (c->freq == HS_FREQ_BP) {
		if (in->nr_accesses_bp > UINT32_MAX - 10000u)
			return false;
		in->nr_accesses_bp += 10000u;
		return true;
	}
	if (in->nr_accesses == UINT32_MAX)
		return false;
	in->nr_accesses++;
	return true;
}

/**
 * hs_eval() - a profile on an input and on the two neighbours the
 * monotonicity invariants compare it with: one more access (for bp, 10000
 * more nr_accesses_bp: one more accessed sample), and one more aggregation
 * interval of age.
 * @c:	the profile.
 * @in:	the input.
 * @e:	receives the three results.
 */
void hs_eval(const struct hs_components *c, const struct hs_input *in,
	     struct hs_eval *e)
{
	struct hs_input next = *in;
	struct hs_trace t;

	e->r = hs_score(c, in, &t);
	e->freq_subscore = t.freq_subscore;
	e->has_more = e->has_older = false;
	if (e->r.status == HS_DIV0)
		return;
	if (hs_more_access(c, &next)) {
		e->more = hs_score(c, &next, NULL);
		e->has_more = e->more.status != HS_DIV0;
		next = *in;
	}
	if (in->age != UINT32_MAX) {
		next.age++;
		e->older = hs_score(c, &next, NULL);
		e->has_older = e->older.status != HS_DIV0;
	}
}

/** hs_eval_same() - do two profiles' results on one input agree? */
bool hs_eval_same(const struct hs_eval *a, const struct hs_eval *b)
{
	return hs_same(&a->r, &b->r);
}

/**
 * hs_eval_violates() - does an evaluated input break an invariant?
 * @e:		from hs_eval().
 * @inv:	the invariant.
 * @checked:	receives whether the invariant applies at all: a div0 input,
 *		a neighbour that divides by zero, or the other sign of
 *		freq_subscore for the age invariants, is no test.
 *
 * Return: true on a violation.
 */
bool hs_eval_violates(const struct hs_eval *e, enum hs_invariant inv,
		      bool *checked)
{
	*checked = false;
	if (inv == HS_INV_RANGE) {
		*checked = true;
		return e->r.status != HS_OK;
	}
	if (e->r.status == HS_DIV0)
		return false;
	switch (inv) {
	case HS_INV_SUM:
		*checked = true;
		return (int64_t)e->r.hot + e->r.cold != HS_DAMOS_MAX_SCORE;
	case HS_INV_ACCESSES:
		*checked = e->has_more;
		return e->has_more && e->more.hot < e->r.hot;
	case HS_INV_OLDER_HOT:
		*checked = e->has_older && e->freq_subscore > 0;
		return *checked && e->older.hot < e->r.hot;
	default:
		*checked = e->has_older && e->freq_subscore == 0;
		return *checked && e->older.hot > e->r.hot;
	}
}

/** hs_pair_code() - the class of two results: code(a) * 5 + code(b). */
unsigned int hs_pair_code(const struct hs_result *a, const struct hs_result *b)
{
	return hs_status_code(a) * HS_NR_STATUS_CODES + hs_status_code(b);
}

/**
 * hs_pair_class() - do two profiles disagree on @in, and how.
 * @a:		one profile.
 * @b:		the other.
 * @in:		the input.
 * @cls:	receives code(a) * 5 + code(b) when they disagree.
 *
 * Return: true if they disagree.
 */
bool hs_pair_class(const struct hs_components *a,
		   const struct hs_components *b, const struct hs_input *in,
		   unsigned int *cls)
{
	struct hs_result ra = hs_score(a, in, NULL), rb = hs_score(b, in, NULL);

	if (hs_same(&ra, &rb))
		return false;
	*cls = hs_pair_code(&ra, &rb);
	return true;
}

/** hs_violates() - hs_eval_violates() of profile @c on @in. */
bool hs_violates(const struct hs_components *c, enum hs_invariant inv,
		 const struct hs_input *in, bool *checked)
{
	struct hs_eval e;

	hs_eval(c, in, &e);
	return hs_eval_violates(&e, inv, checked);
}

/**
 * hs_verify_ok() - the verdict: every age_in_log way agreed with the loop,
 * every pair of profiles claimed equal agreed on every input, and every
 * prepared scorer equalled its profile on every input it scored.
 * @cfg:	the profiles.
 * @res:	what the run found.
 *
 * Return: true if so; verify exits 1 otherwise.
 */
bool hs_verify_ok(const struct hs_verify_config *cfg,
		  const struct hs_verify_result *res)
{
	unsigned int a, b, k;

	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (res->agelog.mismatches[k])
			return false;
	for (a = 0; a < cfg->nr; a++)
		if (res->fast[a].mismatches || res->fast[a].batch_ex.found)
			return false;
	for (a = 0; a < cfg->nr; a++)
		for (b = a + 1; b < cfg->nr; b++)
			if (hs_claimed_equal(&cfg->comp[a], &cfg->comp[b]) &&
			    res->pair[a][b].agree != res->pair[a][b].inputs)
				return false;
	return true;
}

const char *hs_invariant_name(enum hs_invariant inv)
{
	static const char *const names[HS_NR_INVARIANTS] = {
		"hot in [0, 99]", "hot + cold = 99",
		"more accesses never colder",
		"freq > 0: older never colder",
		"freq = 0: older never hotter" };

	return inv < HS_NR_INVARIANTS ? names[inv] : "?";
}

const char *hs_domain_name(enum hs_domain d)
{
	static const char *const names[HS_NR_DOMAINS] = {
		"agelog", "grid", "random" };

	return d < HS_NR_DOMAINS ? names[d] : "?";
}
