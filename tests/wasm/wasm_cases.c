/*
 * The wasm cross-check's reference side: builds cases of every
 * form, layout, mode, output, view count, query and frustum builder, runs
 * each through the native scalar reference, and writes them to a file
 * crosscheck.mjs replays in both wasm modules.
 *
 * A case is a wasm32 memory image: the inputs and outputs of the native
 * call live in one arena, and beside them the wasm32 layout of every
 * struct the call takes (4-byte pointers as arena offsets, listed for
 * relocation). The replay copies the image into the module's memory,
 * relocates, calls the export with the same arguments, and compares the
 * status and the whole image afterwards with the native one, so any
 * difference in any output, or a write outside one, fails.
 *
 * File: "SATCWASM" u32 version, then per case: name, function (u32
 * length + bytes), u32 size, pre image, u32 nrelocs + offsets, u32 nargs
 * + (u32 kind: 0 int, 1 image offset, 2 float bits; u32 value), i32
 * status, u32 n + (u32 offset, u32 length) of scratch bytes the
 * comparison leaves out, the image after the call as u32 nruns + (u32 offset, u32
 * length, bytes) of the runs that differ from the pre image.
 * Usage: wasm_cases OUT [--quick]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_image.h"

/* ---- calls ---- */

static const char *form_name[] = {"", "obb", "aabb", "minmax", "half_axes", "instances", "spheres", "trs"};
static char name[256];

static void *copy_in(const void *p, size_t n)
{
    void *d = alloc(n);
    memcpy(d, p, n);
    return d;
}

static void case_cull(const satc_frustum *f0, const satc_batch *b, size_t first, size_t count,
                      int mode, int outs)
{
    satc_frustum *f = copy_in(f0, sizeof *f);
    void *wb = w_batch(b);
    satc_results r = outputs(count, outs);
    unsigned char *wr = w_results(&r);
    snap();
    int st = satc_cull(f, b, first, count, (satc_mode)mode, &r);
    put32(wr + 12, (uint32_t)r.visible);
    arg a[] = {Pt(f), Pt(wb), I((uint32_t)first), I((uint32_t)count), I((uint32_t)mode), Pt(wr)};
    emit(name, "satc_cull", st, 6, a);
}

static void case_views(const satc_frustum *views0, size_t nv, const satc_batch *b, size_t first,
                       size_t count, int mode)
{
    satc_frustum *views = copy_in(views0, nv * sizeof *views);
    void *wb = w_batch(b);
    size_t word = nv <= 8 ? 1 : nv <= 16 ? 2 : nv <= 32 ? 4 : 8;
    void *masks = alloc(count * word + 8);
    memset(masks, 0xA5, count * word + 8);
    uint32_t *idx[SATC_MAX_VIEWS];
    uint8_t *cls[SATC_MAX_VIEWS];
    size_t vis[SATC_MAX_VIEWS];
    unsigned char *widx = alloc(4 * nv), *wcls = alloc(4 * nv), *wvis = alloc(4 * nv);
    for (size_t v = 0; v < nv; v++) {
        idx[v] = v % 3 == 1 ? NULL : memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
        cls[v] = v % 4 == 2 ? NULL : memset(alloc(count + 1), 0xA5, count + 1);
        putptr(widx + 4 * v, idx[v]), putptr(wcls + 4 * v, cls[v]);
        put32(wvis + 4 * v, 0xA5A5A5A5u);
        vis[v] = 0xA5A5A5A5u;
    }
    satc_view_results r = {masks, idx, cls, vis};
    unsigned char *wr = alloc(16);
    putptr(wr, masks), putptr(wr + 4, widx), putptr(wr + 8, wcls), putptr(wr + 12, wvis);
    snap();
    int st = satc_cull_views(views, nv, b, first, count, (satc_mode)mode, &r);
    for (size_t v = 0; v < nv; v++)
        put32(wvis + 4 * v, (uint32_t)vis[v]);
    arg a[] = {Pt(views), I((uint32_t)nv), Pt(wb), I((uint32_t)first), I((uint32_t)count), I((uint32_t)mode), Pt(wr)};
    emit(name, "satc_cull_views", st, 7, a);
}

