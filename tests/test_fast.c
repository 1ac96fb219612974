// SPDX-License-Identifier: GPL-2.0
/*
 * test_fast.c - the prepared scorer against the model: the reciprocal on
 * the dividends where an error would show first, the age map at every
 * threshold, and whole scores (status included) for every profile over
 * random schemes and regions, by the scalar and every vector batch.
 */
#include <string.h>

#include "check.h"
#include <hotscore/simd.h>
#include <hotscore/bench_damon.h>
#include "verify/domain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the most regions batch_vs_model() takes */
#define BATCH_MAX 512

static void recip_check(uint32_t d, uint32_t x)
{
	struct hs_recip r;

	hs_recip_init(&r, d);
	CHECK(hs_recip_div(&r, x) == x / d, "%u / %u = %u, not %u", x, d,
	      x / d, hs_recip_div(&r, x));
}

/* The dividends next to a multiple of @d, and the ends of the range. */
static void recip_edges(uint32_t d, uint64_t *s)
{
	uint64_t q, k;

	recip_check(d, 0);
	recip_check(d, UINT32_MAX);
	recip_check(d, UINT32_MAX - 1);
	for (k = 0; k < 6; k++) {
		q = k < 3 ? k + 1 : (UINT32_MAX / d) - (k - 3);
		if (!q || q * d > UINT32_MAX)
			continue;
		recip_check(d, (uint32_t)(q * d - 1));
		recip_check(d, (uint32_t)(q * d));
		if (q * d < UINT32_MAX)
			recip_check(d, (uint32_t)(q * d + 1));
	}
	recip_check(d, (uint32_t)check_rand(s));
}

static void test_recip_small_divisors(void)
{
	uint64_t s = 1;
	uint32_t d;

	for (d = 1; d <= 70000; d++)
		recip_edges(d, &s);
}

static void test_recip_large_divisors(void)
{
	static const uint32_t special[] = {
		0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
		641, 6700417, 1000000, 1000001, 42949673, 3 << 30,
	};
	uint64_t s = 2;
	unsigned int i;

	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		recip_edges(special[i], &s);
	for (i = 0; i < 200000; i++)
		recip_edges((uint32_t)check_rand(&s) | 1u << (i % 32), &s);
}

/* A sweep of the whole 32-bit range with a prime stride. */
static void test_recip_sweep(void)
{
	static const uint32_t ds[] = { 3, 7, 10, 20, 100, 1000, 65537 };
	unsigned int i;
	uint64_t x;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
		for (x = i; x <= UINT32_MAX; x += 4099)
			recip_check(ds[i], (uint32_t)x);
}

/* hs_fast_score() and hs_score() agree, as verify compares them. */
static void same(const struct hs_components *c, const struct hs_prep *p,
		 const struct hs_input *in)
{
	struct hs_result a = hs_score(c, in, NULL);
	struct hs_result b = hs_fast_score(p, hs_fast_nr_of(c, in),
					   in->last_nr_accesses, in->age);

	CHECK(a.status == b.status && a.div0 == b.div0 &&
	      (a.status == HS_DIV0 || (a.hot == b.hot && a.cold == b.cold)),
	      "model %d/%d/%d, fast %d/%d/%d: sample %lu aggr %lu nr %u bp %u last %u age %u w %u/%u passed %lu next %lu",
	      a.hot, a.status, a.div0, b.hot, b.status, b.div0, in->sample_us,
	      in->aggr_us, in->nr_accesses, in->nr_accesses_bp,
	      in->last_nr_accesses, in->age,
	      in->weight_nr_accesses, in->weight_age, in->passed_sis,
	      in->next_aggr_sis);
}

