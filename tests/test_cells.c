// SPDX-License-Identifier: GPL-2.0
/*
 * test_cells.c - the intervals over invocations, placements a fixed
 * factor (hs_cells_ratio()), and Kalibera and Jones's rounds, on samples
 * made from a model whose components are known: a ratio, an effect per
 * invocation, an effect per placement (the binary's, the same in every
 * run), noise per round, a drift of whole runs, states, trends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench.h>

#include "check.h"

#define MAX_BLOCKS 100
#define MAX_PL 4
#define MAX_ROUNDS 16
#define NR_SAMPLES (2 * MAX_BLOCKS * MAX_PL * MAX_ROUNDS)

/* The model: relative standard deviations of each component. */
struct model {
	double ratio;		/* the true baseline / function time */
	double sd_block, sd_round;
	size_t blocks, placements, rounds;
	double placement_effect[MAX_PL];	/* fixed: the binary's */
	unsigned int odd_state_in;	/* 1 block in this many is ... */
	double odd_state;		/* ... this much off, or 0 */
	unsigned int odd_for;		/* ... for this many blocks on */
	double sd_run;			/* a whole run's drift */
	double extra_sd;		/* the drift the analysis is told */
	double trend;			/* per block, over the run */
	double two_states;		/* every other block this much off */
};

struct samples {
	uint64_t base[NR_SAMPLES], fn[NR_SAMPLES], empty[NR_SAMPLES];
	struct hs_cells c;
};

