// SPDX-License-Identifier: GPL-2.0
/*
 * test_verify.c - verify's checks, domains, shrinker and verdict.
 */
#include <string.h>

#include <hotscore/score_fast.h>
#include <hotscore/verify.h>

#include "verify/domain.h"
#include "check.h"
#include "verify/verify_internal.h"

static struct hs_input base(void)
{
	struct hs_input in = { .sample_us = 5000, .aggr_us = 100000,
			       .weight_nr_accesses = 1, .weight_age = 1 };
	return in;
}

static const struct hs_components *prof(const char *name)
{
	return &hs_profile_find(name)->comp;
}

/* Every batch scorer this CPU runs, as hs_verify_config.batch_impls. */
static unsigned int batch_impls(void)
{
	unsigned int k, mask = 0;

	for (k = 0; k < HS_NR_FAST_IMPLS; k++)
		if (hs_fast_impl_supported(k))
			mask |= 1u << k;
		else
			printf("SKIP the %s batch: this CPU lacks it\n",
			       hs_fast_impl_name(k));
	return mask;
}

static void test_agelog_sweep(void)
{
	struct hs_agelog_stats st;
	unsigned int k;

	memset(&st, 0, sizeof(st));
	hs_agelog_sweep(0, 1 << 20, &st);
	hs_agelog_sweep(0xfff00000u, 1 << 20, &st);	/* up to 2^32 - 1 */
	CHECK_EQ(st.values, 2 << 20);
	CHECK(st.ways >= 7, "%u ways", st.ways);
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		CHECK_EQ(st.mismatches[k], 0);
}

static void test_pair_class(void)
{
	struct hs_input in = base();
	unsigned int cls = 99;

	in.nr_accesses = 31;	/* 31 of 20 samples: 155 % */
	CHECK(hs_pair_class(prof("v6.6"), prof("hotfix"), &in, &cls),
	      "v6.6 and hotfix agree at 31 accesses");
	CHECK_EQ(cls, 1 * HS_NR_STATUS_CODES + 0);	/* oor vs ok */
	CHECK(!hs_pair_class(prof("v6.6"), prof("v2-ilog2"), &in, &cls),
	      "v6.6 and v2-ilog2 differ");
	in.sample_us = 0;
	CHECK(hs_pair_class(prof("v6.6"), prof("hotfix"), &in, &cls),
	      "div0 vs ok not told apart");
	CHECK_EQ(cls, 2 * HS_NR_STATUS_CODES + 0);
	CHECK(!hs_pair_class(prof("v6.6"), prof("v5.16"), &in, &cls),
	      "the same div0 site is agreement");
	CHECK(hs_claimed_equal(prof("v6.6"), prof("rfc-fls")), "claim");
	CHECK(hs_claimed_equal(prof("hotfix"), prof("debian-6.1.192")),
	      "claim");
	CHECK(!hs_claimed_equal(prof("v6.6"), prof("hotfix")), "no claim");
}

static void test_invariants(void)
{
	struct hs_input in = base();
	bool checked;

	in.nr_accesses = 31;
	CHECK(hs_violates(prof("v6.6"), HS_INV_RANGE, &in, &checked),
	      "v6.6 range");
	CHECK(!hs_violates(prof("hotfix"), HS_INV_RANGE, &in, &checked),
	      "hotfix clamps");
	CHECK(!hs_violates(prof("v6.6"), HS_INV_SUM, &in, &checked) &&
	      checked, "sum");
	in.nr_accesses = 42949672;	/* the next one wraps * 100 */
	CHECK(hs_violates(prof("hotfix"), HS_INV_ACCESSES, &in, &checked),
	      "the u32 wrap of nr_accesses * 100");
	in.nr_accesses = 10;
	CHECK(!hs_violates(prof("hotfix"), HS_INV_ACCESSES, &in, &checked) &&
	      checked, "10 -> 11 accesses");
	/* the age invariants apply by the sign of freq_subscore */
	in.age = 79;
	CHECK(!hs_violates(prof("hotfix"), HS_INV_OLDER_COLD, &in, &checked) &&
	      !checked, "freq > 0 is no test of the freq = 0 rule");
	in.sample_us = 0;
	CHECK(!hs_violates(prof("v6.6"), HS_INV_SUM, &in, &checked) &&
	      !checked, "a div0 input is no test");
}

