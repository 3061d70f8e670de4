/* Every output of one cull (mask, classes, indices, visible count and
 * status), for the views tests that compare a grouped cull with the flat
 * one (test_groups, test_partial_groups). */
#ifndef SATC_CULL_OUTS_H
#define SATC_CULL_OUTS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

typedef struct outs {
    uint8_t *mask, *cls;
    uint32_t *idx;
    size_t vis;
    satc_status st;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    o->mask = calloc(n / 8 + 1, 1);
    o->cls = calloc(n + 1, 1);
    o->idx = calloc(n + 1, sizeof *o->idx);
}

static void outs_free(outs *o) { free(o->mask), free(o->cls), free(o->idx); }

/* satc_cull_isa into o, its mask and classes first filled with 0xAB;
 * classes 0 asks for no classes. */
static void outs_cull(satc_isa isa, const satc_frustum *f, const satc_batch *b, size_t first,
                      size_t count, satc_mode mode, outs *o, int classes)
{
    memset(o->mask, 0xAB, count / 8 + 1);
    memset(o->cls, 0xAB, count + 1);
    satc_results r = {o->mask, classes ? o->cls : NULL, o->idx, 0};
    o->st = satc_cull_isa(isa, f, b, first, count, mode, &r);
    o->vis = r.visible;
}

/* Both succeeded with the same mask, indices and (when classes) classes. */
static int outs_same(const outs *a, const outs *b, size_t count, int classes)
{
    return a->st == SATC_OK && b->st == SATC_OK && a->vis == b->vis &&
           !memcmp(a->mask, b->mask, (count + 7) / 8) &&
           !memcmp(a->idx, b->idx, a->vis * sizeof *a->idx) &&
           (!classes || !memcmp(a->cls, b->cls, count));
}

#endif
