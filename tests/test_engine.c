// SPDX-License-Identifier: GPL-2.0
/*
 * test_engine.c - the measurement engine, the variants and the inputs.
 *
 * Engine arithmetic is checked with a fake clock that counts calls, so the
 * expected figures are exact.  The dead-code self-check is checked on the
 * real clock, on a function whose work the compiler deliberately removed.
 */
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/host.h>

#include "score/score_impl.h"
#include "check.h"

/* --- a fake clock: 10 ticks per call of counted() --- */
static uint64_t calls, fake_reads;
static const void *seen[64];

static uint64_t fake_now(void)
{
	fake_reads++;
	return calls * 10 + fake_reads;	/* +1 per read: a timer overhead */
}

static int counted(const void *p)
{
	if (calls < 64)
		seen[calls] = p;
	calls++;
	return 0;
}

static bool fake_counters(void *ctx, uint64_t *cycles, uint64_t *ins)
{
	(void)ctx;
	*cycles = calls * 3;
	*ins = calls * 7;
	return true;
}

static const struct hs_clock fake = {
	.name = "fake", .read = fake_now, .hz = 1000000000, .step = 1,
	.counters = fake_counters,
};

static void test_overhead_cancels(void)
{
	int pool[3];
	struct hs_pool p = { pool, sizeof(pool[0]), 3, 1 };
	struct hs_sample s;
	int mode;

	for (mode = 0; mode < HS_NR_MODES; mode++) {
		calls = 0;
		hs_bench_sample(&fake, counted, &p, 1, 100, mode, mode, &s);
		CHECK_EQ(calls, 600);	/* N, 2N, 2N, N */
		CHECK_EQ(s.ticks_n, 100 * 10 + 1);
		CHECK_EQ(s.ticks_2n, 200 * 10 + 1);
		CHECK_EQ(s.mt, 10000);	/* exactly 10 ticks a call */
		CHECK_EQ(s.scale, 1999);
		CHECK(s.counters, "counters not read");
		CHECK_EQ(s.cycles, 3000);
		CHECK_EQ(s.instructions, 7000);
	}
}

static void test_round_robin(void)
{
	int pool[3];
	struct hs_pool p = { pool, sizeof(pool[0]), 3, 1 };
	int i, mode;

	for (mode = 0; mode < HS_NR_MODES; mode++) {
		calls = 0;
		hs_bench_batch(&fake, counted, &p, 0, 7, mode);
		for (i = 0; i < 7; i++)
			CHECK(seen[i] == &pool[i % 3], "call %d got input %td",
			      i, (const int *)seen[i] - pool);
		calls = 0;	/* from a start, taken modulo the pool */
		hs_bench_batch(&fake, counted, &p, 5, 4, mode);
		for (i = 0; i < 4; i++)
			CHECK(seen[i] == &pool[(i + 2) % 3],
			      "call %d got input %td", i,
			      (const int *)seen[i] - pool);
	}
}

/* Samples start all over the pool, so every input gets timed. */
static void test_starts_cover_the_pool(void)
{
	unsigned int decile[10] = { 0 }, k, d;

	for (k = 0; k < 1000; k++)
		decile[hs_bench_start(k, 1000) / 100]++;
	for (d = 0; d < 10; d++)
		CHECK(decile[d] >= 90 && decile[d] <= 110,
		      "decile %u has %u of 1000 starts", d, decile[d]);
	CHECK_EQ(hs_bench_start(12345, 1), 0);
}

static uint64_t per_fn[3];
static int fn_a(const void *p) { per_fn[0]++; return counted(p); }
static int fn_b(const void *p) { per_fn[1]++; return counted(p); }
static int fn_c(const void *p) { per_fn[2]++; return counted(p); }

