// SPDX-License-Identifier: GPL-2.0
/*
 * masim.c - masim configs, the simulated address space and the access
 * oracle that kdamond's sampling asks.
 *
 * Parsing follows masim's README: blank-line separated paragraphs; the first
 * defines regions "name, size_bytes[, init_data_file]"; each later one is a
 * phase: a name line, a duration in ms, then lines
 * "region, random(1)|seq(0), stride_bytes, relative_probability[, ro|wo|rw]".
 * Lines starting with '#' are comments.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/sim_masim.h"

/* masim's configs/stairs.cfg and zigzag.cfg, in shape (docs/sim.md). */
static const char stairs_cfg[] =
	"# shaped like masim configs/stairs.cfg: one 10 MB region hot at a time\n"
	"a, 10000000\nb, 10000000\nc, 10000000\nd, 10000000\ne, 10000000\n"
	"f, 10000000\ng, 10000000\nh, 10000000\ni, 10000000\nj, 10000000\n"
	"\ninitial phase\n10000\n"
	"a, 0, 4096, 1\nb, 0, 4096, 1\nc, 0, 4096, 1\nd, 0, 4096, 1\n"
	"e, 0, 4096, 1\nf, 0, 4096, 1\ng, 0, 4096, 1\nh, 0, 4096, 1\n"
	"i, 0, 4096, 1\nj, 0, 4096, 1\n"
	"\nphase 0\n5000\na, 0, 4096, 50\n\nphase 1\n5000\nb, 0, 4096, 50\n"
	"\nphase 2\n5000\nc, 0, 4096, 50\n\nphase 3\n5000\nd, 0, 4096, 50\n"
	"\nphase 4\n5000\ne, 0, 4096, 50\n\nphase 5\n5000\nf, 0, 4096, 50\n"
	"\nphase 6\n5000\ng, 0, 4096, 50\n\nphase 7\n5000\nh, 0, 4096, 50\n"
	"\nphase 8\n5000\ni, 0, 4096, 50\n\nphase 9\n5000\nj, 0, 4096, 50\n";

static const char zigzag_cfg[] =
	"# shaped like masim configs/zigzag.cfg: two 100 MB regions take turns\n"
	"a, 100000000\nb, 100000000\n"
	"\ninitial phase\n10000\na, 0, 4096, 1\nb, 0, 4096, 1\n"
	"\nlow 0\n5000\na, 0, 4096, 1\n\nhigh 0\n5000\nb, 0, 4096, 1\n"
	"\nlow 1\n5000\na, 0, 4096, 1\n\nhigh 1\n5000\nb, 0, 4096, 1\n"
	"\nlow 2\n5000\na, 0, 4096, 1\n\nhigh 2\n5000\nb, 0, 4096, 1\n"
	"\nlow 3\n5000\na, 0, 4096, 1\n\nhigh 3\n5000\nb, 0, 4096, 1\n"
	"\nlow 4\n5000\na, 0, 4096, 1\n\nhigh 4\n5000\nb, 0, 4096, 1\n"
	"\nlow 5\n5000\na, 0, 4096, 1\n\nhigh 5\n5000\nb, 0, 4096, 1\n";

/**
 * hs_workload_builtin() - the config text of a built-in workload.
 * @name:	"stairs" or "zigzag".
 *
 * Return: the text, or NULL for an unknown name.
 */
const char *hs_workload_builtin(const char *name)
{
	if (!strcmp(name, "stairs"))
		return stairs_cfg;
	if (!strcmp(name, "zigzag"))
		return zigzag_cfg;
	return NULL;
}

struct parser {
	const char *file;
	unsigned int line;
	char *err;
	size_t errlen;
};

