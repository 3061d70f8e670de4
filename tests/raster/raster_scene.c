/* The raster test's scene builders and runner (raster_scene.h). */
#include "raster_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RASTER_SEED 0x5a7c0035
#define RASTER_CHECK_SHARED
#include "raster_check.h"

scene S;
int g_quick;

void persp(scene *s, const double eye[3], double yaw, double pitch, float fovy, float n,
           uint32_t w, uint32_t h)
{
    float e[3] = {(float)eye[0], (float)eye[1], (float)eye[2]};
    float d[3] = {(float)(cos(pitch) * sin(yaw)), (float)sin(pitch), (float)(cos(pitch) * cos(yaw))};
    double up[3] = {-sin(pitch) * sin(yaw), cos(pitch), -sin(pitch) * cos(yaw)};
    float u[3] = {(float)up[0], (float)up[1], (float)up[2]};
    satc_status st = satc_frustum_perspective(&s->f, e, d, u, fovy, (float)w / (float)h, n, 1000.0f);
    if (st != SATC_OK) {
        printf("camera: %s\n", satc_status_string(st));
        exit(1);
    }
    s->w = w, s->h = h;
    s->nbox = s->ntri = s->nvtx = s->nocc = 0;
}

void ortho(scene *s, float hw, float hh, float n, uint32_t w, uint32_t h)
{
    satc_camera c = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -hw, hw, -hh, hh, n, 500, 1};
    if (satc_frustum_from_camera(&s->f, &c) != SATC_OK)
        exit(1);
    s->w = w, s->h = h;
    s->nbox = s->ntri = s->nvtx = s->nocc = 0;
}

/* A box of center c and half axes a[j] (floats, as stored). */
void add_box(scene *s, const double c[3], double a[3][3])
{
    struct boxrec *b = &s->box[s->nbox++];
    ro_occ *o = &s->occ[s->nocc++];
    o->kind = RO_BOX;
    for (int k = 0; k < 3; k++) {
        b->c[k] = (float)c[k];
        o->c[k] = b->c[k];
        for (int j = 0; j < 3; j++) {
            b->a[j][k] = (float)a[j][k];
            o->h[j][k] = b->a[j][k];
        }
    }
}

/* A box of half sizes hx, hy, hz turned by yaw about y. */
void add_yaw_box(scene *s, const double c[3], double hx, double hy, double hz, double yaw)
{
    double a[3][3] = {{hx * cos(yaw), 0, -hx * sin(yaw)}, {0, hy, 0}, {hz * sin(yaw), 0, hz * cos(yaw)}};
    add_box(s, c, a);
}

uint32_t add_vertex(scene *s, const double p[3])
{
    for (int k = 0; k < 3; k++)
        s->vtx[3 * s->nvtx + k] = (float)p[k];
    return (uint32_t)s->nvtx++;
}

void add_tri_idx(scene *s, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t id[3] = {a, b, c};
    ro_occ *o = &s->occ[s->nocc++];
    o->kind = RO_TRI;
    for (int q = 0; q < 3; q++) {
        s->idx[3 * s->ntri + q] = id[q];
        for (int k = 0; k < 3; k++)
            o->v[q][k] = s->vtx[3 * id[q] + k];
    }
    s->ntri++;
}

void add_tri(scene *s, const double p[3], const double q[3], const double r[3])
{
    uint32_t a = add_vertex(s, p), b = add_vertex(s, q), c = add_vertex(s, r);
    add_tri_idx(s, a, b, c);
}

/* The 12 triangles of a box as a closed mesh, counter-clockwise outside. */
void add_box_mesh(scene *s, const double c[3], double a[3][3])
{
    uint32_t v[8];
    for (int q = 0; q < 8; q++) {
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = c[k] + (q & 1 ? a[0][k] : -a[0][k]) + (q & 2 ? a[1][k] : -a[1][k]) +
                   (q & 4 ? a[2][k] : -a[2][k]);
        v[q] = add_vertex(s, p);
    }
    /* faces as corner bits: -x, +x, -y, +y, -z, +z (outward for a right-handed a) */
    static const int f[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int k = 0; k < 6; k++) {
        add_tri_idx(s, v[f[k][0]], v[f[k][1]], v[f[k][2]]);
        add_tri_idx(s, v[f[k][0]], v[f[k][2]], v[f[k][3]]);
    }
}

satc_batch box_batch(const scene *s)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_HALF_AXES;
    size_t st = sizeof s->box[0];
    b.half_axes.center = SATC_VEC3S_AOS(&s->box[0].c[0], st);
    for (int j = 0; j < 3; j++)
        b.half_axes.axis[j] = SATC_VEC3S_AOS(&s->box[0].a[j][0], st);
    return b;
}

