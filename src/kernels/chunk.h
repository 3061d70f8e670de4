/* Stage 5: one step (load, plane tier, queue) and the chunk loop,
 * emitting visible and inside bits; then the kernels (satc_kernel_fn) of
 * each form and frustum kind, instantiated for this vector layer. */
#ifndef SATC_K_CHUNK_H
#define SATC_K_CHUNK_H

/* Exact mode's second stage (kernels/redecide.c) on the chunk's band
 * lanes still visible: one shared scalar routine, so the bits are the
 * reference's on every path. */
SATC_AI void redecide_v(const satc_frustum *f, const satc_batch *b, size_t first, uint64_t *vis,
                        uint64_t *inside, const uint64_t *band)
{
    uint64_t any = 0;
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        any |= band[w] & vis[w];
    if (any)
        satc_redecide_bits(f, b, first, vis, inside, band);
}

/* A splat's depth, its position's frame z (depth_t below), for lanes
 * pos .. pos + nl - 1 of the chunk; ball: that z as the conservative
 * loader made it (splat_ball_v: the same reads and expression), or NULL. */
SATC_AI void splat_dz_v(const vconst *k, const satc_batch *b, size_t i, size_t pos, unsigned nl,
                        int rec_ok, float *dz, const V *ball)
{
    V p[3], c[3], dx, dy, d;
    if (ball) {
        d = *ball;
    } else {
        ld3s(&b->trs.position, i, nl, rec_ok, p, LAY_STREAMS);
        for (int j = 0; j < 3; j++)
            c[j] = v_sub(p[j], k->o[j]);
        to_frame_v(k, c, &dx, &dy, &d);
    }
    if (nl == W) {
        v_store(dz + pos, d);
    } else {
        float t[W];
        v_store(t, d);
        memcpy(dz + pos, t, nl * sizeof(float));
    }
}

/* One vector of volumes: batch index i, chunk positions pos..pos+nl-1. */
SATC_AI void step_v(const vconst *k, const satc_batch *b, size_t i, size_t pos, unsigned nl,
                    int rec_ok, vpend *pd, unsigned *npend, eo_state *eo, uint64_t *vis,
                    uint64_t *inside, float *dz, const int form, const int ortho, const int exact,
                    const int classify, const int lay)
{
    const int need_in = exact || classify;
    const int sphere = form == SATC_FORM_SPHERES;
    const int aabb = form == SATC_FORM_AABB || form == SATC_FORM_MINMAX;
    unsigned valid = nl == W ? SATC_FULL : (1u << nl) - 1u;
    vbox o;
#if W == 1
    if (dz) /* a splat kernel's depth, before the early decisions */
        splat_dz_v(k, b, i, pos, nl, rec_ok, dz, NULL);
#endif
#if W == 1 /* early decisions of a one-lane layer (early_out.h) */
    int eo_r = early_out_v(k, b, i, rec_ok, form, ortho, lay, !need_in, eo);
    if (eo_r == 2) /* proved visible: conservative mode's whole answer */
        vis[pos >> 6] |= (uint64_t)1 << (pos & 63);
    if (eo_r)
        return;
#else
    (void)eo;
#endif
    M bad = load_v(k, b, i, nl, rec_ok, &o, form, ortho, lay, exact);
#if W > 1
    if (dz) /* a splat kernel's depth: the ball's frame z, the same expression */
        splat_dz_v(k, b, i, pos, nl, rec_ok, dz, exact ? NULL : &o.v[F_DZ]);
#endif
#if W == 1
    if (need_in && planes_out_v(k, &o, bad, form, ortho))
        return;
#endif
    vplanes p = ortho == 2 ? planes_vol_v(k, &o, bad, form, need_in)
                : ortho    ? planes_ortho_v(k, &o, bad, need_in)
                           : planes_persp_v(k, &o, bad, need_in);
    unsigned vb = m_bits(p.vis) & valid, ub = 0, bb = 0;
    if (exact && !(sphere && ortho == 2)) {
        ub = m_bits(p.und) & valid;
        bb = m_bits(p.band) & valid; /* the planes' band (visible lanes only) */
        if (ub && aabb)
            aabb_axes_v(k, o.v);
        if (ub && !ortho) {
            /* Trivial accept, inside by the tolerance (spheres: the exact
             * tier's, with SATC_TINY), as the reference's. */
            vmarg g;
            if (sphere)
                g = marg_v(k, v_add(v_add(v_mul(k->epsk, o.v[F_S]), k->tolt), k->tiny));
            ub &= ~m_bits(sphere ? point_in_v(k, o.v[F_DX], o.v[F_DY], o.v[F_DZ], &g)
                                 : points_in_persp_v(k, o.v));
        }
        if (ub == SATC_FULL) {
            /* Every lane undecided: test them where they are. */
            vsep r = exact_v(k, o.v, 1, sphere, ortho);
            vb &= ~m_bits(r.sep);
            bb = (bb | m_bits(r.band)) & vb;
            ub = 0;
        }
        if (bb) /* rare: a store only then */
            pd->band[pos >> 6] |= (uint64_t)bb << (pos & 63);
    }
    vis[pos >> 6] |= (uint64_t)vb << (pos & 63);
    if (classify)
        inside[pos >> 6] |= (uint64_t)(m_bits(p.inside) & valid) << (pos & 63);
    if (ub) {
        unsigned np = pend_push(pd, *npend, &o, v_add(k->lane, v_set1((float)pos)), ub);
        if (np >= PEND_LANES)
            np = pend_drain(k, pd, np, vis, sphere, ortho, 0);
        *npend = np;
    }
}