static void case_sphere(const float c0[3], float radius, const satc_batch *b, size_t first,
                        size_t count, int mode, int outs)
{
    float *c = copy_in(c0, 12);
    void *wb = w_batch(b);
    satc_results r = outputs(count, outs);
    unsigned char *wr = w_results(&r);
    snap();
    int st = satc_query_sphere(c, radius, b, first, count, (satc_mode)mode, &r);
    put32(wr + 12, (uint32_t)r.visible);
    arg a[] = {Pt(c), Fl(radius), Pt(wb), I((uint32_t)first), I((uint32_t)count), I((uint32_t)mode), Pt(wr)};
    emit(name, "satc_query_sphere", st, 7, a);
}

static void case_ray(const float o0[3], const float d0[3], float tmax, const satc_batch *b,
                     size_t first, size_t count, int mode, int outs)
{
    float *o = copy_in(o0, 12), *d = copy_in(d0, 12);
    void *wb = w_batch(b);
    satc_results r = outputs(count, outs | 4);
    unsigned char *wr = w_results(&r);
    float *t = memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
    unsigned char *wn = alloc(4);
    put32(wn, 0xA5A5A5A5u);
    size_t nearest = 0xA5A5A5A5u;
    snap();
    int st = satc_query_ray(o, d, tmax, b, first, count, (satc_mode)mode, &r, t, &nearest);
    put32(wr + 12, (uint32_t)r.visible);
    put32(wn, nearest == SIZE_MAX ? 0xFFFFFFFFu : (uint32_t)nearest);
    arg a[] = {Pt(o), Pt(d), Fl(tmax), Pt(wb), I((uint32_t)first), I((uint32_t)count),
               I((uint32_t)mode), Pt(wr), Pt(t), Pt(wn)};
    emit(name, "satc_query_ray", st, 10, a);
}

static void case_aabbs(const satc_batch *b, size_t first, size_t count)
{
    void *wb = w_batch(b);
    float *c = memset(alloc(12 * count + 4), 0xA5, 12 * count + 4);
    float *h = memset(alloc(12 * count + 4), 0xA5, 12 * count + 4);
    snap();
    int st = satc_to_aabbs(b, first, count, c, h);
    arg a[] = {Pt(wb), I((uint32_t)first), I((uint32_t)count), Pt(c), Pt(h)};
    emit(name, "satc_to_aabbs", st, 5, a);
}

/* A frustum builder: out is prefilled, the inputs copied into the arena. */
static satc_frustum *fout(void) { return memset(alloc(sizeof(satc_frustum)), 0xA5, sizeof(satc_frustum)); }

/* The OpenGL view-projection matrix of a camera (column-major floats). */
static void camera_matrix(const satc_camera *c, float m[16])
{
    double V[4][4] = {{0}}, P[4][4] = {{0}}, M[4][4];
    const float *row[3] = {c->left, c->up, c->dir};
    double sg[3] = {-1, 1, -1}; /* eye space: right = -L, up = U, back = -D */
    for (int r = 0; r < 3; r++) {
        double t = 0;
        for (int k = 0; k < 3; k++)
            V[r][k] = sg[r] * row[r][k], t += V[r][k] * c->origin[k];
        V[r][3] = -t;
    }
    V[3][3] = 1;
    double l = -c->l1, rt = -c->l0, bo = c->u0, tp = c->u1, n = c->n, f = c->f;
    if (c->orthographic) {
        P[0][0] = 2 / (rt - l), P[0][3] = -(rt + l) / (rt - l);
        P[1][1] = 2 / (tp - bo), P[1][3] = -(tp + bo) / (tp - bo);
        P[2][2] = -2 / (f - n), P[2][3] = -(f + n) / (f - n), P[3][3] = 1;
    } else {
        P[0][0] = 2 * n / (rt - l), P[0][2] = (rt + l) / (rt - l);
        P[1][1] = 2 * n / (tp - bo), P[1][2] = (tp + bo) / (tp - bo);
        P[2][2] = isinf(f) ? -1 : -(f + n) / (f - n), P[2][3] = isinf(f) ? -2 * n : -2 * f * n / (f - n);
        P[3][2] = -1;
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            M[i][j] = 0;
            for (int k = 0; k < 4; k++)
                M[i][j] += P[i][k] * V[k][j];
            m[j * 4 + i] = (float)M[i][j];
        }
}