static double gauss(uint64_t *state)
{
	double u = ((double)(check_rand(state) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(check_rand(state) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A relative SD as a variance of log2, HS_LOG_ONE^2 units. */
static uint64_t extra_var(double sd)
{
	double l = log2(1 + sd) * HS_LOG_ONE;

	return (uint64_t)(l * l);
}

/* One run of the bench under @m: every round's four samples. */
static void make_run(const struct model *m, uint64_t seed, struct samples *s)
{
	uint64_t state = seed * 2654435761u + 1;
	double run = 1 + m->sd_run * gauss(&state);
	size_t i, j, k, at = 0, odd = 0;

	for (i = 0; i < m->blocks; i++) {
		double blk = run * (1 + m->sd_block * gauss(&state)) *
			     (1 + m->trend * (double)i) *
			     (1 + (i % 2 ? m->two_states : 0));

		if (!odd && m->odd_state_in &&
		    check_rand(&state) % m->odd_state_in == 0)
			odd = m->odd_for ? m->odd_for : 1;
		if (odd) {	/* a state that lasts: autocorrelated blocks */
			blk *= 1 + m->odd_state;
			odd--;
		}

		for (j = 0; j < m->placements; j++)
			for (k = 0; k < m->rounds; k++, at += 2) {
				double r = m->ratio * blk *
					   (1 + m->placement_effect[j]) *
					   (1 + m->sd_round * gauss(&state));

				s->base[at] = s->base[at + 1] = 20000;
				s->fn[at] = s->fn[at + 1] =
					(uint64_t)(20000 / r + 0.5);
				s->empty[at] = s->empty[at + 1] = 2000;
			}
	}
	s->c = (struct hs_cells){ s->base, s->fn, s->empty, 1, 1, m->blocks,
				  m->placements, m->rounds,
				  extra_var(m->extra_sd), NULL };
}

static uint64_t scratch[HS_CELLS_SCRATCH(MAX_BLOCKS, MAX_PL, MAX_ROUNDS) +
			HS_PAIRED_SCRATCH(2 * MAX_ROUNDS)];

static void analyse(const struct samples *s, struct hs_cell_stats *out)
{
	hs_cells_ratio(&s->c, 0xb007, scratch, out);
}

#define NR_RUNS 40
#define WIDTH_MAX_SD 3.5	/* issue 30's bound: see test_width_bounded() */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The true ratio of @m: placements a fixed factor, their geometric mean. */
static double true_ratio(const struct model *m)
{
	double l = 0;
	size_t j;

	for (j = 0; j < m->placements; j++)
		l += log(1 + m->placement_effect[j]) / (double)m->placements;
	return m->ratio * exp(l);
}

/*
 * How many of NR_RUNS runs' confidence intervals hold the true ratio,
 * ppm (95 % promised).
 */
static uint64_t ci_held(const struct model *m)
{
	static struct samples s;
	struct hs_cell_stats st;
	uint64_t truth = (uint64_t)(true_ratio(m) * 1e6 + 0.5), n = 0;
	unsigned int i;

	for (i = 0; i < NR_RUNS; i++) {
		make_run(m, 100 + i, &s);
		analyse(&s, &st);
		n += st.ratio.low <= truth && truth <= st.ratio.high;
	}
	return n * 1000000 / NR_RUNS;
}

/*
 * The promise the report makes: 95 % of re-runs land in the re-run
 * interval.  NR_RUNS runs of one model; into *@held, the share of
 * (interval, other run's estimate) pairs where the estimate is inside,
 * ppm; into *@sds, the median half-width in standard deviations of the
 * runs' estimates (a calibrated 95 % re-run interval is about
 * t x sqrt(2): 3.2 at 9 degrees of freedom).  Return: how many intervals
 * held at least 90 % of the other runs' estimates.
 */
static unsigned int runs_held_sd(const struct model *m, bool within,
				 uint64_t *held_ppm, double *sds)
{
	static struct samples s;
	struct hs_cell_stats st;
	uint64_t est[NR_RUNS], lo[NR_RUNS], hi[NR_RUNS], pairs = 0;
	double half[NR_RUNS], mean = 0, ss = 0;
	unsigned int i, j, held, good = 0;

	for (i = 0; i < NR_RUNS; i++) {
		make_run(m, 100 + i, &s);
		if (within) {	/* one process's rounds, as before issue 18 */
			s.c.blocks = 1;
			s.c.placements = 1;
			s.c.rounds = m->rounds;
		}
		analyse(&s, &st);
		est[i] = st.ratio.value;
		/* one process has no re-run interval: its CI, as before */
		lo[i] = within ? st.ratio.low : st.ratio.rerun_low;
		hi[i] = within ? st.ratio.high : st.ratio.rerun_high;
		half[i] = (double)(hi[i] - lo[i]) / 2;
		mean += (double)est[i] / NR_RUNS;
	}
	for (i = 0; i < NR_RUNS; i++) {
		ss += ((double)est[i] - mean) * ((double)est[i] - mean);
		for (held = 0, j = 0; j < NR_RUNS; j++)
			held += j != i && est[j] >= lo[i] && est[j] <= hi[i];
		pairs += held;
		good += held * 10 >= (NR_RUNS - 1) * 9;
	}
	qsort(half, NR_RUNS, sizeof(half[0]), cmp_double);
	*sds = (half[NR_RUNS / 2 - 1] + half[NR_RUNS / 2]) / 2 /
	       sqrt(ss / (NR_RUNS - 1));
	*held_ppm = pairs * 1000000 / (NR_RUNS * (NR_RUNS - 1));
	return good;
}

static unsigned int runs_held(const struct model *m, bool within,
			      uint64_t *held_ppm)
{
	double sds;

	return runs_held_sd(m, within, held_ppm, &sds);
}

/* An invocation effect of 3.6 % (the EPYC VM's) and 2.4 % placements. */
static const struct model noisy = {
	.ratio = 1.2, .sd_block = 0.036,
	.sd_round = 0.01, .blocks = 12, .placements = 4, .rounds = 8,
	.placement_effect = { -0.03, 0.01, 0.025, -0.005 },
};

static void test_rerun_coverage(void)
{
	struct model m = noisy;
	uint64_t ppm;
	unsigned int good;

	good = runs_held(&m, false, &ppm);
	printf("# noisy: re-run intervals held %.1f %%, CIs the truth in"
	       " %.1f %%\n", ppm / 1e4, ci_held(&m) / 1e4);
	CHECK(ppm >= 900000 && ppm <= 990000, "re-run intervals held %llu"
	      " ppm of re-runs", (unsigned long long)ppm);
	CHECK(good * 10 >= NR_RUNS * 8, "%u of %d intervals held 90 %%",
	      good, NR_RUNS);
	CHECK(ci_held(&m) >= 900000, "CIs held the true ratio in %llu ppm",
	      (unsigned long long)ci_held(&m));
	/* no placement effect at all: the same */
	memset(m.placement_effect, 0, sizeof(m.placement_effect));
	good = runs_held(&m, false, &ppm);
	CHECK(ppm >= 900000, "without placements: %llu ppm",
	      (unsigned long long)ppm);
}

/*
 * An invocation now and then in a state of its own (one in eight, 6 %
 * slower; the EPYC VM's two-mode state).  The trimmed mean drops one such
 * invocation of 12; a run with two or more lands elsewhere, and a run
 * that never met the state cannot widen for it: 77 % of the pairs hold
 * on this model, a limit that docs/bench.md states.  The bound keeps it
 * from falling unseen.
 */
static void test_odd_states(void)
{
	struct model m = noisy;
	uint64_t ppm;

	m.sd_block = 0.004;
	m.odd_state_in = 8;
	m.odd_state = -0.06;
	runs_held(&m, false, &ppm);
	printf("# one in eight 6 %% off: %.1f %% held\n", ppm / 1e4);
	CHECK(ppm >= 750000, "intervals held %llu ppm of re-runs",
	      (unsigned long long)ppm);
}

/*
 * No wider than re-runs scatter allows: an infinite interval would hold
 * every re-run.  Issue 30 asks at most 3.5 SDs of the re-runs' estimates;
 * a calibrated interval of 12 invocations, 10 % trimmed (9 degrees of
 * freedom), is about t x sqrt(2) = 3.2.
 */
static void test_width_bounded(void)
{
	struct model m = noisy;
	uint64_t ppm;
	double sds;

	runs_held_sd(&m, false, &ppm, &sds);
	printf("# noisy: half-width %.2f SD of the re-runs, %.1f %% held\n",
	       sds, ppm / 1e4);
	CHECK(sds > 2.0 && sds < WIDTH_MAX_SD, "half-width %.2f SD", sds);
}

/*
 * Runs that drift as a whole (1 % between runs, which no one run sees):
 * told the drift (as an A/A pair's excess tells it), the intervals hold
 * re-runs; not told, they miss.
 */
static void test_drift(void)
{
	struct model m = noisy;
	uint64_t with, without;

	m.sd_block = 0.004;
	memset(m.placement_effect, 0, sizeof(m.placement_effect));
	m.sd_run = 0.01;
	m.extra_sd = 0.01;
	runs_held(&m, false, &with);
	m.extra_sd = 0;
	runs_held(&m, false, &without);
	printf("# drift 1 %%: %.1f %% held told, %.1f %% not told\n",
	       with / 1e4, without / 1e4);
	CHECK(with >= 900000, "told the drift: %llu ppm",
	      (unsigned long long)with);
	CHECK(without < 800000, "not told: %llu ppm, told %llu",
	      (unsigned long long)without, (unsigned long long)with);
}

/*
 * A state that lasts several invocations (one in eight enters it, 6 %
 * slower, for 3 invocations): autocorrelated blocks, the same limit as
 * test_odd_states().
 */
static void test_lasting_states(void)
{
	struct model m = noisy;
	uint64_t ppm;

	m.sd_block = 0.004;
	m.odd_state_in = 8;
	m.odd_state = -0.06;
	m.odd_for = 3;
	runs_held(&m, false, &ppm);
	printf("# lasting states: %.1f %% held\n", ppm / 1e4);
	CHECK(ppm >= 750000, "intervals held %llu ppm of re-runs",
	      (unsigned long long)ppm);
}

/*
 * Two states, every other invocation 3 % off with 0.3 % noise: reported,
 * with their sizes and levels; normal noise alone reports two states in
 * at most 2 of 200 runs.
 */
static void test_two_states(void)
{
	static struct samples s;
	struct model m = noisy;
	struct hs_cell_stats st;
	unsigned int i, found = 0;

	m.sd_block = 0.003;
	m.two_states = -0.03;
	make_run(&m, 1, &s);
	analyse(&s, &st);
	CHECK(st.state_n[0] == 6 && st.state_n[1] == 6, "states %zu, %zu",
	      st.state_n[0], st.state_n[1]);
	CHECK(st.state[0] < st.state[1] &&
	      fabs((double)st.state[1] / (double)st.state[0] - 1 / 0.97) <
	      0.01, "levels %llu, %llu", (unsigned long long)st.state[0],
	      (unsigned long long)st.state[1]);
	m = noisy;
	for (i = 0; i < 200; i++) {
		make_run(&m, 1000 + i, &s);
		analyse(&s, &st);
		found += st.state_n[0] != 0;
	}
	printf("# normal noise: two states in %u of 200 runs\n", found);
	CHECK(found <= 2, "two states in %u of 200 normal runs", found);
}

/*
 * Invocations that drift over the run (0.3 % per invocation): the von
 * Neumann ratio sees it, and the intervals widen to hold the runs; runs
 * without it are seldom flagged.
 */
static void test_trend(void)
{
	static struct samples s;
	struct model m = noisy;
	struct hs_cell_stats st, flat;
	unsigned int i, flagged = 0;

	m.sd_block = 0.002;
	m.trend = 0.003;
	make_run(&m, 3, &s);
	analyse(&s, &st);
	m.trend = 0;
	make_run(&m, 3, &s);
	analyse(&s, &flat);
	CHECK(st.trend && st.vn < 500, "trend missed: vn %u", st.vn);
	CHECK(!flat.trend, "a flat run flagged: vn %u", flat.vn);
	/*
	 * a trend so clean over 100 blocks that its ratio, 6 x 99 / 100^3,
	 * rounds to 0 thousandths: still 1 (0 says "too few blocks"), still
	 * a trend
	 */
	m.sd_block = 0;
	m.sd_round = 0;
	m.trend = 0.001;
	m.blocks = 100;
	make_run(&m, 3, &s);
	analyse(&s, &st);
	CHECK(st.trend && st.vn == 1, "a clean trend: vn %u, trend %d",
	      st.vn, st.trend);
	m = noisy;
	for (i = 0; i < 200; i++) {
		make_run(&m, 2000 + i, &s);
		analyse(&s, &st);
		flagged += st.trend;
	}
	printf("# normal noise: a drift over the run in %u of 200 runs\n",
	       flagged);
	CHECK(flagged <= 20, "%u of 200 flagged (5 %% expected)", flagged);
}

/* The layout sensitivity: the placements' own ratios, as put in. */
static void test_layout(void)
{
	static struct samples s;
	struct model m = noisy;
	struct hs_cell_stats st;

	m.sd_block = 0.001;
	m.sd_round = 0.001;
	make_run(&m, 5, &s);
	analyse(&s, &st);
	CHECK(fabs((double)st.layout_low / 1e6 - 1.2 * 0.97) < 0.002 &&
	      fabs((double)st.layout_high / 1e6 - 1.2 * 1.025) < 0.002,
	      "layout %llu - %llu", (unsigned long long)st.layout_low,
	      (unsigned long long)st.layout_high);
	/* SD of -3, 1, 2.5, -0.5 %: 2.4 % */
	CHECK(st.layout_sd > 22000 && st.layout_sd < 26000, "SD %llu ppm",
	      (unsigned long long)st.layout_sd);
	/* the estimate is the placements' geometric mean */
	CHECK(fabs((double)st.ratio.value / 1e6 - true_ratio(&m)) < 0.002,
	      "ratio %llu, true %.6f", (unsigned long long)st.ratio.value,
	      true_ratio(&m));
}

/*
 * An A/A pair whose CI excludes 1 gives its excess, its log's square less
 * its variance; one that holds 1 gives none.
 */
static void test_excess_var(void)
{
	struct hs_cell_stats aa[2] = { 0 };

	aa[0].ratio = (struct hs_estimate){ 1010000, 1005000, 1015000, 0, 0 };
	aa[0].units = 10;
	aa[0].log_value = hs_log2_fixed(1010000) - hs_log2_fixed(1000000);
	aa[0].log_var = 1000;
	CHECK_EQ(hs_excess_var(aa, 1),
		 (uint64_t)(aa[0].log_value * aa[0].log_value - 1000));
	aa[1] = aa[0];
	aa[1].ratio.low = 995000;	/* holds 1: counted, adds nothing */
	CHECK_EQ(hs_excess_var(aa, 2),
		 (uint64_t)(aa[0].log_value * aa[0].log_value - 1000) / 2);
	CHECK_EQ(hs_excess_var(aa + 1, 1), 0);
}

/* log2 and its inverse: exact at powers of two, within 1 ppm between. */
static void test_log_exp(void)
{
	static const uint64_t v[] = { 1, 3, 999999, 1000000, 1523456,
				      123456789, 1ULL << 40 };
	unsigned int i;

	CHECK_EQ(hs_log2_fixed(1ULL << 20), 20 * HS_LOG_ONE);
	CHECK_EQ(hs_exp2_ppm(HS_LOG_ONE), 2000000);
	CHECK_EQ(hs_exp2_ppm(-HS_LOG_ONE), 500000);
	CHECK_EQ(hs_exp2_ppm(0), 1000000);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double l = (double)hs_log2_fixed(v[i]) / HS_LOG_ONE;

		CHECK(fabs(l - log2((double)v[i])) < 1e-6, "log2(%llu) %.9f",
		      (unsigned long long)v[i], l);
	}
	for (i = 1; i < 40; i++) {
		int64_t l = (int64_t)i * 1234567 - 20000000;
		double want = 1e6 * exp2((double)l / HS_LOG_ONE);

		CHECK(fabs((double)hs_exp2_ppm(l) - want) <= 1 + want * 1e-7,
		      "exp2 %lld: %llu, %.1f", (long long)l,
		      (unsigned long long)hs_exp2_ppm(l), want);
	}
}

/* Resampling one process's rounds misses most re-runs: the seed's flaw. */
static void test_within_process_misses(void)
{
	uint64_t ppm;

	runs_held(&noisy, true, &ppm);
	CHECK(ppm < 500000, "a within-process interval held %llu ppm",
	      (unsigned long long)ppm);
}

/* The components found are the ones put in, within what 10 x 4 allow. */
static void test_components(void)
{
	static struct samples s;
	struct model m = noisy;
	struct hs_cell_stats st;
	double sd_b, sd_p;

	m.blocks = 30;
	make_run(&m, 7, &s);
	analyse(&s, &st);
	sd_b = sqrt((double)st.var_block) / (double)st.ratio.value;
	sd_p = sqrt((double)st.var_placement) / (double)st.ratio.value;
	CHECK(sd_b > 0.02 && sd_b < 0.06, "invocation SD %.4f, put in 0.036",
	      sd_b);
	CHECK(sd_p > 0.01 && sd_p < 0.04, "placement SD %.4f, put in 0.024",
	      sd_p);
	CHECK(st.var_round > 0, "no round variance");
	CHECK(!st.within_process, "30 blocks called within-process");
	/* the mean of the cells: near the true ratio */
	CHECK(fabs((double)st.ratio.value / 1e6 - 1.2) < 0.03, "ratio %llu",
	      (unsigned long long)st.ratio.value);
}

/* Net of the empty call: (20000 - 2000) / (10000 - 2000) = 2.25. */
static void test_net_ratio(void)
{
	static struct samples s;
	struct model m = { .ratio = 2.0, .blocks = 6, .placements = 1,
			   .rounds = 4 };
	struct hs_cell_stats st;

	make_run(&m, 1, &s);
	analyse(&s, &st);
	CHECK_EQ(st.ratio.value, 2000000);
	CHECK_EQ(st.net.value, 2250000);
	/* a batch of 64 regions carries 1/64 of the call's overhead */
	s.c.fn_units = 64;
	analyse(&s, &st);
	/* (40000 - 4000) x 64 / (20000 x 64 - 4000): 1.805642 */
	CHECK_EQ(st.net.value, 1805642);
	CHECK_EQ(st.verdict, HS_FASTER);
}

/*
 * Each side's own empty call (a built-in against a candidate behind its
 * door): (20000 - 2000) / (10000 - 3000) = 2.571428; with the door's for
 * both, 17000 / 7000 = 2.428571 (the control: base_empty is read).
 */
static void test_net_own_empties(void)
{
	static struct samples s;
	static uint64_t door[NR_SAMPLES];
	struct model m = { .ratio = 2.0, .blocks = 6, .placements = 1,
			   .rounds = 4 };
	struct hs_cell_stats st;
	size_t i;

	make_run(&m, 1, &s);
	for (i = 0; i < NR_SAMPLES; i++)
		door[i] = 3000;
	s.c.base_empty = s.empty;
	s.c.empty = door;
	analyse(&s, &st);
	CHECK_EQ(st.ratio.value, 2000000);
	CHECK_EQ(st.net.value, 2571428);
	s.c.base_empty = NULL;	/* @empty for both: the door's */
	analyse(&s, &st);
	CHECK(st.net.value + 1 >= 2428571 && st.net.value <= 2428572,
	      "net %llu", (unsigned long long)st.net.value);
}

/*
 * Two runs' invocations (bench compare): twice as fast after is 2 (to the
 * last ppm: the trimmed geometric means of values in proportion), its
 * interval excludes 1, faster; the same values are 1 with 1 inside; five
 * invocations give a ratio but no interval.
 */
static void test_runs_ratio(void)
{
	static const uint64_t a[] = { 10000, 10100, 9900, 10000, 10200, 9800 };
	static const uint64_t b[] = { 5000, 5050, 4950, 5000, 5100, 4900 };
	static uint64_t scratch2[HS_RUNS_SCRATCH(6, 6)];
	struct hs_estimate e;

	CHECK_EQ(hs_runs_ratio(a, 6, b, 6, scratch2, &e), HS_FASTER);
	CHECK_EQ(e.value, 2000000);
	CHECK(e.low > 1000000 && e.low <= e.value && e.value <= e.high,
	      "[%llu, %llu]", (unsigned long long)e.low,
	      (unsigned long long)e.high);
	CHECK_EQ(hs_runs_ratio(b, 6, a, 6, scratch2, &e), HS_SLOWER);
	CHECK_EQ(hs_runs_ratio(a, 6, a, 6, scratch2, &e), HS_SAME);
	CHECK(e.value == 1000000 && e.low < 1000000 && e.high > 1000000,
	      "%llu [%llu, %llu]", (unsigned long long)e.value,
	      (unsigned long long)e.low, (unsigned long long)e.high);
	CHECK_EQ(hs_runs_ratio(a, 5, b, 6, scratch2, &e), HS_UNDECIDED);
	CHECK(e.value > 1990000 && e.value < 2010000 && !e.low && !e.high,
	      "%llu [%llu, %llu]",
	      (unsigned long long)e.value, (unsigned long long)e.low,
	      (unsigned long long)e.high);
}

/* An invocation in another state is named; the others are not. */
static void test_unlike_the_rest(void)
{
	static struct samples s;
	struct model m = { .ratio = 1.5, .sd_round = 0.002, .blocks = 10,
			   .placements = 2, .rounds = 4 };
	struct hs_cell_stats st;
	size_t k;

	make_run(&m, 3, &s);
	/* invocation 7 (index 6) ran 20 % slower */
	for (k = 6 * 2 * 2 * 4; k < 7 * 2 * 2 * 4; k++)
		s.fn[k] = s.fn[k] * 12 / 10;
	analyse(&s, &st);
	CHECK_EQ(st.nr_outliers, 1);
	CHECK_EQ(st.outliers, 1ULL << 6);
}

/*
 * Fewer than six invocations: an interval, but no verdict, however many
 * cells the placements make (2 x 4 = 8 cells are 2 draws of a re-run).
 */
static void test_too_few_invocations(void)
{
	static struct samples s;
	struct model m = { .ratio = 1.5, .sd_round = 0.01, .blocks = 1,
			   .placements = 4, .rounds = 1 };
	struct hs_cell_stats st;

	make_run(&m, 5, &s);
	analyse(&s, &st);
	CHECK(st.ratio.low && st.ratio.high, "no interval of 4 placements");
	CHECK_EQ(st.verdict, HS_UNDECIDED);
	m.blocks = 2;
	make_run(&m, 5, &s);
	analyse(&s, &st);
	CHECK(st.ratio.low && st.ratio.high, "no interval of 2 x 4");
	CHECK_EQ(st.verdict, HS_UNDECIDED);
	m.blocks = 6;
	make_run(&m, 5, &s);
	analyse(&s, &st);
	CHECK_EQ(st.verdict, HS_FASTER);
}

/*
 * A cell far off in a small grid must not wrap into a huge upper end
 * (the review of the bootstrap found 1.20 [1.16 - 21.04]).
 */
static void test_far_cell_no_wrap(void)
{
	static struct samples s;
	struct model m = { .ratio = 1.2, .sd_round = 0.01, .blocks = 3,
			   .placements = 4, .rounds = 1 };
	struct hs_cell_stats st;

	make_run(&m, 9, &s);
	s.fn[2 * 5] = s.fn[2 * 5 + 1] = 600;	/* cell 5: 33x faster */
	analyse(&s, &st);
	CHECK(st.ratio.high < 100 * st.ratio.value &&
	      st.ratio.rerun_high < 100 * st.ratio.value,
	      "%llu [%llu - %llu]", (unsigned long long)st.ratio.value,
	      (unsigned long long)st.ratio.low,
	      (unsigned long long)st.ratio.high);
	CHECK(st.ratio.low <= st.ratio.value &&
	      st.ratio.value <= st.ratio.high, "estimate outside");
}

/* A cell that saw nothing is left out, not the whole comparison. */
static void test_empty_cell_left_out(void)
{
	static struct samples s;
	struct model m = { .ratio = 1.33, .sd_round = 0.01, .blocks = 10,
			   .placements = 4, .rounds = 1 };
	struct hs_cell_stats st;

	make_run(&m, 11, &s);
	s.fn[2 * 17] = 0;	/* one clamped sample: cell 17 has no round */
	analyse(&s, &st);
	CHECK_EQ(st.cells, 39);
	CHECK(st.ratio.value > 1300000 && st.ratio.value < 1360000,
	      "ratio %llu", (unsigned long long)st.ratio.value);
	CHECK_EQ(st.verdict, HS_FASTER);
}

static void test_kj_rounds(void)
{
	/* sqrt(100 x 4 / 1) = 20 rounds */
	CHECK_EQ(hs_kj_rounds(100, 1, 4, 1), 20);
	/* a cheap block that varies much: one round each */
	CHECK_EQ(hs_kj_rounds(1, 1, 1, 100), 1);
	/* sqrt(2) = 1.41: rounded up */
	CHECK_EQ(hs_kj_rounds(2, 1, 1, 1), 2);
	/* no block variance: no answer */
	CHECK_EQ(hs_kj_rounds(100, 1, 4, 0), 0);
}

/* Each comparison its own stream; the same name and mode, the same one. */
static void test_comparison_seeds(void)
{
	uint64_t s = hs_bootstrap_seed(1), a, b, c;

	a = hs_comparison_seed(s, hs_comparison_key("fls", HS_THROUGHPUT));
	b = hs_comparison_seed(s, hs_comparison_key("ilog2", HS_THROUGHPUT));
	c = hs_comparison_seed(s, hs_comparison_key("fls", HS_LATENCY));

	CHECK(a != b && a != c && b != c, "streams shared");
	CHECK_EQ(a, hs_comparison_seed(s, hs_comparison_key("fls",
							    HS_THROUGHPUT)));
	CHECK(a != hs_comparison_seed(hs_bootstrap_seed(2),
				      hs_comparison_key("fls", HS_THROUGHPUT)),
	      "the run's seed ignored");
}

/*
 * Which interval a comparison gets: one cell has its rounds; a module's
 * runs are one load's; one invocation has its placements; blocks in one
 * process or in processes are the units.
 */
static void test_interval_policy(void)
{
	static const struct {
		size_t blocks, placements;
		enum hs_blocks what;
		enum hs_interval_kind kind;
	} t[] = {
		{ 1, 1, HS_BLOCKS_PROCESSES, HS_IV_ROUNDS },
		{ 1, 1, HS_BLOCKS_MODULE_RUNS, HS_IV_ROUNDS },
		{ 1, 1, HS_BLOCKS_IN_PROCESS, HS_IV_ROUNDS },
		{ 1, 4, HS_BLOCKS_PROCESSES, HS_IV_PLACEMENTS },
		{ 1, 4, HS_BLOCKS_IN_PROCESS, HS_IV_PLACEMENTS },
		{ 10, 1, HS_BLOCKS_MODULE_RUNS, HS_IV_MODULE_RUNS },
		{ 1, 2, HS_BLOCKS_MODULE_RUNS, HS_IV_MODULE_RUNS },
		{ 10, 1, HS_BLOCKS_IN_PROCESS, HS_IV_BLOCKS },
		{ 10, 4, HS_BLOCKS_IN_PROCESS, HS_IV_BLOCKS },
		{ 2, 1, HS_BLOCKS_PROCESSES, HS_IV_RERUN },
		{ 10, 4, HS_BLOCKS_PROCESSES, HS_IV_RERUN },
	};
	struct hs_interval iv;
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		hs_interval_choose(&iv, t[i].blocks, t[i].placements,
				   t[i].what, 42);
		CHECK(iv.kind == t[i].kind && iv.seed == (42 ^ 0xb007),
		      "case %u: kind %d seed %llu", i, iv.kind,
		      (unsigned long long)iv.seed);
	}
	CHECK_EQ(hs_bootstrap_seed(1), 0xb006);
	CHECK(!strcmp(hs_interval_name(HS_IV_RERUN),
		      "over invocations, placements a fixed factor"),
	      "%s", hs_interval_name(HS_IV_RERUN));
}

int main(void)
{
	RUN(test_log_exp);
	RUN(test_rerun_coverage);
	RUN(test_odd_states);
	RUN(test_width_bounded);
	RUN(test_drift);
	RUN(test_lasting_states);
	RUN(test_two_states);
	RUN(test_trend);
	RUN(test_layout);
	RUN(test_excess_var);
	RUN(test_within_process_misses);
	RUN(test_components);
	RUN(test_net_ratio);
	RUN(test_net_own_empties);
	RUN(test_runs_ratio);
	RUN(test_unlike_the_rest);
	RUN(test_too_few_invocations);
	RUN(test_far_cell_no_wrap);
	RUN(test_empty_cell_left_out);
	RUN(test_kj_rounds);
	RUN(test_interval_policy);
	RUN(test_comparison_seeds);
	return CHECK_DONE();
}