/* Random schemes at full width; for each, random regions. */
static void test_fast_random(void)
{
	struct hs_input scheme, region;
	struct hs_prep p;
	unsigned int k, i, j;

	for (k = 0; k < hs_nr_profiles; k++) {
		const struct hs_components *c = &hs_profiles[k].comp;

		for (i = 0; i < 3000; i++) {
			hs_random_input(k * 1000003ULL + 7, i, &scheme);
			hs_prep_init(&p, c, &scheme);
			for (j = 0; j < 64; j++) {
				hs_random_input(k + 99, i * 64ULL + j, &region);
				scheme.nr_accesses = region.nr_accesses;
				scheme.nr_accesses_bp = region.nr_accesses_bp;
				scheme.last_nr_accesses =
					region.last_nr_accesses;
				scheme.age = region.age;
				same(c, &p, &scheme);
			}
		}
	}
}

/* The seed's scheme, every count up to 300 and ages across every octave. */
static void test_fast_seed_scheme(void)
{
	struct hs_input in;
	struct hs_prep p;
	unsigned int k, nr, j;

	for (k = 0; k < hs_nr_profiles; k++) {
		hs_dist_base(&in);
		hs_prep_init(&p, &hs_profiles[k].comp, &in);
		for (nr = 0; nr <= 300; nr++)
			for (j = 0; j <= 32; j++) {
				in.nr_accesses = nr;
				in.last_nr_accesses = nr / 2;
				in.age = j ? (uint32_t)((1ULL << j) - 1) : 0;
				same(&hs_profiles[k].comp, &p, &in);
				in.age = j ? 1u << (j - 1) : 1;
				same(&hs_profiles[k].comp, &p, &in);
			}
	}
}

/* Around every threshold of the age map, for intervals up to 1 s. */
static void test_age_map(void)
{
	static const unsigned long aggrs[] = {
		0, 1, 3, 7, 999, 1000, 5000, 100000, 333333, 999999, 1000000,
	};
	const struct hs_components *c = &hs_profile_find("hotfix")->comp;
	struct hs_input in;
	struct hs_prep p;
	unsigned int a, j;
	int d;

	for (a = 0; a < sizeof(aggrs) / sizeof(aggrs[0]); a++) {
		hs_dist_base(&in);
		in.aggr_us = aggrs[a];
		in.sample_us = 1;
		hs_prep_init(&p, c, &in);
		CHECK(!p.age_direct, "aggr %lu: no age map", aggrs[a]);
		for (j = 0; j < HS_FAST_OCTAVES; j++)
			for (d = -1; d <= 1; d++) {
				in.age = p.age_thr[j] + (uint32_t)d;
				same(c, &p, &in);
			}
	}
	in.aggr_us = 1000001;
	hs_prep_init(&p, c, &in);
	CHECK(p.age_direct, "aggr 1000001 must compute ages directly");
}

/* Weights that overflow the int8 table and scores outside [0, 99]. */
static void test_fast_slow_entries(void)
{
	const struct hs_components *c = &hs_profile_find("v2-ilog2")->comp;
	struct hs_input in;
	struct hs_prep p;
	unsigned int slow = 0, i, nr, age;

	hs_dist_base(&in);
	/* the weights sum to 1 (mod 2^32): hot = 200 * (fs - as) * 99 / 100 */
	in.weight_nr_accesses = 200;
	in.weight_age = UINT32_MAX - 198;
	hs_prep_init(&p, c, &in);
	for (i = 0; i < sizeof(p.table) - HS_FAST_PAD; i++)
		slow += p.table[HS_FAST_PAD + i] == HS_FAST_SLOW;
	CHECK(slow > HS_FAST_ROWS, "only %u entries left to the model", slow);
	in.nr_accesses = 0;
	in.age = 0;
	CHECK(hs_fast_score(&p, 0, 0, 0).status == HS_OUT_OF_RANGE,
	      "no score out of range");
	for (nr = 0; nr <= 40; nr++)
		for (age = 0; age < 5000; age += 7) {
			in.nr_accesses = nr;
			in.age = age;
			same(c, &p, &in);
		}
}

