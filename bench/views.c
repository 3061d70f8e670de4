/*
 * Many-views and group benchmark: 1 M city boxes as world
 * AABBs (Filament's and Unity's data), in Z-order of 4 m cells so that
 * groups of 128 are compact blocks, from memory. View sets: stereo (K = 2),
 * camera + 4 shadow cascades of one light (5), the 6 cube faces of a
 * point light (6), 64 players over the city (64). Each set: one
 * satc_cull_views pass against K satc_cull calls, flat and with group
 * bounds, and against Filament's plane pass once per view; then the
 * camera alone, grouped against flat. Exact mode. With --goals, prints
 * PASS/MISS [views] goal lines; a MISS never fails the run, a mismatch
 * between a grouped and a flat answer or between paths does.
 *
 *   satc_bench_views [--quick] [--bounds] [--players] [--goals]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_cams.h"
#include "baselines.h"
#include "goals.h"
#include "stream.h"
#include "timing.h"

int vg_group_bounds(const scn_scene *s, size_t n, int reps); /* views_groups.c */
void vp_floor(const satc_frustum *views, int k, const satc_batch *flat, size_t n, size_t gsize,
              double flat_ns, int reps); /* views_players.c */

#define KMAX 64

typedef struct vctx {
    const satc_frustum *views;
    const bl_frustum *bl;
    int k;
    const satc_batch *b;
    size_t n;
    const float *c3, *h3;
    void *masks;         /* one pass: n mask words */
    uint8_t *bits[KMAX]; /* single calls: a bitmask per view */
    size_t visible[KMAX];
} vctx;

static void run_views(void *p)
{
    vctx *c = p;
    satc_view_results r = {c->masks, NULL, NULL, c->visible};
    satc_cull_views(c->views, (size_t)c->k, c->b, 0, c->n, SATC_EXACT, &r);
}

static void run_singles(void *p)
{
    vctx *c = p;
    for (int v = 0; v < c->k; v++) {
        satc_results r = {c->bits[v], NULL, NULL, 0};
        satc_cull(&c->views[v], c->b, 0, c->n, SATC_EXACT, &r);
        c->visible[v] = r.visible;
    }
}

/* Filament's pass, built for the instruction set of satc's active path. */
static const fb_peer *g_fil;

static void run_filament(void *p)
{
    vctx *c = p;
    for (int v = 0; v < c->k; v++)
        c->visible[v] = g_fil->cull(&c->bl[v], c->c3, c->h3, c->n, c->bits[v]);
}

/* The streaming read of the 24 B per box Filament's pass reads per view. */
static void run_stream24(void *p)
{
    vctx *c = p;
    bench_sink ^= bench_read(c->c3, 12 * c->n) | bench_read(c->h3, 12 * c->n);
}

/* Filament's planes for an orthographic view (its culler takes any six
 * inward planes n.X + d >= 0; bl_frustum_init builds perspective ones). */
static void ortho_planes(bl_frustum *bf, const satc_camera *c)
{
    const float *ax[3] = {c->left, c->up, c->dir};
    const double lo[3] = {c->l0, c->u0, c->n}, hi[3] = {c->l1, c->u1, c->f};
    memset(bf, 0, sizeof *bf);
    for (int q = 0; q < 3; q++) {
        double eo = 0;
        for (int k = 0; k < 3; k++)
            eo += (double)ax[q][k] * c->origin[k];
        for (int side = 0; side < 2; side++) {
            int p = 2 * q + side;
            double sg = side ? -1.0 : 1.0;
            for (int k = 0; k < 3; k++) {
                bf->plane[p][k] = (float)(sg * ax[q][k]);
                bf->absn[p][k] = fabsf(bf->plane[p][k]);
            }
            bf->plane[p][3] = (float)(side ? eo + hi[q] : -eo - lo[q]);
        }
    }
}

typedef struct vset {
    const char *name;
    int k;
    satc_camera cam[KMAX];
    double target; /* one pass vs K calls */
} vset;

