/*
 * Stage 4b, one-lane layers only (the scalar path, src/scalar/cull_w1.c):
 * early decisions that cannot change a bit. With W lanes a vector pays for
 * its slowest lane; with one, a volume proved outside can stop there. A
 * volume the plane tier culls is SATC_OUTSIDE in every mode (no inside
 * count, no exact tier), so its bits are 0 whatever else would run.
 *
 * early_out_v() returns 1 only when the reference's plane tier culls the
 * volume (outside a plane, and not 'bad'); otherwise step_v runs as on
 * every path and decides. Two tests:
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
 */
#ifndef SATC_K_EARLY_OUT_H
#define SATC_K_EARLY_OUT_H

/* Test 1's hit rate in the current chunk (one-lane layers). */
typedef struct eo_state {
    unsigned tries, hits, skip;
} eo_state;

#if W == 1

#define EO_G 1.52587890625e-05f /* 2^-16 */

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
}

/* Test 1; 0 when it proves nothing. */
SATC_AI int obb_persp_out(const vconst *k, const satc_batch *b, size_t i, int rec_ok,
                          const int soa)
{
    V v[3], c[3], e[3], a[3], dx, dy, dz;
    ld3s(&b->obb.center, i, 1, rec_ok, v, soa);
    for (int q = 0; q < 3; q++)
        c[q] = v_sub(v[q], k->o[q]);
    /* Depth first, with the loader's expression for it (its bits); dx and
     * dy only for a box neither depth plane culls. */
    dz = v_add(v_add(v_mul(k->D[0], c[0]), v_mul(k->D[1], c[1])), v_mul(k->D[2], c[2]));
    ld3s(&b->obb.extent, i, 1, rec_ok, e, soa);
    /* rho = sum_j |e_j| |A_j|_1 bounds the box's reach along any unit
     * direction of the world's 1-norm dual; asum = sum_j |A_j|_1. */
    float rho = 0.0f, asum = 0.0f;
    for (int j = 0; j < 3; j++) {
        ld3s(&b->obb.axis[j], i, 1, rec_ok, a, soa);
        float a1 = (fabsf(a[0]) + fabsf(a[1])) + fabsf(a[2]);
        rho += fabsf(e[j]) * a1;
        asum += a1;
    }
    /* |dx| + |dy| + |dz| <= sum_q col1_q |c_q| (1 + 10 u) <= M3 |c|_1. */
    float sd = ((fabsf(c[0]) + fabsf(c[1])) + fabsf(c[2])) * k->eo_m3;
    float s = ((sd + rho * k->eo_m3) + k->sfloor) * (1.0f + EO_G);
    /* Maybe 'bad' (or NaN): the reference never culls those. An axis whose
     * frame products overflow makes the reference's S NaN even with a zero
     * extent (0 * inf), hence asum too. */
    if (!(s < k->maxmag) || !(asum < k->maxmag))
        return 0;
    float tol = k->epsk * s + k->tolt;
    tol = tol + EO_G * fabsf(tol) + k->sfloor;
    float rz = k->eo_k[0] * rho + tol;
    /* The plane tier's distances, expression for expression; a branch per
     * plane (near, far, sides): one that culls ends the test (city 4096
     * exact, min of 6: 17.4 ns/box branch-free, 14.4 with a branch per
     * plane, 12.8 with the depth planes before dx and dy are computed). */
    if (dz + rz < k->n)
        return 1;
    if (dz - rz > k->f)
        return 1;
    dx = v_add(v_add(v_mul(k->L[0], c[0]), v_mul(k->L[1], c[1])), v_mul(k->L[2], c[2]));
    dy = v_add(v_add(v_mul(k->U[0], c[0]), v_mul(k->U[1], c[1])), v_mul(k->U[2], c[2]));
    if (dx - k->x1 * dz - (k->eo_k[1] * rho + tol) > 0.0f)
        return 1;
    if (k->x0 * dz - dx - (k->eo_k[2] * rho + tol) > 0.0f)
        return 1;
    if (dy - k->y1 * dz - (k->eo_k[3] * rho + tol) > 0.0f)
        return 1;
    return k->y0 * dz - dy - (k->eo_k[4] * rho + tol) > 0.0f;
}

/* Before the load: test 1 where it applies. Where it rarely culls (boxes
 * near the planes) it costs more than it saves: after 64 tries with fewer
 * than 40 culled it rests for 192 volumes. Either way the bits are the
 * plane tier's. */
SATC_AI int early_out_v(const vconst *k, const satc_batch *b, size_t i, int rec_ok,
                        const int form, const int ortho, const int soa, eo_state *st)
{
    if (form != SATC_FORM_OBB || ortho)
        return 0;
    if (st->skip) {
        st->skip--;
        return 0;
    }
    int out = obb_persp_out(k, b, i, rec_ok, soa);
    st->hits += (unsigned)out;
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