/* max_nr 1: a count of 2 has freq_subscore 200, beyond the table. */
static void test_fast_over_100(void)
{
	struct hs_input in;
	struct hs_prep p;
	unsigned int k, nr;

	for (k = 0; k < hs_nr_profiles; k++) {
		hs_dist_base(&in);
		in.sample_us = in.aggr_us;
		hs_prep_init(&p, &hs_profiles[k].comp, &in);
		CHECK(p.fs_small[2] == HS_FAST_OVER, "%s: fs_small[2] = %u",
		      hs_profiles[k].name, p.fs_small[2]);
		for (nr = 0; nr < 300; nr++) {
			in.nr_accesses = nr;
			in.last_nr_accesses = 300 - nr;
			in.age = nr * 13;
			same(&hs_profiles[k].comp, &p, &in);
		}
	}
}

/* A moving window, and the inputs hs_prep_matches() tells apart. */
static void test_prep_window(void)
{
	const struct hs_components *c = &hs_profile_find("mm-new")->comp;
	struct hs_input in;
	struct hs_prep p;
	unsigned long passed;
	unsigned int nr;

	hs_dist_base(&in);
	in.next_aggr_sis = 20;
	hs_prep_init(&p, c, &in);
	for (passed = 0; passed <= 25; passed++) {
		in.passed_sis = passed;
		CHECK(!hs_prep_matches(&p, &in) || passed == 0,
		      "window %lu matches the one prepared", passed);
		hs_prep_window(&p, passed, in.next_aggr_sis);
		CHECK(hs_prep_matches(&p, &in), "window %lu", passed);
		for (nr = 0; nr <= 25; nr++) {
			in.nr_accesses = nr;
			in.last_nr_accesses = 25 - nr;
			in.age = nr * 50;
			same(c, &p, &in);
		}
	}
	in.weight_age++;
	CHECK(!hs_prep_matches(&p, &in), "another weight matches");
}

/* Every batch implementation against hs_fast_score(), ragged lengths. */
static void test_batches(void)
{
	enum { N = 301 };
	static unsigned int nr[N], last[N], age[N];
	static int hot[N];
	struct hs_fast_regions r = { nr, last, age };
	struct hs_input in;
	struct hs_prep p;
	uint64_t s = 5;
	unsigned int k, i, impl, len, w;

	for (i = 0; i < N; i++) {
		uint64_t x = check_rand(&s);

		nr[i] = i % 5 == 0 ? (uint32_t)x : (uint32_t)(x % 140);
		last[i] = (uint32_t)(x >> 32) % 60;
		age[i] = i % 7 == 0 ? (uint32_t)(x >> 16) :
			 (uint32_t)(x >> 40) % 5000;
	}
	for (k = 0; k < hs_nr_profiles; k++)
		for (w = 0; w < 3; w++)
			for (impl = 0; impl < HS_NR_FAST_IMPLS; impl++) {
				if (!hs_fast_impl_supported(impl))
					continue;
				hs_dist_base(&in);
				in.next_aggr_sis = w == 1 ? 10 : 0;
				in.weight_age = w == 2 ? UINT32_MAX : 50;
				hs_prep_init(&p, &hs_profiles[k].comp, &in);
				for (len = 0; len <= N; len += len < 40 ? 1 : 87) {
					enum hs_status st, want = HS_OK;

					memset(hot, 0x55, sizeof(hot));
					st = hs_fast_batch_with(impl, &p, &r, len,
								hot);
					for (i = 0; i < len; i++) {
						struct hs_result e = hs_fast_score(
							&p, nr[i], last[i], age[i]);

						CHECK(hot[i] == e.hot,
						      "%s %s len %u [%u]: %d, not %d",
						      hs_profiles[k].name,
						      hs_fast_impl_name(impl), len,
						      i, hot[i], e.hot);
						if (e.status != HS_OK)
							want = e.status;
					}
					CHECK(st == want, "%s %s len %u: status %d, not %d",
					      hs_profiles[k].name,
					      hs_fast_impl_name(impl), len, st,
					      want);
				}
			}
}

