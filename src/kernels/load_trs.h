/*
 * The SIMD loaders of TRS batches (part of load.h, included there after
 * the matrix loads): quaternions in float or bytes, scales through exp,
 * the matrix they make, and the splat ball; per lane the expressions of
 * src/scalar/load_scalar.c in the same order.
 */
#ifndef SATC_LOAD_TRS_H
#define SATC_LOAD_TRS_H

/* Layers without integer lanes: 2^k and the byte quaternions through
 * memory, per lane the reference's own function. */
#ifndef SATC_VLAYER_POW2
static inline V v_pow2i(V k)
{
    float t[W];
    v_store(t, k);
    for (int j = 0; j < W; j++)
        t[j] = satc_pow2i(t[j]);
    return v_load(t);
}
#endif

/* The four bytes of each lane's 32-bit word as floats, unsigned or
 * signed (satc_trs_quat's decoding; the word only moves, never computed
 * on, so its bits are kept). */
#ifndef SATC_VLAYER_BYTES
static inline void v_bytes4(V w, const int sgn, V out[4])
{
    float t[W], o[4][W];
    v_store(t, w);
    for (int j = 0; j < W; j++) {
        unsigned char b[4];
        memcpy(b, &t[j], 4);
        for (int c = 0; c < 4; c++)
            o[c][j] = sgn ? (float)(int)(signed char)b[c] : (float)(int)b[c];
    }
    for (int c = 0; c < 4; c++)
        out[c] = v_load(o[c]);
}
#endif

/* satc_expf_ref per lane. */
SATC_AI V exp_v(V x)
{
    V a = v_min(v_set1(SATC_EXP_HI), v_max(v_set1(SATC_EXP_LO), x));
    V kf = v_sub(v_add(v_mul(a, v_set1(SATC_EXP_LOG2E)), v_set1(SATC_EXP_ROUND)),
                 v_set1(SATC_EXP_ROUND));
    V r = v_sub(v_sub(a, v_mul(kf, v_set1(SATC_EXP_C1))), v_mul(kf, v_set1(SATC_EXP_C2)));
    static const float c[7] = {1.38888889e-3f, 8.33333377e-3f, 4.16666679e-2f, 1.66666672e-1f,
                               0.5f, 1.0f, 1.0f};
    V p = v_set1(1.98412698e-4f);
    for (int d = 0; d < 7; d++)
        p = v_add(v_set1(c[d]), v_mul(r, p));
    return v_mul(p, v_pow2i(kf));
}

/* W quaternions of a TRS batch as (x, y, z, w) lanes (satc_trs_quat). */
SATC_AI void ld_quat(const satc_trs *s, size_t i, unsigned nl, V q[4])
{
    V a[4];
    const float *base = (const float *)(const void *)((const char *)s->rotation +
                                                      i * s->rotation_stride);
    if ((s->format & 3u) == SATC_QUAT_F32 && nl == W && s->rotation_stride >= 16) {
        v_load_rec4(base, s->rotation_stride, a);
    } else if ((s->format & 3u) == SATC_QUAT_F32 && nl == W && !s->rotation_stride) {
        for (int c = 0; c < 4; c++)
            a[c] = v_set1(base[c]);
#if W > 1
    } else if ((s->format & 3u) != SATC_QUAT_F32 && nl == W) {
        /* byte quaternions: one 32-bit word per lane, split in lanes */
        V wd = s->rotation_stride ? v_load_stride(base, s->rotation_stride) : v_set1(*base);
        if ((s->format & 3u) == SATC_QUAT_I8) {
            v_bytes4(wd, 1, a);
        } else {
            v_bytes4(wd, 0, a);
            for (int c = 0; c < 4; c++)
                a[c] = v_sub(a[c], v_set1(128.0f));
        }
#endif
    } else {
        float t[4][W], e[4];
        for (unsigned j = 0; j < W; j++) {
            if (j < nl)
                satc_trs_quat(s, i + j, e);
            for (int c = 0; c < 4; c++)
                t[c][j] = j < nl ? e[c] : 0.0f;
        }
        for (int c = 0; c < 4; c++)
            q[c] = v_load(t[c]);
        return;
    }
    int w1 = (s->format & SATC_QUAT_WXYZ) != 0;
    for (int c = 0; c < 4; c++)
        q[c] = a[w1 ? (c + 1) & 3 : c];
}

/* Whether W volumes from i of s are whole `.splat` records read at once:
 * position, scale and a byte quaternion word at floats 0-2, 3-5 and 7 of
 * 32-byte records, each stream at the records' stride. */
