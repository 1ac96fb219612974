// SPDX-License-Identifier: GPL-2.0
/* src/bench/damon.c, compiled into the module as it is (no copy). */
#include <bench/damon.c>
