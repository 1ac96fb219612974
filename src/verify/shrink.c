// SPDX-License-Identifier: GPL-2.0
/*
 * shrink.c - make a counterexample small enough to read.
 *
 * Greedy, field by field: first the field's preferred value (the score
 * command's default, which then needs no flag), then 0, 1, the value with its highest or lowest
 * set bit cleared, and half of it; keep the first candidate that still
 * shows the property.  When none does, bisect between 0 (which fails) and
 * the value, for a threshold such as the 42,949,673 accesses at which
 * nr_accesses * 100 wraps.  Every accepted step makes a field smaller, so
 * it ends, at a local minimum: what a reader needs.
 */
#include <stddef.h>

#include <hotscore/verify.h>

struct field {
	size_t offset;
	bool is_long;
};

#define F(m, l) { offsetof(struct hs_input, m), l }
static const struct field fields[] = {
	F(sample_us, true), F(aggr_us, true), F(passed_sis, true),
	F(next_aggr_sis, true), F(nr_accesses, false),
	F(last_nr_accesses, false), F(age, false),
	F(weight_nr_accesses, false), F(weight_age, false),
};
#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

static uint64_t get(const struct hs_input *in, const struct field *f)
{
	const char *p = (const char *)in + f->offset;

	return f->is_long ? *(const unsigned long *)p :
			    *(const unsigned int *)p;
}

/*
 * Set field @f to @v.  nr_accesses_bp at nr_accesses' default follows it,
 * so that an input whose bp does not matter keeps the default, with no
 * try of its own.
 */
static void set(struct hs_input *in, const struct field *f, uint64_t v)
{
	char *p = (char *)in + f->offset;

	if (f->offset == offsetof(struct hs_input, nr_accesses) &&
	    in->nr_accesses_bp == hs_bp_of_nr(in->nr_accesses))
		in->nr_accesses_bp = hs_bp_of_nr((unsigned int)v);
	if (f->is_long)
		*(unsigned long *)p = v;
	else
		*(unsigned int *)p = (unsigned int)v;
}

static uint64_t top_bit(uint64_t v)
{
	return 1ULL << (63 - __builtin_clzll(v));
}

/* Try @v for field @f; keep it if @pred still holds. */
static bool try(struct hs_input *in, const struct field *f, uint64_t v,
		hs_shrink_pred pred, const void *ctx)
{
	uint64_t old = get(in, f);

	set(in, f, v);
	if (pred(in, ctx))
		return true;
	set(in, f, old);
	return false;
}

/*
 * nr_accesses_bp is not one of the fields shrunk: it takes its default,
 * nr_accesses * 10000 (hs_bp_of_nr()), where the property does not hang
 * on it, so that a reproducer names it only where it matters.  One try,
 * only where it is not at the default already.
 */
static void shrink_bp(struct hs_input *in, hs_shrink_pred pred,
		      const void *ctx)
{
	unsigned int bp = in->nr_accesses_bp;

	if (bp == hs_bp_of_nr(in->nr_accesses))
		return;
	in->nr_accesses_bp = hs_bp_of_nr(in->nr_accesses);
	if (!pred(in, ctx))
		in->nr_accesses_bp = bp;
}

/**
 * hs_shrink() - shrink @in while @pred holds.
 * @in:		a counterexample: @pred(@in) must be true.
 * @prefer:	values to try first, field by field (NULL: none); a field
 *		at its preferred value is left alone.
 * @pred:	the property to keep.
 * @ctx:	passed to @pred.
 *
 * Return: the number of steps taken.
 */
unsigned int hs_shrink(struct hs_input *in, const struct hs_input *prefer,
		       hs_shrink_pred pred, const void *ctx)
{
	unsigned int steps = 0, i, c;
	bool changed = true;

	while (changed && steps < 100000) {
		changed = false;
		for (i = 0; i < NR_FIELDS; i++) {
			uint64_t v = get(in, &fields[i]), cand[5], lo, hi, mid;

			if (prefer && v == get(prefer, &fields[i]))
				continue;
			if (prefer && try(in, &fields[i],
					  get(prefer, &fields[i]), pred, ctx)) {
				steps++;
				changed = true;
				continue;
			}
			if (!v)
				continue;
			cand[0] = 0;
			cand[1] = 1;
			cand[2] = v & ~top_bit(v);
			cand[3] = v & (v - 1);
			cand[4] = v >> 1;
			for (c = 0; c < 5; c++)
				if (cand[c] < v &&
				    try(in, &fields[i], cand[c], pred, ctx))
					break;
			if (c < 5) {
				steps++;
				changed = true;
				continue;
			}
			/* pred(lo) is false, pred(hi) true: bisect */
			for (lo = 0, hi = v; hi - lo > 1; steps++) {
				mid = lo + (hi - lo) / 2;
				set(in, &fields[i], mid);
				if (pred(in, ctx))
					hi = mid;
				else
					lo = mid;
			}
			set(in, &fields[i], hi);
			changed |= hi < v;
		}
	}
	shrink_bp(in, pred, ctx);
	return steps;
}

/**
 * hs_shrink_to_one() - a first step for a property that is costly to see
 * hold (a candidate's hang costs the limit each time): @prefer whole, then
 * @prefer with one field of @in, the first for which @pred holds.
 * @in:		a counterexample; replaced by that input, if any.
 * @prefer:	the values to try.
 * @pred:	the property to keep.
 * @ctx:	passed to @pred.
 *
 * Where the property hangs on one field, one try holds, and hs_shrink()
 * is left that field alone to shrink.
 *
 * Return: whether @in was replaced.
 */
bool hs_shrink_to_one(struct hs_input *in, const struct hs_input *prefer,
		      hs_shrink_pred pred, const void *ctx)
{
	struct hs_input t = *prefer;
	size_t i;

	if (pred(&t, ctx)) {
		*in = t;
		return true;
	}
	for (i = 0; i < NR_FIELDS; i++) {
		if (get(in, &fields[i]) == get(prefer, &fields[i]))
			continue;
		t = *prefer;
		set(&t, &fields[i], get(in, &fields[i]));
		if (pred(&t, ctx)) {
			*in = t;
			return true;
		}
	}
	return false;
}