static void test_rounds_pair_everyone(void)
{
	int x = 0;
	struct hs_pool p = { &x, sizeof(x), 1, 1 };
	const struct hs_pool *pools[3] = { &p, &p, &p };
	hs_bench_fn fns[3] = { fn_a, fn_b, fn_c };
	struct hs_sample s[6];
	unsigned int r, k;

	for (r = 0; r < 4; r++) {
		memset(per_fn, 0, sizeof(per_fn));
		memset(s, 0, sizeof(s));
		hs_bench_rounds(&fake, fns, pools, 3, 50, HS_THROUGHPUT, r, s);
		for (k = 0; k < 3; k++) {
			CHECK_EQ(per_fn[k], 2 * 300);	/* two samples each */
			CHECK_EQ(s[2 * k].mt, 10000);
			CHECK_EQ(s[2 * k + 1].mt, 10000);
		}
	}
}

/* A pool whose calls do 10 units each gets a tenth of the calls. */
static void test_rounds_batch_pool(void)
{
	int x = 0;
	struct hs_pool p = { &x, sizeof(x), 1, 1 }, batch = p;
	const struct hs_pool *pools[3] = { &p, &batch, &p };
	hs_bench_fn fns[3] = { fn_a, fn_b, fn_c };
	struct hs_sample s[6];

	batch.units = 10;
	memset(per_fn, 0, sizeof(per_fn));
	hs_bench_rounds(&fake, fns, pools, 3, 50, HS_THROUGHPUT, 0, s);
	CHECK_EQ(per_fn[0], 2 * 300);
	CHECK_EQ(per_fn[1], 2 * 30);	/* N = 5: 5 + 10 + 10 + 5, twice */
	CHECK_EQ(hs_pool_calls(&batch, 5), 1);	/* never 0 calls */
	CHECK_EQ(hs_pool_calls(&p, 7), 7);
	batch.units = 0;
	CHECK_EQ(hs_pool_calls(&batch, 7), 7);
}

/* --- the self-check --- */
static void test_check_thresholds(void)
{
	const uint64_t hz = 2000000000;	/* 0.5 ns = 1000 mt */

	CHECK_EQ(hs_bench_check(5000, 1600, 2000, hz), HS_CHECK_OK);
	CHECK_EQ(hs_bench_check(1600, 1600, 2000, hz), HS_CHECK_AT_BASELINE);
	CHECK_EQ(hs_bench_check(1500, 1600, 2000, hz), HS_CHECK_AT_BASELINE);
	/* within 0.5 ns of a cheap empty call */
	CHECK_EQ(hs_bench_check(2600, 1600, 2000, hz), HS_CHECK_AT_BASELINE);
	CHECK_EQ(hs_bench_check(2601, 1600, 2000, hz), HS_CHECK_OK);
	/* or within half of a dearer one */
	CHECK_EQ(hs_bench_check(6000, 4000, 2000, hz), HS_CHECK_AT_BASELINE);
	CHECK_EQ(hs_bench_check(6001, 4000, 2000, hz), HS_CHECK_OK);
	CHECK_EQ(hs_bench_check(5000, 1600, 1499, hz), HS_CHECK_NO_SCALING);
	CHECK_EQ(hs_bench_check(5000, 1600, 1500, hz), HS_CHECK_OK);
	/* a coarse 25 MHz counter: 0.5 ns is 12 mt, not a whole tick */
	CHECK_EQ(hs_bench_check(130, 100, 2000, 25000000), HS_CHECK_AT_BASELINE);
	CHECK_EQ(hs_bench_check(151, 100, 2000, 25000000), HS_CHECK_OK);
}

/* A clock that does not move with the work: nothing scales. */
static uint64_t stuck_now(void)
{
	return ++fake_reads * 1000;
}

static void test_check_no_scaling(void)
{
	const struct hs_clock stuck = { .name = "stuck", .read = stuck_now,
					.hz = 1000000000 };
	int x = 0;
	struct hs_pool p = { &x, sizeof(x), 1, 1 };
	struct hs_sample s;

	hs_bench_sample(&stuck, counted, &p, 0, 1000, HS_THROUGHPUT, false,
			&s);
	CHECK_EQ(s.scale, 1000);
	CHECK_EQ(s.mt, 0);
	CHECK_EQ(hs_bench_check(s.mt, 0, s.scale, stuck.hz),
		 HS_CHECK_NO_SCALING);
}