/* The kernel (satc_kernel_fn) with its form, frustum kind and flags fixed. */
SATC_AI void cull_chunk(const satc_frustum *f, const satc_batch *bp, size_t first, size_t n,
                        unsigned flags, uint64_t *vis, uint64_t *inside, float *dz, const int form,
                        const int ortho, const int exact, const int classify, const int lay)
{
    const int sphere = form == SATC_FORM_SPHERES;
    /* A local copy: stores to vis cannot alias its strides (size_t and
     * uint64_t are one type here), so they stay in registers. */
    const satc_batch bl = *bp, *b = &bl;
    vconst k;
    vpend pd;
    unsigned np = 0;
    eo_state eo = {0, 0, 0};
    vconst_init(&k, f);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = inside[w] = pd.band[w] = 0;

    /* Records may be read 4 bytes past their last field before the call's
     * last element: in every vector but the one holding it. */
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    /* One call site for full vectors and the tail: the step is inlined
     * once per kernel (compile time and code size). */
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        step_v(&k, b, first + i, i, nl, nl == W && i + W < rec_end, &pd, &np, &eo, vis, inside,
               dz, form, ortho, exact, classify, lay);
    }
    if (exact && np)
        pend_drain(&k, &pd, np, vis, sphere, ortho, 1);
    if (exact)
        redecide_v(f, b, first, vis, inside, pd.band);
}

/* One-lane layers: AABB records (LAY_REC) are a third variant (the
 * vector layers read records with transposing loads instead). */
#if W == 1
#define SATC_REC_VARIANT                                                                          \
    else if ((form == SATC_FORM_AABB || form == SATC_FORM_MINMAX) && batch_rec(b)) {              \
        SATC_VARIANT(LAY_REC)                                                                     \
    }
#else
#define SATC_REC_VARIANT
#endif

/* The kernel (satc_kernel_fn) of one form and frustum kind: exact mode
 * and the layouts of the `lay` enum (plain arrays for the forms most
 * often stored so, `.splat` files in conservative mode, 64-byte 4x4
 * matrices) are compile-time variants; classification is a run-time flag
 * (each variant costs compile time on every path). */
#define SATC_VARIANT(lay)                                                                         \
    if (flags & SATC_K_EXACT)                                                                     \
        cull_chunk(f, b, first, n, flags, vis, inside, NULL, form, ortho, 1, classify, lay);      \
    else                                                                                          \
        cull_chunk(f, b, first, n, flags, vis, inside, NULL, form, ortho, 0, classify, lay);

