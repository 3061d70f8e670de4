/*
 * Per-operation choices of the default path (satc.h, satc_isa_active):
 * on the CPU families the table lists, the default path AVX-512 runs the
 * listed operations on the AVX2 kernels; SATC_ISA=avx512 (or a mask
 * without AVX2) runs AVX-512 throughout, SATC_ISA=avx2 AVX2 throughout.
 *  - the table answers as the documentation says (its entries, for small
 *    and large calls, and nothing for other vendors, families and
 *    models), and this CPU's entries, read here independently from
 *    CPUID, are what the default path uses on each side of the size
 *    threshold;
 *  - with every operation set (a test hook stands in for a listed CPU),
 *    each slot of the default table comes from the AVX2 table exactly
 *    for the operations set, from AVX-512 otherwise, for small and large
 *    calls; forcing by SATC_ISA or by the mask gives the plain tables;
 *  - mixed tables give the bits of the plain paths: single culls (every
 *    form, both modes), a views pass (shared-frame cascades and a
 *    perspective view, so bounds, row copies and kernels mix), queries
 *    and group bounds.
 * Each case runs in a fresh child: the choice is made once per process.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "../../src/core/internal.h"
#include "robust_util.h"

/* The table as docs/platforms.md documents it (vendor, family, model,
 * operations of small calls, of large calls). */
#define FROM_MEMORY_A7                                                                            \
    (SATC_OP_CULL(SATC_FORM_INSTANCES) | SATC_OP_CULL(SATC_FORM_HALF_AXES) | SATC_OP_BOUNDS)
static const struct {
    const char *vendor;
    unsigned family, model, small, large;
} documented[] = {
    {"AuthenticAMD", 0x19, 0x61, 0, 0},
    {"AuthenticAMD", 0x1A, 0x02, 0, 0},
    {"GenuineIntel", 0x06, 0xA7, 0, FROM_MEMORY_A7},
    {"GenuineIntel", 0x06, 0x8F, 0, 0},
};

static unsigned cpu_entry(int large)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    char vendor[13] = {0};
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
    __get_cpuid(1, &a, &b, &c, &d);
    unsigned fam = (a >> 8) & 15u, model = (a >> 4) & 15u;
    if (fam == 15u)
        fam += (a >> 20) & 255u;
    if (fam >= 6u)
        model |= ((a >> 16) & 15u) << 4;
    printf("cpu: %s family %02Xh model %02Xh\n", vendor, fam, model);
    return satc_dispatch_ops_for(vendor, fam, model, large);
#else
    (void)large;
    return 0;
#endif
}

static int wide_and_narrow(void)
{
    unsigned n = satc_isa_native();
    return (n & SATC_ISA_AVX512) && (n & SATC_ISA_AVX2);
}

static void use(const char *isa, unsigned mask)
{
    if (isa)
        setenv("SATC_ISA", isa, 1);
    else
        unsetenv("SATC_ISA");
    satc_isa_set_mask(mask);
}

/* Slot by slot: the default table of a call on count volumes against the
 * AVX2 table for ops, the AVX-512 table otherwise. */
static int slots_n(unsigned ops, size_t count)
{
    const satc_kernels *k = satc_kernels_default_n(count), *w = satc_kernels_for(SATC_ISA_AVX512),
                       *n = satc_kernels_for(SATC_ISA_AVX2);
    int ok = k && w && n;
    for (int f = 1; ok && f <= SATC_NFORMS; f++) {
        const satc_kernels *c = ops & SATC_OP_CULL(f) ? n : w, *m = ops & SATC_OP_MULTI ? n : w;
        ok &= !memcmp(k->fn[f], c->fn[f], sizeof k->fn[f]) && k->multi[f] == m->multi[f];
    }
    for (int f = 1; ok && f <= SATC_NFORMS; f++) {
        unsigned op = f == SATC_FORM_SPHERES ? SATC_OP_BOUNDS_SPHERES : SATC_OP_BOUNDS;
        ok &= k->bounds[f] == (ops & op ? n : w)->bounds[f];
    }
    ok &= ok && k->soa == (ops & SATC_OP_SOA ? n : w)->soa;
    return ok;
}

/* The same ops for small and large calls (either side of the threshold). */
static int slots_are(unsigned ops)
{
    return slots_n(ops, 0) && slots_n(ops, SATC_DISPATCH_LARGE - 1) && slots_n(ops, SATC_DISPATCH_LARGE) &&
           slots_n(ops, (size_t)1 << 20);
}

static const satc_kernels *default_small(void) { return satc_kernels_default_n(1); }

