/* The standard scenes, random cameras and boundary boxes. */
#include <math.h>
#include <string.h>

#include "scenes.h"
#include "vec3d.h"

#define PI 3.14159265358979323846

void scn_seed(scn_rng *r, uint64_t seed) { r->s = seed ^ 0x5851f42d4c957f2dull; }

uint64_t scn_next(scn_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double scn_uniform(scn_rng *r, double lo, double hi)
{
    double u = (double)(scn_next(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

static double log_uniform(scn_rng *r, double lo, double hi)
{
    return exp(scn_uniform(r, log(lo), log(hi)));
}

const char *scn_name(scn_kind k)
{
    switch (k) {
    case SCN_CITY: return "city";
    case SCN_UNIFORM: return "uniform";
    case SCN_BOUNDARY: return "boundary";
    }
    return "unknown";
}

const char *scn_cam_name(scn_cam_kind k)
{
    switch (k) {
    case SCN_CAM_SYMMETRIC: return "symmetric";
    case SCN_CAM_ASYMMETRIC: return "asymmetric";
    case SCN_CAM_INFINITE: return "infinite";
    case SCN_CAM_ORTHO: return "ortho";
    }
    return "unknown";
}

/* ------------------------------------------------------------------ */

static void unit_vector(scn_rng *r, double *v)
{
    double z = scn_uniform(r, -1.0, 1.0), phi = scn_uniform(r, 0.0, 2.0 * PI);
    double s = sqrt(1.0 - z * z);
    v[0] = s * cos(phi), v[1] = s * sin(phi), v[2] = z;
}

/* Right-handed frame from a direction and an up hint (not parallel):
 * U = hint made orthogonal to D, L = U x D, so L x U = D. */
static void set_frame(satc_camera *c, const double *dir, const double *hint)
{
    double D[3] = {dir[0], dir[1], dir[2]}, U[3], L[3];
    normalize(D);
    double h = dot(hint, D);
    for (int k = 0; k < 3; k++)
        U[k] = hint[k] - h * D[k];
    normalize(U);
    cross(U, D, L);
    normalize(L);
    for (int k = 0; k < 3; k++) {
        c->left[k] = (float)L[k];
        c->up[k] = (float)U[k];
        c->dir[k] = (float)D[k];
    }
}

static void random_frame(scn_rng *r, satc_camera *c)
{
    double D[3], H[3];
    unit_vector(r, D);
    do
        unit_vector(r, H);
    while (fabs(dot(H, D)) > 0.95);
    set_frame(c, D, H);
}

/* Shoemake's uniform random rotation. */
static void random_quat(scn_rng *r, float q[4])
{
    double u1 = scn_uniform(r, 0, 1), u2 = scn_uniform(r, 0, 2 * PI), u3 = scn_uniform(r, 0, 2 * PI);
    double a = sqrt(1 - u1), b = sqrt(u1);
    q[0] = (float)(a * sin(u2));
    q[1] = (float)(a * cos(u2));
    q[2] = (float)(b * sin(u3));
    q[3] = (float)(b * cos(u3));
    if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
        q[3] = 1.0f;
}

/* The standard projection: 60 degrees vertical, 16:9, n = 0.1, f = 1000. */
static void standard_projection(satc_camera *c)
{
    double mu = 0.1 * tan(PI / 6.0), l = mu * 16.0 / 9.0;
    c->l0 = (float)-l, c->l1 = (float)l;
    c->u0 = (float)-mu, c->u1 = (float)mu;
    c->n = 0.1f, c->f = 1000.0f;
    c->orthographic = 0;
}

static int alloc_scene(scn_scene *s, size_t count)
{
    if (satc_frustum_from_camera(&s->frustum, &s->cam) != SATC_OK)
        return -1;
    if (satc_box_arrays_alloc(&s->arrays, count ? count : 1) != SATC_OK)
        return -1;
    s->boxes = satc_box_arrays_view(&s->arrays);
    s->count = count;
    return 0;
}

/* Stores a box centred at base + rel (double), rotation q, half sizes h. */
static void put_box(scn_scene *s, size_t i, const double *base, const double *rel, const float q[4],
                    const double *h)
{
    float c[3] = {(float)(base[0] + rel[0]), (float)(base[1] + rel[1]), (float)(base[2] + rel[2])};
    float hf[3] = {(float)h[0], (float)h[1], (float)h[2]};
    satc_obb b;
    if (satc_obb_from_quat(&b, c, q, hf) != SATC_OK) {
        /* Cannot happen for the inputs built here; keep a valid box. */
        const float q1[4] = {0, 0, 0, 1};
        satc_obb_from_quat(&b, c, q1, hf);
    }
    satc_box_arrays_set(&s->arrays, i, &b);
}

static void city(scn_scene *s, scn_rng *r, const double *off)
{
    /* Street level, looking horizontally (y up). */
    double yaw = scn_uniform(r, 0, 2 * PI);
    double D[3] = {sin(yaw), 0, cos(yaw)}, H[3] = {0, 1, 0};
    set_frame(&s->cam, D, H);
    standard_projection(&s->cam);
    double E[3] = {off[0] + scn_uniform(r, -50, 50), off[1] + 1.7, off[2] + scn_uniform(r, -50, 50)};
    for (int k = 0; k < 3; k++)
        s->cam.origin[k] = (float)E[k];
}

static void city_boxes(scn_scene *s, scn_rng *r)
{
    double E[3] = {s->cam.origin[0], s->cam.origin[1] - 1.7, s->cam.origin[2]};
    for (size_t i = 0; i < s->count; i++) {
        double h[3] = {0.5 * log_uniform(r, 0.3, 60), 0.5 * log_uniform(r, 0.3, 100),
                       0.5 * log_uniform(r, 0.3, 60)};
        double rel[3] = {scn_uniform(r, -2000, 2000), h[1], scn_uniform(r, -2000, 2000)};
        float q[4];
        if (scn_next(r) % 10 != 0) {
            double a = scn_uniform(r, 0, PI); /* yaw only: rotation about y */
            q[0] = 0, q[1] = (float)sin(a), q[2] = 0, q[3] = (float)cos(a);
        } else {
            random_quat(r, q);
        }
        put_box(s, i, E, rel, q, h);
    }
}

static void uniform_boxes(scn_scene *s, scn_rng *r)
{
    double E[3] = {s->cam.origin[0], s->cam.origin[1], s->cam.origin[2]};
    for (size_t i = 0; i < s->count; i++) {
        double h[3] = {0.5 * log_uniform(r, 0.1, 50), 0.5 * log_uniform(r, 0.1, 50),
                       0.5 * log_uniform(r, 0.1, 50)};
        double rel[3] = {scn_uniform(r, -1000, 1000), scn_uniform(r, -1000, 1000),
                         scn_uniform(r, -1000, 1000)};
        float q[4];
        random_quat(r, q);
        put_box(s, i, E, rel, q, h);
    }
}

/*
 * A feature (face, edge or corner) is chosen by fixing one, two or three of
 * the frustum's parameters at a bound (x, y, depth), the others free; for
 * an infinite frustum depth is fixed only at the near bound, and free
 * depths are log-uniform so every scale appears.
 */
void scn_boundary_point(scn_rng *r, const satc_camera *c, double p_out[3], double *scale)
{
    int ortho = c->orthographic != 0, inf = isinf(c->f);
    double n = c->n, f = c->f;
    double lo[3] = {c->l0, c->u0, n}, hi[3] = {c->l1, c->u1, f};
    if (!ortho) {
        lo[0] /= n, hi[0] /= n, lo[1] /= n, hi[1] /= n;
        if (inf)
            hi[2] = n * 1e5;
    }
    double wx = hi[0] - lo[0], wy = hi[1] - lo[1], p[3];
    int fixed = 1 + (int)(scn_next(r) % 3); /* face, edge, corner */
    int which = (int)(scn_next(r) % 3);      /* the fixed (face) or free (edge) parameter */
    for (int k = 0; k < 3; k++) {
        int fix = fixed == 3 || (fixed == 1 ? k == which : k != which);
        int upper = (int)(scn_next(r) & 1);
        if (k == 2 && !ortho && inf)
            upper = 0;
        if (fix)
            p[k] = upper ? hi[k] : lo[k];
        else if (k == 2 && !ortho)
            p[k] = log_uniform(r, lo[2], hi[2]);
        else
            p[k] = scn_uniform(r, lo[k], hi[k]);
    }
    if (ortho) {
        *scale = fmax(fmax(wx, wy), hi[2] - lo[2]);
        for (int k = 0; k < 3; k++)
            p_out[k] = p[0] * c->left[k] + p[1] * c->up[k] + p[2] * c->dir[k];
    } else {
        *scale = p[2] * fmax(fmax(wx, wy), 1.0);
        for (int k = 0; k < 3; k++)
            p_out[k] = p[2] * (p[0] * c->left[k] + p[1] * c->up[k] + c->dir[k]);
    }
}

/* Boundary boxes: half sizes log-uniform relative to the local scale of the
 * frustum at the feature point, center within about one box size of it. */
static void boundary_boxes(scn_scene *s, scn_rng *r)
{
    double E[3] = {s->cam.origin[0], s->cam.origin[1], s->cam.origin[2]};
    for (size_t i = 0; i < s->count; i++) {
        double rel[3], scale, h[3], u[3];
        scn_boundary_point(r, &s->cam, rel, &scale);
        for (int k = 0; k < 3; k++)
            h[k] = 0.5 * scale * log_uniform(r, 1e-3, 0.5);
        double hd = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        unit_vector(r, u);
        double m = hd * scn_uniform(r, 0, 1.5);
        for (int k = 0; k < 3; k++)
            rel[k] += m * u[k];
        float q[4];
        random_quat(r, q);
        put_box(s, i, E, rel, q, h);
    }
}

int scn_make(scn_scene *s, scn_kind kind, size_t count, uint64_t seed, const double offset[3])
{
    static const double zero[3] = {0, 0, 0};
    const double *off = offset ? offset : zero;
    scn_rng r;
    scn_seed(&r, seed * 3 + (uint64_t)kind);
    memset(s, 0, sizeof *s);
    if (kind == SCN_CITY) {
        city(s, &r, off);
    } else if (kind == SCN_UNIFORM || kind == SCN_BOUNDARY) {
        random_frame(&r, &s->cam);
        standard_projection(&s->cam);
        for (int k = 0; k < 3; k++)
            s->cam.origin[k] = (float)off[k];
    } else {
        return -1;
    }
    if (alloc_scene(s, count) != 0) {
        scn_free(s);
        return -1;
    }
    if (kind == SCN_CITY)
        city_boxes(s, &r);
    else if (kind == SCN_UNIFORM)
        uniform_boxes(s, &r);
    else
        boundary_boxes(s, &r);
    return 0;
}

void scn_free(scn_scene *s)
{
    if (!s)
        return;
    satc_box_arrays_free(&s->arrays);
    memset(s, 0, sizeof *s);
}

int scn_make_boundary_for(scn_scene *s, const satc_camera *cam, size_t count, uint64_t seed)
{
    scn_rng r;
    scn_seed(&r, seed);
    memset(s, 0, sizeof *s);
    if (!cam)
        return -1;
    s->cam = *cam;
    if (alloc_scene(s, count) != 0) {
        scn_free(s);
        return -1;
    }
    boundary_boxes(s, &r);
    return 0;
}

/* ------------------------------------------------------------------ */

static void random_slopes(scn_rng *r, double *a0, double *a1)
{
    double a, b;
    do {
        a = scn_uniform(r, -3, 3);
        b = scn_uniform(r, -3, 3);
    } while (fabs(a - b) < 0.05);
    *a0 = fmin(a, b), *a1 = fmax(a, b);
}

void scn_random_camera(scn_rng *r, scn_cam_kind kind, satc_camera *out)
{
    satc_frustum fr;
    satc_camera c;
    do {
        memset(&c, 0, sizeof c);
        double o[3];
        unit_vector(r, o);
        double rad = scn_uniform(r, 0, 1e3);
        for (int k = 0; k < 3; k++)
            c.origin[k] = (float)(o[k] * rad);
        random_frame(r, &c);
        if (kind == SCN_CAM_ORTHO) {
            double hx = log_uniform(r, 0.1, 1000), hy = log_uniform(r, 0.1, 1000);
            double cx = scn_uniform(r, -2, 2) * hx, cy = scn_uniform(r, -2, 2) * hy;
            double n = scn_uniform(r, -500, 500), depth = log_uniform(r, 1, 5000);
            c.l0 = (float)(cx - hx), c.l1 = (float)(cx + hx);
            c.u0 = (float)(cy - hy), c.u1 = (float)(cy + hy);
            c.n = (float)n, c.f = (float)(n + depth);
            c.orthographic = 1;
        } else {
            double n = log_uniform(r, 0.01, 10), x0, x1, y0, y1;
            int asym = kind == SCN_CAM_ASYMMETRIC ||
                       (kind == SCN_CAM_INFINITE && (scn_next(r) & 1));
            if (asym) {
                random_slopes(r, &x0, &x1);
                random_slopes(r, &y0, &y1);
            } else {
                double fovy = scn_uniform(r, 10, 150) * PI / 180.0;
                double aspect = log_uniform(r, 0.3, 4);
                y1 = tan(0.5 * fovy), y0 = -y1;
                x1 = y1 * aspect, x0 = -x1;
            }
            c.l0 = (float)(x0 * n), c.l1 = (float)(x1 * n);
            c.u0 = (float)(y0 * n), c.u1 = (float)(y1 * n);
            c.n = (float)n;
            c.f = kind == SCN_CAM_INFINITE ? INFINITY : (float)(n * log_uniform(r, 10, 1e5));
        }
    } while (satc_frustum_from_camera(&fr, &c) != SATC_OK);
    *out = c;
}

/* A frustum's planes (inside a.x + b.y + c.z + d >= 0, world units), as an
 * engine passes them for satc_frustum_from_planes: near, far, then the
 * sides (rounded from double); an infinite far is left out: returns 5. */
int scn_frustum_planes(const satc_frustum *f, float pl[6][4])
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2], *E = f->origin;
    const float *A[3] = {L, U, D};
    double lo[3] = {f->x0, f->y0, f->n}, hi[3] = {f->x1, f->y1, f->f};
    int ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    for (int p = 0; p < 6; p++) {
        int ax = (p / 2 + 2) % 3, up = p & 1; /* depth first: near, far, then L, U */
        double m[3];
        for (int k = 0; k < 3; k++) {
            double a = A[ax][k], d = D[k];
            if (ortho || ax == 2)
                m[k] = up ? -a : a;
            else
                m[k] = up ? hi[ax] * d - a : a - lo[ax] * d;
        }
        double off = ortho || ax == 2 ? (up ? hi[ax] : -lo[ax]) : 0.0;
        for (int k = 0; k < 3; k++)
            pl[p][k] = (float)m[k];
        pl[p][3] = (float)(off - (m[0] * E[0] + m[1] * E[1] + m[2] * E[2]));
    }
    if (!f->infinite && isfinite(f->f))
        return 6;
    memcpy(pl[1], pl[5], sizeof pl[1]); /* no far plane */
    return 5;
}
