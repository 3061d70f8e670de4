/*
 * The box setup of raster/setup.c, eight boxes at a time: the same double
 * expressions in the same order, lane by lane, in the compiler's vector
 * types (add, multiply, divide, compare and select are exact IEEE
 * operations, and the build never contracts them), so every lane's
 * polygon has the bits satc_raster_setup_box() gives that box, whatever
 * the instruction set this file is compiled for. It takes the common
 * case: perspective, a box wholly beyond the near plane, three nonzero
 * axes, every face's facing provable. A lane outside it is handed back
 * for the one-box setup, so the answer never depends on which ran.
 *
 * Included once per instruction set with SATC_SETUP_WIDE naming the
 * function (satc_raster_wide_fn, kernels/raster_view.h) and SW_L its lanes.
 */
#include <math.h>
#include <string.h>

#include "box_sil.h"
#include "raster_view.h"

#ifndef SW_L
#define SW_L 8 /* boxes per vector: 8, or 4 and 2 where registers are fewer or narrower */
#endif
/* the helpers are always inlined: no vector crosses a call */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef double vd __attribute__((vector_size(SW_L * 8)));
/* the comparisons' lane masks: signed integers of the lanes' width */
#if __SIZEOF_LONG__ == 8
typedef long vm __attribute__((vector_size(SW_L * 8)));
#else
typedef long long vm __attribute__((vector_size(SW_L * 8)));
#endif

#define SW_AI static inline __attribute__((always_inline))