static void make_sets(vset *s, const satc_camera *cam, scn_rng *r)
{
    double E[3] = {cam->origin[0], cam->origin[1], cam->origin[2]};
    double D[3] = {cam->dir[0], cam->dir[1], cam->dir[2]}, up[3] = {0, 1, 0};
    /* Stereo: two eyes 6.4 cm apart. */
    s[0].name = "stereo", s[0].k = 2, s[0].target = 0;
    for (int e = 0; e < 2; e++) {
        double o[3];
        for (int k = 0; k < 3; k++)
            o[k] = E[k] + (e ? 0.032 : -0.032) * cam->left[k];
        view_cam_make(&s[0].cam[e], o, D, up);
        s[0].cam[e].l0 = cam->l0, s[0].cam[e].l1 = cam->l1;
        s[0].cam[e].u0 = cam->u0, s[0].cam[e].u1 = cam->u1;
        s[0].cam[e].n = cam->n, s[0].cam[e].f = cam->f;
    }
    /* Camera + 4 cascades of one light. */
    s[1].name = "camera + 4 cascades", s[1].k = 5, s[1].target = 3.0;
    s[1].cam[0] = *cam;
    double ld[3] = {0.4, -1.0, 0.3}, ln = sqrt(0.16 + 1.0 + 0.09);
    for (int k = 0; k < 3; k++)
        ld[k] /= ln;
    const double split[5] = {0.1, 8, 25, 80, 250};
    for (int c = 0; c < 4; c++)
        view_cam_cascade(&s[1].cam[1 + c], cam, ld, split[c], split[c + 1]);
    /* Cube faces of a point light 30 m ahead. */
    s[2].name = "6 cube faces", s[2].k = 6, s[2].target = 2.5;
    double pl[3] = {E[0] + 30 * D[0], E[1] + 4, E[2] + 30 * D[2]};
    for (int f = 0; f < 6; f++) {
        double d[3] = {0, 0, 0}, h[3] = {0, 1, 0};
        d[f / 2] = f % 2 ? -1 : 1;
        if (f / 2 == 1)
            h[1] = 0, h[2] = 1;
        view_cam_make(&s[2].cam[f], pl, d, h);
        view_cam_persp(&s[2].cam[f], 0.05, 60.0, 1.0, 1.0);
    }
    /* 64 players over the city: eye height, any heading, 400 m view. */
    s[3].name = "64 players", s[3].k = 64, s[3].target = 2.0;
    for (int v = 0; v < 64; v++) {
        double a = scn_uniform(r, 0, 6.283185307179586);
        double o[3] = {E[0] + scn_uniform(r, -1800, 1800), E[1], E[2] + scn_uniform(r, -1800, 1800)};
        double d[3] = {sin(a), 0, cos(a)};
        view_cam_make(&s[3].cam[v], o, d, up);
        view_cam_persp(&s[3].cam[v], 0.1, 400.0, 0.5773502691896258 * 16.0 / 9.0, 0.5773502691896258);
    }
}

/* Z-order (Morton) of 4 m cells in the ground plane: groups of 128
 * consecutive boxes are compact blocks of the city. */
static uint64_t morton(const float *p)
{
    uint64_t x = (uint64_t)(int64_t)floor(p[0] / 4.0 + 32768.0) & 0xffff;
    uint64_t z = (uint64_t)(int64_t)floor(p[2] / 4.0 + 32768.0) & 0xffff;
    uint64_t m = 0;
    for (int b = 0; b < 16; b++)
        m |= (x >> b & 1) << (2 * b) | (z >> b & 1) << (2 * b + 1);
    return m;
}

static uint64_t *g_key;
static int by_key(const void *a, const void *b)
{
    uint64_t p = g_key[*(const size_t *)a], q = g_key[*(const size_t *)b];
    return p < q ? -1 : p > q;
}

