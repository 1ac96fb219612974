// SPDX-License-Identifier: GPL-2.0
/*
 * test_reference.c - a second, independent implementation of the score,
 * written from the prose of docs/scoring.md rather than from the kernel's C,
 * and compared with the model on random and boundary inputs for every
 * combination of components.
 *
 * It shares no code with src/score/: it computes with wide integers and
 * reduces modulo 2^32 or 2^64 explicitly wherever the kernel's types would
 * wrap, counts bits by repeated halving, and uses as = L * 100 / 64 (equal to
 * the kernel's L * 100 / 32 / 2 for L >= 0).
 */
#include <stdlib.h>

#include "check.h"
#include <hotscore/score.h>

#define M32 0xffffffffull
typedef unsigned __int128 u128;

struct ref {
	int div0;		/* 0, or the enum hs_div0_site */
	long long hot, cold;
};

/* The int that holds the low 32 bits of @v. */
static long long as_int(unsigned long long v)
{
	v &= M32;
	return v >= 0x80000000ull ? (long long)v - 0x100000000ll : (long long)v;
}

static unsigned long long bit_length(unsigned long long x)
{
	unsigned long long n = 0;

	while (x) {
		n++;
		x /= 2;
	}
	return n;
}

/* mult_frac(x, n, d) with every product reduced modulo 2^@bits. */
static unsigned long long frac(unsigned long long x, unsigned long long n,
			       unsigned long long d, int bits)
{
	u128 mask = bits == 64 ? (u128)~0ull : M32;
	u128 q = x / d, r = x % d;

	return (unsigned long long)((((q * n) & mask) +
				     (((r * n) & mask) / d)) & mask);
}

static struct ref reference(const struct hs_components *c,
			    const struct hs_input *in)
{
	struct ref out = { 0, 0, 0 };
	unsigned long long x = in->nr_accesses, d, fs, age_sec, w, sum;
	long long fsi, L, as, h;

	if (c->freq == HS_FREQ_MVSUM) {
		unsigned long long a = in->aggr_us ? in->aggr_us : 1;
		unsigned long long s = in->sample_us ? in->sample_us : 1;
		unsigned long long len = a / s, left = 0, bp;

		if (!len) {
			out.div0 = HS_DIV0_WINDOW;
			return out;
		}
		/* time_after_eq: passed - next read as a signed long */
		if ((in->passed_sis - in->next_aggr_sis) >= (1ull << 63))
			left = in->next_aggr_sis - in->passed_sis;
		bp = frac(left, 10000, len, 64);
		x = bp == 10000 ? in->last_nr_accesses :
			(in->nr_accesses +
			 frac(in->last_nr_accesses, bp, 10000, 64)) & M32;
	}
	if (c->freq == HS_FREQ_BP)	/* r->nr_accesses_bp / 10000 */
		x = in->nr_accesses_bp / 10000;

	if (c->divisor == HS_DIV_SAFE) {
		d = in->aggr_us / (in->sample_us ? in->sample_us : 1);
		d = d > M32 ? M32 : d;
		d = d ? d : 1;
	} else if (!in->sample_us) {
		out.div0 = HS_DIV0_SAMPLE;
		return out;
	} else {
		d = in->aggr_us / in->sample_us;
		d = c->divisor == HS_DIV_MAX_NR ? (d > M32 ? M32 : d) : d & M32;
	}
	if (!d) {
		out.div0 = HS_DIV0_MAX_NR;
		return out;
	}

	fs = c->freq != HS_FREQ_RAW ? frac(x, 100, d, 32) :
		((x * 100) & M32) / d;
	fsi = as_int(fs);

	age_sec = ((unsigned long long)((u128)in->age * in->aggr_us &
					 (u128)~0ull) / 1000000) & M32;
	L = (long long)bit_length(age_sec);
	L = L > 32 ? 32 : L;
	if (fsi == 0)
		L = -L;
	as = (L + 32) * 100 / 64;

	w = ((unsigned long long)in->weight_nr_accesses * fs +
	     (unsigned long long)in->weight_age * (unsigned long long)as) & M32;
	sum = ((unsigned long long)in->weight_nr_accesses + in->weight_age) &
		M32;
	h = as_int(sum ? w / sum : w);
	h = as_int((unsigned long long)h * 99) / 100;
	if (c->clamp == HS_CLAMP_0_99)
		h = h > 99 ? 99 : (h < 0 ? 0 : h);
	out.hot = h;
	out.cold = as_int(99 - (unsigned long long)h);
	return out;
}

static uint64_t seed = 0x5eed2026;

/* A value of @bits width: a boundary, a realistic one, or uniform. */
static unsigned long long pick(int bits, const unsigned long long *real,
			       int nreal)
{
	unsigned long long max = bits == 64 ? ~0ull : M32;
	unsigned long long r = check_rand(&seed);
	int k = (int)(check_rand(&seed) % (unsigned)bits);

	switch (r % 10) {
	case 0: case 1: case 2:
		switch ((r >> 8) % 6) {
		case 0: return 0;
		case 1: return 1;
		case 2: return max;
		case 3: return (1ull << k) - 1;
		case 4: return 1ull << k;
		default: return ((1ull << k) + 1) & max;
		}
	case 3: case 4: case 5: case 6:
		return real[(r >> 8) % (unsigned)nreal];
	case 7:
		return (r >> 8) % 64;
	default:
		return check_rand(&seed) & max;
	}
}