SATC_AI int splat_rec_ok(const satc_trs *s, unsigned nl)
{
#if W > 1
    const satc_vec3s *p = &s->position, *c = &s->scale;
    const size_t st = p->stride;
    return nl == W && st >= 32 && c->stride == st && s->rotation_stride == st &&
           (s->format & 3u) != SATC_QUAT_F32 && p->y == p->x + 1 && p->z == p->x + 2 &&
           c->x == p->x + 3 && c->y == p->x + 4 && c->z == p->x + 5 &&
           (const void *)s->rotation == (const void *)(p->x + 7);
#else
    (void)s, (void)nl;
    return 0;
#endif
}

/* Whether a batch is the 32-byte `.splat` file read in place with its
 * default bound: records exactly 32 bytes apart (splat_rec_ok), byte
 * quaternions b - 128, linear scales, no local boxes. The kernels take it
 * as a compile-time variant (rec32), so no per-vector test remains. */
SATC_AI int splat32_ok(const satc_batch *b)
{
    const satc_trs *s = &b->trs;
    return W > 1 && b->form == SATC_FORM_TRS && !s->local && s->position.stride == 32 &&
           (s->format & 3u) == SATC_QUAT_U8 && !(s->format & SATC_TRS_LOG_SCALE) &&
           splat_rec_ok(s, W);
}

/* W `.splat` records from volume i (splat_rec_ok): position, scale and
 * the quaternion word as loaded by the streams' own reads (the same
 * bits: words only move). rec32: the stride is 32 (splat32_ok). */
SATC_AI void ld_splat_rec(const satc_trs *s, size_t i, V p[3], V sc[3], V *wd, const int rec32)
{
    V r[8];
    const size_t st = rec32 ? 32 : s->position.stride;
    prefetch_ahead(satc_at(s->position.x, st, i), st);
    v_load_rec8(satc_at(s->position.x, st, i), st, r);
    for (int j = 0; j < 3; j++)
        p[j] = r[j], sc[j] = r[3 + j];
    *wd = r[7];
}

/* satc_trs_rot per lane: m[r][j] = R(q)_rj s_j. */
SATC_AI void rot_v(const V q[4], const V sc[3], V m[3][4])
{
    V x = q[0], y = q[1], z = q[2], w = q[3];
    V n2 = v_add(v_add(v_add(v_mul(x, x), v_mul(y, y)), v_mul(z, z)), v_mul(w, w));
    V t = v_div(v_set1(2.0f), n2);
    M ok = m_and(v_ge(n2, v_set1(SATC_QUAT_N2_MIN)), v_le(n2, v_set1(SATC_QUAT_N2_MAX)));
    t = v_sel(ok, t, v_set1(NAN));
    V xs = v_mul(x, t), ys = v_mul(y, t), zs = v_mul(z, t);
    V xx = v_mul(x, xs), yy = v_mul(y, ys), zz = v_mul(z, zs);
    V xy = v_mul(x, ys), xz = v_mul(x, zs), yz = v_mul(y, zs);
    V wx = v_mul(w, xs), wy = v_mul(w, ys), wz = v_mul(w, zs);
    V one = v_set1(1.0f);
    V R[3][3] = {{v_sub(one, v_add(yy, zz)), v_sub(xy, wz), v_add(xz, wy)},
                 {v_add(xy, wz), v_sub(one, v_add(xx, zz)), v_sub(yz, wx)},
                 {v_sub(xz, wy), v_add(yz, wx), v_sub(one, v_add(xx, yy))}};
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++)
            m[r][j] = v_mul(R[r][j], sc[j]);
}

/* A TRS batch's W volumes as an instance's matrix (rows 0..2 of
 * [R(q) diag(s) | p]) and local box. */
SATC_AI void ld_trs(const satc_trs *s, size_t i, unsigned nl, int rec_ok, V m[3][4], V lc[3],
                    V lh[3])
{
    const int lay = LAY_STREAMS;
    V q[4], sc[3], p[3];
    ld_quat(s, i, nl, q);
    ld3(&s->scale, i, nl, rec_ok, sc);
    if (s->format & SATC_TRS_LOG_SCALE)
        for (int j = 0; j < 3; j++)
            sc[j] = exp_v(sc[j]);
    rot_v(q, sc, m);
    ld3_after(&s->position, &s->scale, i, nl, rec_ok, p);
    for (int r = 0; r < 3; r++)
        m[r][3] = p[r];
    const satc_local_boxes *lb = s->local;
    if (!lb) {
        V kk = v_set1(satc_trs_k(s));
        for (int j = 0; j < 3; j++)
            lc[j] = v_set1(0.0f), lh[j] = kk;
    } else if (lb->mesh) {
        ld_mesh_t(lb->mesh, lb->mesh_stride, lb->mesh_count, &lb->center, &lb->half, i, nl, lc,
                  lh);
    } else {
        ld3(&lb->center, i, nl, rec_ok, lc);
        ld3_after(&lb->half, &lb->center, i, nl, rec_ok, lh);
    }
}

