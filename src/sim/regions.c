// SPDX-License-Identifier: GPL-2.0
/*
 * regions.c - the adaptive regions of mm/damon/core.c: split, merge, the
 * min_nr_regions size limit and the target's address ranges.
 *
 * The kernel keeps regions in a list; here they are an array in address
 * order, and every pass that can change the count writes a new array, so a
 * pass stays O(regions).  The arithmetic is the kernel's, in unsigned long.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

#define ALIGN_DOWN(x, a)	((x) / (a) * (a))
#define ALIGN_UP(x, a)		(((x) + (a) - 1) / (a) * (a))

static unsigned long sz_region(const struct hs_region *r)
{
	return r->end - r->start;
}

static unsigned int abs_diff(unsigned int a, unsigned int b)
{
	return a > b ? a - b : b - a;
}

static int reserve(struct hs_region **arr, size_t *cap, size_t need)
{
	struct hs_region *p;
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * sizeof(*p));
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

/**
 * hs_sim_scratch() - the scratch array, grown to at least @need regions
 * with its contents kept.
 * @sim:	the simulation.
 * @need:	regions.
 *
 * Return: the array, or NULL when out of memory.
 */
struct hs_region *hs_sim_scratch(struct hs_sim *sim, size_t need)
{
	if (reserve(&sim->tmp, &sim->tmp_cap, need))
		return NULL;
	return sim->tmp;
}

/**
 * hs_sim_adopt() - make the first @nr scratch regions the regions.
 * @sim:	the simulation.
 * @nr:		how many.
 */
void hs_sim_adopt(struct hs_sim *sim, size_t nr)
{
	struct hs_region *old = sim->r;
	size_t cap = sim->cap;

	sim->r = sim->tmp;
	sim->cap = sim->tmp_cap;
	sim->nr = nr;
	sim->regions_changed = true;
	sim->tmp = old;
	sim->tmp_cap = cap;
}

/* The right part of @r after a cut at @sz_r: damon_split_region_at(). */
static struct hs_region split_off(struct hs_region *r, unsigned long sz_r)
{
	struct hs_region n = *r;

	n.start = r->start + sz_r;
	r->end = n.start;
	return n;
}

/**
 * hs_split_region_at() - damon_split_region_at(): cut region @i in two;
 * the new right part copies age, last_nr_accesses and nr_accesses.
 * @sim:	the simulation.
 * @i:		index of the region.
 * @sz_r:	size of the left part (0 < @sz_r < size).
 *
 * Return: 0, or -1 when out of memory (the region stays whole).
 */
int hs_split_region_at(struct hs_sim *sim, size_t i, unsigned long sz_r)
{
	struct hs_region n;

	if (reserve(&sim->r, &sim->cap, sim->nr + 1))
		return -1;
	n = split_off(&sim->r[i], sz_r);
	memmove(&sim->r[i + 2], &sim->r[i + 1],
		(sim->nr - i - 1) * sizeof(*sim->r));
	sim->r[i + 1] = n;
	sim->nr++;
	sim->regions_changed = true;
	return 0;
}

/**
 * hs_merge_two() - damon_merge_two_regions(): size-weighted averages of
 * nr_accesses and age; @l keeps its last_nr_accesses.
 * @l:		the left region; becomes the merged one.
 * @r:		the adjacent right region.
 * @bp:		nr_accesses_bp is kept: 6.12 sets it to
 *		'l->nr_accesses * 10000' (hs_bp_of_nr()).
 */
void hs_merge_two(struct hs_region *l, const struct hs_region *r, bool bp)
{
	unsigned long sz_l = sz_region(l), sz_r = sz_region(r);

	l->nr_accesses = (unsigned int)((l->nr_accesses * sz_l +
					 r->nr_accesses * sz_r) /
					(sz_l + sz_r));
	if (bp)
		l->nr_accesses_bp = hs_bp_of_nr(l->nr_accesses);
	l->age = (unsigned int)((l->age * sz_l + r->age * sz_r) /
				(sz_l + sz_r));
	l->end = r->end;
}

