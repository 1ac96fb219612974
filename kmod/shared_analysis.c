// SPDX-License-Identifier: GPL-2.0
/* src/bench/analysis.c, compiled into the module as it is (no copy). */
#include <bench/analysis.c>