struct threshold {
	uint32_t nr, bit;
};

static bool above(const struct hs_input *in, const void *ctx)
{
	const struct threshold *t = ctx;

	return in->nr_accesses >= t->nr && (in->age & t->bit);
}

static void test_shrink(void)
{
	struct threshold t = { 1000, 32 };
	struct hs_input in = { 123456789, 987654321, 55, 66, 3000000000u,
			       77, 0xffffffe0u, 88, 99, 0 };
	struct hs_input prefer = base();

	hs_shrink(&in, NULL, above, &t);
	CHECK_EQ(in.nr_accesses, 1000);
	CHECK_EQ(in.age, 32);
	CHECK(!in.sample_us && !in.aggr_us && !in.weight_age &&
	      !in.passed_sis, "irrelevant fields not zeroed");
	in = (struct hs_input){ 1, 2, 3, 4, 5000, 6, 0xffffffe0u, 8, 9, 0 };
	hs_shrink(&in, &prefer, above, &t);
	CHECK(in.sample_us == 5000 && in.aggr_us == 100000 &&
	      in.weight_nr_accesses == 1, "preferred values not taken");
	CHECK(above(&in, &t), "the property was lost");
}

static bool at_least(const struct hs_input *in, const void *ctx)
{
	return in->nr_accesses >= *(const uint32_t *)ctx;
}

/* Past a wrap of 32 bits: aggr / sample above UINT_MAX by a little. */
static bool just_past_u32(const struct hs_input *in, const void *ctx)
{
	(void)ctx;
	return in->sample_us && in->aggr_us / in->sample_us > 0xffffffffUL &&
	       (uint32_t)(in->aggr_us / in->sample_us) < 8;
}

/*
 * The reproducer of an age_in_sec of 2^31 with a frequency of 0 that is
 * not an idle region: the bisected values (10138614 us, 1024 s, 2097152)
 * made round, each a value of one or two significant digits.
 */
static bool old_idle(const struct hs_input *in, const void *ctx)
{
	unsigned long ratio = in->sample_us ? in->aggr_us / in->sample_us : 0;
	uint64_t sec = (uint64_t)in->age * in->aggr_us / 1000000;

	(void)ctx;
	return in->nr_accesses && ratio >= 100 * (unsigned long)in->nr_accesses &&
	       ratio < 1000 && sec >= 1ULL << 31 && sec < 1ULL << 32;
}

/* Significant digits, as a reader counts them in the printed number. */
static unsigned int digits(uint64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);

	while (n > 0 && buf[n - 1] == '0')
		n--;
	return (unsigned int)n;
}

static void test_shrink_round(void)
{
	struct hs_input prefer = base(), in = prefer;
	uint32_t wrap = 42949673;	/* where nr_accesses * 100 wraps */

	in.nr_accesses = 4000000000u;
	hs_shrink(&in, &prefer, at_least, &wrap);
	CHECK_EQ(in.nr_accesses, 50000000);
	in = prefer;
	in.sample_us = 10138614;
	in.aggr_us = 1024000000;
	in.nr_accesses = 1;
	in.age = 2097152;
	CHECK(old_idle(&in, NULL), "the issue's reproducer holds");
	CHECK(digits(in.sample_us) > 2 && digits(in.aggr_us) > 2 &&
	      digits(in.age) > 2, "the control: its values are not round");
	hs_shrink(&in, &prefer, old_idle, NULL);
	CHECK(old_idle(&in, NULL), "the property was lost");
	CHECK(digits(in.sample_us) <= 2 && digits(in.aggr_us) <= 2 &&
	      digits(in.age) <= 2 && in.nr_accesses == 1,
	      "not round: --sample %luus --aggr %luus --age %u", in.sample_us,
	      in.aggr_us, in.age);
	/* exact where no round value keeps it: a 32-bit wrap */
	in = prefer;
	in.sample_us = 1;
	in.aggr_us = 0x100000003UL;
	hs_shrink(&in, &prefer, just_past_u32, NULL);
	CHECK_EQ(in.aggr_us, 0x100000000UL);
	CHECK_EQ(in.sample_us, 1);
}