#define SATC_KERNEL(name, form_, ortho_)                                                          \
    static void name(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,          \
                     unsigned flags, uint64_t *vis, uint64_t *inside)                             \
    {                                                                                             \
        const int form = form_, ortho = ortho_, classify = (flags & SATC_K_CLASSIFY) != 0;        \
        if ((form == SATC_FORM_OBB || form == SATC_FORM_AABB) && batch_soa(b)) {                  \
            SATC_VARIANT(LAY_ARRAYS)                                                              \
        }                                                                                         \
        SATC_REC_VARIANT                                                                          \
        else if (form == SATC_FORM_INSTANCES && inst64_ok(b)) {                                   \
            SATC_VARIANT(LAY_INST64)                                                              \
        }                                                                                         \
        else if (form == SATC_FORM_TRS && !(flags & SATC_K_EXACT) && splat32_ok(b)) {             \
            cull_chunk(f, b, first, n, flags, vis, inside, NULL, form, ortho,                     \
                       0, classify, LAY_SPLAT32);                                                 \
        }                                                                                         \
        else {                                                                                    \
            SATC_VARIANT(LAY_STREAMS)                                                             \
        }                                                                                         \
    }

/* Plane volumes: one variant per form, exact mode a run-time flag (the
 * exact tier is one out-of-line function), to keep compile time down. */
#define SATC_KERNEL_VOL(name, form_)                                                              \
    static void name(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,          \
                     unsigned flags, uint64_t *vis, uint64_t *inside)                             \
    {                                                                                             \
        cull_chunk(f, b, first, n, flags, vis, inside, NULL, form_, 2,                            \
                   (flags & SATC_K_EXACT) != 0, (flags & SATC_K_CLASSIFY) != 0, LAY_STREAMS);     \
    }

/* satc_depth_fn: the loaders' frame z, W volumes at a time. */
SATC_AI void depth_t(const satc_frustum *f, const satc_batch *bp, size_t first, size_t n,
                     unsigned flags, float *out, const int form)
{
    const satc_batch bl = *bp, *b = &bl;
    vconst k;
    vconst_init(&k, f);
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        vbox o;
        int rec_ok = nl == W && i + W < rec_end;
        if (form == SATC_FORM_TRS && !b->trs.local) { /* a splat: its position */
            V p[3], c[3];
            ld3s(&b->trs.position, first + i, nl, rec_ok, p, LAY_STREAMS);
            for (int j = 0; j < 3; j++)
                c[j] = v_sub(p[j], k.o[j]);
            to_frame_v(&k, c, &o.v[F_DX], &o.v[F_DY], &o.v[F_DZ]);
        } else {
            (void)load_v(&k, b, first + i, nl, rec_ok, &o, form, 1, LAY_STREAMS, 1);
        }
        if (nl == W) {
            v_store(out + i, o.v[F_DZ]);
        } else {
            float t[W];
            v_store(t, o.v[F_DZ]);
            memcpy(out + i, t, nl * sizeof(float));
        }
    }
}

static void depth_chunk(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                        unsigned flags, float *out)
{
    switch (b->form) {
    case SATC_FORM_OBB: depth_t(f, b, first, n, flags, out, SATC_FORM_OBB); break;
    case SATC_FORM_AABB: depth_t(f, b, first, n, flags, out, SATC_FORM_AABB); break;
    case SATC_FORM_MINMAX: depth_t(f, b, first, n, flags, out, SATC_FORM_MINMAX); break;
    case SATC_FORM_HALF_AXES: depth_t(f, b, first, n, flags, out, SATC_FORM_HALF_AXES); break;
    case SATC_FORM_INSTANCES: depth_t(f, b, first, n, flags, out, SATC_FORM_INSTANCES); break;
    case SATC_FORM_SPHERES: depth_t(f, b, first, n, flags, out, SATC_FORM_SPHERES); break;
    default: depth_t(f, b, first, n, flags, out, SATC_FORM_TRS); break;
    }
}

