/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_masim.h - the memory a simulated kdamond watches, and who touches it.
 *
 * A workload is masim's model (sjp38/masim): named regions of memory and a
 * sequence of phases; in each phase some regions are accessed randomly or
 * sequentially with a stride, each line with a relative probability.
 * hotscore turns that into a deterministic oracle: "was this page touched
 * during the current sample interval?"  See docs/sim.md for the model.
 */
#ifndef HOTSCORE_SIM_MASIM_H
#define HOTSCORE_SIM_MASIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_PAGE_SIZE		4096UL
#define HS_PAGE_SHIFT		12
#define HS_WL_NAME_LEN		64

/**
 * struct hs_wl_region - one mapping of the workload.
 * @start:	first byte (page aligned) in the simulated address space.
 * @end:	@start + @size rounded up to a page.
 * @size:	bytes, as configured.
 * @first_page:	index of its first page in the residency bitmap.
 * @nr_out:	its pages that are paged out now.
 * @own:	enum hs_wl_own: a masim region, or a piece of the process'
 *		own memory in vaddr and what the process does to it.
 * @name:	its name in the config, or the process' mapping's name
 *		("/bin/hotscore, .bss", "[heap]", "[rnd]", "[stack]"...).
 */
struct hs_wl_region {
	uint64_t start, end;	/* first: the sampling loop reads these */
	uint64_t size;
	uint64_t first_page;
	uint64_t nr_out;
	uint8_t own;
	char name[HS_WL_NAME_LEN];
};

/*
 * What the process does to a piece of its own memory in every sample:
 * nothing; touch it whole (the pages its loop lives in); or what masim's
 * table of random numbers gets from the phase's random lines.
 */
enum hs_wl_own { HS_WL_MASIM, HS_WL_OWN_COLD, HS_WL_OWN_HOT, HS_WL_OWN_RND };

/**
 * struct hs_wl_access - one access line of a phase.
 * @region:	index into hs_workload.regions.
 * @random:	random (1) or sequential (0) access.
 * @stride:	bytes between sequential accesses.
 * @prob:	relative probability of this line among the phase's lines.
 * @num:	accesses per microsecond, numerator (hs_workload_prepare()).
 * @den:	its denominator.
 * @threshold:	random: P(a page is touched in one sample) * 2^32.
 * @sweep:	sequential: bytes swept in one sample.
 * @pos:	sequential: where this sample's sweep starts (offset).
 * @mode:	enum hs_wl_mode: read, write or both (masim's ro|wo|rw); the
 *		oracle ignores it, hotscore workload does what it says.
 */
struct hs_wl_access {
	unsigned int region;
	bool random;
	uint64_t stride;
	uint64_t prob;
	uint64_t num, den;
	uint64_t threshold;
	uint64_t sweep;
	uint64_t pos;
	uint8_t mode;
};

/* An access line's mode; wo when the line names none, as in masim. */
enum hs_wl_mode { HS_WL_WO, HS_WL_RO, HS_WL_RW };

/**
 * struct hs_wl_phase - a masim phase.
 * @name:	its name line.
 * @duration_ms: how long it runs.
 * @rate:	its memory accesses per millisecond; 0: the workload's @rate.
 * @access:	its access lines, sorted by region.
 * @nr_access:	how many.
 * @rnd_threshold: P(a page of masim's table is read in one sample) * 2^32,
 *		for a page in one of the table's arrays [0] and in two [1].
 */
struct hs_wl_phase {
	char name[HS_WL_NAME_LEN];
	uint64_t duration_ms;
	uint64_t rate;
	struct hs_wl_access *access;
	unsigned int nr_access;
	uint64_t rnd_threshold[2];
};

#define HS_WL_MAX_TOUCH		8
/* An idle phase sleeps in naps this long (hotscore workload's idle()). */
#define HS_WL_IDLE_NAP_US	10000

/**
 * struct hs_workload - regions, phases and the oracle's state.
 * @name:	"stairs", "zigzag" or the config file's name.
 * @regions:	in address order.
 * @nr_regions:	how many.
 * @nr_masim:	how many of them come from the config (the others are the
 *		process' own mappings).
 * @phases:	in order; the workload repeats them while a run lasts.
 * @nr_phases:	how many.
 * @total_ms:	the sum of phase durations.
 * @total_bytes: the sum of masim region sizes.
 * @rate:	memory accesses per millisecond of every phase without its own.
 * @seed:	seeds the random access lines.
 * @nr_pages:	pages in all regions.
 * @out:	residency bitmap: a set bit is a paged-out page.
 * @nr_out:	pages paged out now.
 * @faults:	touches of paged-out pages so far (each brings its page back).
 * @phase:	the phase of the current sample (hs_workload_begin()).
 * @sample:	the current sample's index.
 * @kind:	per region, what the current sample does to it: HS_WL_NONE,
 *		HS_WL_ALL (every page touched) or HS_WL_SOME (ask the lines).
 * @touch:	the process' own pieces that it touches (HS_WL_OWN_HOT and
 *		HS_WL_OWN_RND), so that a sample need not look at the others.
 * @nr_touch:	how many.
 * @sample_us:	the sampling interval (hs_workload_prepare()).
 */
struct hs_workload {
	char name[HS_WL_NAME_LEN];
	struct hs_wl_region *regions;
	unsigned int nr_regions;
	unsigned int nr_masim;
	struct hs_wl_phase *phases;
	unsigned int nr_phases;
	uint64_t total_ms;
	uint64_t total_bytes;
	uint64_t rate;
	uint64_t seed;
	uint64_t nr_pages;
	uint64_t *out;
	uint64_t nr_out;
	uint64_t faults;
	unsigned int phase;
	uint64_t sample;
	uint8_t *kind;
	unsigned int touch[HS_WL_MAX_TOUCH];
	unsigned int nr_touch;
	unsigned long sample_us;
};