/* A property seen only at a cost (a hang): counts the times it holds. */
static bool at_seven(const struct hs_input *in, const void *ctx)
{
	unsigned int *held = (unsigned int *)ctx;

	*held += in->nr_accesses == 7;
	return in->nr_accesses == 7;
}

/* The preferred input with the one field that matters: one costly try. */
static void test_shrink_to_one(void)
{
	struct hs_input in = { 123456789, 987654321, 55, 66, 7, 77,
			       0xffffffe0u, 88, 99, 0 };
	struct hs_input prefer = base(), want = base();
	unsigned int held = 0;

	CHECK(hs_shrink_to_one(&in, &prefer, at_seven, &held),
	      "no field alone kept it");
	hs_shrink(&in, &prefer, at_seven, &held);
	want.nr_accesses = 7;
	CHECK(in.sample_us == want.sample_us && in.aggr_us == want.aggr_us &&
	      in.passed_sis == want.passed_sis &&
	      in.next_aggr_sis == want.next_aggr_sis &&
	      in.nr_accesses == 7 &&
	      in.last_nr_accesses == want.last_nr_accesses &&
	      in.age == want.age &&
	      in.weight_nr_accesses == want.weight_nr_accesses &&
	      in.weight_age == want.weight_age, "not the preferred input");
	CHECK_EQ(held, 1);
	held = 0;
	in = prefer;
	in.nr_accesses = 8;
	CHECK(!hs_shrink_to_one(&in, &prefer, at_seven, &held) &&
	      in.nr_accesses == 8 && !held, "a property that does not hold");
}

static void test_grid_covers(void)
{
	static struct hs_input buf[HS_GRID_UNIT_MAX];
	bool fs[101] = { false }, logs[33] = { false };
	const struct hs_components *c = prof("hotfix");
	struct hs_trace tr;
	size_t n, i;
	int k;

	/* unit 4: the default intervals (5000/100000) with weights 50/50 */
	n = hs_grid_unit(4, false, false, buf);
	CHECK_EQ(n, hs_grid_unit(4, false, false, NULL));
	CHECK(buf[0].sample_us == 5000 && buf[0].aggr_us == 100000 &&
	      buf[0].weight_nr_accesses == 50, "unit 4 is not what it was");
	for (i = 0; i < n; i++) {
		hs_score(c, &buf[i], &tr);
		if (tr.freq_subscore >= 0 && tr.freq_subscore <= 100)
			fs[tr.freq_subscore] = true;
		logs[tr.age_in_log] = true;
	}
	for (k = 0; k <= 100; k += 5)	/* 20 samples: steps of 5 % */
		CHECK(fs[k], "freq_subscore %d missing", k);
	for (k = 0; k <= 29; k++)	/* 2^32 / 10 seconds: 29 bits */
		CHECK(logs[k], "age_in_log %d missing", k);
}

