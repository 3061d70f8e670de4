/*
 * Stage 4b, one-lane layers only (the scalar path, src/scalar/cull_w1.c):
 * early decisions that cannot change a bit. With W lanes a vector pays for
 * its slowest lane; with one, a volume proved outside can stop there. A
 * volume the plane tier culls is SATC_OUTSIDE in every mode (no inside
 * count, no exact tier), so its bits are 0 whatever else would run.
 *
 * early_out_v() returns 1 only when the reference's plane tier culls the
 * volume (outside a plane, and not 'bad'), 2 (conservative mode only)
 * when it proves the volume visible; otherwise step_v runs as on every
 * path and decides. Three tests:
 *
 * 1. Oriented boxes against a perspective frustum, before the load: the
 *    center's frame coordinates with the loader's own expressions (the
 *    same bits); the radii and S only bounded from above (S's |dx| + |dy|
 *    + |dz| by max_c col1_c |C - E|_1, so depth is tested first), by
 *    rho = sum_j |e_j| |A_j|_1 and per-call factors. The reference's
 *    radius on plane p is sum_j |n_p . (e_j A_j)| as rounded (n_p = D,
 *    L - x1 D, ...): at most sum_j |e_j| sum_c (pabs_pc + 10 u (|L_c| +
 *    |x1| |D_c|)) |A_jc| <= K_p rho, K_p = max_c (pabs_pc + g (1 + |x1|)
 *    col1_c) (|L_c|, |D_c| <= col1_c); S = sd + ax + ay + az + 2^-100 with
 *    ax + ay + az <= max_c col1_c rho (1 + 10 u). Each bound is inflated by
 *    g = 2^-16 (> 1000 u: the reference's rounding and this code's own) and
 *    padded by 2^-100 (underflow, flush to zero). Rounding is monotonic,
 *    so with R >= fl(r + tol) the tests fl(dz + R) < n, fl(dz - R) > f and
 *    fl(d - R) > 0 imply the reference's; S's bound < SATC_MAX_MAGNITUDE
 *    implies not 'bad' (NaN and infinity fail that compare) once no frame
 *    product of an axis overflows (the reference's e_j (L . A_j) is NaN for
 *    e_j = 0 and an infinite product: sum_j |A_j|_1 is checked too).
 *    Boxes within about rho of a plane fall through to step_v. checkasm's
 *    group early_out puts boxes where this bound is tight within 2^-28 of
 *    the boundary; without the slack g it fails.
 * 2. In exact and classification modes, after the load: the plane tier
 *    without the inside counts; a culled volume stops there, any other
 *    runs the whole tier as on every path.
 * 3. Axis-aligned boxes (c/h and min/max) against perspective and
 *    orthographic frusta, before the load: cglm's test (the p-vertex per
 *    plane, RTR 22.10.1, stop at the first plane that culls) made a proof.
 *    Plane p is an inward world normal m_p (the tier's, rounded: D, -D,
 *    x1 D - L, L - x0 D, y1 D - U, U - y0 D; orthographic -D, D, ...) and
 *    an offset o_p (n, -f, 0, ...; orthographic the box's sides), so that
 *    the tier's term for p is o_p - (m_p . c + |m_p| . h) up to rounding.
 *    In world coordinates (no subtraction of E per box: o_p + m_p . E once
 *    per call), T_p = fl(o_p' - sum_q max(m_pq lo_q, m_pq hi_q)) (or
 *    m . c + |m| . |h|). T_p and the reference's term both lie within
 *    2^-17 (|o_p| + K (sig + 2 |E|_1)) of the exact value (about 30
 *    roundings of at most 2^-24 each), sig = sum_q |lo_q| + |hi_q| (or
 *    |c_q| + |h_q|), so |c|_1 + |h|_1 <= sig + |E|_1 for the loader's c, h;
 *    K bounds every normal's and frame column's 1-norm; S <= (1 + g) (M3
 *    (sig + |E|_1) + S_FLOOR). So T_p > alpha sig + beta (those bounds,
 *    inflated by (1 + g)^4, plus 2^-100 for underflow and flush to zero)
 *    implies gap > tol: OUTSIDE in every mode; sig < eo_smax implies S <
 *    SATC_MAX_MAGNITUDE (not 'bad') and no overflow here. Every T_p below
 *    -(alpha sig + beta) implies gap < 0 <= tol: visible, conservative
 *    mode's whole answer (step_v sets the bit). NaN and infinities fail
 *    the compares and fall through to step_v. The slack g is about 500
 *    times the rounding it covers: boxes within about 6e-5 sig of a plane
 *    take the full path.
 */