static const struct hs_components v2 = HS_COMPONENTS(RAW, MAX_NR, ILOG2,
						     ARCH, NONE);

/*
 * The seed's mistake, on purpose: the score is computed and discarded, so
 * the compiler deletes it and only the call is left.  Sanitizer checks
 * have side effects that keep the work alive; there the function is
 * written as the optimizer leaves it.
 */
static __attribute__((noinline)) int eliminated(const void *p)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
	(void)p;
	(void)v2;
#else
	struct hs_trace t;
	int hot = hs_hot_score_inline(&v2, p, &t).hot;

	(void)hot;
#endif
	return 0;
}

/*
 * Median cost and scale of three functions, measured in interleaved rounds
 * so that a burst of noise hits all three alike.
 */
static void medians(const struct hs_clock *clk, const hs_bench_fn fns[3],
		    const struct hs_pool *p, uint64_t mt[3], uint64_t sc[3])
{
	const struct hs_pool *pools[3] = { p, p, p };
	uint64_t v[3][62], w[3][62], scratch[62];
	struct hs_sample s[6];
	struct hs_summary sum;
	unsigned int r, k;

	for (r = 0; r < 31; r++) {
		hs_bench_rounds(clk, fns, pools, 3, 4096, HS_THROUGHPUT, r, s);
		for (k = 0; k < 3; k++) {
			v[k][2 * r] = s[2 * k].mt;
			v[k][2 * r + 1] = s[2 * k + 1].mt;
			w[k][2 * r] = s[2 * k].scale;
			w[k][2 * r + 1] = s[2 * k + 1].scale;
		}
	}
	for (k = 0; k < 3; k++) {
		hs_summarize(v[k], 62, scratch, &sum);
		mt[k] = sum.median;
		hs_summarize(w[k], 62, scratch, &sum);
		sc[k] = sum.median;
	}
}

/*
 * On real hardware: the eliminated function is flagged and the real one is
 * not.  A VM can be noisy for a moment, so three attempts are allowed; a
 * broken check fails all three.
 */
static void test_self_check_fires_on_eliminated(void)
{
	const hs_bench_fn fns[3] = { hs_bench_empty, eliminated,
				     hs_variant_find("loop")->fn };
	struct hs_host host;
	struct hs_input in[64];
	struct hs_pool p = { in, sizeof(in[0]), 64, 1 };
	uint64_t mt[3], sc[3];
	enum hs_check gone = HS_CHECK_OK, real = HS_CHECK_AT_BASELINE;
	char err[128];
	int i, attempt;

	if (hs_host_init(&host, -1, HS_CLOCK_AUTO, err, sizeof(err))) {
		CHECK(0, "host: %s", err);
		return;
	}
	for (i = 0; i < 64; i++)
		hs_dist_input(HS_DIST_UNIFORM, 5, (uint64_t)i, &in[i]);
	for (attempt = 0; attempt < 3; attempt++) {
		medians(&host.clock, fns, &p, mt, sc);
		gone = hs_bench_check(mt[1], mt[0], sc[1], host.clock.hz);
		real = hs_bench_check(mt[2], mt[0], sc[2], host.clock.hz);
		if (gone != HS_CHECK_OK && real == HS_CHECK_OK)
			break;
		printf("  attempt %d: empty %llu, eliminated %llu, loop %llu mt\n",
		       attempt + 1, (unsigned long long)mt[0],
		       (unsigned long long)mt[1], (unsigned long long)mt[2]);
	}
	CHECK(gone != HS_CHECK_OK, "eliminated: %llu mt vs empty %llu",
	      (unsigned long long)mt[1], (unsigned long long)mt[0]);
	CHECK_EQ(real, HS_CHECK_OK);
	hs_host_fini(&host);
}