static int parse_error(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int parse_error(struct parser *p, const char *fmt, ...)
{
	char msg[256];	/* as large as the callers' buffers */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u: %s", p->file, p->line, msg);
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* "s" unless @n is 1: "1 field", "2 fields". */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/*
 * A number field of a config line, and its bounds: what it is called in a
 * message, its unit for 1 and for other counts ("" for none) and its range.
 * @max_text, if set, names @max in words ("64 GiB").
 */
struct num_field {
	const char *what;
	const char *unit1, *units;
	uint64_t min, max;
	const char *max_text;
};

static const struct num_field region_size = {
	"region size", "byte", "bytes", 1, HS_WL_MAX_BYTES, "64 GiB" };
static const struct num_field phase_duration = {
	"phase duration", "ms", "ms", 1, HS_WL_MAX_MS, "30 days" };
static const struct num_field access_stride = {
	"stride", "byte", "bytes", 1, UINT64_MAX, NULL };
static const struct num_field access_prob = {
	"probability", "", "", 0, UINT32_MAX, NULL };

/* "4096 bytes", "1 byte", "100 ms", "7": @n in @f's unit. */
static const char *with_unit(char *buf, size_t size, uint64_t n,
			     const struct num_field *f)
{
	snprintf(buf, size, "%llu%s%s", (unsigned long long)n,
		 *f->units ? " " : "", n == 1 ? f->unit1 : f->units);
	return buf;
}

/*
 * Read @s as the field @f: plain decimal digits (as masim's configs have),
 * within @f's range.  Each way to miss gets its own reason, so that a value
 * past the limit is not called "not a number": missing, not a number,
 * negative, zero or below the minimum, too large (overflow included).
 */
static int parse_num(struct parser *p, const struct num_field *f,
		     const char *s, uint64_t *out)
{
	const char *d = s + (*s == '-');
	bool digits = *d && strspn(d, "0123456789") == strlen(d);
	bool overflow = false;
	char lim[48];
	uint64_t v = 0;

	if (!*s)
		return parse_error(p, "%s is missing", f->what);
	for (; digits && *d; d++) {
		if (v > (UINT64_MAX - (uint64_t)(*d - '0')) / 10)
			overflow = true;
		else
			v = v * 10 + (uint64_t)(*d - '0');
	}
	/* a sign is never taken; below 0 is worth saying, "-0" is not */
	if (digits && *s == '-' && (v || overflow))
		return parse_error(p, "%s '%s' is negative", f->what, s);
	if (!digits || *s == '-')
		return parse_error(p, "%s '%s' is not a decimal number%s%s",
				   f->what, s, *f->units ? " of " : "",
				   f->units);
	if (!overflow && v < f->min)
		return parse_error(p, "%s '%s' is %s: at least %s", f->what, s,
				   v ? "too small" : "zero",
				   with_unit(lim, sizeof(lim), f->min, f));
	if (overflow || v > f->max) {
		with_unit(lim, sizeof(lim), f->max, f);
		if (f->max_text)
			return parse_error(p, "%s '%s' is too large: at most %s (%s)",
					   f->what, s, f->max_text, lim);
		return parse_error(p, "%s '%s' is too large: at most %s",
				   f->what, s, lim);
	}
	*out = v;
	return 0;
}

static unsigned int split_fields(char *line, char **f, unsigned int max)
{
	unsigned int n = 0;
	char *p = line;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (n < max)
			f[n] = trim(p);
		n++;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

static void *grow(void *arr, unsigned int nr, size_t size)
{
	/* doubling at powers of two keeps appends amortised O(1) */
	if (nr & (nr - 1))
		return arr;
	return realloc(arr, (nr ? 2 * nr : 1) * size);
}

static int find_region(const struct hs_workload *wl, const char *name)
{
	unsigned int i;

	for (i = 0; i < wl->nr_regions; i++)
		if (!strcmp(wl->regions[i].name, name))
			return (int)i;
	return -1;
}

static int parse_region(struct parser *p, struct hs_workload *wl, char *line)
{
	char *f[3];
	unsigned int n = split_fields(line, f, 3);
	struct hs_wl_region *r;
	uint64_t size;

	if (n < 2 || n > 3)
		return parse_error(p, "a region is 'name, size_bytes[, init_data_file]', got %u field%s",
				   n, plural(n));
	if (!*f[0] || strlen(f[0]) >= HS_WL_NAME_LEN)
		return parse_error(p, "region name must have 1 to %d characters",
				   HS_WL_NAME_LEN - 1);
	if (find_region(wl, f[0]) >= 0)
		return parse_error(p, "region '%s' is defined twice", f[0]);
	if (parse_num(p, &region_size, f[1], &size))
		return -1;
	if (size > HS_WL_MAX_BYTES - wl->total_bytes)	/* the sum, too */
		return parse_error(p, "region size '%s' is too large: at most %llu byte%s more (64 GiB in all)",
				   f[1], (unsigned long long)(HS_WL_MAX_BYTES -
							       wl->total_bytes),
				   plural(HS_WL_MAX_BYTES - wl->total_bytes));
	if (wl->nr_regions >= HS_WL_MAX_REGIONS)
		return parse_error(p, "more than %d regions", HS_WL_MAX_REGIONS);
	wl->total_bytes += size;
	r = grow(wl->regions, wl->nr_regions, sizeof(*r));
	if (!r)
		return parse_error(p, "out of memory");
	wl->regions = r;
	r += wl->nr_regions++;
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", f[0]);
	r->size = size;
	return 0;
}

static int parse_access(struct parser *p, struct hs_workload *wl,
			struct hs_wl_phase *ph, char *line)
{
	char *f[5];
	unsigned int n = split_fields(line, f, 5);
	struct hs_wl_access *a;
	uint64_t random, stride, prob;
	const char *digit;
	int region;

	if (n < 4 || n > 5)
		return parse_error(p, "an access is 'region, random, stride, prob[, rw]', got %u field%s",
				   n, plural(n));
	region = find_region(wl, f[0]);
	if (region < 0)
		return parse_error(p, "no region named '%s'", f[0]);
	/* 1 or 0, leading zeros allowed: "01" is 1, as it always was */
	digit = f[1] + strspn(f[1], "0");
	if (!*f[1] || (*digit && strcmp(digit, "1")))
		return parse_error(p, "random must be 1 or 0, got '%s'", f[1]);
	random = *digit == '1';
	if (parse_num(p, &access_stride, f[2], &stride) ||
	    parse_num(p, &access_prob, f[3], &prob))
		return -1;
	if (ph->nr_access >= HS_WL_MAX_REGIONS)
		return parse_error(p, "more than %d access lines in a phase",
				   HS_WL_MAX_REGIONS);
	if (n == 5 && strcmp(f[4], "ro") && strcmp(f[4], "wo") &&
	    strcmp(f[4], "rw"))
		return parse_error(p, "access mode must be ro, wo or rw, got '%s'", f[4]);
	a = grow(ph->access, ph->nr_access, sizeof(*a));
	if (!a)
		return parse_error(p, "out of memory");
	ph->access = a;
	a += ph->nr_access++;
	memset(a, 0, sizeof(*a));
	a->region = (unsigned int)region;
	a->random = random;
	a->stride = stride;
	a->prob = prob;
	if (n == 5)
		a->mode = !strcmp(f[4], "ro") ? HS_WL_RO :
			!strcmp(f[4], "rw") ? HS_WL_RW : HS_WL_WO;
	return 0;
}

static int parse_phase_line(struct parser *p, struct hs_workload *wl,
			    unsigned int nth, char *line)
{
	struct hs_wl_phase *ph;

	if (nth == 0) {
		if (wl->nr_phases >= HS_WL_MAX_PHASES)
			return parse_error(p, "more than %d phases",
					   HS_WL_MAX_PHASES);
		ph = grow(wl->phases, wl->nr_phases, sizeof(*ph));
		if (!ph)
			return parse_error(p, "out of memory");
		wl->phases = ph;
		ph += wl->nr_phases++;
		memset(ph, 0, sizeof(*ph));
		if (strlen(line) >= HS_WL_NAME_LEN)
			return parse_error(p, "phase name longer than %d characters",
					   HS_WL_NAME_LEN - 1);
		snprintf(ph->name, sizeof(ph->name), "%s", line);
		return 0;
	}
	ph = &wl->phases[wl->nr_phases - 1];
	if (nth == 1) {
		if (parse_num(p, &phase_duration, line, &ph->duration_ms))
			return -1;
		if (ph->duration_ms > HS_WL_MAX_TOTAL_MS - wl->total_ms)
			return parse_error(p, "phase duration '%s' is too large: at most %llu ms after the phases before it (100 years in all)",
					   line, (unsigned long long)
					   (HS_WL_MAX_TOTAL_MS - wl->total_ms));
		wl->total_ms += ph->duration_ms;
		return 0;
	}
	return parse_access(p, wl, ph, line);
}

static int cmp_access(const void *a, const void *b)
{
	const struct hs_wl_access *x = a, *y = b;

	return (x->region > y->region) - (x->region < y->region);
}

/* A phase whose lines all have probability 0 is a mistake: say where. */
static int check_phase(struct parser *p, const struct hs_workload *wl)
{
	const struct hs_wl_phase *ph;
	uint64_t sum = 0;
	unsigned int i;

	if (!wl->nr_phases)
		return 0;
	ph = &wl->phases[wl->nr_phases - 1];
	for (i = 0; i < ph->nr_access; i++)
		sum += ph->access[i].prob;
	if (ph->nr_access && !sum)
		return parse_error(p, "phase '%s': every probability is 0 (an idle phase lists no access)",
				   ph->name);
	return 0;
}

/* The end of the line at @s: "\n", "\r\n" or a lone "\r". */
static size_t line_end(const char *s, size_t len, size_t *next)
{
	size_t n = 0;

	while (n < len && s[n] != '\n' && s[n] != '\r')
		n++;
	*next = n;
	if (n < len)
		*next += s[n] == '\r' && n + 1 < len && s[n + 1] == '\n' ? 2 : 1;
	return n;
}

/*
 * The next line of @text into @buf, trimmed, in *@line.  Return: 1, 0 at
 * the end of the text, -1 on a line too long or a NUL byte.
 */
static int next_line(struct parser *p, const char **text, size_t *len,
		     char *buf, size_t size, char **line)
{
	size_t next, n;

	if (!*len)
		return 0;
	n = line_end(*text, *len, &next);
	p->line++;
	if (n >= size)
		return parse_error(p, "line longer than %zu bytes", size - 1);
	memcpy(buf, *text, n);
	buf[n] = '\0';
	*text += next;
	*len -= next;
	if (memchr(buf, '\0', n))
		return parse_error(p, "a NUL byte: not a text file");
	*line = trim(buf);
	return 1;
}

/* A paragraph of @nth lines ends: a phase needs its duration line. */
static int end_paragraph(struct parser *p, struct hs_workload *wl,
			 unsigned int paragraph, unsigned int nth)
{
	if (paragraph > 0 && nth == 1)
		return parse_error(p, "phase '%s' has no duration line",
				   wl->phases[wl->nr_phases - 1].name);
	return check_phase(p, wl) ? -1 : 0;
}

/* The end of the text: the last paragraph, and regions and phases at all. */
static int finish(struct parser *p, struct hs_workload *wl,
		  unsigned int paragraph, unsigned int nth)
{
	if (!p->line)
		p->line = 1;
	if (end_paragraph(p, wl, paragraph, nth))
		return -1;
	if (!wl->nr_regions)
		return parse_error(p, "no regions defined");
	if (!wl->nr_phases)
		return parse_error(p, "no phases defined");
	wl->nr_masim = wl->nr_regions;
	return 0;
}

/**
 * hs_workload_parse() - read a masim config.
 * @text:	the whole config.
 * @len:	its length in bytes.
 * @file:	its name, for messages.
 * @wl:		receives the workload (zeroed first); hs_workload_free() it.
 * @err:	receives "FILE:LINE: what is wrong" on failure.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_workload_parse(const char *text, size_t len, const char *file,
		      struct hs_workload *wl, char *err, size_t errlen)
{
	struct parser p = { file, 0, err, errlen };
	unsigned int paragraph = 0, nth = 0;
	const char *base = strrchr(file, '/');
	char buf[512], *line = NULL;
	int ret;

	memset(wl, 0, sizeof(*wl));
	snprintf(wl->name, sizeof(wl->name), "%s", base ? base + 1 : file);
	wl->rate = HS_WL_DEFAULT_RATE;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {	/* a UTF-8 BOM */
		text += 3;
		len -= 3;
	}
	while ((ret = next_line(&p, &text, &len, buf, sizeof(buf), &line)) > 0) {
		if (*line == '#')
			continue;
		if (!*line) {	/* a blank line ends a paragraph */
			if (nth && end_paragraph(&p, wl, paragraph++, nth))
				return -1;
			nth = 0;
			continue;
		}
		if (paragraph == 0 ? parse_region(&p, wl, line) :
		    parse_phase_line(&p, wl, nth, line))
			return -1;
		nth++;
	}
	if (ret < 0)
		return -1;
	return finish(&p, wl, paragraph, nth);
}

/**
 * hs_workload_has_random() - does any phase have a random line?  Only then
 * does the process use masim's table of random numbers.
 * @wl:		a parsed workload.
 *
 * Return: true if one does.
 */
bool hs_workload_has_random(const struct hs_workload *wl)
{
	unsigned int i, j;

	for (j = 0; j < wl->nr_phases; j++)
		for (i = 0; i < wl->phases[j].nr_access; i++)
			if (wl->phases[j].access[i].random)
				return true;
	return false;
}

static void add_mapping(struct hs_wl_region *r, const char *name,
			uint64_t start, uint64_t end, uint8_t own)
{
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->size = end - start;
	r->start = start;
	r->end = end;
	r->own = own;
}

/*
 * The process' own mappings, in address order, with the pages its loop
 * touches every sample cut out as pieces of their own.
 */
static const struct {
	const char *name;
	uint64_t start, end;
	uint8_t own;
} own_low[] = {
	/* one piece where the process does alike: fewer lookups a sample */
	{ "/bin/hotscore, .bss", HS_WL_TEXT_START, HS_WL_HEAP_START,
	  HS_WL_OWN_COLD },
	{ "[heap]", HS_WL_HEAP_START, HS_WL_HEAP_HOT1, HS_WL_OWN_HOT },
	{ "[heap]", HS_WL_HEAP_HOT1, HS_WL_HEAP_HOT2, HS_WL_OWN_COLD },
	{ "[heap]", HS_WL_HEAP_HOT2, HS_WL_HEAP_HOT2 + 2 * HS_PAGE_SIZE,
	  HS_WL_OWN_HOT },
	{ "[heap]", HS_WL_HEAP_HOT2 + 2 * HS_PAGE_SIZE, HS_WL_HEAP_END,
	  HS_WL_OWN_COLD },
}, own_high[] = {
	{ "[vvar], [vdso]", HS_WL_MMAP_TOP, HS_WL_VDSO_END, HS_WL_OWN_COLD },
	{ "[stack]", HS_WL_STACK_START, HS_WL_STACK_HOT, HS_WL_OWN_COLD },
	{ "[stack]", HS_WL_STACK_HOT, HS_WL_STACK_END, HS_WL_OWN_HOT },
};

#define NR_OWN_LOW	(sizeof(own_low) / sizeof(own_low[0]))
#define NR_OWN_HIGH	(sizeof(own_high) / sizeof(own_high[0]))

/*
 * vaddr: the process' own memory around masim's regions, which lie in the
 * mmap area as `hotscore workload` maps them: one mmap() each in config
 * order, each below the last, then masim's table of random numbers (when
 * a line is random) below them all.  @where[j] receives masim region j's
 * index.
 */
static void layout_vaddr(const struct hs_workload *wl, struct hs_wl_region *r,
			 unsigned int *where, bool rnd)
{
	unsigned int i = 0, j, k, first = NR_OWN_LOW + rnd;
	uint64_t at = HS_WL_MMAP_TOP;

	for (k = 0; k < NR_OWN_LOW; k++, i++)
		add_mapping(&r[i], own_low[k].name, own_low[k].start,
			    own_low[k].end, own_low[k].own);
	for (j = 0; j < wl->nr_masim; j++) {
		where[j] = first + wl->nr_masim - 1 - j;
		r[where[j]] = wl->regions[j];
		r[where[j]].end = at;
		at -= hs_page_up(wl->regions[j].size);
		r[where[j]].start = at;
	}
	if (rnd)
		add_mapping(&r[i], "[rnd]", at - hs_page_up(HS_WL_RND_BYTES), at,
			    HS_WL_OWN_RND);
	i = first + wl->nr_masim;
	for (k = 0; k < NR_OWN_HIGH; k++, i++)
		add_mapping(&r[i], own_high[k].name, own_high[k].start,
			    own_high[k].end, own_high[k].own);
}

/* paddr: masim's regions alone, in config order from 4 GiB. */
static void layout_paddr(const struct hs_workload *wl, struct hs_wl_region *r,
			 unsigned int *where)
{
	uint64_t at = HS_WL_PADDR_START;
	unsigned int j;

	for (j = 0; j < wl->nr_masim; j++) {
		where[j] = j;
		r[j] = wl->regions[j];
		r[j].start = at;
		r[j].end = at + hs_page_up(r[j].size);
		at = r[j].end;
	}
}

/**
 * hs_workload_layout() - place the regions in a simulated address space
 * and allocate the residency bitmap (every page resident).
 * @wl:		a parsed workload.
 * @layout:	HS_WL_VADDR: the process' own memory (its binary, .bss,
 *		heap, masim's table of random numbers, vvar, vdso, stack) with
 *		masim's regions in its mmap area; HS_WL_PADDR: masim's regions
 *		at 4 GiB.
 * @err:	receives the reason on failure.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_workload_layout(struct hs_workload *wl, enum hs_wl_layout layout,
		       char *err, size_t errlen)
{
	bool vaddr = layout == HS_WL_VADDR;
	bool rnd = vaddr && hs_workload_has_random(wl);
	unsigned int nr = wl->nr_masim + (vaddr ? NR_OWN_LOW + NR_OWN_HIGH +
					  rnd : 0), i, j;
	struct hs_wl_region *r = calloc(nr, sizeof(*r));
	unsigned int *where = calloc(wl->nr_masim, sizeof(*where));
	uint64_t page = 0;

	if (!r || !where) {
		free(r);
		free(where);
		snprintf(err, errlen, "out of memory for %u region%s", nr,
			 plural(nr));
		return -1;
	}
	if (vaddr)
		layout_vaddr(wl, r, where, rnd);
	else
		layout_paddr(wl, r, where);
	wl->nr_touch = 0;
	for (i = 0; i < nr; i++) {
		r[i].first_page = page;
		page += (r[i].end - r[i].start) >> HS_PAGE_SHIFT;
		if ((r[i].own == HS_WL_OWN_HOT || r[i].own == HS_WL_OWN_RND) &&
		    wl->nr_touch < HS_WL_MAX_TOUCH)
			wl->touch[wl->nr_touch++] = i;
	}
	free(wl->regions);
	wl->regions = r;
	wl->nr_regions = nr;
	wl->nr_pages = page;
	wl->out = calloc((page + 63) / 64, sizeof(uint64_t));
	wl->kind = calloc(nr, 1);
	for (j = 0; j < wl->nr_phases; j++) {
		struct hs_wl_phase *ph = &wl->phases[j];

		for (i = 0; i < ph->nr_access; i++)
			ph->access[i].region = where[ph->access[i].region];
		if (ph->nr_access)
			qsort(ph->access, ph->nr_access, sizeof(*ph->access),
			      cmp_access);
	}
	free(where);
	if (!wl->out || !wl->kind) {
		snprintf(err, errlen, "out of memory for %llu page%s",
			 (unsigned long long)page, plural(page));
		return -1;
	}
	return 0;
}

static uint64_t threshold(double p)
{
	return p >= 1.0 ? 1ULL << 32 : (uint64_t)(p * 4294967296.0);
}

/*
 * masim's table in a sample of @n random accesses: they read n / LEN
 * arrays, each drawn from ARRAYS, so an array is read with probability
 * 1 - exp(-n / (LEN * ARRAYS)); a page holding part of two arrays is read
 * if either is.
 */
static void rnd_thresholds(struct hs_wl_phase *ph, double n)
{
	double x = n / ((double)HS_WL_RND_LEN * HS_WL_RND_ARRAYS);

	ph->rnd_threshold[0] = threshold(1.0 - exp(-x));
	ph->rnd_threshold[1] = threshold(1.0 - exp(-2 * x));
}

/**
 * hs_workload_prepare() - derive what one sample interval touches.
 * @wl:		a laid-out workload, with @wl->rate set (and a phase's own
 *		rate where it has one: a real run's phases go at different
 *		speeds).
 * @sample_us:	the sampling interval.
 *
 * A random line touches each page of its region independently with
 * probability 1 - exp(-n / pages) for n accesses per sample; a sequential
 * line sweeps n * stride bytes per sample, wrapping around its region.
 */
void hs_workload_prepare(struct hs_workload *wl, unsigned long sample_us)
{
	unsigned int i, j;

	wl->sample_us = sample_us;
	for (j = 0; j < wl->nr_phases; j++) {
		struct hs_wl_phase *ph = &wl->phases[j];
		uint64_t rate = ph->rate ? ph->rate : wl->rate, sum = 0;
		double rnd = 0;

		for (i = 0; i < ph->nr_access; i++)
			sum += ph->access[i].prob;
		ph->rnd_threshold[0] = ph->rnd_threshold[1] = 0;
		for (i = 0; i < ph->nr_access; i++) {
			struct hs_wl_access *a = &ph->access[i];
			const struct hs_wl_region *r = &wl->regions[a->region];
			uint64_t pages = (r->end - r->start) >> HS_PAGE_SHIFT;
			unsigned __int128 n;
			double p;

			if (!sum) {	/* an idle phase: no lines */
				a->num = 0;
				a->den = 1;
				continue;
			}
			/* accesses per microsecond, as a fraction */
			a->num = rate * a->prob;
			a->den = sum * 1000;
			n = (unsigned __int128)a->num * sample_us / a->den;
			p = 1.0 - exp(-(double)n / (double)pages);
			a->threshold = threshold(p);
			if (a->random)
				rnd += (double)n;
			n *= a->stride;
			a->sweep = n > UINT64_MAX ? UINT64_MAX : (uint64_t)n;
		}
		rnd_thresholds(ph, rnd);
	}
}

void hs_workload_free(struct hs_workload *wl)
{
	unsigned int j;

	for (j = 0; j < wl->nr_phases; j++) {
		free(wl->phases[j].access);
	}
	free(wl->phases);
	free(wl->regions);
	free(wl->out);
	free(wl->kind);
	memset(wl, 0, sizeof(*wl));
}

/* Does @a touch every page of @r in one sample? */
static bool line_touches_all(const struct hs_wl_access *a,
			     const struct hs_wl_region *r)
{
	if (a->random)
		return a->threshold >= 1ULL << 32;
	return a->stride <= HS_PAGE_SIZE && a->sweep >= r->end - r->start;
}

/*
 * Does the process run during the sample that starts @in_us into phase
 * @ph?  Always in a phase with lines; in an idle one it sleeps, waking
 * every HS_WL_IDLE_NAP_US from the phase's start: only samples that hold
 * a wake-up see its loop's pages touched.
 */
static bool awake(const struct hs_workload *wl, const struct hs_wl_phase *ph,
		  uint64_t in_us)
{
	if (ph->nr_access)
		return true;
	return in_us / HS_WL_IDLE_NAP_US !=
		(in_us + wl->sample_us) / HS_WL_IDLE_NAP_US;
}

/**
 * hs_workload_begin() - start a sample interval.
 * @wl:		the workload.
 * @sample:	its index (seeds the random lines).
 * @now_us:	when it starts, since the workload started; the phases repeat.
 */
void hs_workload_begin(struct hs_workload *wl, uint64_t sample,
		       uint64_t now_us)
{
	uint64_t at_ms = (now_us / 1000) % wl->total_ms, from = 0, in_us;
	struct hs_wl_phase *ph;
	unsigned int i;

	for (i = 0; i + 1 < wl->nr_phases; i++) {
		if (at_ms < from + wl->phases[i].duration_ms)
			break;
		from += wl->phases[i].duration_ms;
	}
	wl->phase = i;
	wl->sample = sample;
	ph = &wl->phases[i];
	in_us = now_us % (wl->total_ms * 1000) - from * 1000;
	memset(wl->kind, HS_WL_NONE, wl->nr_regions);
	for (i = 0; i < wl->nr_touch; i++) {	/* the process' own */
		unsigned int w = wl->touch[i];

		if (wl->regions[w].own == HS_WL_OWN_HOT)
			wl->kind[w] = awake(wl, ph, in_us) ? HS_WL_ALL :
				HS_WL_NONE;
		else if (ph->rnd_threshold[0])
			wl->kind[w] = HS_WL_SOME;
	}
	for (i = 0; i < ph->nr_access; i++) {
		struct hs_wl_access *a = &ph->access[i];
		const struct hs_wl_region *r = &wl->regions[a->region];
		unsigned __int128 done;

		if (!a->num || wl->kind[a->region] == HS_WL_ALL)
			continue;
		wl->kind[a->region] = line_touches_all(a, r) ? HS_WL_ALL :
			HS_WL_SOME;
		if (a->random)
			continue;
		done = (unsigned __int128)in_us * a->num / a->den * a->stride;
		a->pos = (uint64_t)(done % (r->end - r->start));
	}
}

/* hs_workload_find() past its hint: a binary search. */
unsigned int hs_workload_search(const struct hs_workload *wl, uint64_t addr)
{
	unsigned int lo = 0, hi = wl->nr_regions;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (addr < wl->regions[mid].start)
			hi = mid;
		else if (addr >= wl->regions[mid].end)
			lo = mid + 1;
		else
			return mid;
	}
	return wl->nr_regions;
}

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Does the sweep of @a (starting at a->pos) touch the page at offset @o? */
static bool sweep_touches(const struct hs_wl_access *a, uint64_t size,
			  uint64_t o)
{
	uint64_t from_pos, to_pos;

	if (a->stride > HS_PAGE_SIZE) {
		/*
		 * only pages holding a point pos + j * stride: the distance
		 * from o forward to the next point, without forming
		 * r + stride, which wraps for a stride above 2^63
		 */
		uint64_t r = a->pos % a->stride, m = o % a->stride;
		uint64_t ahead = r >= m ? r - m : a->stride - (m - r);

		if (ahead >= HS_PAGE_SIZE)
			return false;
	}
	if (a->sweep >= size)
		return true;
	/* o and pos are below size: distances without a division */
	from_pos = o >= a->pos ? o - a->pos : o + size - a->pos;
	to_pos = a->pos >= o ? a->pos - o : a->pos + size - o;
	/* the page starts within the sweep, or the sweep starts in it */
	return from_pos < a->sweep || to_pos < HS_PAGE_SIZE;
}