static void case_builders(const satc_camera *cam0)
{
    satc_frustum *o;
    reset();
    satc_camera *cam = copy_in(cam0, sizeof *cam);
    o = fout();
    snap();
    emit(name, "satc_frustum_from_camera", satc_frustum_from_camera(o, cam), 2, (arg[]){Pt(o), Pt(cam)});

    reset();
    satc_camera_d *cd = alloc(sizeof *cd);
    memcpy(cd->left, cam0->left, 9 * 4 + 6 * 4), cd->orthographic = cam0->orthographic;
    for (int k = 0; k < 3; k++)
        cd->origin[k] = cam0->origin[k] + 1e6 * (k + 1) + 0.3;
    double *bo = alloc(24);
    bo[0] = 1e6, bo[1] = 2e6 + 5, bo[2] = 3e6 - 5;
    o = fout();
    snap();
    emit(name, "satc_frustum_from_camera_d", satc_frustum_from_camera_d(o, cd, bo), 3, (arg[]){Pt(o), Pt(cd), Pt(bo)});

    for (unsigned conv = 0; conv < 2; conv++) {
        reset();
        float *m = alloc(64), mm[16];
        camera_matrix(cam0, mm);
        for (int i = 0; i < 16; i++)
            m[i] = conv ? mm[(i % 4) * 4 + i / 4] : mm[i];
        o = fout();
        snap();
        emit(name, "satc_frustum_from_matrix", satc_frustum_from_matrix(o, m, conv), 3, (arg[]){Pt(o), Pt(m), I(conv)});
    }

    reset();
    float *e = alloc(12), *d = alloc(12), *u = alloc(12);
    for (int k = 0; k < 3; k++)
        e[k] = cam0->origin[k], d[k] = cam0->dir[k], u[k] = cam0->up[k];
    float fovy = (float)scn_uniform(&R, 0.2, 2.5), asp = (float)scn_uniform(&R, 0.5, 2.5);
    o = fout();
    snap();
    emit(name, "satc_frustum_perspective", satc_frustum_perspective(o, e, d, u, fovy, asp, 0.1f, 900.0f), 8,
         (arg[]){Pt(o), Pt(e), Pt(d), Pt(u), Fl(fovy), Fl(asp), Fl(0.1f), Fl(900.0f)});
}

/* Query frusta around the scene's box i: an OBB, a segment, planes. */
static int query_frustum(int kind, size_t i, size_t j, satc_frustum *f)
{
    if (kind == 0) {
        satc_obb q;
        for (int k = 0; k < 3; k++) {
            q.center[k] = bc(i, k);
            q.extent[k] = 4 * be(i, k) + 0.5f * be(j, k);
            for (int a = 0; a < 3; a++)
                q.axis[a][k] = ba(j, a, k);
        }
        return satc_frustum_from_box(f, &q);
    }
    if (kind == 1) {
        float p0[3], p1[3];
        for (int k = 0; k < 3; k++)
            p0[k] = bc(i, k), p1[k] = bc(j, k);
        return satc_frustum_from_segment(f, p0, p1);
    }
    float pl[6][4];
    for (int p = 0; p < 6; p++) {
        double nrm[3], len = 0, w = 0;
        for (int k = 0; k < 3; k++)
            nrm[k] = scn_uniform(&R, -1, 1), len += nrm[k] * nrm[k];
        len = sqrt(len);
        for (int k = 0; k < 3; k++)
            pl[p][k] = (float)(nrm[k] / len), w -= pl[p][k] * (bc(i, k) - pl[p][k] * 3 * be(j, 0));
        pl[p][3] = (float)w;
    }
    return satc_frustum_from_planes(f, (const float(*)[4])pl, 4 + (i % 3), 0.01f * (float)(i % 2));
}

/* satc_pyramid_build over random level-0 depths (NaN and +Inf among them):
 * every upper-level texel is compared. */