SW_AI vd vs(double x)
{
    vd r;
    for (int l = 0; l < SW_L; l++)
        r[l] = x;
    return r;
}
SW_AI vm ms(long long x)
{
    vm r;
    for (int l = 0; l < SW_L; l++)
        r[l] = x;
    return r;
}
SW_AI vd sel(vm m, vd a, vd b) { return (vd)((m & (vm)a) | (~m & (vm)b)); }
SW_AI vd vabs(vd a) { return (vd)((vm)a & ms(0x7FFFFFFFFFFFFFFFLL)); }
/* satc_dmin and satc_dmax: a NaN second operand yields the first */
SW_AI vd vmin(vd a, vd b) { return sel((a < b) | (b != b), a, b); }
SW_AI vd vmax(vd a, vd b) { return sel((a > b) | (b != b), a, b); }
SW_AI vd vn1(vd a, vd b, vd c) { return (vabs(a) + vabs(b)) + vabs(c); }
SW_AI vd vdot(const double f[3], const vd x[3]) { return (vs(f[0]) * x[0] + vs(f[1]) * x[1]) + vs(f[2]) * x[2]; }
SW_AI vd vdotv(const vd a[3], const vd b[3]) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }
SW_AI void vcross(const vd a[3], const vd b[3], vd o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* inv_pow2_above: 2^e from the exponent bits, then 2^-(e + 1) from
 * those bits (exact, no division); 0 where the one-box setup's exponent
 * test gives 0 (zero, subnormal, infinite, NaN, or beyond 2^+-1000). */
SW_AI vd vinv_pow2(vd s)
{
    vm t = (vm)s & ms(0x7FF0000000000000LL);
    vm ok = (t >= ms(22LL << 52)) & (t <= ms(2022LL << 52));
    return (vd)(ok & (ms(2045LL << 52) - t));
}

typedef float vf __attribute__((vector_size(SW_L * 4)));
typedef int vi __attribute__((vector_size(SW_L * 4)));
typedef unsigned vu __attribute__((vector_size(SW_L * 4)));

/* satc_float_up lane by lane: the rounding of x, one step up in the
 * bits where it fell below x. */
SW_AI vf vfloat_up(vd x)
{
    vf f = __builtin_convertvector(x, vf);
    vi below = __builtin_convertvector(__builtin_convertvector(f, vd) < x, vi);
    vu u = (vu)f;
    u += (vu)below & ((vu)__builtin_convertvector(ms(1), vi) - (u >> 31) * 2u);
    return (vf)u;
}

/* fold_raw (up = 0) lane by lane: the float coefficients, ok where it
 * succeeds. */
typedef struct sw_fold {
    vf a, b, c;
    vm ok;
} sw_fold;

SW_AI void vfold(const satc_rview *rv, vd ra, vd rb, vd rc, vd del, vd s, sw_fold *o)
{
    const vd tiny = vs(0x1p-60), zero = vs(0.0);
    vd r = vinv_pow2(s);
    vd a = ra * r, b = rb * r, c = rc * r;
    del = del * r;
    vd m = ((del * vs(1 + 0x1p-20)) +
            (vs(0x1p-20) * (((vabs(a) * vs(rv->W1)) + (vabs(b) * vs(rv->H1))) + vabs(c)))) +
           vs(rv->tinyWH);
    a = sel(vabs(a) < tiny, zero, a), b = sel(vabs(b) < tiny, zero, b);
    vd cc = ((c + vmin(a, zero)) + vmin(b, zero)) - m;
    o->ok = (r > zero) & ~(vabs(a) > vs(1.0)) & ~(vabs(b) > vs(1.0)) & (vabs(cc) <= vs(0x1p100));
    cc = sel(vabs(cc) < tiny, -tiny, cc);
    o->a = __builtin_convertvector(a, vf), o->b = __builtin_convertvector(b, vf);
    o->c = -vfloat_up(-cc);
}

/* floor and ceil lane by lane: exact for every double (those of 2^52
 * and above are integers); only a zero's sign may differ, which no use
 * below sees. */
SW_AI vd vround(vd x)
{
    vd c = sel(x < vs(0.0), vs(-0x1p52), vs(0x1p52));
    return sel(vabs(x) < vs(0x1p52), (x + c) - c, x);
}
SW_AI vd vfloor(vd x)
{
    vd t = vround(x);
    return sel(t > x, t - vs(1.0), t);
}
SW_AI vd vceil(vd x)
{
    vd t = vround(x);
    return sel(t < x, t + vs(1.0), t);
}

/* raster/setup.c's rect_of (keep = 0) lane by lane: the texel range and the
 * area, 0 where it covers nothing. */
typedef struct sw_rect {
    vd i0, i1, j0, j1, area;
} sw_rect;

SW_AI void vrect(const satc_rview *rv, vd amin, vd amax, vd bmin, vd bmax, sw_rect *o)
{
    vm ok = (amin <= amax) & (bmin <= bmax);
    vd u0 = (amin - vs(rv->a0)) / vs(rv->ak), u1 = (amax - vs(rv->a0)) / vs(rv->ak);
    vd v0 = (bmin - vs(rv->b0)) / vs(rv->bk), v1 = (bmax - vs(rv->b0)) / vs(rv->bk);
    vd umin = vmin(u0, u1), umax = vmax(u0, u1), vmn = vmin(v0, v1), vmx = vmax(v0, v1);
    vd tw = vs(rv->width), th = vs(rv->height), zero = vs(0.0);
    vd du = vmin(umax, tw) - vmax(umin, zero), dv = vmin(vmx, th) - vmax(vmn, zero);
    vd need = vs(((rv->flags & SATC_RVIEW_CELLS) ? 0.25 : 1.0) - 0x1p-30);
    ok &= (du > need) & (dv > need);
    vd eps = vs(0x1p-30) * ((((vabs(umin) + vabs(umax)) + vabs(vmn)) + vabs(vmx)) +
                            vs((double)rv->width + rv->height + 1));
    o->i0 = vmax(vfloor(umin - eps), zero), o->i1 = vmin(vceil(umax + eps), tw);
    vd j0 = vmax(vfloor(vmn - eps), zero), j1 = vmin(vceil(vmx + eps), th);
    ok &= (o->i0 < o->i1) & (j0 < j1);
    o->j0 = vmax(j0, vs(rv->row0)), o->j1 = vmin(j1, vs(rv->row1));
    ok &= o->j0 < o->j1;
    o->area = (vd)(ok & (vm)(du * dv));
}

SW_AI void rect_at(const sw_rect *r, int l, satc_rpoly *p)
{
    p->i0 = (int32_t)r->i0[l], p->i1 = (int32_t)r->i1[l];
    p->j0 = (int32_t)r->j0[l], p->j1 = (int32_t)r->j1[l];
}

static void wide_part(const satc_rview *rv, const satc_rbox *in, int n, satc_rpoly (*out)[3],
                      double *zlo, int8_t *st, int first)
{
    vd c[3], H[3][3], ce;
    for (int l = 0; l < SW_L; l++) {
        const satc_rbox *b = &in[l < n ? l : 0];
        for (int k = 0; k < 3; k++) {
            c[k][l] = b->c[k];
            for (int j = 0; j < 3; j++)
                H[j][k][l] = b->H[j][k];
        }
        ce[l] = b->cerr;
    }
    const vd zero = vs(0.0);
    vd d[3], C[3], Hq[3][3], hn[3];
    for (int k = 0; k < 3; k++)
        d[k] = c[k] - vs(rv->E[k]);
    for (int k = 0; k < 3; k++)
        C[k] = vdot(rv->F[k], d);
    vd M = vs(2.0) * vn1(C[0], C[1], C[2]);
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++)
            Hq[j][k] = vdot(rv->F[k], H[j]);
        hn[j] = vn1(Hq[j][0], Hq[j][1], Hq[j][2]);
        M = M + vs(2.0) * hn[j];
    }
    M = M + vn1(d[0], d[1], d[2]);
    vd e = vs(4.0) * ce + vs(0x1p-48) * M;
    /* dec: decided, in the one-box setup's order; f: of those, handed back
     * (the rest draw nothing) */
    vm dec, f, cnd;
    cnd = ~(vabs(ce) <= vs(1.7976931348623157e308)) | ~(M <= vs((double)SATC_MAX_MAGNITUDE));
    dec = cnd;
    vd az[3] = {vabs(Hq[0][2]), vabs(Hq[1][2]), vabs(Hq[2][2])};
    cnd = (C[2] + ((az[0] + az[1]) + az[2])) + vs(4.0) * e < vs(rv->n);
    dec |= cnd;
    vd zmin = ((C[2] - az[0]) - az[1]) - az[2];
    vd zl4 = zmin - vs(4.0) * e;
    cnd = ~(zl4 >= vs(rv->n)) | ms(rv->ortho ? -1 : 0);
    f = cnd & ~dec, dec |= cnd;
    /* box_below_texel */
    {
        vd D[3];
        for (int k = 0; k < 3; k++)
            D[k] = ((vabs(Hq[0][k]) + vabs(Hq[1][k])) + vabs(Hq[2][k])) + vs(0x1p-50) * M;
        vd zl = C[2] - D[2], rc = vs(1.0) / C[2], rl = vs(1.0) / zl;
        vm below = ms(0);
        const double org[2] = {rv->a0, rv->b0}, step[2] = {rv->ak, rv->bk};
        const double lo[2] = {-1, rv->row0 - 1.0}, hi[2] = {rv->W1, rv->row1 + 1.0};
        for (int k = 0; k < 2; k++) {
            vd sc = C[k] * rc, ca = vabs(sc), r = (D[k] + ca * D[2]) * rl;
            vd slack = vs(0x1p-40) * ((ca + r) + vs(rv->borg[k]));
            vd u = (sc - vs(org[k])) / vs(step[k]), ru = (r + slack) / vs(fabs(step[k]));
            below |= (vs(2.0) * r + slack < vs(rv->blim[k])) | (u + ru < vs(lo[k])) |
                     (u - ru > vs(hi[k]));
        }
        dec |= below & (zl > zero);
    }
    /* the vertices, ((C +- H0) +- H1) +- H2, and their rectangle */
    vd V[8][3];
    for (int k = 0; k < 3; k++) {
        vd t1[2] = {C[k] + Hq[0][k], C[k] + -Hq[0][k]}, t2[4];
        for (int q = 0; q < 2; q++)
            t2[q] = t1[q] + Hq[1][k], t2[q + 2] = t1[q] + -Hq[1][k];
        for (int q = 0; q < 4; q++)
            V[q][k] = t2[q] + Hq[2][k], V[q + 4][k] = t2[q] + -Hq[2][k];
    }
    vd amin = vs(INFINITY), amax = vs(-INFINITY), bmin = vs(INFINITY), bmax = vs(-INFINITY);
    for (int q = 0; q < 8; q++) {
        vd rz = vs(1.0) / V[q][2], a = V[q][0] * rz, b = V[q][1] * rz;
        amin = sel(amin < a, amin, a), amax = sel(amax > a, amax, a);
        bmin = sel(bmin < b, bmin, b), bmax = sel(bmax > b, bmax, b);
    }
    sw_rect rc;
    vrect(rv, amin, amax, bmin, bmax, &rc);
    if (first) {
        /* the first pass: the rectangle and the skip, nothing more */
        for (int l = 0; l < n; l++) {
            if (dec[l]) {
                st[l] = f[l] ? 2 : 0;
                continue;
            }
            satc_rpoly *p = &out[l][0];
            double area = rc.area[l];
            rect_at(&rc, l, p);
            st[l] = area > 0 && !(area < rv->min_texels) && !satc_raster_box_hidden(rv, p, zl4[l])
                        ? 3
                        : 0;
        }
        return;
    }
    /* after the rectangle (decided per lane below): zero axes, the
     * determinant, the faces */
    vm dec2 = (hn[0] == zero) | (hn[1] == zero) | (hn[2] == zero), f2 = dec2;
    vd X[3][3];
    for (int k = 0; k < 3; k++)
        vcross(Hq[(k + 1) % 3], Hq[(k + 2) % 3], X[k]);
    vd det = vdotv(Hq[0], X[0]);
    dec2 |= ~(vabs(det) > ((vs(0x1p-40) * hn[0]) * hn[1]) * hn[2]);
    vd sd = sel(det > zero, vs(1.0), vs(-1.0)), adet = vabs(det);
    vd dN = (vs(8.0) * e) * M + (vs(0x1p-44) * M) * M;
    vd dh = ((vs(12.0) * e) * M) * M + ((vs(0x1p-42) * M) * M) * M;
    vd hf[3][2];
    vm fr[6], uns = ms(0), any = ms(0);
    for (int k = 0; k < 3; k++) {
        vd xc = sd * vdotv(X[k], C);
        hf[k][0] = xc + adet, hf[k][1] = adet - xc;
        for (int si = 0; si < 2; si++) {
            vd v = hf[k][si];
            vm lt = v < -dh;
            fr[2 * k + si] = lt;
            any |= lt;
            uns |= ~lt & ~(v > dh);
        }
    }
    dec2 |= ~any;
    f2 |= uns & ~dec2, dec2 |= uns;
    /* the depth plane of each axis's front face, if any (add_depth,
     * add_plane; both faces of an axis front are never drawn) */
    sw_fold pf[3];
    vm pok[3];
    for (int k = 0; k < 3; k++) {
        vd nN = vn1(X[k][0], X[k][1], X[k][2]);
        vm s1 = fr[2 * k + 1]; /* face (k, -1) */
        vd sg = sel(s1, sd, -sd), h = -sel(s1, hf[k][1], hf[k][0]);
        vd Hh = (h + dh) * vs(1 + 0x1p-50);
        vd G0 = (sg * X[k][0]) / Hh, G1 = (sg * X[k][1]) / Hh, G2 = (sg * X[k][2]) / Hh;
        vd dg = ((dN * vs(rv->S)) + ((vs(0x1p-50) * nN) * vs(rv->S))) / Hh;
        vd ra = G0 * vs(rv->ak), rb = G1 * vs(rv->bk), rc = (G0 * vs(rv->a0) + G1 * vs(rv->b0)) + G2;
        vd s = vmax(vabs(ra), vmax(vabs(rb), vabs(rc)));
        vd r = vinv_pow2(s);
        pok[k] = (h > zero) & (vabs(Hh) <= vs(1.7976931348623157e308)) & (s > zero) &
                 (s <= vs(1.7976931348623157e308)) & (r >= vs(0x1p-61)) & (r <= vs(0x1p60));
        vfold(rv, ra, rb, rc, dg, s, &pf[k]);
        /* times 2^e = 1 / r, exact (a power of two in range where ok) */
        vf sf = __builtin_convertvector((vd)(ms(2046LL << 52) - (vm)r), vf);
        pf[k].a *= sf, pf[k].b *= sf, pf[k].c *= sf;
        vd gc = __builtin_convertvector(pf[k].c, vd);
        pok[k] &= pf[k].ok & (vabs(gc) <= vs(0x1p100));
    }
    /* each lane: its rectangle, then its silhouette's edges gathered
     * into slots (at most six) with their orientation */
    vd P[SATC_RP_EDGES][3], Q[SATC_RP_EDGES][3], sgn[SATC_RP_EDGES];
    unsigned front[SW_L], live = 0;
    for (int l = 0; l < SW_L; l++) {
        if (l < n && !dec[l]) {
            satc_rpoly *p = &out[l][0];
            double area = rc.area[l];
            rect_at(&rc, l, p);
            st[l] = 0;
            zlo[l] = zl4[l];
            if (area > 0 && !(area < rv->min_texels)) {
                unsigned fb = 0;
                for (int t = 0; t < 6; t++)
                    fb |= (fr[t][l] ? 1u : 0u) << t;
                if (dec2[l])
                    st[l] = f2[l] ? 2 : 0;
                else if (box_sil[fb][0] <= SATC_RP_EDGES)
                    front[l] = fb, live |= 1u << l;
            }
        } else if (l < n) {
            st[l] = f[l] ? 2 : 0;
        }
        const uint8_t *es = box_sil[live >> l & 1 ? front[l] : 1];
        const unsigned neg_sd = sd[l] < 0;
        for (int q = 0; q < SATC_RP_EDGES; q++) {
            unsigned eq = es[q < es[0] ? q + 1 : 1], k = eq >> 3 & 3, v = eq & 7;
            for (int c = 0; c < 3; c++)
                P[q][c][l] = V[v | 1u << k][c][l], Q[q][c][l] = V[v][c][l];
            sgn[q][l] = ((eq >> 6) ^ neg_sd) ? -1.0 : 1.0;
        }
    }
    if (!live)
        return;
    vd dedge = (((vs(4.0) * e) * M) + ((vs(0x1p-46) * M) * M)) * vs(rv->S);
    sw_fold ef[SATC_RP_EDGES];
    for (int q = 0; q < SATC_RP_EDGES; q++) {
        vd g[3];
        vcross(P[q], Q[q], g);
        vd A = sgn[q] * g[0], B = sgn[q] * g[1], Cc = sgn[q] * g[2];
        vd ra = A * vs(rv->ak), rb = B * vs(rv->bk), rc = (A * vs(rv->a0) + B * vs(rv->b0)) + Cc;
        vd s = sel(vabs(ra) > vabs(rb), vabs(ra), vabs(rb));
        s = sel(s > vabs(rc), s, vabs(rc));
        vfold(rv, ra, rb, rc, dedge, s, &ef[q]);
    }
    for (int l = 0; l < n; l++) {
        if (!(live >> l & 1))
            continue;
        satc_rpoly *p = &out[l][0];
        const uint8_t *es = box_sil[front[l]];
        int ok = 1;
        for (int q = 0; q < es[0]; q++) {
            ok &= ef[q].ok[l] != 0;
            p->e[q][0] = ef[q].a[l], p->e[q][1] = ef[q].b[l], p->e[q][2] = ef[q].c[l];
        }
        p->ne = es[0];
        p->np = 0;
        for (int t = 0; t < 6; t++) {
            if (!(front[l] >> t & 1))
                continue;
            const sw_fold *o = &pf[t / 2];
            ok &= pok[t / 2][l] != 0;
            float *g = p->g[p->np++];
            g[0] = o->a[l], g[1] = o->b[l], g[2] = o->c[l];
        }
        p->ortho = 0;
        p->zlo = -satc_float_up(-zl4[l]);
        st[l] = ok && p->ne >= 4;
    }
}

SATC_RASTER_WIDE_FN(SATC_SETUP_WIDE)
{
    for (int h = 0; h < n; h += SW_L)
        wide_part(rv, in + h, n - h < SW_L ? n - h : SW_L, out + h, zlo + h, st + h, first);
}