int main(int argc, char **argv)
{
    /* --bounds: the group bounds part alone; --players: the 64 players'
     * one pass alone, flat and with groups (no K calls, no peer). */
    int quick = 0, only_bounds = 0, only_players = 0;
    bench_goals_init(&argc, argv);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s [--quick] [--bounds | --players] [--goals]\n"
                   "  --quick    64 Ki boxes, few samples (smoke run)\n"
                   "  --bounds   the group bounds part alone\n"
                   "  --players  the 64 players' pass alone\n"
                   "  --goals    also print the project's goal lines (as SATC_BENCH_GOALS=1 does)\n",
                   argv[0]);
            return 0;
        }
    for (int i = 1; i < argc; i++)
        quick |= !strcmp(argv[i], "--quick"), only_bounds |= !strcmp(argv[i], "--bounds"),
            only_players |= !strcmp(argv[i], "--players");
    quick |= bench_quick_env();
    size_t n = quick ? 65536 : 1048576;
    int reps = quick ? 3 : 7;
    scn_scene s;
    if (scn_make(&s, SCN_CITY, n, 20240601u, NULL) != 0) {
        fprintf(stderr, "cannot make the scene\n");
        return 2;
    }
    bench_scrub_init();
    if (only_bounds) {
        int bad = vg_group_bounds(&s, n, reps);
        bench_scrub_free();
        scn_free(&s);
        return bad;
    }
    /* World AABBs, in coherent order. */
    satc_batch ob = satc_batch_from_boxes(&s.boxes);
    float *c0 = malloc(12 * n), *h0 = malloc(12 * n), *c3 = malloc(12 * n), *h3 = malloc(12 * n);
    size_t *ord = malloc(n * sizeof *ord);
    satc_to_aabbs(&ob, 0, n, c0, h0);
    g_key = malloc(n * sizeof *g_key);
    for (size_t i = 0; i < n; i++)
        ord[i] = i, g_key[i] = morton(c0 + 3 * i);
    qsort(ord, n, sizeof *ord, by_key);
    free(g_key);
    for (size_t i = 0; i < n; i++)
        memcpy(c3 + 3 * i, c0 + 3 * ord[i], 12), memcpy(h3 + 3 * i, h0 + 3 * ord[i], 12);
    free(c0), free(h0), free(ord);
    satc_batch flat = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(h3, 12)}};
    size_t ng = (n + 127) / 128;
    float *gc = malloc(12 * ng), *gh = malloc(12 * ng);
    double t0 = bench_now_ns();
    satc_group_bounds(&flat, n, 128, NULL, ng, gc, gh);
    double tb = (bench_now_ns() - t0) / (double)n;
    satc_groups groups = {128, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
    satc_batch grouped = flat;
    grouped.groups = &groups;

    scn_rng r;
    scn_seed(&r, 11);
    static vset sets[4];
    make_sets(sets, &s.cam, &r);

    printf("\n== many views: %zu city boxes as world AABBs (24 B/box) in Z-order, from memory,\n"
           "path %s, exact mode, median ns per box for the whole set of views\n", n,
           satc_isa_name(satc_isa_active()));
    printf("(group bounds of 128: satc_group_bounds took %.2f ns/box in one call; per form at the end)\n", tb);
    g_fil = fb_peer_for(satc_isa_active());
    if (!g_fil) {
        fprintf(stderr, "no build of the peers runs here\n");
        return 2;
    }
    printf("(filament: Filament's 6-plane pass once per view, built %s,\n gcc -ffp-contract=off)\n\n",
           g_fil->flags);
    printf("%-20s %3s %9s %9s %9s %9s %9s %8s %8s %8s %13s\n", "views", "K", "pass", "K calls",
           "pass+grp", "calls+grp", "filament", "calls/pass", "grp", "fil/grp", "visible/view");
    int bad = 0;
    double fig[4][5];
    uint8_t *bits[KMAX], *bits2[KMAX];
    for (int v = 0; v < KMAX; v++)
        bits[v] = calloc(n / 8 + 1, 1), bits2[v] = calloc(n / 8 + 1, 1);
    uint64_t *masks = calloc(n, 8), *masks2 = calloc(n, 8);
    uint8_t *fil[KMAX];
    for (int v = 0; v < KMAX; v++)
        fil[v] = calloc(n, 1);
    for (int si = only_players ? 3 : 0; si < 4; si++) {
        vset *vs = &sets[si];
        static satc_frustum fr[KMAX];
        static bl_frustum bl[KMAX];
        for (int v = 0; v < vs->k; v++) {
            if (vs->cam[v].orthographic)
                ortho_planes(&bl[v], &vs->cam[v]);
            if (satc_frustum_from_camera(&fr[v], &vs->cam[v]) != SATC_OK ||
                (!vs->cam[v].orthographic && bl_frustum_init(&bl[v], &vs->cam[v]) != 0)) {
                fprintf(stderr, "%s: view %d rejected\n", vs->name, v);
                return 2;
            }
        }
        vctx cf = {fr, bl, vs->k, &flat, n, c3, h3, masks, {0}, {0}};
        vctx cg = cf, sf = cf, sg = cf, fl = cf;
        cg.b = &grouped, cg.masks = masks2;
        sg.b = &grouped;
        for (int v = 0; v < vs->k; v++)
            sf.bits[v] = bits[v], sg.bits[v] = bits2[v], fl.bits[v] = fil[v];
        static bench_job jobs[6];
        memset(jobs, 0, sizeof jobs);
        jobs[0].fn = run_views, jobs[0].ctx = &cf;
        jobs[1].fn = run_singles, jobs[1].ctx = &sf;
        jobs[2].fn = run_views, jobs[2].ctx = &cg;
        jobs[3].fn = run_singles, jobs[3].ctx = &sg;
        jobs[4].fn = run_filament, jobs[4].ctx = &fl;
        jobs[5].fn = run_stream24, jobs[5].ctx = &fl;
        if (only_players) {
            jobs[1] = jobs[2];
            bench_time_jobs(jobs, 2, n, 0, reps);
            if (memcmp(masks, masks2, n * 8))
                bad = 1, printf("MISMATCH: %s: the grouped pass differs from the flat pass\n", vs->name);
            bench_goal(!bad && jobs[0].st.med >= 5 * jobs[1].st.med, "speed",
                   "64 players, one pass with groups of 128 >= 5 x faster than the flat "
                   "one pass: %.2f x (%.2f against %.2f ns/box)",
                   jobs[0].st.med / jobs[1].st.med, jobs[1].st.med, jobs[0].st.med);
            vp_floor(fr, vs->k, &flat, n, 128, jobs[0].st.med, reps);
            break;
        }
        bench_time_jobs(jobs, 6, n, 0, reps);
        /* Grouped and flat, one pass and single calls: the same bits. */
        size_t wb = vs->k <= 8 ? 1 : vs->k <= 16 ? 2 : vs->k <= 32 ? 4 : 8;
        if (memcmp(masks, masks2, n * wb))
            bad = 1, printf("MISMATCH: %s: the grouped pass differs from the flat pass\n", vs->name);
        size_t tot = 0;
        for (int v = 0; v < vs->k; v++) {
            if (memcmp(bits[v], bits2[v], (n + 7) / 8))
                bad = 1, printf("MISMATCH: %s view %d: grouped call differs from flat\n", vs->name, v);
            for (size_t i = 0; i < n; i++) {
                unsigned a = bits[v][i / 8] >> (i % 8) & 1u, m = 0;
                switch (wb) {
                case 1: m = ((uint8_t *)masks)[i] >> v & 1u; break;
                case 2: m = ((uint16_t *)masks)[i] >> v & 1u; break;
                case 4: m = ((uint32_t *)masks)[i] >> v & 1u; break;
                default: m = (unsigned)(masks[i] >> v & 1u); break;
                }
                if (a != m) {
                    bad = 1, printf("MISMATCH: %s view %d: pass differs from call at %zu\n", vs->name, v, i);
                    break;
                }
                tot += a;
            }
        }
        double *f = fig[si];
        for (int j = 0; j < 5; j++)
            f[j] = jobs[j].st.med;
        printf("%-20s %3d %9.2f %9.2f %9.2f %9.2f %9.2f %8.2fx %7.2fx %7.1fx %13.1f\n",
               vs->name, vs->k, f[0], f[1], f[2], f[3], f[4], f[1] / f[0], f[1] / f[2], f[4] / f[2],
               (double)tot / vs->k);
        printf("%-24s filament per view %.2f ns/box = %.2f x the stream of its 24 B (%.2f)\n", "", f[4] / vs->k,
               f[4] / vs->k / jobs[5].st.med, jobs[5].st.med);
        if (vs->k == 64)
            vp_floor(fr, vs->k, &flat, n, 128, f[0], reps);
    }

    if (only_players)
        goto done;

    /* The cascades on the same boxes in no spatial order: the pass's own
     * bounds decide nothing there and it falls back to shared rows. */
    float *cs = malloc(12 * n), *hs = malloc(12 * n);
    memcpy(cs, c3, 12 * n), memcpy(hs, h3, 12 * n);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(scn_next(&r) % (i + 1));
        float t[3];
        memcpy(t, cs + 3 * i, 12), memcpy(cs + 3 * i, cs + 3 * j, 12), memcpy(cs + 3 * j, t, 12);
        memcpy(t, hs + 3 * i, 12), memcpy(hs + 3 * i, hs + 3 * j, 12), memcpy(hs + 3 * j, t, 12);
    }
    satc_batch shuf = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(cs, 12), SATC_VEC3S_AOS(hs, 12)}};
    double shf[2];
    {
        static satc_frustum fr[KMAX];
        vset *vs = &sets[1];
        for (int v = 0; v < vs->k; v++)
            satc_frustum_from_camera(&fr[v], &vs->cam[v]);
        vctx cf = {fr, NULL, vs->k, &shuf, n, cs, hs, masks, {0}, {0}}, sf = cf;
        for (int v = 0; v < vs->k; v++)
            sf.bits[v] = bits[v];
        static bench_job jobs[2];
        memset(jobs, 0, sizeof jobs);
        jobs[0].fn = run_views, jobs[0].ctx = &cf;
        jobs[1].fn = run_singles, jobs[1].ctx = &sf;
        bench_time_jobs(jobs, 2, n, 0, reps);
        for (int v = 0; v < vs->k; v++) {
            for (size_t i = 0; i < n; i++) {
                if ((bits[v][i / 8] >> (i % 8) & 1u) != (((uint8_t *)masks)[i] >> v & 1u)) {
                    bad = 1, printf("MISMATCH: shuffled cascades view %d: pass differs from call\n", v);
                    break;
                }
            }
        }
        shf[0] = jobs[0].st.med, shf[1] = jobs[1].st.med;
        printf("%-20s %3d %9.2f %9.2f %9s %9s %9s %8.2fx\n%-24s (the same boxes shuffled: no spatial order)\n",
               "cascades, shuffled", vs->k, shf[0], shf[1], "", "", "", shf[1] / shf[0], "");
    }
    free(cs), free(hs);

    /* The camera alone: grouped against flat. */
    satc_frustum cam;
    satc_frustum_from_camera(&cam, &s.cam);
    vctx c1 = {&cam, NULL, 1, &flat, n, c3, h3, NULL, {bits[0]}, {0}};
    vctx c2 = c1;
    c2.b = &grouped, c2.bits[0] = bits2[0];
    static bench_job cj[2];
    memset(cj, 0, sizeof cj);
    cj[0].fn = run_singles, cj[0].ctx = &c1;
    cj[1].fn = run_singles, cj[1].ctx = &c2;
    bench_time_jobs(cj, 2, n, 0, reps);
    int same = !memcmp(bits[0], bits2[0], (n + 7) / 8);
    if (!same)
        bad = 1, printf("MISMATCH: the camera's grouped cull differs from its flat cull\n");
    double gfl = cj[0].st.med, ggr = cj[1].st.med;
    printf("\ncamera alone: flat %.2f ns/box, groups of 128 %.3f ns/box (%.1fx), %zu visible, "
           "visibility %s\n\n", gfl, ggr, gfl / ggr, c1.visible[0], same ? "identical" : "DIFFERENT");

    bench_goals_heading("many views and groups (1 M boxes from memory)");
    for (int si = 1; si < 4; si++) {
        const double *f = fig[si];
        bench_goal(!bad && f[1] >= sets[si].target * f[0], "views",
               "%s in one pass >= %.1f x faster than %d calls (flat batch): %.2f x", sets[si].name,
               sets[si].target, sets[si].k, f[1] / f[0]);
        bench_goal(!bad && f[3] >= sets[si].target * f[2], "views",
               "%s in one pass >= %.1f x faster than %d calls (groups of 128 on both): %.2f x", sets[si].name,
               sets[si].target, sets[si].k, f[3] / f[2]);
    }
    bench_goal(!bad && same && gfl >= 4 * ggr, "views", "groups of 128, coherent city, camera: >= 4 x faster than flat, identical "
           "visibility: %.1f x", gfl / ggr);

    /* The views pass with groups against the flat pass and against K
     * calls with groups. f: pass, K calls, pass+grp, calls+grp. */
    bench_goal(!bad && fig[3][0] >= 5 * fig[3][2], "speed", "64 players, one pass with groups of 128 >= 5 x faster than the flat one pass: "
           "%.2f x (%.2f against %.2f ns/box)",
           fig[3][0] / fig[3][2], fig[3][2], fig[3][0]);
    for (int si = 1; si < 3; si++)
        bench_goal(!bad && fig[si][3] >= 1.5 * fig[si][2], "speed",
               "%s, one pass with groups >= 1.5 x faster than %d calls with groups: "
               "%.2f x (%.2f against %.2f ns/box)", sets[si].name, sets[si].k,
               fig[si][3] / fig[si][2], fig[si][2], fig[si][3]);

    bad |= vg_group_bounds(&s, n, reps);

done:
    for (int v = 0; v < KMAX; v++)
        free(bits[v]), free(bits2[v]), free(fil[v]);
    free(masks), free(masks2), free(c3), free(h3), free(gc), free(gh);
    bench_scrub_free();
    scn_free(&s);
    return bad;
}