#ifndef SATC_K_EARLY_OUT_H
#define SATC_K_EARLY_OUT_H

/* Tests 1 and 3's hit rate in the current chunk (one-lane layers). */
typedef struct eo_state {
    unsigned tries, hits, skip;
} eo_state;

#if W == 1

#define EO_G 1.52587890625e-05f /* 2^-16 */

static void early_box_init(vconst *k, const satc_frustum *f, const satc_fconsts *fc);
static inline float obb_tol(const vconst *k, float s);

/* Per call: K_p >= max_c (pabs_pc + g (1 + |s_p|) col1_c) and
 * M3 >= max_c col1_c, both inflated by 1 + g (s_p the plane's slope). */
static void early_out_init(vconst *k, const satc_fconsts *fc)
{
    const float sl[5] = {0.0f, k->x1, k->x0, k->y1, k->y0};
    float m3 = 0.0f;
    for (int c = 0; c < 3; c++)
        m3 = fc->col1[c] > m3 ? fc->col1[c] : m3;
    for (int p = 0; p < 5; p++) {
        float kp = 0.0f;
        for (int c = 0; c < 3; c++) {
            float t = fc->pabs[p][c] + EO_G * (1.0f + fabsf(sl[p])) * fc->col1[c];
            kp = t > kp ? t : kp;
        }
        k->eo_k[p] = kp * (1.0f + EO_G);
    }
    k->eo_m3 = m3 * (1.0f + EO_G);
    /* Test 1's cap of s: the frustum's reach, twice over (0: no cap when
     * the tolerance could shrink as s grows). */
    float far = fabsf(k->f) < INFINITY ? k->f : 1e4f * k->n, sl1 = 1.0f;
    for (int p = 1; p < 5; p++)
        sl1 = fabsf(sl[p]) > sl1 ? fabsf(sl[p]) : sl1;
    k->eo_scap1 = 4.0f * k->eo_m3 * far * (1.0f + sl1);
    if (!(k->epsk >= 0.0f) || !(k->tolt >= 0.0f) || !(k->eo_scap1 < SATC_MAX_MAGNITUDE))
        k->eo_scap1 = 0.0f;
    k->eo_tcap1 = obb_tol(k, k->eo_scap1);
    if (k->fr->kind != SATC_FRUSTUM_PLANES)
        early_box_init(k, k->fr, fc);
}

