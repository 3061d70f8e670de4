/*
 * The floor of the 64 players' pass with groups (issue 27): from the
 * pass's answer, the (group, view) pairs whose volumes are neither all
 * outside nor all visible. Even a pass that decides every other pair
 * from the bounds alone runs the kernel on those pairs' volumes; at
 * groups of 32 (a split of each group) the floor is lower.
 */
#include <stdio.h>

#include "bench.h"

static void floor_at(const uint64_t *masks, size_t n, int k, size_t gsize, size_t *mixed,
                     size_t *tests, size_t *all_in)
{
    *mixed = *tests = *all_in = 0;
    for (size_t g = 0; g < n; g += gsize) {
        size_t e = g + gsize < n ? g + gsize : n;
        for (int v = 0; v < k; v++) {
            size_t c = 0;
            for (size_t i = g; i < e; i++)
                c += masks[i] >> v & 1u;
            if (c && c < e - g)
                ++*mixed, *tests += e - g;
            *all_in += c == e - g;
        }
    }
}

void vp_floor(const uint64_t *masks, size_t n, int k, size_t gsize)
{
    size_t vis = 0;
    for (size_t i = 0; i < n; i++)
        for (int v = 0; v < k; v++)
            vis += masks[i] >> v & 1u;
    printf("64 players: %zu visible volume-view pairs (%.3f per box)\n", vis, (double)vis / n);
    for (size_t gs = gsize; gs >= 32; gs /= 4) {
        size_t mixed, tests, all_in;
        floor_at(masks, n, k, gs, &mixed, &tests, &all_in);
        printf("  groups of %3zu: %zu (group, view) pairs mixed, %zu all visible; the kernel "
               "tests at least %zu volume-view pairs (%.3f per box)\n",
               gs, mixed, all_in, tests, (double)tests / n);
    }
}