static int child_table(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++) {
        for (int large = 0; large < 2; large++) {
            unsigned got = satc_dispatch_ops_for(documented[i].vendor, documented[i].family,
                                                 documented[i].model, large);
            unsigned want = large ? documented[i].large : documented[i].small;
            if (got != want)
                printf("  %s family %02Xh model %02Xh, %s calls: ops 0x%x, documented 0x%x\n",
                       documented[i].vendor, documented[i].family, documented[i].model,
                       large ? "large" : "small", got, want), bad = 1;
        }
    }
    const char *others[] = {"AuthenticAMD", "GenuineIntel", "HygonGenuine", "", "AuthenticAM"};
    for (size_t v = 0; v < sizeof others / sizeof others[0]; v++)
        for (unsigned fam = 0; fam < 0x30; fam++)
            for (unsigned model = 0; model < 0x100; model++) {
                int listed = 0;
                for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++)
                    listed |= !strcmp(documented[i].vendor, others[v]) && documented[i].family == fam &&
                              documented[i].model == model;
                unsigned got = satc_dispatch_ops_for(others[v], fam, model, 0) |
                               satc_dispatch_ops_for(others[v], fam, model, 1);
                if (!listed && got)
                    printf("  %s family %02Xh model %02Xh: not documented, ops 0x%x\n", others[v], fam,
                           model, got), bad = 1;
            }
    if (satc_dispatch_ops_for(NULL, 0x06, 0xA7, 1))
        printf("  NULL vendor: ops\n"), bad = 1;
    /* This CPU, automatic choice: its entries where AVX-512 is the default. */
    use(NULL, satc_isa_compiled());
    int auto512 = wide_and_narrow() && satc_isa_active() == SATC_ISA_AVX512;
    unsigned ws = auto512 ? cpu_entry(0) : 0, wl = auto512 ? cpu_entry(1) : 0;
    if (satc_dispatch_narrow(0) != ws || satc_dispatch_narrow(1) != wl)
        printf("  this CPU: narrowed 0x%x / 0x%x, want 0x%x / 0x%x\n", satc_dispatch_narrow(0),
               satc_dispatch_narrow(1), ws, wl), bad = 1;
    if (wide_and_narrow() &&
        !(slots_n(ws, 1) && slots_n(ws, SATC_DISPATCH_LARGE - 1) && slots_n(wl, SATC_DISPATCH_LARGE) &&
          slots_n(wl, (size_t)1 << 24)))
        printf("  this CPU: the tables do not follow the entries\n"), bad = 1;
    return bad;
}

static int child_forcing(void)
{
    int bad = 0;
    const unsigned sets[] = {SATC_OP_ALL, SATC_OP_BOUNDS, SATC_OP_BOUNDS_SPHERES, SATC_OP_MULTI | SATC_OP_SOA, SATC_OP_CULL(SATC_FORM_AABB),
                             SATC_OP_CULL(SATC_FORM_INSTANCES) | SATC_OP_CULL(SATC_FORM_SPHERES)};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        unsigned ops = sets[s], all = satc_isa_compiled();
        satc_dispatch_override(ops);
        use(NULL, all);
        if (satc_isa_active() != SATC_ISA_AVX512 || (satc_dispatch_narrow(0) != ops || satc_dispatch_narrow(1) != ops) || !slots_are(ops))
            printf("  ops 0x%x, automatic: active %s, narrowed 0x%x\n", ops, satc_isa_name(satc_isa_active()),
                   satc_dispatch_narrow(1)), bad = 1;
        use("avx512", all);
        if (satc_isa_active() != SATC_ISA_AVX512 || (satc_dispatch_narrow(0) | satc_dispatch_narrow(1)) || !slots_are(0) ||
            default_small() != satc_kernels_for(SATC_ISA_AVX512))
            printf("  ops 0x%x, SATC_ISA=avx512: not AVX-512 throughout\n", ops), bad = 1;
        use(NULL, SATC_ISA_AVX512 | SATC_ISA_SSE41);
        if (satc_isa_active() != SATC_ISA_AVX512 || (satc_dispatch_narrow(0) | satc_dispatch_narrow(1)) ||
            default_small() != satc_kernels_for(SATC_ISA_AVX512))
            printf("  ops 0x%x, mask without avx2: not AVX-512 throughout\n", ops), bad = 1;
        use("avx2", all);
        if (satc_isa_active() != SATC_ISA_AVX2 || (satc_dispatch_narrow(0) | satc_dispatch_narrow(1)) ||
            default_small() != satc_kernels_for(SATC_ISA_AVX2))
            printf("  ops 0x%x, SATC_ISA=avx2: not AVX2 throughout\n", ops), bad = 1;
        use(NULL, all);
        if ((satc_dispatch_narrow(0) != ops || satc_dispatch_narrow(1) != ops) || !slots_are(ops))
            printf("  ops 0x%x, automatic again: narrowed 0x%x\n", ops, satc_dispatch_narrow(1)), bad = 1;
    }
    return bad;
}

