/* checkasm's occlusion groups: the rectangle kernels of every form and
 * kind, and the pyramid's reduction, against the reference bit for bit. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "checkasm_depth.h"
#include "config.h"
#include "core/internal.h"
#include "occlusion/occlusion.h"
#include "scalar/cull_scalar.h"
#include "scenes.h"

/* ------------------------------------------------------------------ */
/* Occlusion: the rectangle kernels of every form and kind, and the     */
/* pyramid's reduction, against the reference bit for bit.              */
/* ------------------------------------------------------------------ */

static float *g_pyr_store;

/* Special values poked into a few boxes' fields: NaN, infinities, huge,
 * tiny, zero, negative zero, values at the near plane. */
static void poke_specials(scn_rng *r, batch *b)
{
    static const float sp[] = {NAN, INFINITY, -INFINITY, 3e38f, -3e38f, 1e-40f, 0.0f, -0.0f,
                               1e12f, 0.1f, 1e-30f};
    for (size_t i = 0; i < b->n; i++)
        if (scn_next(r) % 40 == 0)
            b->a[rnd_below(r, NF)][i] = sp[rnd_below(r, sizeof sp / sizeof sp[0])];
}

static void occl_compare(const satc_frustum *f, const satc_occl_consts *oc, const batch *b,
                         scn_rng *r)
{
    static float rr[SATC_OC_N + 1][SATC_CHUNK], rp[SATC_OC_N + 1][SATC_CHUNK];
    uint64_t vis[SATC_CHUNK_WORDS], tr[SATC_CHUNK_WORDS + 1], tp[SATC_CHUNK_WORDS + 1];
    int kind = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    for (size_t first = 0; first < b->n;) {
        size_t n = 1 + rnd_below(r, SATC_CHUNK);
        n = n > b->n - first ? b->n - first : n;
        unsigned flags = first + n == b->n ? SATC_K_LAST : 0u;
        int dense = (int)rnd_below(r, 4);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
            vis[w] = dense == 0 ? ~0ull : dense == 1 ? scn_next(r) & scn_next(r) : scn_next(r);
        if (n % 64)
            vis[n / 64] &= (1ull << (n % 64)) - 1;
        for (size_t w = n / 64 + (n % 64 != 0); w < SATC_CHUNK_WORDS; w++)
            vis[w] = 0;
        satc_occl_fn ref = satc_kernels_ref.occl[b->desc.form][kind];
        tr[SATC_CHUNK_WORDS] = 0x5a5a5a5a5a5a5a5aull;
        fpenv e0 = env_enter(); /* the reference in the pass's environment too */
        ref(f, oc, &b->desc, first, n, flags, vis, rr, tr);
        env_leave(e0);
        for (int p = 0; p < NPATHS; p++) {
            if (!path_on(p))
                continue;
            const satc_kernels *k = path_kernels(p);
            for (int q = 0; q <= SATC_OC_N; q++)
                for (size_t j = 0; j < SATC_CHUNK; j++)
                    rp[q][j] = -7.0f;
            tp[SATC_CHUNK_WORDS] = 0x5a5a5a5a5a5a5a5aull;
            fpenv e = env_enter();
            k->occl[b->desc.form][kind](f, oc, &b->desc, first, n, flags, vis, rp, tp);
            env_leave(e);
            size_t bad = 0;
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                bad += tr[w] != tp[w];
            for (size_t j = 0; j < n; j++)
                if (tr[j / 64] >> (j % 64) & 1)
                    for (int q = 0; q < SATC_OC_N; q++)
                        bad += memcmp(&rr[q][j], &rp[q][j], sizeof(float)) != 0;
            int canary = tp[SATC_CHUNK_WORDS] != 0x5a5a5a5a5a5a5a5aull;
            for (size_t j = 0; j < SATC_CHUNK; j++)
                canary |= rp[SATC_OC_N][j] != -7.0f;
            g_group[p][0].boxes += n;
            g_group[p][0].mismatches += bad != 0;
            g_group[p][0].canary += canary;
            if (bad && g_reports++ < 20)
                printf("  MISMATCH group %s form %s path %s: %zu fields of volumes %zu..%zu\n",
                       g_group_name, b->form, path_name(p), bad, first, first + n - 1);
        }
        first += n;
    }
}

void group_occlusion(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    if (!g_pyr_store)
        g_pyr_store = xmalloc(satc_pyramid_bytes(2048, 1024));
    size_t nb = g_forms_max < 3000 ? 1500 : 4000;
    for (int k = 0; k < 4; k++) {
        satc_pyramid py;
        uint32_t w = 64 + (uint32_t)rnd_below(r, 1985), h = 32 + (uint32_t)rnd_below(r, 993);
        if (satc_pyramid_init(&py, &fr[k], w, h, g_pyr_store, satc_pyramid_bytes(2048, 1024)))
            exit(2);
        satc_occl_consts oc;
        satc_occl_consts_init(&py, &oc);
        for (int sc = 0; sc < 2; sc++) {
            scn_scene s;
            if (sc)
                make_scene(&s, SCN_CITY, nb, scn_next(r), NULL);
            else
                make_boundary(&s, &cam[k], nb, scn_next(r));
            batch b;
            batch_init(&b, s.count, 0);
            batch_copy(&b, 0, &s.boxes, 0, s.count);
            poke_specials(r, &b);
            for (int v = 0; v < NFORMV; v++) {
                derived d;
                batch o;
                derive(&b, v, &d, &o);
                occl_compare(&fr[k], &oc, &o, r);
                derived_free(&d);
            }
            batch_free(&b);
            scn_free(&s);
        }
    }
}

void group_reduce(scn_rng *r)
{
    static const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 3e38f};
    for (int t = 0; t < 24; t++) {
        uint32_t sw = 1 + (uint32_t)rnd_below(r, 2048), sh = 1 + (uint32_t)rnd_below(r, 1024);
        if (t < 6)
            sw = 1 + (uint32_t)rnd_below(r, 40), sh = 1 + (uint32_t)rnd_below(r, 9);
        uint32_t dw = (sw + 1) / 2, dh = (sh + 1) / 2;
        size_t ns = (size_t)sw * sh, nd = (size_t)dw * dh;
        float *src = xmalloc(ns * sizeof(float)), *dr = xmalloc((nd + 1) * sizeof(float));
        float *dp = xmalloc((nd + 1) * sizeof(float));
        for (size_t i = 0; i < ns; i++)
            src[i] = scn_next(r) % 8 ? (float)scn_uniform(r, 0.1, 1000.0)
                                     : sp[rnd_below(r, sizeof sp / sizeof sp[0])];
        fpenv e0 = env_enter();
        satc_kernels_ref.reduce(src, sw, sh, dr, dw, dh);
        env_leave(e0);
        for (int p = 0; p < NPATHS; p++) {
            if (!path_on(p))
                continue;
            for (size_t i = 0; i <= nd; i++)
                dp[i] = -7.0f;
            fpenv e = env_enter();
            path_kernels(p)->reduce(src, sw, sh, dp, dw, dh);
            env_leave(e);
            int bad = memcmp(dr, dp, nd * sizeof(float)) != 0;
            g_group[p][0].boxes += nd;
            g_group[p][0].mismatches += bad;
            g_group[p][0].canary += dp[nd] != -7.0f;
            if (bad && g_reports++ < 20)
                printf("  MISMATCH group %s path %s: level %ux%u from %ux%u\n", g_group_name,
                       path_name(p), dw, dh, sw, sh);
        }
        free(src), free(dr), free(dp);
    }
}
