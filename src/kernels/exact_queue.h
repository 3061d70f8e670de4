/* Stage 4: the exact tier's queue. Undecided lanes are packed
 * and run through the axes (or sphere, or plane-volume) tests on full
 * vectors; separated lanes are culled from the chunk's bits. */
#ifndef SATC_K_EXACT_QUEUE_H
#define SATC_K_EXACT_QUEUE_H

/*
 * Undecided lanes waiting for the exact tier, packed field by field: row q
 * holds field q of the waiting lanes, the last row their positions in the
 * chunk. A push stores W lanes at the end (only the undecided ones count);
 * once PEND_LANES are waiting, the tier runs on every full vector and the
 * few left over move to the front.
 */
#define PEND_LANES 64
#define PEND_ROW (PEND_LANES / W + 1) /* vectors per row */

typedef union vpend {
    V v[F_N + 1][PEND_ROW];
    float f[F_N + 1][PEND_ROW * W];
} vpend;

SATC_AI unsigned pend_push(vpend *pd, unsigned np, const vbox *o, V pos, unsigned bits)
{
    P p = p_make(bits);
    for (int q = 0; q < F_N; q++)
        v_store(&pd->f[q][np], v_perm(o->v[q], p));
    v_store(&pd->f[F_N][np], v_perm(pos, p));
    return np + satc_popcount(bits);
}

/* The exact tier for one kind of volume and frustum (ortho: the kernel
 * column, 0 perspective, 1 orthographic, 2 plane volume). */
SATC_AI M exact_v(const vconst *k, const V *x, size_t st, const int sphere, const int ortho)
{
    if (ortho == 2)
        return axes_vol_v(k, x, st); /* spheres never get here: plane test only */
    if (sphere)
        return ortho ? sphere_sep_ortho_v(k, x, st) : sphere_sep_persp_v(k, x, st);
    return ortho ? axes_ortho_v(k, x, st) : axes_persp_v(k, x, st);
}

/* Runs the exact tier on waiting vector v and culls its separated lanes
 * among `valid`. */
SATC_AI void pend_run(const vconst *k, const vpend *pd, unsigned v, uint64_t *vis,
                      unsigned valid, const int sphere, const int ortho)
{
    M sep = exact_v(k, &pd->v[0][v], PEND_ROW, sphere, ortho);
    for (unsigned b = m_bits(sep) & valid; b; b &= b - 1) {
        unsigned j = (unsigned)pd->f[F_N][v * W + satc_ctz(b)];
        vis[j >> 6] &= ~((uint64_t)1 << (j & 63));
    }
}

/* Tests every full waiting vector; returns how many lanes are left. With
 * `last`, the lanes left are tested too, padded by repeating the last one.
 * Out of line: it runs once per PEND_LANES waiting lanes, and one copy per
 * kernel rather than per call site keeps compile time down. */
SATC_NI unsigned pend_drain(const vconst *k, vpend *pd, unsigned np, uint64_t *vis,
                            const int sphere, const int ortho, int last)
{
    unsigned full = np / W;
    for (unsigned v = 0; v < full; v++)
        pend_run(k, pd, v, vis, SATC_FULL, sphere, ortho);
    np -= full * W;
    if (np) {
        for (int q = 0; q <= F_N; q++)
            v_store(pd->f[q], v_load(&pd->f[q][full * W]));
    }
    if (last && np) {
        for (int q = 0; q < F_N; q++) {
            for (unsigned j = np; j < W; j++)
                pd->f[q][j] = pd->f[q][np - 1];
        }
        pend_run(k, pd, 0, vis, (1u << np) - 1u, sphere, ortho);
        np = 0;
    }
    return np;
}

#endif
