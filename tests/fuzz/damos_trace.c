// SPDX-License-Identifier: GPL-2.0
/*
 * damos_trace.c - `hotscore replay TRACE`'s parser and replay: the input,
 * split at newlines, through hs_dtrace_line() and hs_dtrace_end(), and a
 * trace it accepts through hs_replay() under two schemes.  The parser's
 * promises: every sample after the last, an application inside a sample,
 * an hs_quota only on its own application, an aggregation's regions in
 * address order and none empty; an error names its line.  The replay's:
 * no more matched than the kernel applied, no more equal than compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_damos.h>
#include <hotscore/replay.h>

#include "fuzz.h"

static void check_trace(const struct hs_dtrace *t)
{
	size_t i, j, applies = 0, regions = 0;

	for (i = 0; i < t->nr_iters; i++) {
		const struct hs_dtrace_iter *it = &t->iters[i];
		const struct hs_dtrace_region *r = t->regions ?
			t->regions + it->first_region : NULL;

		fuzz_assert(!i || it->sis > t->iters[i - 1].sis);
		fuzz_assert(it->first_apply == applies &&
			    it->first_region == regions);
		applies += it->nr_apply;
		regions += it->nr_regions;
		for (j = 0; j < it->nr_regions; j++) {
			fuzz_assert(r[j].start < r[j].end);
			fuzz_assert(!j || r[j - 1].end <= r[j].start);
		}
	}
	fuzz_assert(applies == t->nr_applies && regions == t->nr_regions);
	for (i = 0; i < t->nr_applies; i++)
		fuzz_assert(t->applies[i].start < t->applies[i].end);
}

static int hot(void *ctx, const struct hs_input *in)
{
	(void)ctx;
	return (int)(in->nr_accesses_bp / 10000 * 5 % 100);
}

static void replay(const struct hs_dtrace *t)
{
	struct hs_scheme s[2];
	struct hs_replay_cfg cfg;
	struct hs_replay_result res;
	char err[256];

	memset(s, 0, sizeof(s));
	memset(&cfg, 0, sizeof(cfg));
	s[0].action = s[1].action = HS_ACT_PAGEOUT;
	s[0].pattern.max_sz = s[1].pattern.max_sz = ~0UL;
	s[0].pattern.max_age = s[1].pattern.max_age = ~0U;
	s[1].pattern.max_nr = 20;
	s[0].quota.sz = 16384;
	s[0].quota.reset_ms = 1000;
	s[1].quota.ms = 2;
	s[1].quota.reset_ms = 500;
	s[1].apply_us = 300000;
	cfg.attrs.sample_us = 5000;
	cfg.attrs.aggr_us = 100000;
	cfg.attrs.min_region_sz = 4096;
	cfg.hz = 250;
	cfg.schemes = s;
	cfg.nr_schemes = 2;
	cfg.hot = hot;
	cfg.max_misses = 4;
	if (hs_replay(&cfg, t, &res, err, sizeof(err))) {
		fuzz_assert(err[0]);
		return;
	}
	fuzz_assert(res.nr_matched <= res.nr_kernel);
	fuzz_assert(res.nr_quota_equal <= res.nr_quota);
	fuzz_assert(res.nr_aggr_equal <= res.nr_aggr);
	fuzz_assert(res.nr_kernel == t->nr_applies);
	/* each application unmatched, on either side, is a miss */
	fuzz_assert(res.nr_misses >= res.nr_kernel - res.nr_matched +
		    res.nr_replay_only);
	hs_replay_free(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	struct hs_dtrace t;
	int ret = 0;

	fuzz_begin(size);
	hs_dtrace_init(&t);
	for (; p < end && !ret; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		ret = hs_dtrace_line(&t, p, (size_t)(nl - p));
	}
	if (!ret)
		ret = hs_dtrace_end(&t);
	if (ret) {
		fuzz_assert(!strncmp(t.err, "line ", 5));
	} else {
		check_trace(&t);
		replay(&t);
	}
	hs_dtrace_free(&t);
	fuzz_end();
	return 0;
}
