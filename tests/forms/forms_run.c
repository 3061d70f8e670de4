/* Guarded culls and the cross-path comparison (see forms_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_run.h"
#include "robust_util.h"

static size_t out_bytes(size_t count, int k)
{
    return k == 0 ? (count + 7) / 8 : k == 1 ? count : count * sizeof(uint32_t);
}

void fr_out_init(fr_out *o, size_t count)
{
    memset(o, 0, sizeof *o);
    o->count = count;
    for (int k = 0; k < 3; k++) {
        o->mem[k] = malloc(out_bytes(count, k) + 2 * FR_PAD);
        if (!o->mem[k]) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    o->bits = o->mem[0] + FR_PAD, o->classes = o->mem[1] + FR_PAD;
    o->idx = (uint32_t *)(void *)(o->mem[2] + FR_PAD);
}

void fr_out_free(fr_out *o)
{
    for (int k = 0; k < 3; k++)
        free(o->mem[k]);
    memset(o, 0, sizeof *o);
}

void fr_cull(fr_out *o, satc_isa isa, const satc_frustum *f, const satc_batch *b, size_t first,
             size_t count, satc_mode mode, unsigned kinds)
{
    for (int k = 0; k < 3; k++)
        memset(o->mem[k], FR_CANARY, out_bytes(o->count, k) + 2 * FR_PAD);
    satc_results r = {kinds & FR_BITS ? o->bits : NULL, kinds & FR_CLASSES ? o->classes : NULL,
                      kinds & FR_INDICES ? o->idx : NULL, (size_t)0xC0FFEE};
    o->st = satc_cull_isa(isa, f, b, first, count, mode, &r);
    o->visible = r.visible;
}

int fr_intact(const fr_out *o, unsigned kinds, size_t nidx)
{
    size_t used[3] = {(o->count + 7) / 8, o->count, nidx * sizeof(uint32_t)};
    for (int k = 0; k < 3; k++) {
        size_t lo = FR_PAD, hi = FR_PAD + ((kinds >> k) & 1 ? used[k] : 0);
        size_t all = out_bytes(o->count, k) + 2 * FR_PAD;
        for (size_t q = 0; q < all; q++)
            if ((q < lo || q >= hi) && o->mem[k][q] != FR_CANARY)
                return 0;
    }
    return 1;
}

int fr_bit(const fr_out *o, size_t j) { return o->bits[j / 8] >> (j % 8) & 1; }

int fr_paths(satc_isa out[8]) { return rb_paths(out); }

static const unsigned kind_sets[] = {FR_ALL, FR_BITS, FR_CLASSES, FR_INDICES, 0,
                                     FR_BITS | FR_INDICES};

long fr_check_paths(const char *what, const satc_frustum *f, const satc_batch *b, size_t first,
                    size_t count, fr_out ref[2])
{
    satc_isa paths[8];
    int np = fr_paths(paths);
    long bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        fr_out *r = &ref[mode], o;
        fr_cull(r, SATC_ISA_SCALAR, f, b, first, count, (satc_mode)mode, FR_ALL);
        bad += !rb_check(r->st == SATC_OK && fr_intact(r, FR_ALL, r->visible),
                         "%s mode %d: scalar status %d or a write outside its outputs", what,
                         mode, (int)r->st);
        fr_out_init(&o, count);
        for (int p = 0; p < np; p++) {
            for (size_t ks = 0; ks < sizeof kind_sets / sizeof kind_sets[0]; ks++) {
                unsigned k = kind_sets[ks];
                if (p == 0 && k == FR_ALL)
                    continue;
                fr_cull(&o, paths[p], f, b, first, count, (satc_mode)mode, k);
                int same = o.st == SATC_OK && o.visible == r->visible &&
                           fr_intact(&o, k, o.visible);
                if (same && (k & FR_BITS))
                    same = !memcmp(o.bits, r->bits, (count + 7) / 8);
                if (same && (k & FR_CLASSES))
                    same = !memcmp(o.classes, r->classes, count);
                if (same && (k & FR_INDICES))
                    same = !memcmp(o.idx, r->idx, r->visible * sizeof(uint32_t));
                bad += !rb_check(same, "%s first %zu count %zu mode %d: path %s outputs %u differ "
                                       "from scalar (status %d visible %zu vs %zu)",
                                 what, first, count, mode, satc_isa_name(paths[p]), k, (int)o.st,
                                 o.visible, r->visible);
            }
        }
        fr_out_free(&o);
    }
    return bad;
}