/*
 * Every batch implementation on @n regions of scheme @in against the model
 * and against hs_fast_batch(): each score, and the status (out of range if
 * any score is).
 */
static void batch_vs_model(const struct hs_components *c,
			   const struct hs_input *in, const unsigned int *nr,
			   const unsigned int *last, const unsigned int *age,
			   unsigned int n, const char *what)
{
	static int hot[BATCH_MAX], ref[BATCH_MAX];
	struct hs_fast_regions r = { nr, last, age };
	struct hs_input x = *in;
	enum hs_status ref_st;
	struct hs_prep p;
	unsigned int impl, i;

	CHECK(n <= BATCH_MAX, "%s: %u regions", what, n);
	hs_prep_init(&p, c, in);
	memset(ref, 0x55, sizeof(ref));
	ref_st = hs_fast_batch(&p, &r, n, ref);
	for (impl = 0; impl < HS_NR_FAST_IMPLS; impl++) {
		enum hs_status st, want = HS_OK;

		if (!hs_fast_impl_supported(impl))
			continue;
		memset(hot, 0x55, sizeof(hot));
		st = hs_fast_batch_with(impl, &p, &r, n, hot);
		for (i = 0; i < n; i++) {
			struct hs_result m;

			x.nr_accesses = nr[i];
			x.nr_accesses_bp = nr[i];	/* bp profiles' @nr */
			x.last_nr_accesses = last[i];
			x.age = age[i];
			m = hs_score(c, &x, NULL);
			if (m.status == HS_DIV0) {
				want = HS_DIV0;
				break;
			}
			if (m.status == HS_OUT_OF_RANGE)
				want = HS_OUT_OF_RANGE;
			CHECK(hot[i] == m.hot && hot[i] == ref[i],
			      "%s, %s [%u] nr %u last %u age %u: %d, model %d, hs_fast_batch() %d",
			      what, hs_fast_impl_name(impl), i, nr[i], last[i],
			      age[i], hot[i], m.hot, ref[i]);
		}
		CHECK(st == want && st == ref_st,
		      "%s, %s: status %d, model %d, hs_fast_batch() %d", what,
		      hs_fast_impl_name(impl), st, want, ref_st);
	}
}

/*
 * Schemes that take each path of the batch loops: the age map and ages
 * computed per region, the moving sum at both ends of a window and in the
 * middle, scores out of range on either side (some only below 0), and the
 * model's fallback, over whole vectors and a ragged tail.
 */