/* Test 3's planes: inward normals, world offsets and the bound's factors. */
static void early_box_init(vconst *k, const satc_frustum *f, const satc_fconsts *fc)
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    const int persp = f->kind == SATC_FRUSTUM_PERSPECTIVE;
    float m3 = 0.0f, smax = 1.0f, omax = 0.0f, off[6], rf;
    float o1 = (fabsf(f->origin[0]) + fabsf(f->origin[1])) + fabsf(f->origin[2]);
    for (int c = 0; c < 3; c++) {
        float (*m)[3] = k->eo_n;
        m3 = fc->col1[c] > m3 ? fc->col1[c] : m3;
        if (persp) {
            m[0][c] = D[c], m[1][c] = -D[c];
            m[2][c] = f->x1 * D[c] - L[c], m[3][c] = L[c] - f->x0 * D[c];
            m[4][c] = f->y1 * D[c] - U[c], m[5][c] = U[c] - f->y0 * D[c];
        } else { /* depth first, as for perspective */
            const float *row[3] = {D, L, U};
            for (int a = 0; a < 3; a++)
                m[2 * a][c] = -row[a][c], m[2 * a + 1][c] = row[a][c];
        }
    }
    if (persp) {
        const float sl[4] = {f->x0, f->x1, f->y0, f->y1};
        off[0] = f->n, off[1] = -f->f;
        off[2] = off[3] = off[4] = off[5] = 0.0f;
        for (int p = 0; p < 4; p++)
            smax = fabsf(sl[p]) > smax ? fabsf(sl[p]) : smax;
        omax = fabsf(f->n);
        if (fabsf(f->f) < INFINITY) /* an infinite far plane's term is -inf */
            omax = fabsf(f->f) > omax ? fabsf(f->f) : omax;
        rf = (fabsf(f->f) < INFINITY ? f->f : 1e4f * f->n) * (1.0f + smax) * 2.0f;
    } else {
        const int ax[3] = {2, 0, 1};
        rf = 0.0f;
        for (int a = 0; a < 3; a++) {
            float c = f->center[ax[a]], h = f->half[ax[a]], mag = fabsf(c) + h;
            off[2 * a] = -(c + h), off[2 * a + 1] = c - h;
            omax = mag > omax ? mag : omax;
        }
        rf = 4.0f * omax;
    }
    /* The offsets in world coordinates: o_p + m_p . E. */
    for (int p = 0; p < 6; p++) {
        const float *m = k->eo_n[p];
        k->eo_off[p] = off[p] + ((m[0] * f->origin[0] + m[1] * f->origin[1]) + m[2] * f->origin[2]);
        for (int c = 0; c < 3; c++)
            k->eo_abs[p][c] = fabsf(m[c]);
    }
    /* (1 + g)^4; K >= |L_q| + s |D_q| etc. for every q. */
    const float gg = (1.0f + EO_G) * (1.0f + EO_G) * (1.0f + EO_G) * (1.0f + EO_G);
    float kk = m3 * (1.0f + smax) * (1.0f + EO_G);
    k->eo_alpha = gg * (f->eps_k * m3 + EO_G * kk);
    k->eo_beta = gg * ((f->eps_k * (m3 * o1 + SATC_S_FLOOR) + f->tol_t) + EO_G * (omax + 2.0f * kk * o1)) +
                 0x1p-100f;
    /* sig + |E|_1 < SATC_MAX_MAGNITUDE / (2 M3), and K sig < 2^100; 0 (test
     * off) when K or the tolerance is not finite. */
    float lim = 0.5f * SATC_MAX_MAGNITUDE / (m3 * (1.0f + EO_G)) - o1 * (1.0f + EO_G);
    float lk = 0x1p100f / kk;
    k->eo_smax = lk < lim ? lk : lim;
    /* The fast bound: for sig < eo_scap (the frustum's reach and E, four
     * times over) the bound is below eo_tcap. */
    float scap = 4.0f * (o1 + rf);
    k->eo_scap = scap < k->eo_smax ? scap : k->eo_smax;
    k->eo_tcap = (k->eo_alpha * k->eo_scap + k->eo_beta) * (1.0f + EO_G);
    if (!(kk < INFINITY) || !(k->eo_tcap < INFINITY) || !(k->eo_smax > 0.0f) ||
        !(f->eps_k >= 0.0f) || !(f->tol_t >= 0.0f)) /* the proofs need tol >= 0 */
        k->eo_smax = k->eo_scap = 0.0f;
}

/* Test 3; 0 when it proves nothing. The plane's test alone decides the
 * branch (t > eo_tcap, the unpredictable one); sig < eo_scap, almost
 * always true, and the exact bound for boxes just outside a plane come
 * after, off that branch's path. */