/* --- variants and inputs --- */
static void random_input(uint64_t *st, struct hs_input *in)
{
	uint64_t r = check_rand(st);

	hs_dist_base(in);
	in->sample_us = 1 + check_rand(st) % 100000;
	in->aggr_us = in->sample_us * (1 + check_rand(st) % 1000);
	in->nr_accesses = (unsigned int)(r % 300);
	in->last_nr_accesses = (unsigned int)(r >> 16) % 300;
	in->age = (unsigned int)check_rand(st) >> (r >> 59);
	in->passed_sis = check_rand(st) % 1000;
	in->next_aggr_sis = check_rand(st) % 1000;
	in->weight_nr_accesses = (unsigned int)(r >> 32) % 1000;
	in->weight_age = (unsigned int)(r >> 42) % 1000;
}

/*
 * Every copy of every variant, and of the empty call, enters at its
 * placement's byte of a 64-byte line and computes what copy 0 does.
 */
static void test_placements(void)
{
	struct hs_input in;
	unsigned int v, k;
	uint64_t st = 3;
	int i;

	for (k = 0; k < HS_NR_PLACEMENTS; k++)
		CHECK_EQ((uintptr_t)hs_bench_empty_placed[k] % 64,
			 HS_PLACEMENT_OFFSET(k));
	for (v = 0; v < hs_nr_variants; v++) {
		const struct hs_variant *var = &hs_variants[v];

		CHECK(var->placed != NULL, "%s has no copies", var->name);
		if (!var->placed)
			continue;
		CHECK(var->placed[0] == var->fn, "%s: copy 0 is not fn",
		      var->name);
		for (k = 0; k < HS_NR_PLACEMENTS; k++)
			CHECK((uintptr_t)var->placed[k] % 64 ==
			      HS_PLACEMENT_OFFSET(k), "%s copy %u at %lu",
			      var->name, k,
			      (unsigned long)((uintptr_t)var->placed[k] % 64));
		if (var->call != HS_CALL_INPUT)
			continue;
		for (i = 0; i < 1000; i++) {
			random_input(&st, &in);
			for (k = 1; k < HS_NR_PLACEMENTS; k++)
				CHECK(var->placed[k](&in) == var->fn(&in),
				      "%s copy %u differs", var->name, k);
		}
	}
}

/*
 * One variant on one input, whatever it takes: a prepared variant gets the
 * input's scheme prepared, a batch gets the input in every slot.
 */
static int variant_call(const struct hs_variant *v, const struct hs_input *in)
{
	static unsigned int nr[HS_BATCH_REGIONS], last[HS_BATCH_REGIONS],
			    age[HS_BATCH_REGIONS];
	static struct hs_input ins[HS_BATCH_REGIONS];
	static int hot[HS_BATCH_REGIONS];
	static struct hs_prep p;
	struct hs_fast_call f;
	struct hs_batch_call b;
	unsigned int i;
	int r;

	if (v->call == HS_CALL_INPUT)
		return v->fn(in);
	hs_prep_init(&p, &v->comp, in);
	if (v->call == HS_CALL_FAST) {
		f = (struct hs_fast_call){ &p, in->nr_accesses,
					   in->last_nr_accesses, in->age };
		return v->fn(&f);
	}
	for (i = 0; i < HS_BATCH_REGIONS; i++) {
		ins[i] = *in;
		nr[i] = in->nr_accesses;
		last[i] = in->last_nr_accesses;
		age[i] = in->age;
		hot[i] = -1000;
	}
	b = (struct hs_batch_call){ &p, hs_fast_batch, { nr, last, age }, ins,
				    hot, HS_BATCH_REGIONS };
	r = v->fn(&b);
	for (i = 0; i < HS_BATCH_REGIONS; i++)
		CHECK(hot[i] == r, "%s: region %u scored %d, the last %d",
		      v->name, i, hot[i], r);
	return r;
}