static void test_batch_paths(void)
{
	static const struct { unsigned long sample, aggr; uint32_t fw, aw; }
	schemes[] = {
		{ 5000, 100000, 50, 50 },	/* the seed's */
		{ 5000, 5000000, 1, 1 },	/* aggr > 1 s: ages per region */
		{ 1, 1000000, 3, 7 },		/* max_nr 10^6: the reciprocal */
		{ 7, 100, 1, 0 },
		{ 100000, 100000, 1, 1 },	/* max_nr 1: counts above 100 */
		{ 5000, 100000, 200, 4294967097u },	/* weights sum to 1 */
		{ 1000, 100000, 2, 4294967295u },	/* a score of 100 */
		{ 1000, 2000000, 2, 4294967295u },	/* 100, ages computed */
		{ 5000, 100000, 0, 0 },
	};
	enum { N = 80 };
	static unsigned int nr[N], last[N], age[N];
	unsigned int k, sc, w, i, n;
	uint64_t rnd = 9;
	char what[96];

	for (k = 0; k < hs_nr_profiles; k++)
		for (sc = 0; sc < sizeof(schemes) / sizeof(schemes[0]); sc++)
			for (w = 0; w < 3; w++) {
				const struct hs_components *c =
					&hs_profiles[k].comp;
				struct hs_input in = { 0 };
				struct hs_prep p;
				unsigned long win;

				in.sample_us = schemes[sc].sample;
				in.aggr_us = schemes[sc].aggr;
				in.weight_nr_accesses = schemes[sc].fw;
				in.weight_age = schemes[sc].aw;
				win = in.aggr_us / in.sample_us;
				in.passed_sis = 1000;
				/* bp 0, 10000 (a window just started), half */
				in.next_aggr_sis = w == 0 ? 1000 : w == 1 ?
					1000 + win : 1000 + win / 2;
				hs_prep_init(&p, c, &in);
				for (i = 0; i < N; i++) {
					uint64_t x = check_rand(&rnd);

					nr[i] = i % 9 == 8 ? (uint32_t)x :
						(uint32_t)(x % 140);
					last[i] = (uint32_t)(x >> 32) % 150;
					/* 0, both sides of a threshold, any */
					age[i] = i % 4 == 0 ? 0 : i % 4 == 3 ?
						(uint32_t)(x >> 8) :
						p.age_thr[(x >> 40) % HS_FAST_OCTAVES]
						- (i % 4 == 1);
				}
				/* with age 0: the score 100 in the last two */
				nr[5] = 76;
				nr[6] = 1520;
				age[4] = age[5] = age[6] = 0;
				for (n = 16; n <= N; n += n < 64 ? 16 : 13) {
					snprintf(what, sizeof(what),
						 "%s, scheme %u, window %u, %u regions",
						 hs_profiles[k].name, sc, w, n);
					batch_vs_model(c, &in, nr, last, age, n,
						       what);
				}
				/* the score 100 alone: out of range by 1 */
				batch_vs_model(c, &in, nr + 5, last + 5,
					       age + 5, 1, "a lone 76");
				batch_vs_model(c, &in, nr + 6, last + 6,
					       age + 6, 1, "a lone 1520");
				for (i = 0; i < 16; i++) {	/* a vector of them */
					nr[40 + i] = 76;
					last[40 + i] = 0;
					age[40 + i] = 0;
				}
				batch_vs_model(c, &in, nr + 40, last + 40,
					       age + 40, 16, "16 x 76");
				/* nothing accessed: only scores below 0 */
				memset(nr, 0, sizeof(nr));
				memset(last, 0, sizeof(last));
				batch_vs_model(c, &in, nr, last, age, 32,
					       "no access");
			}
}

/*
 * The vector scorers this CPU lacks, each a SKIP line: what the test
 * leaves unchecked here is said, not passed over in silence.
 */
static void note_skipped(const char *test)
{
	unsigned int impl;

	for (impl = HS_FAST_SCALAR + 1; impl < HS_NR_FAST_IMPLS; impl++)
		if (!hs_fast_impl_supported(impl))
			printf("SKIP %s on %s: this CPU lacks it\n", test,
			       hs_fast_impl_name(impl));
}

/* Schemes for the vector tests: the age map of each interval, max_nr. */
static const struct { unsigned long sample, aggr; uint32_t fw, aw; }
vector_schemes[] = {
	{ 5000, 100000, 50, 50 },	/* the seed's: max_nr 20 */
	{ 1, 1, 1, 1 },			/* max_nr 1: counts above 1 over */
	{ 1, 999, 3, 7 },
	{ 3, 1000000, 0, 1 },		/* max_nr 333333: fs 0 below 3334 */
	{ 7, 333333, 1, 0 },
	{ 1000, 127000, 2, 5 },		/* max_nr 127: fs_small all in range */
	{ 5000, 100000, 200, 4294967097u },	/* the model's entries */
};

/*
 * The ages where the AVX2 octave (a float's exponent) or a threshold
 * could go wrong: each power of two and its neighbours, the ones whose
 * bits below the top would round a float up, every threshold of @p and
 * its neighbours, and the ends of the range.
 */