static struct hs_input random_input(void)
{
	static const unsigned long long intervals[] = {
		1, 10, 100, 1000, 4999, 5000, 5001, 100000, 1000000,
		60000000, 4294967296ull, 4294967296000000ull };
	static const unsigned long long counts[] = {
		0, 1, 2, 9, 10, 15, 19, 20, 21, 40, 200, 42949672, 42949673 };
	static const unsigned long long ages[] = {
		0, 1, 9, 10, 49, 50, 1200, 36000, 42949, 1u << 20, 2147483648u };
	static const unsigned long long weights[] = { 0, 1, 2, 3, 50, 100, 1000 };
	static const unsigned long long bps[] = {
		0, 9999, 10000, 19999, 150000, 209999, 429490000, 4294967295u };
	struct hs_input in;

	in.sample_us = pick(64, intervals, 12);
	in.aggr_us = pick(64, intervals, 12);
	in.nr_accesses = (unsigned int)pick(32, counts, 13);
	in.last_nr_accesses = (unsigned int)pick(32, counts, 13);
	in.age = (unsigned int)pick(32, ages, 11);
	in.passed_sis = pick(64, counts, 13);
	in.next_aggr_sis = pick(64, counts, 13);
	in.weight_nr_accesses = (unsigned int)pick(32, weights, 7);
	in.weight_age = (unsigned int)pick(32, weights, 7);
	in.nr_accesses_bp = (unsigned int)pick(32, bps, 8);
	return in;
}

static int compare(const struct hs_components *c, const struct hs_input *in)
{
	struct hs_result got = hs_score(c, in, NULL);
	struct ref want = reference(c, in);
	char name[64];
	bool same;

	if (want.div0)
		same = got.status == HS_DIV0 && (int)got.div0 == want.div0;
	else
		same = got.status != HS_DIV0 && got.hot == want.hot &&
			got.cold == want.cold &&
			(got.status == HS_OUT_OF_RANGE) ==
			(want.hot < 0 || want.hot > 99);
	if (same)
		return 0;
	hs_components_format(c, name, sizeof(name));
	CHECK(same, "%s sample %lu aggr %lu nr %u bp %u last %u age %u "
	      "passed %lu next %lu fw %u aw %u: model %d/%d/%s, "
	      "reference %lld/%lld/div0=%d",
	      name, in->sample_us, in->aggr_us, in->nr_accesses,
	      in->nr_accesses_bp,
	      in->last_nr_accesses, in->age, in->passed_sis, in->next_aggr_sis,
	      in->weight_nr_accesses, in->weight_age, got.hot, got.cold,
	      hs_status_name(&got), want.hot, want.cold, want.div0);
	return 1;
}

/* Every combination of components, so no profile is left out. */
static void for_each_combination(void (*fn)(const struct hs_components *))
{
	struct hs_components c;
	int f, d, a, i, k;

	for (f = 0; f < HS_NR_FREQ; f++)
		for (d = 0; d < HS_NR_DIVISOR; d++)
			for (a = 0; a < HS_NR_AGELOG; a++)
				for (i = 0; i < HS_NR_FLS_IMPL; i++)
					for (k = 0; k < HS_NR_CLAMP; k++) {
						c = (struct hs_components){
							f, d, a, i, k };
						if ((a == HS_AGELOG_LOOP && i) ||
						    !hs_components_available(&c))
							continue;
						fn(&c);
					}
}

static long nr_inputs = 20000;
static int combinations;

static void random_against(const struct hs_components *c)
{
	long i;
	int bad = 0;

	combinations++;
	for (i = 0; i < nr_inputs && bad < 3; i++) {
		struct hs_input in = random_input();

		bad += compare(c, &in);
	}
}

static void test_random_and_boundary_inputs(void)
{
	for_each_combination(random_against);
	CHECK(combinations >= 70, "only %d combinations", combinations);
}

/* The named profiles by name too, with their own draws of inputs. */
static void test_profiles_covered(void)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < hs_nr_profiles; i++) {
		long j;

		for (j = 0; j < nr_inputs && bad < 3; j++) {
			struct hs_input in = random_input();

			bad += compare(&hs_profiles[i].comp, &in);
		}
	}
	CHECK_EQ(bad, 0);
}

/* The reference must itself reproduce the worked examples. */
static void test_reference_worked_examples(void)
{
	struct hs_components c = { HS_FREQ_RAW, HS_DIV_MAX_NR, HS_AGELOG_LOOP,
				   HS_FLS_ARCH, HS_CLAMP_NONE };
	struct hs_input in = { .sample_us = 5000, .aggr_us = 100000,
			       .nr_accesses = 10, .age = 50,
			       .weight_nr_accesses = 1, .weight_age = 1 };
	struct ref r = reference(&c, &in);

	CHECK(r.hot == 51 && r.cold == 48, "hot %lld cold %lld", r.hot, r.cold);
	in.nr_accesses = 0;
	in.age = 1200;
	in.weight_nr_accesses = 0;
	r = reference(&c, &in);
	CHECK_EQ(r.cold, 61);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		nr_inputs = atol(argv[1]);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	printf("reference: %ld inputs per combination, seed %#llx\n",
	       nr_inputs, (unsigned long long)seed);
	RUN(test_reference_worked_examples);
	RUN(test_random_and_boundary_inputs);
	RUN(test_profiles_covered);
	return CHECK_DONE();
}
