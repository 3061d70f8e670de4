/* The volume tests' pass/fail counting: CHECK(ok, printf format...) counts
 * a pass or prints the failure (the first 25). One test per program: the
 * counts are the program's own. */
#ifndef SATC_VOL_CHECK_H
#define SATC_VOL_CHECK_H

#include <stdio.h>

static int g_pass, g_fail;
#define CHECK(ok, ...)                                                                            \
    do {                                                                                          \
        if (ok) {                                                                                 \
            g_pass++;                                                                             \
        } else if (g_fail++ < 25) {                                                               \
            printf("FAIL: " __VA_ARGS__);                                                         \
            printf("\n");                                                                         \
        }                                                                                         \
    } while (0)

#endif