static unsigned int edge_ages(const struct hs_prep *p, unsigned int *age)
{
	unsigned int n = 0, j;
	int d;

	for (j = 0; j < 32; j++) {
		uint32_t pow = 1u << j;

		age[n++] = pow - 1;
		age[n++] = pow;
		age[n++] = pow + 1;
		age[n++] = pow | (pow - 1);		/* all ones */
		age[n++] = pow | ((pow - 1) >> 1);	/* 0b1011..1 */
		for (d = -1; d <= 1; d++)
			age[n++] = p->age_thr[j] + (uint32_t)d;
	}
	age[n++] = UINT32_MAX;
	age[n++] = 0;
	return n;
}

/*
 * Every octave and threshold, each age in every lane (the arrays shifted
 * by 0..7 regions), with counts that go through the whole of fs_small[]
 * and past it, for every profile and window end.
 */
static void test_vector_ages(void)
{
	static unsigned int nr[BATCH_MAX], last[BATCH_MAX], age[BATCH_MAX];
	unsigned int k, sc, w, i, n, off;
	char what[112];

	note_skipped(__func__);
	for (k = 0; k < hs_nr_profiles; k++)
		for (sc = 0; sc < ARRAY_SIZE(vector_schemes); sc++)
			for (w = 0; w < 2; w++) {
				const struct hs_components *c =
					&hs_profiles[k].comp;
				struct hs_input in = { 0 };
				struct hs_prep p;

				in.sample_us = vector_schemes[sc].sample;
				in.aggr_us = vector_schemes[sc].aggr;
				in.weight_nr_accesses = vector_schemes[sc].fw;
				in.weight_age = vector_schemes[sc].aw;
				/* a window at its end, or just started */
				in.next_aggr_sis = w ? in.aggr_us /
						       in.sample_us : 0;
				hs_prep_init(&p, c, &in);
				n = edge_ages(&p, age);
				for (i = 0; i < n; i++) {
					nr[i] = i % 13 == 12 ? 0x100u + i :
						i * 7 % 141;
					last[i] = i * 11 % 150;
				}
				for (off = 0; off < 8; off++) {
					snprintf(what, sizeof(what),
						 "%s, scheme %u, window %u, from %u",
						 hs_profiles[k].name, sc, w, off);
					batch_vs_model(c, &in, nr + off,
						       last + off, age + off,
						       n - off, what);
				}
			}
}

/*
 * Counts that need 1 to 8 of fs_small[]'s 16-entry parts, the largest
 * count in the last lane or the first, and counts whose low byte is small
 * but which are not (a lookup of the low byte alone would take them in).
 */
static void test_vector_counts(void)
{
	static const unsigned int big[] = {
		127, 128, 255, 256, 261, 0x10005, 0x7fffff00, UINT32_MAX,
	};
	static unsigned int nr[64], last[64], age[64];
	unsigned int k, sc, parts, i, b;
	uint64_t rnd = 11;
	char what[112];

	note_skipped(__func__);
	for (k = 0; k < hs_nr_profiles; k++)
		for (sc = 0; sc < ARRAY_SIZE(vector_schemes); sc++) {
			const struct hs_components *c = &hs_profiles[k].comp;
			struct hs_input in = { 0 };

			in.sample_us = vector_schemes[sc].sample;
			in.aggr_us = vector_schemes[sc].aggr;
			in.weight_nr_accesses = vector_schemes[sc].fw;
			in.weight_age = vector_schemes[sc].aw;
			for (parts = 1; parts <= 8; parts++) {
				for (i = 0; i < 64; i++) {
					uint64_t x = check_rand(&rnd);

					nr[i] = (uint32_t)x % (16 * parts);
					last[i] = nr[i];
					age[i] = (uint32_t)(x >> 32) >> (x % 32);
				}
				nr[parts % 2 ? 63 : 0] = 16 * parts - 1;
				snprintf(what, sizeof(what), "%s, scheme %u, counts below %u",
					 hs_profiles[k].name, sc, 16 * parts);
				batch_vs_model(c, &in, nr, last, age, 64, what);
			}
			for (b = 0; b < ARRAY_SIZE(big); b++) {
				nr[b * 7 % 64] = big[b];
				snprintf(what, sizeof(what), "%s, scheme %u, count %u",
					 hs_profiles[k].name, sc, big[b]);
				batch_vs_model(c, &in, nr, last, age, 64, what);
			}
		}
}