/* One damon_merge_regions_of() pass, in place; ages only if @count_age. */
static void merge_pass(struct hs_sim *sim, unsigned int thres,
		       unsigned long sz_limit, bool count_age)
{
	size_t i, out = 0;

	for (i = 0; i < sim->nr; i++) {
		struct hs_region r = sim->r[i];
		struct hs_region *prev = out ? &sim->r[out - 1] : NULL;

		if (count_age) {
			if (abs_diff(r.nr_accesses, r.last_nr_accesses) > thres)
				r.age = 0;
			else if ((r.nr_accesses == 0) !=
				 (r.last_nr_accesses == 0))
				r.age = 0;
			else
				r.age++;
		}
		if (prev && prev->end == r.start &&
		    abs_diff(prev->nr_accesses, r.nr_accesses) <= thres &&
		    sz_region(prev) + sz_region(&r) <= sz_limit)
			hs_merge_two(prev, &r, sim->track_bp);
		else
			sim->r[out++] = r;
	}
	sim->nr = out;
	sim->regions_changed = true;
}

/**
 * hs_merge_regions() - kdamond_merge_regions(): merge adjacent regions of
 * similar access counts; while more than max_nr_regions remain, repeat with
 * a doubled threshold, capped at the samples per aggregation (the newest
 * loop).  Regions age on the first pass only (the newest core's count_age).
 * @sim:	the simulation.
 * @threshold:	the nr_accesses difference that still merges.
 * @sz_limit:	no merged region may be larger.
 */
void hs_merge_regions(struct hs_sim *sim, unsigned int threshold,
		      unsigned long sz_limit)
{
	unsigned long max_thres = sim->cfg.attrs.aggr_us /
		sim->cfg.attrs.sample_us;
	bool first = true;

	for (;;) {
		merge_pass(sim, threshold, sz_limit, first);
		first = false;
		if (sim->nr <= sim->cfg.attrs.max_nr_regions ||
		    max_thres <= threshold)
			break;
		if (threshold < max_thres / 2)
			threshold = threshold * 2 > 1 ? threshold * 2 : 1;
		else
			threshold = (unsigned int)max_thres;
	}
}

/* damon_split_regions_of() for one region, into @out; returns pieces. */
static size_t split_one(struct hs_sim *sim, const struct hs_region *src,
			int nr_subs, bool some, struct hs_region *out)
{
	unsigned long min_sz = sim->cfg.attrs.min_region_sz;
	unsigned long sz = sz_region(src), cut[2], from = src->start;
	size_t nr_cut = 0, k, n = 0;
	int i;

	/*
	 * damon_split_regions_of() leaves regions of up to two pages whole;
	 * the above-half split (damon_split_some_regions()) only those below
	 */
	for (i = 0; i < nr_subs - 1 && (some ? sz >= 2 * min_sz :
					sz > 2 * min_sz); i++) {
		/* the left part gets 10% to 90% of what is left */
		unsigned long sz_sub = ALIGN_DOWN(hs_rand(sim, 1, 10) * sz / 10,
						  min_sz);

		if (sz_sub == 0 || sz_sub >= sz)
			continue;
		cut[nr_cut++] = sz_sub;
		sz = sz_sub;	/* the next cut splits the left part again */
	}
	/* the cuts nest leftwards: emit the pieces in address order */
	for (k = nr_cut; k-- > 0;) {
		out[n] = *src;
		out[n].start = from;
		out[n].end = src->start + cut[k];
		from = out[n++].end;
	}
	out[n] = *src;
	out[n++].start = from;
	return n;
}

/**
 * hs_split_regions() - kdamond_split_regions() of the newest core: no split
 * at max_nr_regions; above half of it, one region in every
 * max / (max - nr), from a rotating offset, into two; otherwise every
 * region into two, or three if the count did not change since last time
 * and is below a third of the maximum.
 * @sim:	the simulation.
 */
void hs_split_regions(struct hs_sim *sim)
{
	unsigned long max = sim->cfg.attrs.max_nr_regions, nr = sim->nr;
	unsigned long every = 1, left;
	bool some = nr > max / 2;	/* damon_split_some_regions() */
	int nr_subs = 2;
	struct hs_region *out;
	size_t i, n = 0;

	if (nr >= max) {
		sim->last_nr_regions = nr;
		return;
	}
	if (some) {
		every = max / (max - nr);
	} else if (sim->last_nr_regions == nr && nr < max / 3) {
		nr_subs = 3;
	}
	out = hs_sim_scratch(sim, 3 * sim->nr);
	if (!out)
		return;
	/* split region i when (i + offset) % every == 0, without dividing */
	left = (every - sim->split_offset % every) % every;
	for (i = 0; i < sim->nr; i++) {
		if (left) {
			out[n++] = sim->r[i];
			left--;
			continue;
		}
		n += split_one(sim, &sim->r[i], nr_subs, some, &out[n]);
		left = every - 1;
	}
	if (some)	/* the rotating offset: 0 the first time */
		sim->split_offset = (sim->split_offset + 1) % every;
	hs_sim_adopt(sim, n);
	sim->last_nr_regions = nr;
}