static bool line_touches(const struct hs_workload *wl,
			 const struct hs_wl_access *a,
			 const struct hs_wl_region *r, uint64_t addr)
{
	uint64_t page = addr >> HS_PAGE_SHIFT;

	if (!a->num)
		return false;
	if (a->random)
		return (mix64(wl->seed ^ mix64(wl->sample * 0x9e3779b97f4a7c15ULL
					       + page)) >> 32) < a->threshold;
	return sweep_touches(a, r->end - r->start,
			     (addr - r->start) & ~(HS_PAGE_SIZE - 1));
}

/*
 * masim's table: a page of it is read in a sample if one of the arrays it
 * holds part of was drawn (rndint()); decided by a hash of (seed, sample,
 * page) as a random line's pages are, with another salt.
 */
static bool rnd_touches(const struct hs_workload *wl,
			const struct hs_wl_region *r, uint64_t addr)
{
	const struct hs_wl_phase *ph = &wl->phases[wl->phase];
	uint64_t o = (addr - r->start) & ~(HS_PAGE_SIZE - 1);
	uint64_t last = o + HS_PAGE_SIZE - 1, arr = HS_WL_RND_ARRAY_BYTES;
	unsigned int two = last / arr != o / arr && last < HS_WL_RND_BYTES;
	uint64_t page = addr >> HS_PAGE_SHIFT;

	return (mix64(wl->seed ^ HS_WL_RND_SALT ^
		      mix64(wl->sample * 0x9e3779b97f4a7c15ULL + page)) >> 32) <
		ph->rnd_threshold[two];
}

