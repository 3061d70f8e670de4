/*
 * Occluder choice with a first set (satc_occluders_pick_first): the
 * volumes listed rank above every other, each part in the order
 * satc_occluders_pick gives; every max (small ones go through a buffer
 * and a selection, large ones through a heap) is a prefix of the full
 * ranking, ties (equal boxes) by index; indices outside the range are
 * ignored; an empty list gives satc_occluders_pick's answer; every
 * native path answers the same; bad lists: a status, nothing written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#include "occl_check.h"

enum { NB = 6000, PW = 256, PH = 128 };
static float cx[NB], cy[NB], cz[NB], hx[NB], hy[NB], hz[NB];

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0;
}

/* Boxes ahead of the eye and around it (some cross the near plane, some
 * are outside the view); every 10th repeats an earlier one (equal areas). */
static void scene(void)
{
    for (int i = 0; i < NB; i++) {
        if (i % 10 == 9) {
            int j = (int)(urand() * i);
            cx[i] = cx[j], cy[i] = cy[j], cz[i] = cz[j], hx[i] = hx[j], hy[i] = hy[j], hz[i] = hz[j];
            continue;
        }
        double z = -5 + 200 * urand();
        cx[i] = (float)((urand() - 0.5) * 2 * (fabs(z) + 1));
        cy[i] = (float)((urand() - 0.5) * 1.2 * (fabs(z) + 1));
        cz[i] = (float)z;
        hx[i] = (float)(0.1 + 4 * urand()), hy[i] = (float)(0.1 + 4 * urand());
        hz[i] = (float)(0.1 + 4 * urand());
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    scene();
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.4f, 0.4f, -0.225f, 0.225f,
                       0.5f, 150.0f, 0};
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    size_t bytes = satc_pyramid_bytes(PW, PH);
    float *st = aligned_alloc(64, (bytes + 63) / 64 * 64);
    satc_pyramid p;
    satc_pyramid_init(&p, &f, PW, PH, st, bytes);
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s){cx, cy, cz, sizeof(float)};
    b.aabb.half = (satc_vec3s){hx, hy, hz, sizeof(float)};
    static uint32_t all[NB], got[NB], prev[NB], want[NB];
    static float aall[NB], agot[NB], awant[NB];
    size_t nall = 0, n = 0;
    satc_status s = satc_occluders_pick(&p, &b, 0, NB, 0, NB, all, aall, &nall);
    CHECK(s == SATC_OK && nall > 3000 && nall < NB, "full ranking: status %d, %zu picked", s, nall);
    size_t ties = 0;
    for (size_t e = 1; e < nall; e++)
        ties += aall[e] == aall[e - 1];
    CHECK(ties > 50, "equal areas in the ranking: %zu", ties);
    /* every max: a prefix of the full ranking */
    const size_t maxes[] = {1, 2, 7, 100, 511, 1023, 1024, 1025, 1536, 1537, 3000, NB};
    for (size_t m = 0; m < sizeof maxes / sizeof maxes[0]; m++) {
        size_t mx = maxes[m], k = mx < nall ? mx : nall;
        s = satc_occluders_pick(&p, &b, 0, NB, 0, mx, got, agot, &n);
        CHECK(s == SATC_OK && n == k && !memcmp(got, all, k * sizeof *got) &&
                  !memcmp(agot, aall, k * sizeof *agot),
              "max %zu: the prefix of the full ranking (%zu picked)", mx, n);
        s = satc_occluders_pick_first(&p, &b, 0, NB, NULL, 0, 0, mx, got, agot, &n);
        CHECK(s == SATC_OK && n == k && !memcmp(got, all, k * sizeof *got),
              "max %zu: an empty first set ranks as satc_occluders_pick", mx);
    }
    /* a first set: about a third of the volumes, some outside the range */
    for (int round = 0; round < 6; round++) {
        size_t first = round % 2 ? 37 : 0, count = NB - first - (round % 3) * 100, np = 0;
        for (uint32_t i = 0; i < NB; i++)
            if (urand() < 0.3)
                prev[np++] = i;
        /* the expected answer: the full ranking over the range, members first */
        uint32_t *r = malloc(NB * sizeof *r);
        float *ra = malloc(NB * sizeof *ra);
        size_t nr = 0, nw = 0;
        satc_occluders_pick(&p, &b, first, count, 0, NB, r, ra, &nr);
        for (int pass = 0; pass < 2; pass++)
            for (size_t e = 0; e < nr; e++) {
                int in = 0;
                for (size_t q = 0; q < np && !in; q++)
                    in = prev[q] == r[e];
                if (in == !pass)
                    want[nw] = r[e], awant[nw++] = ra[e];
            }
        const size_t mx[3] = {300, 1024, 2500};
        for (int m = 0; m < 3; m++) {
            size_t k = mx[m] < nw ? mx[m] : nw;
            s = satc_occluders_pick_first(&p, &b, first, count, prev, np, 0, mx[m], got, agot, &n);
            CHECK(s == SATC_OK && n == k && !memcmp(got, want, k * sizeof *got) &&
                      !memcmp(agot, awant, k * sizeof *agot),
                  "round %d max %zu: the first set ranks first (%zu picked of %zu)", round, mx[m], n,
                  k);
        }
        /* the same answer on every native path */
        unsigned native = satc_isa_native();
        for (unsigned isa = 1; isa <= SATC_ISA_SIMD128; isa <<= 1) {
            if (!(native & isa) && isa != SATC_ISA_SCALAR)
                continue;
            satc_isa_set_mask(isa);
            if (satc_isa_active() != (satc_isa)isa)
                continue;
            s = satc_occluders_pick_first(&p, &b, first, count, prev, np, 0, 1024, got, agot, &n);
            size_t k = 1024 < nw ? 1024 : nw;
            CHECK(s == SATC_OK && n == k && !memcmp(got, want, k * sizeof *got),
                  "path %s picks the same", satc_isa_name((satc_isa)isa));
        }
        satc_isa_set_mask(~0u);
        free(r), free(ra);
    }
    /* bad lists: a status, nothing written */
    uint32_t bad[3] = {5, 9, 9};
    got[0] = 77, agot[0] = 7.0f, n = 99;
    s = satc_occluders_pick_first(&p, &b, 0, NB, bad, 3, 0, 10, got, agot, &n);
    CHECK(s == SATC_ERR_RANGE && n == 99 && got[0] == 77 && agot[0] == 7.0f,
          "a repeated index: status %d, nothing written", s);
    bad[2] = 3;
    s = satc_occluders_pick_first(&p, &b, 0, NB, bad, 3, 0, 10, got, agot, &n);
    CHECK(s == SATC_ERR_RANGE && n == 99, "a descending list: status %d", s);
    s = satc_occluders_pick_first(&p, &b, 0, NB, NULL, 2, 0, 10, got, agot, &n);
    CHECK(s == SATC_ERR_NULL && n == 99 && got[0] == 77, "NULL list with nprev 2: status %d", s);
    free(st);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