static unsigned long total_size(const struct hs_sim *sim)
{
	unsigned long sz = 0;
	size_t i;

	for (i = 0; i < sim->nr; i++)
		sz += sz_region(&sim->r[i]);
	return sz;
}

/**
 * hs_region_sz_limit() - damon_region_sz_limit(): the total size over
 * min_nr_regions, at least min_region_sz.
 * @sim:	the simulation.
 *
 * Return: bytes.
 */
unsigned long hs_region_sz_limit(const struct hs_sim *sim)
{
	unsigned long sz = total_size(sim);

	if (sim->cfg.attrs.min_nr_regions)
		sz /= sim->cfg.attrs.min_nr_regions;
	if (sz < sim->cfg.attrs.min_region_sz)
		sz = sim->cfg.attrs.min_region_sz;
	return sz;
}

/**
 * hs_apply_min_nr_regions() - damon_apply_min_nr_regions(): split every
 * region larger than the size limit into limit-sized pieces.
 * @sim:	the simulation.
 *
 * Return: the limit, aligned up to min_region_sz.
 */
unsigned long hs_apply_min_nr_regions(struct hs_sim *sim)
{
	unsigned long max_sz = ALIGN_UP(hs_region_sz_limit(sim),
					sim->cfg.attrs.min_region_sz);
	size_t i, need = 0, n = 0;
	struct hs_region *out;

	for (i = 0; i < sim->nr; i++) {
		unsigned long sz = sz_region(&sim->r[i]);

		/* divide only for the (rare) regions above the limit */
		need += sz > max_sz ? (sz + max_sz - 1) / max_sz : 1;
	}
	if (need == sim->nr)
		return max_sz;
	out = hs_sim_scratch(sim, need);
	if (!out)
		return max_sz;
	for (i = 0; i < sim->nr; i++) {
		struct hs_region r = sim->r[i];

		while (sz_region(&r) > max_sz) {
			out[n] = r;
			r = split_off(&out[n++], max_sz);
		}
		out[n++] = r;
	}
	hs_sim_adopt(sim, n);
	return max_sz;
}

/**
 * hs_set_regions() - damon_set_regions() with the target's ranges: drop
 * regions outside every range, stretch the first and last region of each
 * range to its page-aligned ends, fill holes with new regions, and create
 * one region for a range no region touches.
 * @sim:	the simulation (@sim->ranges set).
 *
 * Return: 0, or -1 when out of memory.
 */
int hs_set_regions(struct hs_sim *sim)
{
	unsigned long a = sim->cfg.attrs.min_region_sz;
	size_t i = 0, n = 0;
	struct hs_region *out = hs_sim_scratch(sim, 2 * sim->nr + 2 * sim->nr_ranges);
	unsigned int k;

	if (!out)
		return -1;
	for (k = 0; k < sim->nr_ranges; k++) {
		unsigned long rs = sim->ranges[k][0], re = sim->ranges[k][1];
		size_t first = n;

		/* regions before this range intersect no range: dropped */
		while (i < sim->nr && sim->r[i].end <= rs)
			i++;
		for (; i < sim->nr && sim->r[i].start < re; i++) {
			if (n > first && out[n - 1].end != sim->r[i].start) {
				memset(&out[n], 0, sizeof(out[n]));
				out[n].start = out[n - 1].end;
				out[n].end = sim->r[i].start;
				n++;
			}
			out[n++] = sim->r[i];
		}
		if (n == first) {
			memset(&out[n], 0, sizeof(out[n]));
			n++;
		}
		out[first].start = ALIGN_DOWN(rs, a);
		out[n - 1].end = ALIGN_UP(re, a);
	}
	hs_sim_adopt(sim, n);
	return 0;
}