/* Every form from the same boxes near the camera: Eberly arrays, world
 * AABBs (float3 arrays), min/max records, half-axis records, 4x4
 * instance matrices with one local box [-1, 1]^3, spheres. */
enum { N = 3000 };
static satc_box_arrays arr;
static float c3[3 * N + 4], h3[3 * N + 4], mm[6 * N + 4], ha[12 * N + 4], mat[16 * N], sph[4 * N];
static const float lc[3] = {0, 0, 0}, lh[3] = {1, 1, 1};
static float sc3[3 * N + 4]; /* TRS: the boxes' extents as splat scales (k = 1) */
static const float quat1[4] = {0.2f, -0.4f, 0.1f, 0.9f};

static void make_forms(rb_rng *r, const satc_camera *cam, satc_batch b[SATC_NFORMS + 1])
{
    satc_box_arrays_alloc(&arr, N);
    for (size_t i = 0; i < N; i++) {
        satc_obb o;
        rb_box_near(r, cam, &o);
        satc_box_arrays_set(&arr, i, &o);
        float h[3] = {0, 0, 0}, r2 = 0;
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) {
                float e = o.axis[j][k] * o.extent[j];
                mat[16 * i + 4 * j + k] = ha[12 * i + 3 + 3 * j + k] = e;
                h[k] += e < 0 ? -e : e;
            }
            mat[16 * i + 4 * j + 3] = 0;
            r2 += o.extent[j] * o.extent[j];
        }
        for (int k = 0; k < 3; k++) {
            float c = o.center[k];
            c3[3 * i + k] = mat[16 * i + 12 + k] = ha[12 * i + k] = sph[4 * i + k] = c;
            h3[3 * i + k] = h[k] * 1.001f;
            mm[6 * i + k] = c - h3[3 * i + k], mm[6 * i + 3 + k] = c + h3[3 * i + k];
        }
        mat[16 * i + 15] = 1;
        sph[4 * i + 3] = sqrtf(r2) * 1.001f;
        for (int j = 0; j < 3; j++)
            sc3[3 * i + j] = o.extent[j];
    }
    memset(b, 0, (SATC_NFORMS + 1) * sizeof *b);
    satc_boxes v = satc_box_arrays_view(&arr);
    b[SATC_FORM_OBB] = satc_batch_from_boxes(&v);
    b[SATC_FORM_AABB].form = SATC_FORM_AABB;
    b[SATC_FORM_AABB].aabb = (satc_aabbs){SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(h3, 12)};
    b[SATC_FORM_MINMAX].form = SATC_FORM_MINMAX;
    b[SATC_FORM_MINMAX].minmax = (satc_minmax){SATC_VEC3S_AOS(mm, 24), SATC_VEC3S_AOS(mm + 3, 24)};
    b[SATC_FORM_HALF_AXES].form = SATC_FORM_HALF_AXES;
    b[SATC_FORM_HALF_AXES].half_axes = (satc_half_axes){
        SATC_VEC3S_AOS(ha, 48), {SATC_VEC3S_AOS(ha + 3, 48), SATC_VEC3S_AOS(ha + 6, 48), SATC_VEC3S_AOS(ha + 9, 48)}};
    b[SATC_FORM_INSTANCES].form = SATC_FORM_INSTANCES;
    b[SATC_FORM_INSTANCES].instances = (satc_instances){mat, 64, SATC_AFFINE_4X4_COLUMN_MAJOR,
                                                        {&lc[0], &lc[1], &lc[2], 0}, {&lh[0], &lh[1], &lh[2], 0},
                                                        NULL, 0, 0};
    b[SATC_FORM_SPHERES].form = SATC_FORM_SPHERES;
    b[SATC_FORM_SPHERES].spheres = (satc_spheres){SATC_VEC3S_AOS(sph, 16), {sph + 3, 16}};
    b[SATC_FORM_TRS].form = SATC_FORM_TRS;
    b[SATC_FORM_TRS].trs = (satc_trs){SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(sc3, 12), quat1, 0,
                                      SATC_QUAT_F32, 1.0f, NULL};
}

/* The default entry points with every operation narrowed, and with
 * bounds and row copies alone, against the plain paths' _isa calls. */