static void test_variants_equal_model(void)
{
	uint64_t st = 11;
	struct hs_input in;
	struct hs_result m;
	unsigned int v;
	int i;

	for (i = 0; i < 20000; i++) {
		random_input(&st, &in);
		for (v = 0; v < hs_nr_variants; v++) {
			m = hs_score(&hs_variants[v].comp, &in, NULL);
			if (m.status == HS_DIV0)
				continue;
			CHECK(variant_call(&hs_variants[v], &in) == m.hot,
			      "%s: %d, model %d", hs_variants[v].name,
			      variant_call(&hs_variants[v], &in), m.hot);
		}
	}
}

/* The prepared variants are hotfix's, and a batch reports every region. */
static void test_prepared_variants(void)
{
	const struct hs_variant *hotfix = hs_variant_find("hotfix");
	static const char *const names[] = {
		"fast", "fast-batch", "fast-batch-scalar", "hotfix-batch",
	};
	unsigned int i;

	for (i = 0; i < 4; i++) {
		const struct hs_variant *v = hs_variant_find(names[i]);

		CHECK(v && !memcmp(&v->comp, &hotfix->comp, sizeof(v->comp)),
		      "%s: not hotfix's components", names[i]);
		if (!v)
			continue;
		CHECK_EQ(hs_variant_regions(v), i ? HS_BATCH_REGIONS : 1);
		CHECK_EQ(v->call, i ? HS_CALL_BATCH : HS_CALL_FAST);
		CHECK(!v->ktime, "%s has a seed-style loop", names[i]);
		/* the vector unit is user space's; the module times the rest */
		CHECK(v->user_only == (i == 1), "%s: user_only %d", names[i],
		      v->user_only);
	}
	CHECK_EQ(hs_variant_regions(hotfix), 1);
	CHECK_EQ(hotfix->call, HS_CALL_INPUT);
	CHECK(!memcmp(&hs_variant_find("fast-prepare")->comp, &hotfix->comp,
		      sizeof(hotfix->comp)), "fast-prepare: not hotfix's");
	CHECK(hs_variant_find("fast-prepare")->user_only &&
	      !hotfix->user_only, "user_only: fast-prepare, not hotfix");
}