/* The slow half of hs_workload_touched(): ask each line of @region. */
bool hs_workload_lines_touch(const struct hs_workload *wl, unsigned int region,
			     uint64_t addr)
{
	const struct hs_wl_phase *ph = &wl->phases[wl->phase];
	unsigned int lo = 0, hi = ph->nr_access, i;

	if (wl->regions[region].own == HS_WL_OWN_RND)
		return rnd_touches(wl, &wl->regions[region], addr);
	while (lo < hi) {	/* the region's first line: they are sorted */
		unsigned int mid = lo + (hi - lo) / 2;

		if (ph->access[mid].region < region)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < ph->nr_access &&
	     ph->access[i].region == region; i++)
		if (line_touches(wl, &ph->access[i], &wl->regions[region],
				 addr))
			return true;
	return false;
}

/* Fault in the pages of region @w that the current sample touches. */
static void fault_region(struct hs_workload *wl, unsigned int w)
{
	struct hs_wl_region *r = &wl->regions[w];
	uint64_t p, end = r->first_page + ((r->end - r->start) >> HS_PAGE_SHIFT);

	if (!r->nr_out)
		return;
	for (p = r->first_page; p < end; p++) {
		uint64_t word = wl->out[p / 64] >> (p % 64);

		if (!word) {	/* skip to the next word */
			p |= 63;
			continue;
		}
		p += (uint64_t)__builtin_ctzll(word);
		if (p >= end)
			break;
		if (!hs_workload_touched(wl, w, r->start +
					 ((p - r->first_page) << HS_PAGE_SHIFT)))
			continue;
		wl->out[p / 64] &= ~(1ULL << (p % 64));
		r->nr_out--;
		wl->nr_out--;
		wl->faults++;
	}
}