/* The quaternion word of `.splat` records decides the ball: components
 * b - 128 are integers, so |q|^2 is exact, 0 when every byte is 128 and
 * in range otherwise. As a float 0x80808080 is normal: equal to it means
 * the same bits. */
SATC_AI M splat_u8_ok(V wd)
{
    const uint32_t b128 = 0x80808080u;
    float zf;
    memcpy(&zf, &b128, sizeof zf);
    V z = v_set1(zf);
    return m_not(m_and(v_le(wd, z), v_ge(wd, z)));
}

/* The ball of W splats from their positions, linear scales and ok mask. */
SATC_AI void splat_ball_x(const vconst *k, const satc_trs *s, const V p[3], const V sc[3], M ok,
                          V *x, const int ortho)
{
    V c[3];
    for (int j = 0; j < 3; j++)
        c[j] = v_sub(p[j], k->o[j]);
    to_frame_v(k, c, &x[F_DX], &x[F_DY], &x[F_DZ]);
    V s2 = v_add(v_add(v_mul(sc[0], sc[0]), v_mul(sc[1], sc[1])), v_mul(sc[2], sc[2]));
    V rad = v_mul(v_set1(satc_trs_k(s)), v_sqrt(v_add(s2, v_set1(SATC_TRS_S2_FLOOR))));
    x[F_RAD] = rad;
    const int np = ortho ? 3 : 5;
    for (int j = 0; j < np; j++)
        x[F_R + j] = v_mul(rad, k->norm2[j]);
    V S = v_add(v_add(sum_abs_d(x), v_add(rad, rad)), k->sfloor);
    x[F_S] = v_sel(ok, v_add(S, v_mul(v_set1(16.0f), rad)), v_set1(NAN));
}

/* A splat cube (local NULL) in conservative mode: the ball about p of
 * radius k |s|_2 (satc_trs_ball2), which holds the box whatever its
 * rotation, tested as a sphere's planes; S adds 16 r for the rounding of
 * r and exp. A quaternion out of range makes S NaN (never culled).
 * rec32: the batch passed splat32_ok (the same values, fewer tests). */
SATC_AI void splat_ball_v(const vconst *k, const satc_trs *s, size_t i, unsigned nl, int rec_ok,
                          V *x, const int ortho, const int rec32)
{
    const int lay = LAY_STREAMS;
    V q[4], sc[3], p[3];
    M ok;
    (void)rec32;
#if W > 1
    if (rec32 && nl == W) {
        V wd;
        ld_splat_rec(s, i, p, sc, &wd, 1);
        splat_ball_x(k, s, p, sc, splat_u8_ok(wd), x, ortho);
        return;
    }
#endif
    const int rec = splat_rec_ok(s, nl);
#if W > 1
    if ((s->format & 3u) == SATC_QUAT_U8 && nl == W) {
        const float *w = (const float *)(const void *)((const char *)s->rotation +
                                                       i * s->rotation_stride);
        V wd;
        if (rec)
            ld_splat_rec(s, i, p, sc, &wd, 0);
        else
            wd = s->rotation_stride ? v_load_stride(w, s->rotation_stride) : v_set1(*w);
        ok = splat_u8_ok(wd);
    } else
#endif
    {
        ld_quat(s, i, nl, q);
        V n2 = v_add(v_add(v_add(v_mul(q[0], q[0]), v_mul(q[1], q[1])), v_mul(q[2], q[2])),
                     v_mul(q[3], q[3]));
        ok = m_and(v_ge(n2, v_set1(SATC_QUAT_N2_MIN)), v_le(n2, v_set1(SATC_QUAT_N2_MAX)));
    }
    const int got = rec && (s->format & 3u) == SATC_QUAT_U8; /* read with the word above */
    if (!got)
        ld3(&s->scale, i, nl, rec_ok, sc);
    if (s->format & SATC_TRS_LOG_SCALE)
        for (int j = 0; j < 3; j++)
            sc[j] = exp_v(sc[j]);
    if (!got)
        ld3_after(&s->position, &s->scale, i, nl, rec_ok, p);
    splat_ball_x(k, s, p, sc, ok, x, ortho);
}

/* TRS's extra S term beyond an instance's: 16 T, T = sum_j |m_j|_1
 * (|lc_j| + |lh_j|) (satc.h: the rounding of R and exp). */
SATC_AI V trs_t4(V m[3][4], const V lc[3], const V lh[3])
{
    V t[3];
    for (int j = 0; j < 3; j++) {
        V cs = v_add(v_add(v_abs(m[0][j]), v_abs(m[1][j])), v_abs(m[2][j]));
        t[j] = v_mul(cs, v_add(v_abs(lc[j]), v_abs(lh[j])));
    }
    return v_mul(v_set1(16.0f), v_add(v_add(t[0], t[1]), t[2]));
}

#endif
