// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - perform a parsed masim workload in real memory.
 *
 * The semantics are sim's oracle's (src/sim/masim.c, docs/sim.md), so
 * that one config drives both: each region is one anonymous mapping of its
 * size rounded up to a page; the phases run in order for their durations
 * on CLOCK_MONOTONIC, on a schedule fixed at the start (phase j of pass k
 * begins k passes and the phases before j after it), repeating while the
 * run lasts; a phase's accesses go to its lines in proportion to their
 * probabilities.  A sequential line starts at offset 0 when its phase
 * begins and steps by the stride, wrapping around the region; a random line
 * touches uniformly random bytes of its region (the stride plays no part,
 * as in masim and in the oracle).  ro lines load, wo lines store, rw lines
 * do both.
 *
 * The accesses come in batches of HS_WLRUN_BATCH to one line, the line
 * drawn at random by probability, as masim draws one per burst; between
 * batches the clock and the stop flag are read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>

#include "hotscore/workload.h"

#define NS_PER_MS	1000000ULL
#define TICK_NS		(200 * NS_PER_MS)	/* as sim's progress */
#define IDLE_NAP_NS	(10 * NS_PER_MS)	/* how late an idle phase stops */

/* Loads of ro lines end here, so that none is dead code. */
static volatile uint8_t hs_wlrun_sink;

/**
 * hs_wlrun_now_ns() - CLOCK_MONOTONIC in ns, the clock the phases run on.
 *
 * Return: the time.
 */
uint64_t hs_wlrun_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t mib10(uint64_t bytes)	/* tenths of a MiB, for messages */
{
	return (bytes * 10 + (1ULL << 19)) >> 20;
}

/**
 * hs_wlrun_init() - prepare to run @wl: the counters, nothing mapped yet.
 * @r:		receives the state; hs_wlrun_free() it.
 * @wl:		a parsed workload, as hs_workload_parse() left it.
 * @err:	receives the reason on failure.
 * @errlen:	size of @err.
 *
 * The caller may then set @r->duration_ns, @r->seed, @r->stop and @r->tick.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_wlrun_init(struct hs_wlrun *r, const struct hs_workload *wl,
		  char *err, size_t errlen)
{
	unsigned int j, most = 1;
	size_t lines = 0;

	memset(r, 0, sizeof(*r));
	r->wl = wl;
	r->seed = 1;
	r->first = calloc(wl->nr_phases + 1, sizeof(*r->first));
	for (j = 0; r->first && j < wl->nr_phases; j++) {
		r->first[j] = lines;
		lines += wl->phases[j].nr_access;
		if (wl->phases[j].nr_access > most)
			most = wl->phases[j].nr_access;
	}
	if (r->first)
		r->first[wl->nr_phases] = lines;
	r->count = calloc(lines ? lines : 1, sizeof(*r->count));
	r->phase_ns = calloc(wl->nr_phases, sizeof(*r->phase_ns));
	r->phase_runs = calloc(wl->nr_phases, sizeof(*r->phase_runs));
	r->lines = calloc(most, sizeof(*r->lines));
	r->cum = calloc(most, sizeof(*r->cum));
	r->mem = calloc(wl->nr_regions, sizeof(*r->mem));
	r->bytes = calloc(wl->nr_regions, sizeof(*r->bytes));
	if (!r->first || !r->count || !r->phase_ns || !r->phase_runs ||
	    !r->lines || !r->cum || !r->mem || !r->bytes) {
		snprintf(err, errlen, "out of memory for %zu access lines",
			 lines);
		return -1;
	}
	return 0;
}

/* splitmix64: fast, and any seed (0 too) gives a good stream. */
static inline uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* More than the machine's memory and swap can never be resident. */
static int check_fits(uint64_t total, char *err, size_t errlen)
{
	struct sysinfo si;
	uint64_t have;

	if (sysinfo(&si))
		return 0;
	have = ((uint64_t)si.totalram + si.totalswap) * si.mem_unit;
	if (total <= have)
		return 0;
	snprintf(err, errlen, "the regions need %llu.%llu MiB, more than memory and swap (%llu.%llu MiB)",
		 (unsigned long long)(mib10(total) / 10),
		 (unsigned long long)(mib10(total) % 10),
		 (unsigned long long)(mib10(have) / 10),
		 (unsigned long long)(mib10(have) % 10));
	return -1;
}