/**
 * hs_workload_fault_in() - the current sample's touches of paged-out pages:
 * each is a fault that makes its page resident again.
 * @wl:		the workload, after hs_workload_begin().
 */
void hs_workload_fault_in(struct hs_workload *wl)
{
	const struct hs_wl_phase *ph = &wl->phases[wl->phase];
	unsigned int i;

	for (i = 0; i < ph->nr_access; i++)
		if (ph->access[i].num)
			fault_region(wl, ph->access[i].region);
	for (i = 0; i < wl->nr_touch; i++)	/* the process' own */
		if (wl->regions[wl->touch[i]].nr_out &&
		    wl->kind[wl->touch[i]] != HS_WL_NONE)
			fault_region(wl, wl->touch[i]);
}

/*
 * Count the resident pages within [start, end); with @out, page them out,
 * except, with @skip_young, those touched in the current sample.
 */
static uint64_t for_pages(struct hs_workload *wl, uint64_t start, uint64_t end,
			  bool out, bool skip_young)
{
	uint64_t count = 0;
	unsigned int i;

	for (i = 0; i < wl->nr_regions; i++) {
		struct hs_wl_region *r = &wl->regions[i];
		uint64_t s = start > r->start ? start : r->start;
		uint64_t e = end < r->end ? end : r->end;
		uint64_t p, pe;

		if (s >= e)
			continue;
		/* whole pages only, as the kernel acts on pages */
		p = r->first_page + ((s - r->start + HS_PAGE_SIZE - 1) >>
				     HS_PAGE_SHIFT);
		pe = r->first_page + ((e - r->start) >> HS_PAGE_SHIFT);
		for (; p < pe; p++) {
			uint64_t bit = 1ULL << (p % 64);

			if (wl->out[p / 64] & bit)
				continue;
			if (skip_young && hs_workload_touched(wl, i, r->start +
					((p - r->first_page) << HS_PAGE_SHIFT)))
				continue;
			count++;
			if (out) {
				wl->out[p / 64] |= bit;
				r->nr_out++;
			}
		}
	}
	return count;
}

/**
 * hs_workload_pageout() - page out the resident pages in [start, end).
 * @wl:		the workload.
 * @start:	first byte.
 * @end:	one past the last.
 * @skip_young:	keep the pages the current sample touched (paddr's filter).
 *
 * Return: the bytes paged out.
 */
uint64_t hs_workload_pageout(struct hs_workload *wl, uint64_t start,
			     uint64_t end, bool skip_young)
{
	uint64_t n = for_pages(wl, start, end, true, skip_young);

	wl->nr_out += n;
	return n << HS_PAGE_SHIFT;
}

/**
 * hs_workload_resident() - resident bytes in [start, end).
 * @wl:		the workload.
 * @start:	first byte.
 * @end:	one past the last.
 *
 * Return: bytes.
 */
uint64_t hs_workload_resident(struct hs_workload *wl, uint64_t start,
			      uint64_t end)
{
	return for_pages(wl, start, end, false, false) << HS_PAGE_SHIFT;
}