/*
 * Random schemes at full width (verify's random domain) and random
 * regions: half the counts up to the scheme's max_nr, ages of every size.
 */
static void test_vector_random(void)
{
	static unsigned int nr[80], last[80], age[80];
	struct hs_input in;
	unsigned int k, i, j, n;
	uint64_t rnd = 13;
	char what[112];

	note_skipped(__func__);
	for (k = 0; k < hs_nr_profiles; k++)
		for (i = 0; i < 400; i++) {
			unsigned long max_nr;

			hs_random_input(k * 7919ULL + 3, i, &in);
			max_nr = in.aggr_us / (in.sample_us ? in.sample_us : 1);
			for (j = 0; j < 80; j++) {
				uint64_t x = check_rand(&rnd);

				nr[j] = j % 2 ? (uint32_t)(x % (max_nr + 1)) :
					(uint32_t)x >> (x % 32);
				last[j] = (uint32_t)(x >> 32) >> (x % 29);
				age[j] = (uint32_t)(x >> 16) >> ((x >> 8) % 32);
			}
			n = 8 + i % 73;
			snprintf(what, sizeof(what), "%s, random scheme %u, %u regions",
				 hs_profiles[k].name, i, n);
			batch_vs_model(&hs_profiles[k].comp, &in, nr, last,
				       age, n, what);
		}
}

/* What hs_fast_batch_impl() says a batch runs, scheme by scheme. */
static void test_batch_impl(void)
{
	const struct hs_components *raw = &hs_profile_find("hotfix")->comp;
	const struct hs_components *mv = &hs_profile_find("mm-new")->comp;
	struct hs_input in;
	struct hs_prep p;
	unsigned int impl;

	for (impl = 0; impl < HS_NR_FAST_IMPLS; impl++) {
		hs_dist_base(&in);
		hs_prep_init(&p, raw, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == impl, "%s: the seed's",
		      hs_fast_impl_name(impl));
		hs_prep_init(&p, mv, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == impl, "%s: window at 0",
		      hs_fast_impl_name(impl));
		in.next_aggr_sis = 10;	/* half-way through 20 samples */
		hs_prep_init(&p, mv, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == HS_FAST_SCALAR,
		      "%s: half a window", hs_fast_impl_name(impl));
		in.next_aggr_sis = 20;	/* just started: the last count */
		hs_prep_init(&p, mv, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == impl, "%s: window at 1",
		      hs_fast_impl_name(impl));
		hs_dist_base(&in);
		in.aggr_us = 2000000;	/* ages computed per region */
		hs_prep_init(&p, raw, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == HS_FAST_SCALAR,
		      "%s: aggr 2 s", hs_fast_impl_name(impl));
		in.sample_us = 0;	/* every region traps */
		hs_prep_init(&p, raw, &in);
		CHECK(hs_fast_batch_impl(impl, &p) == HS_FAST_SCALAR,
		      "%s: a trapping scheme", hs_fast_impl_name(impl));
	}
}

/* hs_prep_matches() tells every scheme field apart, and the window. */
static void test_prep_matches(void)
{
	struct hs_input in, other;
	struct hs_prep p;
	unsigned int k, f;

	for (k = 0; k < hs_nr_profiles; k++) {
		bool mv = hs_profiles[k].comp.freq == HS_FREQ_MVSUM;

		hs_dist_base(&in);
		in.next_aggr_sis = 20;
		hs_prep_init(&p, &hs_profiles[k].comp, &in);
		other = in;
		other.nr_accesses = 9;
		other.last_nr_accesses = 8;
		other.age = 7;
		CHECK(hs_prep_matches(&p, &other), "region fields matter");
		for (f = 0; f < 6; f++) {
			other = in;
			switch (f) {
			case 0: other.sample_us++; break;
			case 1: other.aggr_us++; break;
			case 2: other.weight_nr_accesses++; break;
			case 3: other.weight_age++; break;
			case 4: other.passed_sis++; break;
			default: other.next_aggr_sis++; break;
			}
			/* the window matters to the moving sum only */
			CHECK(hs_prep_matches(&p, &other) == (f >= 4 && !mv),
			      "%s: field %u", hs_profiles[k].name, f);
		}
	}
}