static int child_bits(void)
{
    rb_rng rng = {0x64697370ull};
    int bad = 0;
    satc_camera cam;
    float eye[3] = {0, 2, 0};
    rb_camera_persp(&cam, &rng, eye, 0.3f, 90.0f);
    satc_frustum views[5];
    if (satc_frustum_from_camera(&views[0], &cam) != SATC_OK)
        return 1;
    for (int v = 1; v < 5; v++) { /* cascades: one origin and frame, boxes of their own */
        satc_camera o = cam;
        o.orthographic = 1, o.l0 = -10.0f * v, o.l1 = 8.0f * v, o.u0 = -6.0f * v, o.u1 = 7.0f * v;
        o.n = -40.0f, o.f = 20.0f * v;
        if (satc_frustum_from_camera(&views[v], &o) != SATC_OK)
            return 1;
    }
    static uint8_t a[N / 8 + 1], b[N / 8 + 1], ca[N], cb[N];
    static uint16_t ma[N], mb[N];
    static float ga[3 * N], gb[3 * N], ha[3 * N], hb[3 * N];
    static const char *const names[SATC_NFORMS + 1] = {"", "OBB", "AABB", "min/max", "half axes", "instances",
                                                         "spheres", "trs"};
    static satc_batch batches[SATC_NFORMS + 1];
    make_forms(&rng, &cam, batches);
    const unsigned sets[] = {SATC_OP_ALL, SATC_OP_BOUNDS | SATC_OP_SOA};
    for (size_t s = 0; s < 2; s++) {
        satc_dispatch_override(sets[s]);
        use(NULL, satc_isa_compiled());
        for (int form = 1; form <= SATC_NFORMS; form++) {
            struct { satc_batch b; } fb = {batches[form]};
            for (int ref = 0; ref < 2; ref++) {
                satc_isa isa = ref ? SATC_ISA_AVX2 : SATC_ISA_AVX512;
                for (int mode = 0; mode < 2; mode++) {
                    satc_results ra = {NULL, ca, NULL, 0}, rb = {NULL, cb, NULL, 0};
                    int ok = satc_cull(&views[0], &fb.b, 0, N, (satc_mode)mode, &ra) == SATC_OK &&
                             satc_cull_isa(isa, &views[0], &fb.b, 0, N, (satc_mode)mode, &rb) == SATC_OK &&
                             !memcmp(ca, cb, N);
                    satc_view_results va = {ma, NULL, NULL, NULL}, vb = {mb, NULL, NULL, NULL};
                    ok &= satc_cull_views(views, 5, &fb.b, 0, N, (satc_mode)mode, &va) == SATC_OK &&
                          satc_cull_views_isa(isa, views, 5, &fb.b, 0, N, (satc_mode)mode, &vb) == SATC_OK &&
                          !memcmp(ma, mb, sizeof ma);
                    float c[3] = {eye[0] + 3, eye[1], eye[2] + 5};
                    satc_results qa = {a, NULL, NULL, 0}, qb = {b, NULL, NULL, 0};
                    ok &= satc_query_sphere(c, 7.0f, &fb.b, 0, N, (satc_mode)mode, &qa) == SATC_OK &&
                          satc_query_sphere_isa(isa, c, 7.0f, &fb.b, 0, N, (satc_mode)mode, &qb) == SATC_OK &&
                          !memcmp(a, b, sizeof a);
                    if (!ok)
                        printf("  ops 0x%x, %s, mode %d: default differs from %s\n", sets[s],
                               names[form], mode, satc_isa_name(isa)), bad = 1;
                }
            }
            /* Group bounds: the default path against each plain path. */
            size_t ng = (N + 31) / 32;
            satc_group_bounds(&fb.b, N, 32, NULL, ng, ga, ha);
            for (int ref = 0; ref < 2; ref++) {
                use(ref ? "avx2" : "avx512", satc_isa_compiled());
                satc_group_bounds(&fb.b, N, 32, NULL, ng, gb, hb);
                if (memcmp(ga, gb, 12 * ng) || memcmp(ha, hb, 12 * ng))
                    printf("  ops 0x%x, %s: group bounds differ from %s\n", sets[s], names[form],
                           ref ? "avx2" : "avx512"), bad = 1;
            }
            use(NULL, satc_isa_compiled());
        }
    }
    return bad;
}

static int in_child(int (*body)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 99;
    if (pid == 0) {
        int r = body();
        fflush(stdout);
        _exit(r);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return 99;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int main(void)
{
    int r = in_child(child_table);
    rb_check(r == 0, "the table of CPU families and this CPU's entry (child status %d)", r);
    if (!wide_and_narrow()) {
        printf("AVX-512 and AVX2 not both native here: the mixed tables are not run\n");
        return rb_finish();
    }
    r = in_child(child_forcing);
    rb_check(r == 0, "mixed tables and forcing (child status %d)", r);
    r = in_child(child_bits);
    rb_check(r == 0, "mixed tables give the plain paths' bits (child status %d)", r);
    return rb_finish();
}