static void case_pyramid_build(const satc_frustum *view, uint32_t w, uint32_t h)
{
    reset();
    satc_pyramid p;
    size_t bytes = satc_pyramid_bytes(w, h);
    float *d = alloc(bytes);
    if (satc_pyramid_init(&p, view, w, h, d, bytes) != SATC_OK)
        exit(3);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t r = (uint32_t)scn_next(&R);
        d[i] = r % 97 == 0 ? NAN : r % 89 == 0 ? INFINITY : (float)(0.1 + 500.0 * U01());
    }
    unsigned char *wp = w_pyramid(&p);
    snprintf(name, sizeof name, "pyramid_build %ux%u", (unsigned)w, (unsigned)h);
    snap();
    int st = satc_pyramid_build(&p);
    emit(name, "satc_pyramid_build", st, 1, (arg[]){Pt(wp)});
}

/* ---- main ---- */

/* A grid scene: an axis-aligned camera with slopes of +-1 and +-1/2 and
 * boxes on a 1/8 grid, axis-aligned, so faces and corners lie exactly on
 * the planes (ties: <= against <). */
static void grid_camera(satc_camera *c, scn_cam_kind ck)
{
    static const float L[3] = {1, 0, 0}, Up[3] = {0, 1, 0}, D[3] = {0, 0, 1};
    memset(c, 0, sizeof *c);
    memcpy(c->left, L, 12), memcpy(c->up, Up, 12), memcpy(c->dir, D, 12);
    c->origin[0] = 3, c->origin[1] = -2, c->origin[2] = 5;
    c->l0 = -1, c->l1 = 1, c->u0 = -0.5f, c->u1 = 0.5f, c->n = 1, c->f = ck == SCN_CAM_INFINITE ? INFINITY : 64;
    if (ck == SCN_CAM_ORTHO)
        c->orthographic = 1, c->l0 = -8, c->l1 = 8, c->u0 = -4, c->u1 = 4, c->n = -2;
}

static void grid_boxes(scn_scene *sc)
{
    for (size_t i = 0; i < sc->count; i++)
        for (int j = 0; j < 3; j++) {
            float *c = &sc->arrays.center[j][i], *e = &sc->arrays.extent[j][i];
            *c = roundf(*c * 8) / 8, *e = fmaxf(roundf(*e * 8) / 8, 0.125f);
            for (int k = 0; k < 3; k++)
                sc->arrays.axis[j][k][i] = (float)(j == k);
        }
}

/* The repetition a scene's seed belongs to (main: 1000 rep + camera). */
static unsigned rep_of(uint64_t seed) { return (unsigned)(seed / 1000); }