static unsigned int bit_length(uint32_t x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

/*
 * Where age_in_sec is truncated to 32 bits (aggr 10^12 us), the grid still
 * holds the first age of every age_in_log: compare with a brute force
 * over the ages below 2^24.
 */
static void test_grid_ages_exact(void)
{
	static struct hs_input buf[HS_GRID_UNIT_MAX];
	uint32_t first[33];
	bool seen[33] = { false }, in_grid;
	unsigned int u, k;
	size_t n = 0, i;
	uint64_t a;

	for (u = 0; u < hs_grid_units(false); u++) {
		n = hs_grid_unit(u, false, false, buf);
		if (buf[0].aggr_us == 1000000000000ULL && buf[0].sample_us == 1)
			break;
	}
	CHECK(u < hs_grid_units(false), "no unit with aggr 10^12");
	for (a = 0; a < (1 << 24); a++) {
		k = bit_length((uint32_t)(a * 1000000000000ULL / 1000000));
		if (!seen[k]) {
			seen[k] = true;
			first[k] = (uint32_t)a;
		}
	}
	for (k = 0; k <= 32; k++) {
		if (!seen[k])
			continue;
		for (i = 0, in_grid = false; i < n && !in_grid; i++)
			in_grid = buf[i].age == first[k];
		CHECK(in_grid, "age_in_log %u: first age %u not in the grid", k,
		      first[k]);
	}
}

static void test_random_domain(void)
{
	struct hs_input a, b;
	unsigned int i, max_age = 0, zero_sample = 0;

	hs_random_input(7, 12345, &a);
	hs_random_input(7, 12345, &b);
	CHECK(!memcmp(&a, &b, sizeof(a)), "not a function of the index");
	for (i = 0; i < 20000; i++) {
		hs_random_input(7, i, &a);
		max_age = a.age > max_age ? a.age : max_age;
		zero_sample += !a.sample_us;
	}
	CHECK(max_age == UINT32_MAX, "the maximum age never drawn");
	CHECK(zero_sample > 0, "a zero interval never drawn");
}

static void test_run_independent_of_threads(void)
{
	static struct hs_verify_result r1, r3;
	struct hs_verify_config cfg = { .nr = 3, .quick = true, .threads = 1,
					.seed = 5, .random = 70000 };
	unsigned int a, b;

	cfg.comp[0] = *prof("v6.6");
	cfg.comp[1] = *prof("hotfix");
	cfg.comp[2] = *prof("rfc-fls");
	CHECK_EQ(hs_verify_run(&cfg, &r1), 0);
	cfg.threads = 3;
	CHECK_EQ(hs_verify_run(&cfg, &r3), 0);
	CHECK(!memcmp(r1.pair, r3.pair, sizeof(r1.pair)), "pairs differ");
	CHECK(!memcmp(r1.inv, r3.inv, sizeof(r1.inv)), "invariants differ");
	CHECK(!memcmp(r1.inputs, r3.inputs, sizeof(r1.inputs)), "inputs");
	CHECK_EQ(r1.inputs[HS_DOM_RANDOM], 70000);
	/* v6.6 = rfc-fls everywhere, v6.6 != hotfix somewhere */
	CHECK(r1.pair[0][2].agree == r1.pair[0][2].inputs, "v6.6/rfc-fls");
	CHECK(r1.pair[0][1].count[1 * HS_NR_STATUS_CODES] > 0 &&
	      r1.pair[0][1].ex[1 * HS_NR_STATUS_CODES].found,
	      "no v6.6 out-of-range where hotfix is ok");
	CHECK(r1.inv[1][HS_INV_RANGE].violations == 0, "hotfix overruns");
	CHECK(hs_verify_ok(&cfg, &r1), "verdict");
	for (a = 0; a < 3; a++)
		for (b = a + 1; b < 3; b++)
			CHECK_EQ(r1.pair[a][b].inputs,
				 r1.inputs[HS_DOM_GRID] +
				 r1.inputs[HS_DOM_RANDOM]);
}

static void test_verdict(void)
{
	static struct hs_verify_result res;
	struct hs_verify_config cfg = { .nr = 2 };

	cfg.comp[0] = *prof("v6.6");
	cfg.comp[1] = *prof("v2-ilog2");
	res.pair[0][1].inputs = 10;
	res.pair[0][1].agree = 10;
	CHECK(hs_verify_ok(&cfg, &res), "all agree");
	res.pair[0][1].agree = 9;
	CHECK(!hs_verify_ok(&cfg, &res), "a claimed pair differs: pass");
	cfg.comp[1] = *prof("hotfix");
	CHECK(hs_verify_ok(&cfg, &res), "an unclaimed pair may differ");
	res.agelog.mismatches[HS_AGELOG_ILOG2 * HS_NR_FLS_IMPL] = 1;
	CHECK(!hs_verify_ok(&cfg, &res), "an age_in_log mismatch: pass");
	res.agelog.mismatches[HS_AGELOG_ILOG2 * HS_NR_FLS_IMPL] = 0;
	res.fast[1].mismatches = 1;
	CHECK(!hs_verify_ok(&cfg, &res), "a prepared scorer differs: pass");
	res.fast[1].mismatches = 0;
	CHECK(hs_verify_ok(&cfg, &res), "the prepared scorer agrees: fail");
	res.fast[1].batch_mismatches[HS_FAST_AVX2] = 1;
	res.fast[1].batch_ex.found = true;
	CHECK(!hs_verify_ok(&cfg, &res), "a batch scorer differs: pass");
}

/* What counts as the prepared scorer differing from its profile. */
static void test_fast_same(void)
{
	struct hs_result m = { 50, 49, HS_OK, HS_DIV0_NONE }, f = m;

	CHECK(hs_fast_same(&m, &f), "equal results differ");
	f.hot = 51;
	CHECK(!hs_fast_same(&m, &f), "another hot");
	f = m;
	f.cold = 48;
	CHECK(!hs_fast_same(&m, &f), "another cold");
	f = m;
	f.status = HS_OUT_OF_RANGE;
	CHECK(!hs_fast_same(&m, &f), "another status");
	m.status = f.status = HS_DIV0;
	m.div0 = HS_DIV0_SAMPLE;
	f.div0 = HS_DIV0_SAMPLE;
	f.hot = 3;
	CHECK(hs_fast_same(&m, &f), "div0: hot means nothing");
	f.div0 = HS_DIV0_MAX_NR;
	CHECK(!hs_fast_same(&m, &f), "another trapping division");
}

/* A run checks every profile's prepared scorer in both input domains. */
static void test_fast_run(void)
{
	static struct hs_verify_result res;
	static struct hs_fast_stats two[HS_VERIFY_MAX_PROFILES];
	struct hs_verify_config cfg = { .nr = 2, .quick = true, .threads = 2,
					.seed = 3, .random = 5000,
					.fast = true };
	unsigned int a, k;

	cfg.comp[0] = *prof("v5.16");
	cfg.comp[1] = *prof("mm-new");
	cfg.batch_impls = batch_impls();
	CHECK_EQ(hs_verify_run(&cfg, &res), 0);
	for (a = 0; a < 2; a++) {
		const struct hs_fast_stats *fs = &res.fast[a];

		/* every batch scorer on every grid input, none on the rest */
		for (k = 0; k < HS_NR_FAST_IMPLS; k++)
			CHECK(fs->batch[k] == (cfg.batch_impls & 1u << k ?
					       fs->inputs[HS_DOM_GRID] : 0) &&
			      !fs->batch_mismatches[k],
			      "profile %u, %s: %llu of %llu grid inputs in batches, %llu differ",
			      a, hs_fast_impl_name(k),
			      (unsigned long long)fs->batch[k],
			      (unsigned long long)fs->inputs[HS_DOM_GRID],
			      (unsigned long long)fs->batch_mismatches[k]);
		CHECK(!fs->batch_ex.found, "profile %u: a batch example", a);
		CHECK_EQ(fs->inputs[HS_DOM_RANDOM], 5000);
		/* one scheme a block of the random domain: 5 blocks */
		CHECK_EQ(fs->schemes[HS_DOM_RANDOM], 5);
		CHECK(fs->inputs[HS_DOM_GRID] > 0 && fs->mismatches == 0 &&
		      fs->schemes[HS_DOM_GRID] > 0,
		      "profile %u: %llu grid inputs, %llu mismatches, %llu schemes",
		      a, (unsigned long long)fs->inputs[HS_DOM_GRID],
		      (unsigned long long)fs->mismatches,
		      (unsigned long long)fs->schemes[HS_DOM_GRID]);
	}
	memcpy(two, res.fast, sizeof(two));
	cfg.threads = 1;
	CHECK_EQ(hs_verify_run(&cfg, &res), 0);
	CHECK(!memcmp(two, res.fast, sizeof(two)),
	      "the prepared scorer's counts depend on the threads");
	/* mm-new's grid has the moving-sum states: 4 times the inputs */
	CHECK_EQ(res.fast[1].inputs[HS_DOM_GRID],
		 4 * res.fast[0].inputs[HS_DOM_GRID]);
	CHECK(hs_verify_ok(&cfg, &res), "verdict");
	cfg.fast = false;
	CHECK_EQ(hs_verify_run(&cfg, &res), 0);
	CHECK(!res.fast[0].inputs[HS_DOM_GRID] &&
	      !res.fast[1].inputs[HS_DOM_RANDOM] &&
	      !res.fast[0].batch[HS_FAST_SCALAR], "checked without .fast");
}

/*
 * A broken prepared scorer is caught: each profile checked against the
 * other's prepared scorer (v6.6 overruns where hotfix clamps) must differ,
 * fail the verdict and keep an example that reproduces the difference.
 */
static void test_fast_detects(void)
{
	static struct hs_verify_result res;
	struct hs_verify_config cfg = { .nr = 2, .quick = true, .threads = 2,
					.seed = 3, .random = 3000,
					.fast = true, .fast_rotate = 1 };
	unsigned int a, k;

	cfg.comp[0] = *prof("v6.6");
	cfg.comp[1] = *prof("hotfix");
	cfg.batch_impls = batch_impls();
	CHECK_EQ(hs_verify_run(&cfg, &res), 0);
	for (a = 0; a < 2; a++) {
		const struct hs_fast_stats *fs = &res.fast[a];
		struct hs_prep p;
		struct hs_result m, f;

		/* each batch scorer: differences, and one that reproduces */
		for (k = 0; k < HS_NR_FAST_IMPLS; k++)
			CHECK(!(cfg.batch_impls & 1u << k) ||
			      fs->batch_mismatches[k] > 0,
			      "profile %u: a broken %s batch passed", a,
			      hs_fast_impl_name(k));
		CHECK(fs->batch_ex.found, "profile %u: no batch example", a);
		if (fs->batch_ex.found) {
			m = hs_score(&cfg.comp[a], &fs->batch_ex.in, NULL);
			f = hs_batch_result(&p, &cfg.comp[1 - a],
					    fs->batch_impl, &fs->batch_ex.in);
			CHECK(!hs_fast_same(&m, &f),
			      "profile %u: its batch example agrees", a);
		}

		CHECK(fs->mismatches > 0 && fs->ex.found,
		      "profile %u: a broken scorer passed", a);
		if (!fs->ex.found)
			continue;
		m = hs_score(&cfg.comp[a], &fs->ex.in, NULL);
		hs_prep_init(&p, &cfg.comp[1 - a], &fs->ex.in);
		f = hs_fast_score(&p, fs->ex.in.nr_accesses,
				  fs->ex.in.last_nr_accesses, fs->ex.in.age);
		CHECK(!hs_fast_same(&m, &f), "profile %u: its example agrees",
		      a);
	}
	CHECK(!hs_verify_ok(&cfg, &res), "verdict ok with a broken scorer");
}

/*
 * hs_batch_result() is the model's result wherever the batch scorers are
 * right, status included, for every scorer: the seed's scheme, scores out
 * of range, and a scheme that traps.
 */
static void test_batch_result(void)
{
	static const unsigned int nrs[] = { 0, 15, 20, 21, 127, 5000 };
	const struct hs_components *c = prof("v6.6");
	struct hs_input in = base();
	struct hs_result m, b;
	struct hs_prep p;
	unsigned int k, i, mask = batch_impls();

	for (k = 0; k < HS_NR_FAST_IMPLS; k++) {
		if (!(mask & 1u << k))
			continue;
		for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
			in = base();
			in.nr_accesses = nrs[i];
			in.age = 40 * i;
			in.weight_age = i % 2 ? 0 : 1;	/* v6.6 overruns */
			m = hs_score(c, &in, NULL);
			b = hs_batch_result(&p, c, k, &in);
			CHECK(hs_fast_same(&m, &b),
			      "%s, nr %u: hot %d status %d, model %d %d",
			      hs_fast_impl_name(k), nrs[i], b.hot, b.status,
			      m.hot, m.status);
		}
		in.sample_us = 0;
		m = hs_score(c, &in, NULL);
		b = hs_batch_result(&p, c, k, &in);
		CHECK(m.status == HS_DIV0 && hs_fast_same(&m, &b),
		      "%s: a trapping scheme gives status %d", hs_fast_impl_name(k),
		      b.status);
	}
}

int main(void)
{
	RUN(test_agelog_sweep);
	RUN(test_pair_class);
	RUN(test_invariants);
	RUN(test_shrink);
	RUN(test_shrink_round);
	RUN(test_shrink_to_one);
	RUN(test_grid_covers);
	RUN(test_grid_ages_exact);
	RUN(test_random_domain);
	RUN(test_run_independent_of_threads);
	RUN(test_verdict);
	RUN(test_fast_same);
	RUN(test_fast_run);
	RUN(test_fast_detects);
	RUN(test_batch_result);
	return CHECK_DONE();
}
