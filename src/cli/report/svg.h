/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - what the SVG reports share (sim --heatmap, rank --svg): text
 * from the user (a workload's name, a record's path) as XML character data.
 */
#ifndef HOTSCORE_CLI_SVG_H
#define HOTSCORE_CLI_SVG_H

#include <stdio.h>

void svg_text(FILE *f, const char *s);

#endif /* HOTSCORE_CLI_SVG_H */