#define SATC_KERNEL_FORM(form, tag)                                                               \
    SATC_KERNEL(cull_##tag##_p, form, 0)                                                          \
    SATC_KERNEL(cull_##tag##_o, form, 1) SATC_KERNEL_VOL(cull_##tag##_v, form)
SATC_KERNEL_FORM(SATC_FORM_OBB, obb)
SATC_KERNEL_FORM(SATC_FORM_AABB, aabb)
SATC_KERNEL_FORM(SATC_FORM_MINMAX, minmax)
SATC_KERNEL_FORM(SATC_FORM_HALF_AXES, half)
SATC_KERNEL_FORM(SATC_FORM_INSTANCES, inst)
SATC_KERNEL_FORM(SATC_FORM_SPHERES, sphere)
SATC_KERNEL_FORM(SATC_FORM_TRS, trs)

/* The visible volumes' depths and indices of a chunk, packed in order
 * (od[at], oi[at]): the depths and the lanes' chunk positions (as floats,
 * exact below 2^24) move by the packing permutes, whole vectors stored
 * (the callers' arrays have room: at + W <= pos + W <= n); the positions
 * become indices in one loop after. */
SATC_AI size_t splat_pack_v(const uint64_t *vis, const float *dz, size_t first, size_t n,
                            float *od, uint32_t *oi)
{
    size_t at = 0, pos = 0;
#if W > 1
    float lp[SATC_CHUNK], ln[W];
    for (unsigned j = 0; j < W; j++)
        ln[j] = (float)j;
    const V lane = v_load(ln);
    for (; pos + W <= n; pos += W) {
        unsigned bits = (unsigned)(vis[pos >> 6] >> (pos & 63)) & SATC_FULL;
        if (!bits)
            continue;
        V d = v_load(dz + pos), x = v_add(lane, v_set1((float)pos));
        if (bits != SATC_FULL) {
            P pk = p_make(bits);
            d = v_perm(d, pk), x = v_perm(x, pk);
        }
        v_store(od + at, d);
        v_store(lp + at, x);
        at += satc_popcount(bits);
    }
    for (size_t j = 0; j < at; j++)
        oi[j] = (uint32_t)(first + (size_t)(uint32_t)lp[j]);
#endif
    for (; pos < n; pos++)
        if (vis[pos >> 6] >> (pos & 63) & 1)
            od[at] = dz[pos], oi[at++] = (uint32_t)(first + pos);
    return at;
}

/* The splat kernels (satc_splat_fn): a TRS batch's kernel, then the
 * visible volumes' depths and indices. */
#define SATC_KERNEL_SPLAT(name, ortho_)                                                           \
    static size_t name(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,        \
                       unsigned flags, uint64_t *vis, float *od, uint32_t *oi)                    \
    {                                                                                             \
        uint64_t in[SATC_CHUNK_WORDS];                                                            \
        float dz[SATC_CHUNK];                                                                     \
        if (flags & SATC_K_EXACT)                                                                 \
            cull_chunk(f, b, first, n, flags, vis, in, dz, SATC_FORM_TRS, ortho_,                 \
                       1, 0, LAY_STREAMS);                                                        \
        else if (splat32_ok(b))                                                                   \
            cull_chunk(f, b, first, n, flags, vis, in, dz, SATC_FORM_TRS, ortho_,                 \
                       0, 0, LAY_SPLAT32);                                                        \
        else                                                                                      \
            cull_chunk(f, b, first, n, flags, vis, in, dz, SATC_FORM_TRS, ortho_,                 \
                       0, 0, LAY_STREAMS);                                                        \
        return splat_pack_v(vis, dz, first, n, od, oi);                                           \
    }
SATC_KERNEL_SPLAT(cull_splat_p, 0)
SATC_KERNEL_SPLAT(cull_splat_o, 1)

#endif
