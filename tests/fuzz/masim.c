// SPDX-License-Identifier: GPL-2.0
/*
 * masim.c - `hotscore sim --workload FILE`: a masim config through
 * hs_workload_parse(), then, as cmd_sim.c's setup_workload() does, laid out
 * (vaddr, then again paddr) and prepared for a sampling interval; then the
 * oracle is asked about a few samples, so that whatever the parser let
 * through is used the way kdamond uses it: once with sim's default rate
 * and sampling interval, once with the largest it accepts.  Library code:
 * errors are return values, and the message must say where ("FILE:LINE:").
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/sim_masim.h>

#include "fuzz.h"

#define SIM_MAX_US	(30ULL * 24 * 3600 * 1000000)	/* cmd_sim.c's --sample */

/* What a parsed workload promises the simulator. */
static void check_parsed(const struct hs_workload *wl)
{
	uint64_t total = 0, bytes = 0;
	unsigned int i, k;

	fuzz_assert(wl->nr_regions >= 1 && wl->nr_phases >= 1);
	fuzz_assert(wl->nr_regions <= HS_WL_MAX_REGIONS);
	for (i = 0; i < wl->nr_regions; i++) {
		fuzz_assert(wl->regions[i].size >= 1);
		fuzz_assert(wl->regions[i].name[0]);
		bytes += wl->regions[i].size;
	}
	fuzz_assert(bytes == wl->total_bytes && bytes <= HS_WL_MAX_BYTES);
	for (k = 0; k < wl->nr_phases; k++) {
		const struct hs_wl_phase *ph = &wl->phases[k];

		fuzz_assert(ph->duration_ms >= 1 &&
			    ph->duration_ms <= HS_WL_MAX_MS);
		total += ph->duration_ms;
		for (i = 0; i < ph->nr_access; i++)
			fuzz_assert(ph->access[i].region < wl->nr_regions &&
				    ph->access[i].stride >= 1);
	}
	fuzz_assert(total == wl->total_ms && total <= HS_WL_MAX_TOTAL_MS);
}

/*
 * Where a sequential line's sweep starts: (in_us * num / den * stride) mod
 * the region's size, computed here without the product that could pass
 * 2^128 if the limits (30-day phases, 2^30 accesses per ms) were raised.
 */
static void check_sweeps(const struct hs_workload *wl, uint64_t now)
{
	const struct hs_wl_phase *ph = &wl->phases[wl->phase];
	uint64_t from = 0, in_us, size;
	unsigned __int128 x;
	unsigned int i;

	for (i = 0; i < wl->phase; i++)
		from += wl->phases[i].duration_ms;
	in_us = now % (wl->total_ms * 1000) - from * 1000;
	fuzz_assert(in_us < ph->duration_ms * 1000);
	for (i = 0; i < ph->nr_access; i++) {
		const struct hs_wl_access *a = &ph->access[i];
		const struct hs_wl_region *r = &wl->regions[a->region];

		/* a region every page of which is touched skips its lines */
		if (a->random || !a->num || wl->kind[a->region] != HS_WL_SOME)
			continue;
		size = r->end - r->start;
		x = (unsigned __int128)in_us * a->num / a->den;
		fuzz_assert(a->pos == (uint64_t)(x % size * (a->stride % size) %
						 size));
	}
}

/* A few samples of the oracle, as kdamond's sampling asks it. */
static void use(struct hs_workload *wl, uint64_t rate, uint64_t sample_us)
{
	uint64_t at, now, pass = wl->total_ms * 1000;
	unsigned int s, i;

	wl->rate = rate;
	hs_workload_prepare(wl, sample_us);
	for (s = 0; s < 5; s++) {
		/* the start, points spread over one pass, its last us */
		now = s < 4 ? s * (pass / 4) + s * 7919 : pass - 1;
		hs_workload_begin(wl, s, now);
		fuzz_assert(wl->phase < wl->nr_phases);
		check_sweeps(wl, now);
		hs_workload_fault_in(wl);
		for (i = 0; i < wl->nr_regions; i++) {
			const struct hs_wl_region *r = &wl->regions[i];

			fuzz_assert(r->start < r->end &&
				    !(r->start % HS_PAGE_SIZE));
			fuzz_assert(!i || wl->regions[i - 1].end <= r->start);
			for (at = r->start; at < r->end;
			     at += (r->end - r->start) / 3 + HS_PAGE_SIZE) {
				fuzz_assert(hs_workload_find(wl, at, 0) == i);
				(void)hs_workload_touched(wl, i, at);
			}
			fuzz_assert(hs_workload_find(wl, r->end, i) != i);
		}
		/* page out a little of the first region; faults bring it back */
		hs_workload_pageout(wl, wl->regions[0].start,
				    wl->regions[0].start + 16 * HS_PAGE_SIZE,
				    s & 1);
		fuzz_assert(wl->nr_out <= wl->nr_pages);
	}
}

static void parse_and_use(const uint8_t *data, size_t size,
			  enum hs_wl_layout layout, uint64_t rate,
			  uint64_t sample_us)
{
	struct hs_workload wl;
	char err[256] = "";

	if (hs_workload_parse((const char *)data, size, "fuzz.cfg", &wl, err,
			      sizeof(err))) {
		fuzz_assert(!strncmp(err, "fuzz.cfg:", 9));
		hs_workload_free(&wl);
		return;
	}
	check_parsed(&wl);
	wl.seed = 1;
	if (hs_workload_layout(&wl, layout, err, sizeof(err)))
		fuzz_assert(!"layout failed on a parsed workload");
	use(&wl, rate, sample_us);
	hs_workload_free(&wl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin(size);
	/* sim's defaults, then its limits (--rate, --sample) */
	parse_and_use(data, size, HS_WL_VADDR, HS_WL_DEFAULT_RATE, 5000);
	parse_and_use(data, size, HS_WL_PADDR, HS_WL_MAX_RATE, SIM_MAX_US);
	fuzz_end();
	return 0;
}
