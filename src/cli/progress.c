// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the one status line of every long run: on stderr, only when
 * stderr is a terminal (docs/cli-conventions.md), each call replacing the
 * last, and cut to the terminal's width so that it never wraps (a wrapped
 * line is not replaced by "\r").  The callers say how often: at most a
 * few times a second, or once a round of bench's.
 *
 * cli_progress_at() adds how far the run is and when it will end: the rate
 * is measured from the stage's first call, a stage being a run of calls
 * whose fraction does not go back, so that a run of several stages (sim's
 * two profiles, bench's invocations) times each from its own start.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <hotscore/host.h>

#include "cli.h"

/* No ETA before this much of the stage has passed: it would be noise. */
#define ETA_AFTER_NS	250000000ULL

static struct {
	bool on;		/* a stage is under way */
	uint64_t t0;		/* its first call */
	double f0;		/* its fraction then */
	double last;		/* the fraction of the last call */
} stage;

static bool on_terminal(void)
{
	return isatty(STDERR_FILENO);
}

/* The terminal's width, or the text width when it does not say. */
static size_t term_cols(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		return ws.ws_col;
	return CLI_COLS;
}

/* Replace the status line with @text and then @tail, cut to fit. */
static void draw(const char *text, const char *tail)
{
	size_t room = term_cols() - 1, lt = strlen(tail), n = strlen(text);

	if (lt > room)
		lt = 0;
	if (n > room - lt)
		n = room - lt;
	fprintf(stderr, "\r\033[K%.*s%s", (int)n, text, lt ? tail : "");
	fflush(stderr);
}

/**
 * cli_progress() - a status line on stderr, only when it is a terminal;
 * each call replaces the last.
 * @fmt:	printf format.
 */
void cli_progress(const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (!on_terminal())
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	draw(text, "");
}

/* "45 s", "3m 05s", "2h 07m": @s seconds, rounded up. */
static void eta_text(double s, char *buf, size_t size)
{
	unsigned long long t = s < 0 ? 0 : (unsigned long long)(s + 0.999);

	if (t < 60)
		snprintf(buf, size, "%llu s", t);
	else if (t < 3600)
		snprintf(buf, size, "%llum %02llus", t / 60, t % 60);
	else
		snprintf(buf, size, "%lluh %02llum", t / 3600, t / 60 % 60);
}

/**
 * cli_progress_at() - cli_progress() with how far the run is and, once the
 * rate is known, its ETA: "TEXT  45%  ETA 1m 05s" ("ETA --" before).
 * @done:	the fraction of the stage done, 0 to 1; a smaller one than
 *		the last call's starts a new stage.
 * @fmt:	printf format of the text before it.
 */
void cli_progress_at(double done, const char *fmt, ...)
{
	uint64_t now = hs_host_now_ns();
	char text[512], eta[32], tail[64];
	va_list ap;

	if (!on_terminal())
		return;
	done = done < 0 ? 0 : done > 1 ? 1 : done;
	if (!stage.on || done < stage.last) {
		stage.on = true;
		stage.t0 = now;
		stage.f0 = done;
	}
	stage.last = done;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (now - stage.t0 >= ETA_AFTER_NS && done > stage.f0) {
		eta_text((double)(now - stage.t0) / 1e9 * (1 - done) /
			 (done - stage.f0), eta, sizeof(eta));
		snprintf(tail, sizeof(tail), "  %.0f%%  ETA %s", 100 * done,
			 eta);
	} else {
		snprintf(tail, sizeof(tail), "  %.0f%%  ETA --", 100 * done);
	}
	draw(text, tail);
}

/** cli_progress_done() - clear the status line; the next stage starts anew. */
void cli_progress_done(void)
{
	stage.on = false;
	if (on_terminal())
		fputs("\r\033[K", stderr);
}
