/* Stage 7: orthographic views sharing one origin and frame share each
 * vector's load (satc_multi_fn); each view keeps its own tiers. */
#ifndef SATC_K_MULTI_H
#define SATC_K_MULTI_H

/*
 * satc_multi_fn: orthographic views sharing one origin and frame (the
 * cascades of a light) share the load of each vector of volumes, whose
 * every field depends on the origin and frame alone; each view then runs
 * its own plane tier and exact tier (on the whole vector, its undecided
 * lanes counted), the expressions of step_v, so each view's bits are its
 * single cull's.
 */
SATC_AI void multi_chunk(const satc_frustum *const *views, int nv, const satc_batch *bp,
                         size_t first, size_t n, unsigned flags, uint64_t (*vis)[SATC_CHUNK_WORDS],
                         uint64_t (*inside)[SATC_CHUNK_WORDS], const int form, const int exact)
{
    const int classify = (flags & SATC_K_CLASSIFY) != 0, need_in = exact || classify;
    const int sphere = form == SATC_FORM_SPHERES;
    const int aabb = form == SATC_FORM_AABB || form == SATC_FORM_MINMAX;
    const satc_batch bl = *bp, *b = &bl;
    vconst k[SATC_MULTI_MAX];
    uint64_t band[SATC_MULTI_MAX][SATC_CHUNK_WORDS];
    for (int v = 0; v < nv; v++) {
        vconst_init(&k[v], views[v]);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
            vis[v][w] = inside[v][w] = band[v][w] = 0;
    }
    size_t rec_end = (flags & SATC_K_LAST) ? n : n + 1;
    for (size_t i = 0; i < n; i += W) {
        unsigned nl = n - i < W ? (unsigned)(n - i) : W;
        unsigned valid = nl == W ? SATC_FULL : (1u << nl) - 1u;
        vbox o;
        M bad = load_v(&k[0], b, first + i, nl, nl == W && i + W < rec_end, &o, form, 1, 0, exact);
        int axes = 0;
        for (int v = 0; v < nv; v++) {
            vplanes p = planes_ortho_v(&k[v], &o, bad, need_in);
            unsigned vb = m_bits(p.vis) & valid;
            if (exact) {
                unsigned ub = m_bits(p.und) & valid, bb = m_bits(p.band) & valid;
                if (ub && aabb && !axes)
                    aabb_axes_v(&k[0], o.v), axes = 1; /* frame-only: once */
                if (ub) {
                    vsep r = exact_v(&k[v], o.v, 1, sphere, 1);
                    vb &= ~(m_bits(r.sep) & ub);
                    bb |= m_bits(r.band) & ub;
                }
                band[v][i >> 6] |= (uint64_t)(bb & vb) << (i & 63);
            }
            vis[v][i >> 6] |= (uint64_t)vb << (i & 63);
            if (classify)
                inside[v][i >> 6] |= (uint64_t)(m_bits(p.inside) & valid) << (i & 63);
        }
    }
    if (exact)
        for (int v = 0; v < nv; v++)
            redecide_v(views[v], b, first, vis[v], inside[v], band[v]);
}

#define SATC_MULTI(name, form_)                                                                   \
    static void name(const satc_frustum *const *views, int nv, const satc_batch *b, size_t first,   \
                     size_t n, unsigned flags, uint64_t (*vis)[SATC_CHUNK_WORDS],                   \
                     uint64_t (*inside)[SATC_CHUNK_WORDS])                                          \
    {                                                                                             \
        /* exact at run time: one variant per form (compile time). */                            \
        multi_chunk(views, nv, b, first, n, flags, vis, inside, form_,                            \
                    (flags & SATC_K_EXACT) != 0);                                                 \
    }
SATC_MULTI(multi_obb, SATC_FORM_OBB)
SATC_MULTI(multi_aabb, SATC_FORM_AABB)
SATC_MULTI(multi_minmax, SATC_FORM_MINMAX)
SATC_MULTI(multi_half, SATC_FORM_HALF_AXES)
SATC_MULTI(multi_inst, SATC_FORM_INSTANCES)
SATC_MULTI(multi_sphere, SATC_FORM_SPHERES)
SATC_MULTI(multi_trs, SATC_FORM_TRS)

#endif