/* A scheme whose intervals trap: every entry point says so. */
static void test_fast_div0(void)
{
	const struct hs_components *c = &hs_profile_find("v6.6")->comp;
	unsigned int nr = 1, last = 0, age = 0;
	struct hs_fast_regions r = { &nr, &last, &age };
	struct hs_input in;
	struct hs_prep p;
	enum hs_fast_impl impl;
	int hot = 7;

	hs_dist_base(&in);
	in.sample_us = 0;
	hs_prep_init(&p, c, &in);
	CHECK(p.status == HS_DIV0 && p.div0 == HS_DIV0_SAMPLE, "status %d %d",
	      p.status, p.div0);
	same(c, &p, &in);
	CHECK(hs_fast_batch(&p, &r, 1, &hot) == HS_DIV0 && hot == 7,
	      "batch on a trapping scheme");
	hs_simd_choose(NULL, hs_cpu_features(), &impl, NULL, 0);
	CHECK(hs_fast_batch_with(impl, &p, &r, 1, &hot) == HS_DIV0 && hot == 7,
	      "vector batch on a trapping scheme");
	CHECK(hs_fast_batch_for(impl)(&p, &r, 1, &hot) == HS_DIV0 && hot == 7,
	      "vector batch by pointer on a trapping scheme");
}

/*
 * debian-6.12.117's prepared scorer takes nr_accesses_bp: every bp that
 * changes the count near the tabulated ones, the tables' edge and the
 * wrap at UINT_MAX, against the model, one at a time and in batches.
 */
static void test_fast_bp(void)
{
	static unsigned int bp[512], last[512], age[512];
	const struct hs_components *c =
		&hs_profile_find("debian-6.12.117")->comp;
	static const unsigned long divs[][2] = {
		{ 5000, 100000 }, { 1000, 1000 }, { 1, 4294967296000ul },
		{ 0, 0 }, { 3, 1000 },
	};
	struct hs_input in;
	struct hs_prep p;
	unsigned int d, i;

	for (d = 0; d < sizeof(divs) / sizeof(divs[0]); d++) {
		hs_dist_base(&in);
		in.sample_us = divs[d][0];
		in.aggr_us = divs[d][1];
		hs_prep_init(&p, c, &in);
		for (i = 0; i < 512; i++) {
			bp[i] = i < 256 ? i * 9999u / 2 :
				UINT32_MAX - (i - 256) * 5003u;
			last[i] = 0;
			age[i] = i * 37;
			in.nr_accesses = 0;	/* not read */
			in.nr_accesses_bp = bp[i];
			in.age = age[i];
			same(c, &p, &in);
		}
		batch_vs_model(c, &in, bp, last, age, 512, "bp");
	}
}

int main(void)
{
	RUN(test_recip_small_divisors);
	RUN(test_recip_large_divisors);
	RUN(test_recip_sweep);
	RUN(test_fast_random);
	RUN(test_fast_bp);
	RUN(test_fast_seed_scheme);
	RUN(test_age_map);
	RUN(test_fast_slow_entries);
	RUN(test_fast_over_100);
	RUN(test_prep_window);
	RUN(test_batches);
	RUN(test_batch_paths);
	RUN(test_vector_ages);
	RUN(test_vector_counts);
	RUN(test_vector_random);
	RUN(test_batch_impl);
	RUN(test_prep_matches);
	RUN(test_fast_div0);
	return CHECK_DONE();
}