enum { HS_WL_NONE, HS_WL_ALL, HS_WL_SOME };

/*
 * The simulated process (vaddr) is the static `hotscore workload` as
 * /proc/PID/maps shows it in the guest, address-space randomization off
 * (scripts/guest/live.sh); see docs/sim.md, "The process's own memory".
 */
#define HS_WL_TEXT_START	0x400000UL	/* /bin/hotscore: text, data */
#define HS_WL_BSS_START		0x591000UL	/* .bss (one piece with the text) */
#define HS_WL_HEAP_START	0x1566000UL
#define HS_WL_HEAP_HOT1		0x1568000UL	/* [start, here): touched always */
#define HS_WL_HEAP_HOT2		0x1579000UL	/* two pages from here, too */
#define HS_WL_HEAP_END		0x1588000UL
#define HS_WL_MMAP_TOP		0x7ffff7ff9000UL	/* mmap()s go down from here */
#define HS_WL_VDSO_START	0x7ffff7ffd000UL	/* [vvar] below it: one piece */
#define HS_WL_VDSO_END		0x7ffff7fff000UL
#define HS_WL_STACK_START	0x7ffffffde000UL
#define HS_WL_STACK_HOT		0x7fffffffe000UL	/* its top page */
#define HS_WL_STACK_END		0x7ffffffff000UL
/* masim's table of random numbers: rand_batch arrays of rand_arr_sz */
#define HS_WL_RND_ARRAYS	1000U
#define HS_WL_RND_LEN		1000U
#define HS_WL_RND_ARRAY_BYTES	(HS_WL_RND_LEN * 8UL)	/* size_t values */
#define HS_WL_RND_BYTES		((uint64_t)HS_WL_RND_ARRAYS * HS_WL_RND_ARRAY_BYTES)
#define HS_WL_RND_SALT		0x6d6173696d726e64ULL	/* "masimrnd" */
#define HS_WL_PADDR_START	0x100000000UL		/* paddr: at 4 GiB */
#define HS_WL_MAX_BYTES		(64UL << 30)		/* 64 GiB in all */
#define HS_WL_MAX_REGIONS	4096
#define HS_WL_MAX_PHASES	1000000
#define HS_WL_MAX_MS		(30ULL * 24 * 3600 * 1000)	/* a phase */
#define HS_WL_MAX_TOTAL_MS	(100ULL * 365 * 24 * 3600 * 1000)
#define HS_WL_DEFAULT_RATE	100000			/* accesses per ms */
#define HS_WL_MAX_RATE		(1UL << 30)

enum hs_wl_layout { HS_WL_VADDR, HS_WL_PADDR };

/* @bytes rounded up to a page: what a region or the table maps. */
static inline uint64_t hs_page_up(uint64_t bytes)
{
	return (bytes + HS_PAGE_SIZE - 1) & ~(HS_PAGE_SIZE - 1);
}

int hs_workload_parse(const char *text, size_t len, const char *file,
		      struct hs_workload *wl, char *err, size_t errlen);
const char *hs_workload_builtin(const char *name);
int hs_workload_layout(struct hs_workload *wl, enum hs_wl_layout layout,
		       char *err, size_t errlen);
void hs_workload_prepare(struct hs_workload *wl, unsigned long sample_us);
void hs_workload_free(struct hs_workload *wl);

void hs_workload_begin(struct hs_workload *wl, uint64_t sample,
		       uint64_t now_us);
unsigned int hs_workload_search(const struct hs_workload *wl, uint64_t addr);
bool hs_workload_lines_touch(const struct hs_workload *wl, unsigned int region,
			     uint64_t addr);
bool hs_workload_has_random(const struct hs_workload *wl);

/**
 * hs_workload_find() - the region holding @addr.
 * @wl:		the workload.
 * @addr:	an address.
 * @hint:	a region to try first (kdamond's region rarely moves).
 *
 * Return: its index, or @wl->nr_regions when @addr is in no region.
 */
static inline unsigned int hs_workload_find(const struct hs_workload *wl,
					    uint64_t addr, unsigned int hint)
{
	/* one unsigned compare tests start <= addr < end */
	if (hint < wl->nr_regions && addr - wl->regions[hint].start <
	    wl->regions[hint].end - wl->regions[hint].start)
		return hint;
	return hs_workload_search(wl, addr);
}

/**
 * hs_workload_touched() - was @addr touched during the current sample?
 * @wl:		the workload, after hs_workload_begin().
 * @region:	the region holding @addr (hs_workload_find()).
 * @addr:	the address kdamond sampled.
 *
 * Return: true if the workload touched @addr's page.
 */
static inline bool hs_workload_touched(const struct hs_workload *wl,
				       unsigned int region, uint64_t addr)
{
	if (region >= wl->nr_regions || wl->kind[region] == HS_WL_NONE)
		return false;
	return wl->kind[region] == HS_WL_ALL ||
		hs_workload_lines_touch(wl, region, addr);
}
void hs_workload_fault_in(struct hs_workload *wl);
uint64_t hs_workload_pageout(struct hs_workload *wl, uint64_t start,
			     uint64_t end, bool skip_young);
uint64_t hs_workload_resident(struct hs_workload *wl, uint64_t start,
			      uint64_t end);

#endif /* HOTSCORE_SIM_MASIM_H */