SATC_AI int box_out(const vconst *k, const satc_batch *b, size_t i, int rec_ok, const int form,
                    const int lay, const int vis_ok)
{
    const int mm = form == SATC_FORM_MINMAX;
    V a[3], z[3];
    ld3s(mm ? &b->minmax.min : &b->aabb.center, i, 1, rec_ok, a, lay);
    ld3s(mm ? &b->minmax.max : &b->aabb.half, i, 1, rec_ok, z, lay);
    float sig = ((fabsf(a[0]) + fabsf(z[0])) + (fabsf(a[1]) + fabsf(z[1]))) + (fabsf(a[2]) + fabsf(z[2]));
    float tmax = -INFINITY;
    /* The planes in pairs (near and far, then the sides), a branch per
     * pair. Micro harness, min/max conservative, ns/box (cglm 3.1 in
     * cache, 14.5 at 1 M): a branch per plane 4.8 in cache (4096 boxes, 10
     * passes: the branch predictor learns their sequence) but 18.8 at 1 M
     * and 19.6 at 64 K (it cannot: a misprediction per box or so); pairs
     * 5.1 and 11.1; threes 6.1 and 10.2; all six 8.9 and 9.8. */
    for (int p0 = 0; p0 < 6; p0 += 2) {
        float tp = -INFINITY;
        for (int p = p0; p < p0 + 2; p++) {
            const float *m = k->eo_n[p], *am = k->eo_abs[p];
            float reach;
            if (mm) { /* the p-vertex */
                reach = v_max(m[0] * a[0], m[0] * z[0]) + v_max(m[1] * a[1], m[1] * z[1]);
                reach = reach + v_max(m[2] * a[2], m[2] * z[2]);
            } else {
                reach = (m[0] * a[0] + m[1] * a[1]) + m[2] * a[2];
                reach = reach + ((am[0] * fabsf(z[0]) + am[1] * fabsf(z[1])) + am[2] * fabsf(z[2]));
            }
            float t = k->eo_off[p] - reach;
            tp = p == p0 ? t : v_max(t, tp);
        }
        if (tp > k->eo_tcap && sig < k->eo_scap)
            return 1;
        tmax = p0 == 0 ? tp : v_max(tp, tmax);
    }
    float bound = k->eo_alpha * sig + k->eo_beta;
    if (!(sig < k->eo_smax))
        return 0;
    /* Every plane's term below -bound: the reference's gap is below 0 <=
     * tol, so the box is visible (conservative mode's whole answer). */
    return tmax > bound ? 1 : vis_ok && tmax < -bound ? 2 : 0;
}

/* Test 1's planes with the tolerance bound tol; 0 when none culls. */
SATC_AI int obb_planes(const vconst *k, const V c[3], V dz, float rho, float tol)
{
    float rz = k->eo_k[0] * rho + tol;
    /* The plane tier's distances, expression for expression; a branch per
     * plane (near, far, sides): one that culls ends the test (city 4096
     * exact, min of 6: 17.4 ns/box branch-free, 14.4 with a branch per
     * plane, 12.8 with the depth planes before dx and dy are computed). */
    if (dz + rz < k->n)
        return 1;
    if (dz - rz > k->f)
        return 1;
    V dx = v_add(v_add(v_mul(k->L[0], c[0]), v_mul(k->L[1], c[1])), v_mul(k->L[2], c[2]));
    V dy = v_add(v_add(v_mul(k->U[0], c[0]), v_mul(k->U[1], c[1])), v_mul(k->U[2], c[2]));
    if (dx - k->x1 * dz - (k->eo_k[1] * rho + tol) > 0.0f)
        return 1;
    if (k->x0 * dz - dx - (k->eo_k[2] * rho + tol) > 0.0f)
        return 1;
    if (dy - k->y1 * dz - (k->eo_k[3] * rho + tol) > 0.0f)
        return 1;
    return k->y0 * dz - dy - (k->eo_k[4] * rho + tol) > 0.0f;
}

/* Test 1's tolerance bound for the bound s of S (monotonic in s). */
static inline float obb_tol(const vconst *k, float s)
{
    float tol = k->epsk * s + k->tolt;
    return tol + EO_G * fabsf(tol) + k->sfloor;
}