/*
 * Make every page of a mapping resident, as sim's workload starts (masim
 * initialises its memory), so that the phases measure accesses rather than
 * first-touch faults.  A write, so that ro lines read real pages, not the
 * shared zero page.
 */
static int populate(uint8_t *mem, uint64_t bytes)
{
	uint64_t o;

#ifdef MADV_POPULATE_WRITE
	if (!madvise(mem, bytes, MADV_POPULATE_WRITE))
		return 0;
	/* EINVAL: a kernel before 5.14; ENOSYS: one without madvise() */
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	for (o = 0; o < bytes; o += HS_PAGE_SIZE)
		((volatile uint8_t *)mem)[o] = 0;
	return 0;
}

/*
 * masim's table of random numbers (its init_rndints()), mapped after the
 * regions and filled from the seed, when a random line will read it.
 */
static int map_rnd(struct hs_wlrun *r, uint64_t total, char *err,
		   size_t errlen)
{
	uint64_t bytes = hs_page_up(HS_WL_RND_BYTES), s = r->seed ^ HS_WL_RND_SALT;
	void *p;
	size_t i;

	if (!hs_workload_has_random(r->wl))
		return 0;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "the regions need %llu.%llu MiB; masim's table of random numbers (%llu bytes) cannot be mapped: %s",
			 (unsigned long long)(mib10(total) / 10),
			 (unsigned long long)(mib10(total) % 10),
			 (unsigned long long)bytes, strerror(errno));
		return -1;
	}
	r->rnd.table = p;
	r->rnd.bytes = bytes;
	for (i = 0; i < (size_t)HS_WL_RND_ARRAYS * HS_WL_RND_LEN; i++)
		r->rnd.table[i] = next_rand(&s);
	r->rnd.ofs = HS_WL_RND_LEN;	/* the first value draws an array */
	return 0;
}

/**
 * hs_wlrun_map() - map every region, each its own anonymous mapping, and
 * make its pages resident; a monitor started after this sees them all.
 * @r:		from hs_wlrun_init().
 * @err:	receives "the regions need N MiB ..." on failure.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set (what was mapped is unmapped by
 * hs_wlrun_free()).
 */
int hs_wlrun_map(struct hs_wlrun *r, char *err, size_t errlen)
{
	const struct hs_workload *wl = r->wl;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < wl->nr_regions; i++)
		total += r->bytes[i] = hs_page_up(wl->regions[i].size);
	if (check_fits(total, err, errlen))
		return -1;
	for (i = 0; i < wl->nr_regions; i++) {
		void *p = mmap(NULL, r->bytes[i], PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || populate(p, r->bytes[i])) {
			int e = errno;

			if (p != MAP_FAILED)
				munmap(p, r->bytes[i]);
			snprintf(err, errlen, "the regions need %llu.%llu MiB (%llu bytes); region '%s' (%llu bytes) cannot be mapped: %s",
				 (unsigned long long)(mib10(total) / 10),
				 (unsigned long long)(mib10(total) % 10),
				 (unsigned long long)total, wl->regions[i].name,
				 (unsigned long long)r->bytes[i], strerror(e));
			return -1;
		}
		r->mem[i] = p;
	}
	return map_rnd(r, total, err, errlen);
}

/* The access itself: the mode is a constant where this is inlined. */
static inline __attribute__((always_inline))
void touch(volatile uint8_t *b, uint8_t mode, uint8_t *sum)
{
	if (mode == HS_WL_RO)
		*sum += *b;
	else if (mode == HS_WL_WO)
		*b = 1;
	else
		*b = (uint8_t)(*b + 1);
}

