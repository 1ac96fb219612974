// SPDX-License-Identifier: GPL-2.0
/*
 * shrink.c - make a counterexample small and round enough to read.
 *
 * First small.  Greedy, field by field: first the field's preferred value
 * (the score command's default, which then needs no flag), then 0, 1, the
 * value with its highest or lowest set bit cleared, and half of it; keep
 * the first candidate that still shows the property.  When none does,
 * bisect between 0 (which fails) and the value, for a threshold such as
 * the 42,949,673 accesses at which nr_accesses * 100 wraps.  Every
 * accepted step makes a field smaller, so it ends, at a local minimum.
 *
 * Then round: a bisected threshold (10138614 us) is exact but unreadable.
 * A field of three or more significant decimal digits tries, best first,
 * its preferred value, 0, the values of one significant digit (1, 2 .. 9,
 * 10, 20 .. up to ten times the value: above it, where the property holds
 * only past a threshold), then the value cut to two digits, down and up;
 * the first that keeps the property is taken.  A field of one or two
 * digits (31 accesses, a weight of 14) reads as it is, and one that no
 * round value keeps (2^32 us, where a 32-bit truncation is the point)
 * stays exact.  Each step leaves a field of at most two digits, never
 * touched again, so this ends: at --sample 10s rather than 10138614us,
 * 40000000 accesses rather than 30678338.
 */
#include <limits.h>
#include <stddef.h>

#include <hotscore/verify.h>

struct field {
	size_t offset;
	bool is_long;
};

/* a safety net: each phase ends by itself */
#define STEPS_MAX	100000

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

/* Significant decimal digits: 1024 has 4, 2000 has 1, 0 has 0. */
static unsigned int sig_digits(uint64_t v)
{
	unsigned int n = 0;

	while (v && !(v % 10))
		v /= 10;
	for (; v; v /= 10)
		n++;
	return n;
}

/* @v kept to its @digits leading decimal digits, rounded down or up. */
static uint64_t round_to(uint64_t v, unsigned int digits, bool up)
{
	uint64_t unit = 1, q;
	unsigned int n = 0;

	for (q = v; q; q /= 10)
		n++;
	while (n-- > digits)
		unit *= 10;
	q = v / unit * unit;
	if (up && q < v && q <= UINT64_MAX - unit)
		q += unit;
	return q;
}

/* The largest value field @f holds. */
static uint64_t max_of(const struct field *f)
{
	return f->is_long ? (uint64_t)ULONG_MAX : UINT32_MAX;
}

/*
 * The values of one significant digit, ascending, up to ten times @v; the
 * first that keeps @pred is taken.
 */
static bool try_one_digit(struct hs_input *in, const struct field *f,
			  uint64_t v, hs_shrink_pred pred, const void *ctx)
{
	uint64_t top = max_of(f), mag, c, d;

	for (mag = 1;; mag *= 10) {
		for (d = 1; d <= 9; d++) {
			if (mag > top / d)
				return false;
			c = d * mag;
			if (c / 10 >= v)
				return false;
			if (try(in, f, c, pred, ctx))
				return true;
		}
		if (mag > top / 10)
			return false;
	}
}

/*
 * Field @f at a round value that keeps @pred, if it has three or more
 * significant digits (see the top of this file); true if it changed.
 */
static bool round_field(struct hs_input *in, const struct field *f,
			const struct hs_input *prefer, hs_shrink_pred pred,
			const void *ctx)
{
	uint64_t v = get(in, f), c;

	if (sig_digits(v) <= 2 || (prefer && v == get(prefer, f)))
		return false;
	if (prefer && try(in, f, get(prefer, f), pred, ctx))
		return true;
	if (try(in, f, 0, pred, ctx) || try_one_digit(in, f, v, pred, ctx))
		return true;
	c = round_to(v, 2, false);
	if (try(in, f, c, pred, ctx))
		return true;
	c = round_to(v, 2, true);
	return c <= max_of(f) && try(in, f, c, pred, ctx);
}

/* The rounding phase: until no field rounds further. */
static unsigned int round_all(struct hs_input *in,
			      const struct hs_input *prefer,
			      hs_shrink_pred pred, const void *ctx)
{
	unsigned int steps = 0, i;
	bool changed = true;

	while (changed && steps < STEPS_MAX) {
		changed = false;
		for (i = 0; i < NR_FIELDS; i++)
			if (round_field(in, &fields[i], prefer, pred, ctx)) {
				changed = true;
				steps++;
			}
	}
	return steps;
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

	while (changed && steps < STEPS_MAX) {
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
	steps += round_all(in, prefer, pred, ctx);
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