satc_mesh tri_mesh(const scene *s)
{
    satc_mesh m;
    memset(&m, 0, sizeof m);
    m.positions = s->vtx;
    m.stride = 12;
    m.vertex_count = s->nvtx;
    m.indices = s->idx;
    m.index_bits = 32;
    m.triangle_count = s->ntri;
    return m;
}

/* Level 0 starts at +Inf, except (mixed) a few texels far (1e30) or NaN. */
void init_level(float *l, size_t n, int mixed)
{
    for (size_t k = 0; k < n; k++)
        l[k] = INFINITY;
    if (mixed)
        for (size_t k = 0; k < n; k += 7)
            l[k] = k % 3 ? 1e30f : NAN;
}

/* The scene's boxes (boxes = 1) or triangles drawn into level. */
static satc_status draw(const scene *s, int boxes, const satc_raster_options *o, int want,
                        satc_raster_fill_fn fill, float *level)
{
    satc_batch b = box_batch(s);
    satc_mesh m = tri_mesh(s);
    if (boxes)
        return satc_raster_batch_core(level, s->w, s->h, &s->f, &b, 0, s->nbox, o, fill);
    if (!(want & ONE_BY_ONE))
        return satc_raster_mesh_core(level, s->w, s->h, &s->f, &m, o, fill);
    satc_status st = SATC_OK;
    m.triangle_count = 1;
    for (size_t t = 0; t < s->ntri && st == SATC_OK; t++) {
        m.indices = s->idx + 3 * t;
        st = satc_raster_mesh_core(level, s->w, s->h, &s->f, &m, o, fill);
    }
    return st;
}

/* Texels left unwritten though the rays through the four corners of the
 * texel widened by a texel on every side all meet an occluder: for an
 * outline convex on screen, texels inside it by more than a texel. */
static size_t count_holes(const scene *s, const ro_view *rv, const float *level, const float *init)
{
    size_t holes = 0;
    for (uint32_t j = 0; j < s->h; j++) {
        for (uint32_t i = 0; i < s->w; i++) {
            size_t at = (size_t)j * s->w + i;
            if (level[at] < init[at] || (isnan(init[at]) && !isnan(level[at])))
                continue;
            int inside = 1;
            for (int c = 0; c < 4 && inside; c++)
                inside = ro_nearest(rv, i + (c & 1 ? 2.0 : -1.0), j + (c & 2 ? 2.0 : -1.0),
                                    s->occ, s->nocc) < INFINITY;
            holes += (size_t)inside;
        }
    }
    return holes;
}

/* Draws the scene with the reference, checks the oracle, and checks
 * every path writes the same bits. */
outcome run(const char *name, scene *s, int boxes, const satc_raster_options *o, int want)
{
    size_t n = (size_t)s->w * s->h;
    float *ref = malloc(n * sizeof(float)), *init = malloc(n * sizeof(float)),
          *alt = malloc(n * sizeof(float));
    init_level(init, n, 1);
    memcpy(ref, init, n * sizeof(float));
    satc_status st = draw(s, boxes, o, want, satc_raster_fill_ref, ref);
    char what[160];
    snprintf(what, sizeof what, "%s: status %d", name, (int)st);
    check(st == SATC_OK, what);
    ro_view rv;
    ro_view_init(&rv, &s->f, s->w, s->h);
    outcome r = {0, 0, 0, 0};
    r.bad = ro_check(&rv, ref, init, s->occ, s->nocc, name, &r.written,
                     want & WANT_FULL ? &r.full : NULL);
    if (want & WANT_HOLES)
        r.holes = count_holes(s, &rv, ref, init);
    snprintf(what, sizeof what, "%s: %zu texels deeper-than-visible (of %zu written)", name, r.bad,
             r.written);
    check(r.bad == 0, what);
    for (unsigned isa = SATC_ISA_SSE41; isa <= SATC_ISA_SIMD128; isa <<= 1) {
        satc_raster_fill_fn fill = satc_raster_fill_for((satc_isa)isa);
        if (!fill)
            continue;
        memcpy(alt, init, n * sizeof(float));
        draw(s, boxes, o, want, fill, alt);
        snprintf(what, sizeof what, "%s: path %s writes the reference's bits", name,
                 satc_isa_name((satc_isa)isa));
        check(memcmp(alt, ref, n * sizeof(float)) == 0, what);
    }
    free(ref), free(init), free(alt);
    return r;
}

void report(const char *name, outcome r)
{
    if (r.full)
        printf("  %-28s %6zu texels written, %6zu fully hit by the oracle's rays (%.1f %%)\n",
               name, r.written, r.full, 100.0 * (double)r.written / (double)r.full);
    else
        printf("  %-28s %6zu texels written\n", name, r.written);
}