static inline __attribute__((always_inline))
void seq_batch(struct hs_wlrun_line *l, uint8_t mode, uint8_t *sum)
{
	volatile uint8_t *mem = l->mem;
	uint64_t pos = l->pos, step = l->step, size = l->size;
	unsigned int n;

	for (n = 0; n < HS_WLRUN_BATCH; n++) {
		touch(mem + pos, mode, sum);
		pos += step;
		if (pos >= size)	/* step < size: one subtraction wraps */
			pos -= size;
	}
	l->pos = pos;
}

/*
 * masim's rndint(): the next value of its table of random numbers, read
 * one array at a time, and a new array drawn at random when one is used up.
 * The table is the process's own memory that random lines touch beside
 * their regions (docs/sim.md, "The process's own memory").
 */
static inline uint64_t rnd_value(struct hs_wlrun_rnd *t, uint64_t *s)
{
	if (t->ofs == HS_WL_RND_LEN) {
		t->arr = (uint32_t)(((unsigned __int128)next_rand(s) *
				     HS_WL_RND_ARRAYS) >> 64);
		t->ofs = 0;
	}
	return t->table[(size_t)t->arr * HS_WL_RND_LEN + t->ofs++];
}

static inline __attribute__((always_inline))
void rnd_batch(struct hs_wlrun_line *l, uint8_t mode, uint8_t *sum,
	       struct hs_wlrun_rnd *t, uint64_t *rng)
{
	volatile uint8_t *mem = l->mem;
	uint64_t size = l->size, s = *rng;
	unsigned int n;

	for (n = 0; n < HS_WLRUN_BATCH; n++) {
		/* uniform in [0, size) without a division */
		uint64_t o = (uint64_t)(((unsigned __int128)rnd_value(t, &s) *
					 size) >> 64);

		touch(mem + o, mode, sum);
	}
	*rng = s;
}

/* HS_WLRUN_BATCH accesses of line @l, each loop specialised to its mode. */
static void batch(struct hs_wlrun *r, struct hs_wlrun_line *l)
{
	struct hs_wlrun_rnd *t = &r->rnd;
	uint64_t *rng = &r->rng;
	uint8_t sum = 0;

	switch (l->random * 3 + l->mode) {
	case HS_WL_WO: seq_batch(l, HS_WL_WO, &sum); break;
	case HS_WL_RO: seq_batch(l, HS_WL_RO, &sum); break;
	case HS_WL_RW: seq_batch(l, HS_WL_RW, &sum); break;
	case 3 + HS_WL_WO: rnd_batch(l, HS_WL_WO, &sum, t, rng); break;
	case 3 + HS_WL_RO: rnd_batch(l, HS_WL_RO, &sum, t, rng); break;
	default: rnd_batch(l, HS_WL_RW, &sum, t, rng); break;
	}
	hs_wlrun_sink = sum;
}

/* Phase @j's lines at their starting points; return the probability sum. */
static uint64_t start_phase(struct hs_wlrun *r, unsigned int j)
{
	const struct hs_wl_phase *ph = &r->wl->phases[j];
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < ph->nr_access; i++) {
		const struct hs_wl_access *a = &ph->access[i];
		struct hs_wlrun_line *l = &r->lines[i];

		l->mem = r->mem[a->region];
		l->size = r->bytes[a->region];
		l->step = a->stride % l->size;
		l->pos = 0;
		l->random = a->random;
		l->mode = a->mode;
		sum += a->prob;
		r->cum[i] = sum;
	}
	return sum;
}