static void scene_cases(scn_cam_kind ck, uint64_t seed, int quick, int grid)
{
    satc_camera cam;
    scn_random_camera(&R, ck, &cam);
    if (grid)
        grid_camera(&cam, ck);
    snprintf(name, sizeof name, "builders %s seed %llu", scn_cam_name(ck), (unsigned long long)seed);
    case_builders(&cam);
    { /* on a saved stream: the scene cases below draw what they always drew */
        scn_rng keep = R;
        satc_frustum pv;
        satc_frustum_from_camera(&pv, &cam);
        case_pyramid_build(&pv, 64u + (uint32_t)(scn_next(&R) % 80), 32u + (uint32_t)(scn_next(&R) % 50));
        R = keep;
    }
    size_t n = 40 + scn_next(&R) % (quick ? 300 : 700);
    scn_scene sc;
    if (scn_make_boundary_for(&sc, &cam, n, seed) != 0)
        exit(2);
    if (grid)
        grid_boxes(&sc);
    S = &sc;
    satc_frustum views[SATC_MAX_VIEWS];
    satc_frustum_from_camera(&views[0], &cam);
    for (int v = 1; v < SATC_MAX_VIEWS; v++) { /* nearby cameras: mixed answers */
        satc_camera c2 = cam;
        for (int k = 0; k < 3; k++)
            c2.origin[k] += (float)scn_uniform(&R, -2, 2);
        c2.l0 *= (float)scn_uniform(&R, 0.7, 1.3), c2.u1 *= (float)scn_uniform(&R, 0.7, 1.3);
        if (satc_frustum_from_camera(&views[v], &c2) != SATC_OK)
            views[v] = views[0];
    }
    static const size_t kv[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64};
    for (int form = 1; form <= 7; form++) {
        for (int layout = 0; layout < 4; layout++) {
            double bad = (layout + form) % 3 == 0 ? 0.03 : 0.0;
            for (int mode = 0; mode < 2; mode++) {
                reset();
                satc_batch b = make_batch(form, layout, n, bad);
                int grp = (int)(scn_next(&R) % 3); /* none, fixed size, offsets */
                if (grp)
                    add_groups(&b, n, grp);
                size_t first = scn_next(&R) % 71, cut = scn_next(&R) % 9;
                first = first < n ? first : n; /* clamped: count never wraps */
                size_t count = n - first > cut ? n - first - cut : 0;
                int outs = 1 + (int)(scn_next(&R) % 7);
                snprintf(name, sizeof name, "cull%s %s %s %s %s bad %.2f groups %d first %zu count %zu outs %d",
                         grid ? " grid" : "", scn_cam_name(ck), form_name[form], layout_name[layout],
                         mode ? "exact" : "conservative", bad, grp, first, count, outs);
                case_cull(&views[0], &b, first, count, mode, outs);
                /* the same batch: views, queries, AABBs (fresh images of it) */
                size_t nv = kv[scn_next(&R) % 12];
                snprintf(name, sizeof name, "views %zu %s %s %s groups %d first %zu", nv, form_name[form],
                         layout_name[layout], mode ? "exact" : "conservative", grp, first);
                size_t keep = used;
                unsigned keeprel = nrel;
                case_views(&views[scn_next(&R) % (SATC_MAX_VIEWS - nv + 1)], nv, &b, first, count, mode);
                size_t i = scn_next(&R) % n, j = scn_next(&R) % n;
                satc_frustum qf;
                int qk = (int)(scn_next(&R) % 3);
                if (query_frustum(qk, i, j, &qf) == SATC_OK) {
                    snprintf(name, sizeof name, "query %s %s %s %s", qk == 0 ? "box" : qk == 1 ? "segment" : "planes",
                             form_name[form], layout_name[layout], mode ? "exact" : "conservative");
                    back_to(keep, keeprel);
                    case_cull(&qf, &b, first, count, mode, outs);
                }
                float c[3], d[3];
                for (int k = 0; k < 3; k++)
                    c[k] = bc(i, k), d[k] = bc(j, k) - bc(i, k) + (float)scn_uniform(&R, -1, 1);
                float rad = 3 * be(j, 0) * (float)(scn_next(&R) % 4);
                snprintf(name, sizeof name, "sphere %s %s %s radius %g", form_name[form],
                         layout_name[layout], mode ? "exact" : "conservative", rad);
                back_to(keep, keeprel);
                case_sphere(c, rad, &b, first, count, mode, outs);
                float tmax = mode ? INFINITY : (float)scn_uniform(&R, 0, 2);
                snprintf(name, sizeof name, "ray %s %s %s tmax %g", form_name[form],
                         layout_name[layout], mode ? "exact" : "conservative", tmax);
                back_to(keep, keeprel);
                case_ray(c, d, tmax, &b, first, count, mode, outs);
                if (mode == 0) {
                    snprintf(name, sizeof name, "to_aabbs %s %s", form_name[form], layout_name[layout]);
                    back_to(keep, keeprel);
                    case_aabbs(&b, first, count);
                }
            }
        }
    }
    occl_cases(&cam, views, n, quick || rep_of(seed) > 0, grid);
    depth_cases(views, n, rep_of(seed) == 0);
    scn_free(&sc);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: wasm_cases OUT [--quick]\n");
        return 2;
    }
    int quick = argc > 2 && !strcmp(argv[2], "--quick");
    out = fopen(argv[1], "wb");
    A = calloc(1, ARENA), pre = malloc(ARENA);
    if (!out || !A || !pre)
        return 2;
    satc_isa_set_mask(0); /* the scalar reference */
    fwrite("SATCWASM", 1, 8, out);
    wr32(2);
    used = ARENA;
    reset();
    scn_seed(&R, 25);
    for (int rep = 0; rep < (quick ? 2 : 3); rep++)
        for (int ck = 0; ck < 4; ck++)
            scene_cases((scn_cam_kind)ck, 1000u * (unsigned)rep + (unsigned)ck, quick, rep == 1);
    if (fclose(out) != 0)
        return 2;
    occl_summary();
    printf("wasm_cases: %lu cases from the %s path\n", ncases, satc_isa_name(satc_isa_active()));
    return 0;
}