static bool same_comp(const struct hs_components *a,
		      const struct hs_components *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static void test_variant_names(void)
{
	static const char *const pairs[][2] = {
		{ "loop", "v6.6" }, { "fls", "rfc-fls" },
		{ "ilog2", "v2-ilog2" },
	};
	unsigned int i;

	for (i = 0; i < hs_nr_profiles; i++) {
		const struct hs_variant *v = hs_variant_find(hs_profiles[i].name);

		CHECK(v && same_comp(&v->comp, &hs_profiles[i].comp),
		      "profile %s has no matching variant",
		      hs_profiles[i].name);
	}
	for (i = 0; i < 3; i++)
		CHECK(same_comp(&hs_variant_find(pairs[i][0])->comp,
				&hs_profile_find(pairs[i][1])->comp),
		      "%s is not %s", pairs[i][0], pairs[i][1]);
	CHECK(hs_variant_find("nope") == NULL, "unknown name found");
	CHECK(hs_variant_find("fls-generic") != NULL, "fls-generic missing");
}

static void test_ktime_loop(void)
{
	struct hs_input pool[4];
	uint64_t samples[10];
	struct hs_ktime_run run = {
		.pool = pool, .nr = 4, .seed_ages = true, .iterations = 10000,
		.every = 1000, .now = hs_host_now_ns, .samples = samples,
	};
	int i;

	for (i = 0; i < 4; i++)
		hs_dist_base(&pool[i]);
	memset(samples, 0xff, sizeof(samples));
	hs_variant_find("loop")->ktime(&run);
	for (i = 0; i < 10; i++)
		CHECK(samples[i] < 1000000000ULL, "sample %d unset", i);
	CHECK(run.total_ns > 0, "no total time");
}

static void test_distributions(void)
{
	struct hs_input a, b;
	unsigned int young = 0, i;

	for (i = 0; i < 100000; i++) {
		hs_dist_input(HS_DIST_SEED, 1, i, &a);
		CHECK_EQ(a.age, i);
		CHECK_EQ(a.nr_accesses, 15);
		CHECK(a.sample_us == 5000 && a.aggr_us == 100000 &&
		      a.weight_nr_accesses == 50 && a.weight_age == 50,
		      "not the seed's constants");
		hs_dist_input(HS_DIST_ZERO, 1, i, &a);
		CHECK_EQ(a.age, 0);
		hs_dist_input(HS_DIST_WORST, 1, i, &a);
		CHECK(a.age >= 0x80000000u, "worst age %u", a.age);
		hs_dist_input(HS_DIST_YOUNG, 1, i, &a);
		CHECK(a.age < 10240, "young age %u", a.age);
		young += a.age * a.aggr_us / 1000000 <= 8;
	}
	/* 7 in 8 */
	CHECK(young > 86000 && young < 89000, "young: %u of 100000", young);
	hs_dist_input(HS_DIST_UNIFORM, 3, 12345, &a);
	hs_dist_input(HS_DIST_UNIFORM, 3, 12345, &b);
	CHECK_EQ(a.age, b.age);
	hs_dist_input(HS_DIST_UNIFORM, 4, 12345, &b);
	CHECK(a.age != b.age, "the seed changes nothing");
}

static void test_cost_class(void)
{
	const struct hs_components *loop = &hs_variant_find("loop")->comp;
	const struct hs_components *il = &hs_variant_find("ilog2")->comp;
	struct hs_input in;
	char name[64];

	hs_dist_base(&in);
	in.age = 100;	/* 10 s: age_in_log 4 */
	CHECK_EQ(hs_cost_class(loop, &in), 4);
	CHECK_EQ(hs_cost_class(il, &in), 4);
	in.nr_accesses = 0;
	CHECK_EQ(hs_cost_class(loop, &in), 4 | 64);
	hs_class_name(4 | 64, name, sizeof(name));
	CHECK(!strcmp(name, "age_in_log=4 freq=0"), "name '%s'", name);
	hs_class_name(20 | 128, name, sizeof(name));
	CHECK(!strcmp(name, "age_in_log=20 above-99"), "name '%s'", name);
	hs_class_name(20, name, 8);
	CHECK(!strcmp(name, "age_in_"), "truncated '%s'", name);
}

/* --- the plan, the stream and the analysis (src/bench/) --- */

static void test_plan(void)
{
	int pool[8];
	struct hs_pool p = { pool, sizeof(pool[0]), 8, 1 };
	struct hs_plan pl = { .runs = 5 };
	struct hs_clock c = fake;	/* empty calls cost it 0 ticks */

	/* a batch spans 1000 steps at once: N stays */
	c.step = 0;
	CHECK_EQ(hs_plan_batch(&c, &p, 96, 1UL << 24), 96);
	/* never: N doubles up to the limit and stops there */
	c.step = 1000000;
	CHECK_EQ(hs_plan_batch(&c, &p, 3, 1024), 1536);
	pl.n = 128;
	/* 10^7 calls at N = 128 would be 6510 rounds: N grows to <= 256 */
	hs_plan_rounds(&pl, 10000000, 256);
	CHECK(pl.rounds_per_run <= 256 && pl.rounds_per_run >= 200,
	      "rounds %zu", pl.rounds_per_run);
	CHECK_EQ(pl.rounds_per_run, (10000000 + 6 * pl.n) / (12 * pl.n));
	/* too few calls for one round of 12 N: N shrinks, one round */
	pl.n = 4096;
	hs_plan_rounds(&pl, 1200, 256);
	CHECK(pl.n == 100 && pl.rounds_per_run == 1, "n %zu rounds %zu",
	      pl.n, pl.rounds_per_run);
}

static int stop_at_three(void *ctx, const struct hs_run_at *at)
{
	unsigned int *seen_rounds = ctx;

	(void)at;
	return ++*seen_rounds == 3 ? -4 : 0;
}

static void test_stream(void)
{
	int pool[4];
	struct hs_pool p = { pool, sizeof(pool[0]), 4, 1 };
	const struct hs_pool *pools[2] = { &p, &p };
	hs_bench_fn fns[2] = { counted, counted };
	uint64_t a[12], b[12], *mt[2] = { a, b };
	uint64_t scratch[HS_RUN_SCRATCH(2) / sizeof(uint64_t) + 1];
	unsigned int units[2] = { 1, 2 }, seen_rounds = 0;
	bool have[2] = { true, true };
	struct hs_bench_stream st = {
		.fns = fns, .pools = pools, .units = units,
		.mode = HS_THROUGHPUT, .mt = mt, .counters = have,
	};
	struct hs_run run = {
		.clk = &fake, .streams = &st, .nr_streams = 1, .nr_fns = 2,
		.placements = 1, .plan = { 16, 3, 2 }, .scratch = scratch,
	};
	struct hs_run_result res;
	size_t i;

	CHECK_EQ(hs_bench_run(&run, &res), 0);
	for (i = 0; i < 12; i++) {
		/* 10 ticks a call, overhead cancelled: 10000 milliticks */
		CHECK(a[i] == 10000, "sample %zu: %llu", i,
		      (unsigned long long)a[i]);
		/* two units a call: per unit, half */
		CHECK(b[i] == 5000, "sample %zu: %llu", i,
		      (unsigned long long)b[i]);
	}
	CHECK(have[0] && have[1], "the fake clock counts, for each function");
	CHECK(res.warmup_ticks && res.round_ticks > res.warmup_ticks,
	      "ticks: warm-up %llu, rounds %llu",
	      (unsigned long long)res.warmup_ticks,
	      (unsigned long long)res.round_ticks);
	run.round = stop_at_three;
	run.ctx = &seen_rounds;
	CHECK_EQ(hs_bench_run(&run, &res), -4);
	CHECK_EQ(seen_rounds, 3);
}

/* The cells a hook saw, in order: placement of each cell's first round. */
struct cells_seen {
	unsigned int nr, pl[16];
};

static int note_cell(void *ctx, const struct hs_run_at *at)
{
	struct cells_seen *c = ctx;

	if (!at->round && c->nr < 16)
		c->pl[c->nr++] = at->stream * 10 + at->placement;
	return 0;
}

/*
 * One block of a run of two: its slots filled, block 0's left alone; two
 * streams of two placements, shuffled from the seed: the same seed, the
 * same order; without shuffling, index order.
 */
static void test_run_cells(void)
{
	int x = 0;
	struct hs_pool p = { &x, sizeof(x), 1, 1 };
	const struct hs_pool *pools[3] = { &p, &p, &p };
	/* placement-major: 2 placements x 3 functions */
	hs_bench_fn fns[6] = { fn_a, fn_b, fn_c, fn_a, fn_b, fn_c };
	uint64_t v[2][3][16], *mt[2][3];
	uint64_t scratch[HS_RUN_SCRATCH(3) / sizeof(uint64_t) + 1];
	struct hs_bench_stream st[2];
	struct cells_seen cells = { 0 }, again = { 0 };
	struct hs_run run = {
		.clk = &fake, .streams = st, .nr_streams = 2, .nr_fns = 3,
		.placements = 2, .plan = { 20, 2, 1 }, .first_block = 1,
		.shuffle = true, .seed = 7, .round = note_cell, .ctx = &cells,
		.scratch = scratch,
	};
	struct hs_run_result res;
	unsigned int s, k, i;

	memset(v, 0xff, sizeof(v));
	for (s = 0; s < 2; s++) {
		for (k = 0; k < 3; k++)
			mt[s][k] = v[s][k];
		st[s] = (struct hs_bench_stream){
			.fns = fns, .pools = pools, .mode = HS_THROUGHPUT,
			.mt = mt[s],
		};
	}
	CHECK_EQ(hs_bench_run(&run, &res), 0);
	for (s = 0; s < 2; s++)
		for (k = 0; k < 3; k++)
			for (i = 0; i < 16; i++)
				CHECK(v[s][k][i] == (i < 8 ? ~0ULL : 10000),
				      "stream %u fn %u sample %u: %llx", s, k,
				      i, (unsigned long long)v[s][k][i]);
	CHECK_EQ(cells.nr, 4);
	CHECK(cells.pl[0] / 10 == 0 && cells.pl[2] / 10 == 1 &&
	      cells.pl[0] != cells.pl[1] && cells.pl[2] != cells.pl[3],
	      "cells %u %u %u %u", cells.pl[0], cells.pl[1], cells.pl[2],
	      cells.pl[3]);
	run.ctx = &again;
	hs_bench_run(&run, &res);
	CHECK(!memcmp(&cells, &again, sizeof(cells)),
	      "the same seed, another order");
	run.shuffle = false;
	again.nr = 0;
	hs_bench_run(&run, &res);
	CHECK(again.pl[0] == 0 && again.pl[1] == 1 && again.pl[2] == 10 &&
	      again.pl[3] == 11, "unshuffled: cells %u %u %u %u",
	      again.pl[0], again.pl[1], again.pl[2], again.pl[3]);
}

static void test_paired(void)
{
	uint64_t base[40], fn[40], scratch[HS_PAIRED_SCRATCH(40)];
	struct hs_paired p;
	struct hs_summary sum;
	size_t i;

	for (i = 0; i < 40; i++) {
		base[i] = 2000 + i % 7;		/* twice as slow, a little noise */
		fn[i] = 1000 + i % 5;
	}
	hs_paired_ratio(base, fn, 40, 1, scratch, &p);
	CHECK_EQ(p.rounds, 20);
	CHECK(p.ratio > 1980000 && p.ratio < 2010000, "ratio %llu",
	      (unsigned long long)p.ratio);
	CHECK(p.ci_low <= p.ratio && p.ratio <= p.ci_high, "interval");
	CHECK_EQ(p.verdict, HS_FASTER);
	/* a round with a sample of 0 is no observation */
	fn[0] = 0;
	hs_paired_ratio(base, fn, 40, 1, scratch, &p);
	CHECK_EQ(p.rounds, 19);
	/* under HS_MIN_ROUNDS rounds: a ratio, no interval, no verdict */
	hs_paired_ratio(base, fn + 30, 10, 1, scratch, &p);
	CHECK(p.rounds == 5 && p.verdict == HS_UNDECIDED && !p.ci_high,
	      "rounds %zu", p.rounds);
	/* the summary leaves the zeros out and counts them */
	CHECK_EQ(hs_summary_nonzero(fn, 40, scratch, &sum), 1);
	CHECK(sum.n == 39 && sum.min == 1000, "min %llu",
	      (unsigned long long)sum.min);
	CHECK_EQ(hs_median(base, 7, scratch), 2003);
}

int main(void)
{
	RUN(test_overhead_cancels);
	RUN(test_plan);
	RUN(test_stream);
	RUN(test_run_cells);
	RUN(test_paired);
	RUN(test_round_robin);
	RUN(test_starts_cover_the_pool);
	RUN(test_rounds_pair_everyone);
	RUN(test_rounds_batch_pool);
	RUN(test_check_thresholds);
	RUN(test_check_no_scaling);
	RUN(test_self_check_fires_on_eliminated);
	RUN(test_variants_equal_model);
	RUN(test_placements);
	RUN(test_prepared_variants);
	RUN(test_variant_names);
	RUN(test_ktime_loop);
	RUN(test_distributions);
	RUN(test_cost_class);
	return CHECK_DONE();
}