/* The line whose share of [0, sum) holds @x: the first cum[i] > x. */
static unsigned int pick(const uint64_t *cum, unsigned int nr, uint64_t x)
{
	unsigned int lo = 0, hi = nr - 1;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static bool stopping(const struct hs_wlrun *r)
{
	return r->stop && *r->stop;
}

/* Call the tick when TICK_NS have passed since the last. */
static void maybe_tick(struct hs_wlrun *r, uint64_t now, uint64_t *last)
{
	if (!r->tick || now - *last < TICK_NS)
		return;
	*last = now;
	r->tick(r, r->ctx);
}

/* An idle phase: sleep until @until, a nap at a time, to see a stop. */
static uint64_t idle(struct hs_wlrun *r, uint64_t until, uint64_t *last)
{
	uint64_t now = hs_wlrun_now_ns();

	while (now < until && !stopping(r)) {
		uint64_t to = until - now < IDLE_NAP_NS ? until :
			now + IDLE_NAP_NS;
		struct timespec ts = { (time_t)(to / 1000000000ULL),
				       (long)(to % 1000000000ULL) };

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = hs_wlrun_now_ns();
		maybe_tick(r, now, last);
	}
	return now;
}

/*
 * Run phase @j until @until (ns, CLOCK_MONOTONIC) or a stop; return the
 * time it ended.  Its time and accesses are added to the counters.
 */
static uint64_t run_phase(struct hs_wlrun *r, unsigned int j, uint64_t until,
			  uint64_t *last)
{
	const struct hs_wl_phase *ph = &r->wl->phases[j];
	uint64_t *count = r->count + r->first[j];
	uint64_t sum = start_phase(r, j), begin = hs_wlrun_now_ns(), now;

	r->phase = j;
	r->phase_runs[j]++;
	if (!sum) {
		now = idle(r, until, last);
		r->phase_ns[j] += now - begin;
		return now;
	}
	do {
		unsigned int i = pick(r->cum, ph->nr_access,
				      next_rand(&r->rng) % sum);

		batch(r, &r->lines[i]);
		count[i] += HS_WLRUN_BATCH;
		r->accesses += HS_WLRUN_BATCH;
		now = hs_wlrun_now_ns();
		maybe_tick(r, now, last);
	} while (now < until && !stopping(r));
	r->phase_ns[j] += now - begin;
	r->active_ns += now - begin;
	return now;
}

/**
 * hs_wlrun_run() - perform the workload: its phases in order, repeated
 * until @r->duration_ns has passed (one pass when 0), or until *@r->stop.
 * @r:		mapped (hs_wlrun_map()).
 *
 * The counters in @r tell what it did, also after a stop.
 */
void hs_wlrun_run(struct hs_wlrun *r)
{
	const struct hs_workload *wl = r->wl;
	uint64_t pass_ns = wl->total_ms * NS_PER_MS;
	uint64_t t0 = hs_wlrun_now_ns(), last = t0, end, pass, now = t0;
	unsigned int j;

	end = t0 + (r->duration_ns ? r->duration_ns : pass_ns);
	r->rng = r->seed;
	r->t0_ns = t0;
	for (pass = t0; now < end && !stopping(r); pass += pass_ns) {
		uint64_t at = pass;

		for (j = 0; j < wl->nr_phases && now < end &&
		     !stopping(r); j++) {
			at += wl->phases[j].duration_ms * NS_PER_MS;
			now = run_phase(r, j, at < end ? at : end, &last);
		}
		r->passes += j == wl->nr_phases && now >= at;
	}
	r->elapsed_ns = now - t0;
	r->stopped = stopping(r);
}

/**
 * hs_wlrun_free() - unmap the regions and free the counters.
 * @r:		from hs_wlrun_init(); zeroed.
 */
void hs_wlrun_free(struct hs_wlrun *r)
{
	unsigned int i;

	for (i = 0; r->mem && i < r->wl->nr_regions; i++)
		if (r->mem[i])
			munmap(r->mem[i], r->bytes[i]);
	if (r->rnd.table)
		munmap(r->rnd.table, r->rnd.bytes);
	free(r->mem);
	free(r->bytes);
	free(r->first);
	free(r->count);
	free(r->phase_ns);
	free(r->phase_runs);
	free(r->lines);
	free(r->cum);
	memset(r, 0, sizeof(*r));
}