/* Test 1; 0 when it proves nothing. */
SATC_AI int obb_persp_out(const vconst *k, const satc_batch *b, size_t i, int rec_ok,
                          const int lay)
{
    V v[3], c[3], e[3], a[3], dz;
    ld3s(&b->obb.center, i, 1, rec_ok, v, lay);
    for (int q = 0; q < 3; q++)
        c[q] = v_sub(v[q], k->o[q]);
    /* Depth first, with the loader's expression for it (its bits); dx and
     * dy only for a box neither depth plane culls. */
    dz = v_add(v_add(v_mul(k->D[0], c[0]), v_mul(k->D[1], c[1])), v_mul(k->D[2], c[2]));
    ld3s(&b->obb.extent, i, 1, rec_ok, e, lay);
    /* rho = sum_j |e_j| |A_j|_1 bounds the box's reach along any unit
     * direction of the world's 1-norm dual; asum = sum_j |A_j|_1. */
    float rho = 0.0f, asum = 0.0f;
    for (int j = 0; j < 3; j++) {
        ld3s(&b->obb.axis[j], i, 1, rec_ok, a, lay);
        float a1 = (fabsf(a[0]) + fabsf(a[1])) + fabsf(a[2]);
        rho += fabsf(e[j]) * a1;
        asum += a1;
    }
    /* |dx| + |dy| + |dz| <= sum_q col1_q |c_q| (1 + 10 u) <= M3 |c|_1. */
    float sd = ((fabsf(c[0]) + fabsf(c[1])) + fabsf(c[2])) * k->eo_m3;
    float s = ((sd + rho * k->eo_m3) + k->sfloor) * (1.0f + EO_G);
    /* Most boxes: s below the call's cap, so the tolerance is below the
     * cap's (obb_tol is monotonic); this branch is predictable, and the
     * planes' branches need not wait for s. */
    if (s < k->eo_scap1 && asum < k->maxmag)
        return obb_planes(k, c, dz, rho, k->eo_tcap1);
    /* Maybe 'bad' (or NaN): the reference never culls those. An axis whose
     * frame products overflow makes the reference's S NaN even with a zero
     * extent (0 * inf), hence asum too. */
    if (!(s < k->maxmag) || !(asum < k->maxmag))
        return 0;
    return obb_planes(k, c, dz, rho, obb_tol(k, s));
}

/* Test 3 on or off for a build (bit-neutral either way). The wasm scalar
 * module turns it off: on the web benchmark's 1 M random AABBs under V8 it
 * cost 43 % (scalar conservative 31.4 against 22.0 ns/box, exact 38.2
 * against 28.5), where natively it is neutral on that data and 1.3-2.9 x
 * faster on the coherent city (the benchmark's scalar rows, min/max
 * conservative: 14.5 -> 5.05 ns/box in cache, 14.6 -> 11.0 at 1 M). */
#ifndef SATC_EO_BOXES
#define SATC_EO_BOXES 1
#endif

/* Before the load: test 1 where it applies. Where it rarely culls (boxes
 * near the planes) it costs more than it saves: after 64 tries with fewer
 * than 40 culled it rests for 192 volumes. Either way the bits are the
 * plane tier's. */
SATC_AI int early_out_v(const vconst *k, const satc_batch *b, size_t i, int rec_ok,
                        const int form, const int ortho, const int lay, const int vis_ok,
                        eo_state *st)
{
    const int box = SATC_EO_BOXES && (form == SATC_FORM_AABB || form == SATC_FORM_MINMAX);
    if (!(form == SATC_FORM_OBB && !ortho) && !(box && ortho != 2))
        return 0;
    /* Conservative mode: test 3 decides both ways, so it is never wasted
     * (a volume it leaves costs about 6 planes more); no hit counting. */
    if (box && vis_ok)
        return box_out(k, b, i, rec_ok, form, lay, vis_ok);
    if (st->skip) {
        st->skip--;
        return 0;
    }
    int out = box ? box_out(k, b, i, rec_ok, form, lay, vis_ok) : obb_persp_out(k, b, i, rec_ok, lay);
    st->hits += out != 0;
    if (++st->tries == 64) {
        st->skip = st->hits < 40 ? 192 : 0;
        st->tries = st->hits = 0;
    }
    return out;
}

/* After the load, when the plane tier will count inside planes: test 2. */
SATC_NI int planes_out_v(const vconst *k, const vbox *o, M bad, const int form, const int ortho)
{
    vplanes p = ortho == 2 ? planes_vol_v(k, o, bad, form, 0)
                : ortho    ? planes_ortho_v(k, o, bad, 0)
                           : planes_persp_v(k, o, bad, 0);
    return !m_bits(p.vis);
}

#endif
#endif
