/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_fixture.h - what the simulator's test files share: a workload from
 * config text, a configuration and a scheme that matches everything.
 */
#ifndef HOTSCORE_SIM_FIXTURE_H
#define HOTSCORE_SIM_FIXTURE_H

#include <limits.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/sim.h>

#include "check.h"

#define PAGE HS_PAGE_SIZE

/* One 40-page region, sequentially swept, for the hand-built cases. */
static const char tiny_cfg[] = "a, 163840\n\nrun\n1000\na, 0, 4096, 1\n";

static inline void load(struct hs_workload *wl, const char *text,
			enum hs_wl_layout layout, unsigned long sample_us)
{
	char err[256];

	CHECK(!hs_workload_parse(text, strlen(text), "test.cfg", wl, err,
				 sizeof(err)), "%s", err);
	CHECK(!hs_workload_layout(wl, layout, err, sizeof(err)), "%s", err);
	hs_workload_prepare(wl, sample_us);
}

/* paddr, the mm-new profile, a second of simulated time, seed 1. */
static inline struct hs_sim_config sim_config(unsigned long sample_us,
					      unsigned long aggr_us,
					      unsigned long min_nr)
{
	struct hs_sim_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.attrs = (struct hs_attrs){ sample_us, aggr_us, 60000000, min_nr,
				       1000, PAGE };
	cfg.ops = HS_OPS_PADDR;
	cfg.comp = hs_profile_find("mm-new")->comp;
	cfg.score_fn = hs_variant_find("mm-new")->fn;
	cfg.duration_us = 1000000;
	cfg.seed = 1;
	cfg.hz = 250;
	cfg.max_events = 1024;
	return cfg;
}

/* A scheme with no limits on its pattern and a 1 s charge window. */
static inline struct hs_scheme scheme(enum hs_action action)
{
	struct hs_scheme s;

	memset(&s, 0, sizeof(s));
	s.action = action;
	s.pattern.max_sz = ULONG_MAX;
	s.pattern.max_nr = UINT32_MAX;
	s.pattern.max_age = UINT32_MAX;
	s.quota.reset_ms = 1000;
	return s;
}

#endif /* HOTSCORE_SIM_FIXTURE_H */
