/*
 * Native answers for the JavaScript package's tests (js/test/native.test.js).
 * Reads cases from a file (the test writes them from seeded inputs), runs
 * the native library on each, writes the answers; the test compares them
 * with the WebAssembly package's. Little-endian binary, see parse below.
 * Usage: satc_js_oracle IN OUT
 */
#include <satc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *in, *out;

static uint32_t rd_u32(void)
{
    uint32_t v = 0;
    if (fread(&v, 4, 1, in) != 1) {
        fprintf(stderr, "oracle: truncated input\n");
        exit(2);
    }
    return v;
}

static float rd_f32(void)
{
    uint32_t u = rd_u32();
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void rd_floats(float *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = rd_f32();
}

/* A float array prefixed by its length; NULL when empty. */
static float *rd_array(void)
{
    uint32_t n = rd_u32();
    float *p = malloc(4 * (size_t)n + 4);
    rd_floats(p, n);
    return p;
}

static void wr(const void *p, size_t n)
{
    fwrite(p, 1, n, out);
}

static satc_status read_view(satc_frustum *f)
{
    uint32_t how = rd_u32();
    float v[64];
    memset(f, 0, sizeof *f);
    switch (how) {
    case 1: {
        rd_floats(v, 16);
        return satc_frustum_from_matrix(f, v, rd_u32());
    }
    case 2:
        rd_floats(v, 13);
        return satc_frustum_perspective(f, v, v + 3, v + 6, v[9], v[10], v[11], v[12]);
    case 3: {
        satc_camera c;
        rd_floats(v, 18);
        memcpy(c.origin, v, 12);
        memcpy(c.left, v + 3, 12);
        memcpy(c.up, v + 6, 12);
        memcpy(c.dir, v + 9, 12);
        c.l0 = v[12], c.l1 = v[13], c.u0 = v[14], c.u1 = v[15], c.n = v[16], c.f = v[17];
        c.orthographic = (int)rd_u32();
        return satc_frustum_from_camera(f, &c);
    }
    case 4: {
        /* Read every plane the stream holds, keep at most the array's
         * SATC_MAX_PLANES + 1 (more than satc takes, so a count over the
         * limit still reaches satc and gets its status). */
        uint32_t n = rd_u32();
        float pl[SATC_MAX_PLANES + 1][4];
        for (uint32_t i = 0; i < n; i++) {
            float t[4];
            rd_floats(t, 4);
            if (i <= SATC_MAX_PLANES)
                memcpy(pl[i], t, sizeof t);
        }
        return satc_frustum_from_planes(f, (const float(*)[4])pl, n, rd_f32());
    }
    case 5: {
        satc_obb b;
        rd_floats(v, 15);
        memcpy(b.center, v, 12);
        memcpy(b.axis, v + 3, 36);
        memcpy(b.extent, v + 12, 12);
        return satc_frustum_from_box(f, &b);
    }
    case 6:
        rd_floats(v, 6);
        return satc_frustum_from_segment(f, v, v + 3);
    default:
        fprintf(stderr, "oracle: view kind %u\n", how);
        exit(2);
    }
}

static satc_vec3s aos(const float *p, size_t stride)
{
    return (satc_vec3s){p, p + 1, p + 2, stride};
}

int main(int argc, char **argv)
{
    if (argc != 3 || !(in = fopen(argv[1], "rb")) || !(out = fopen(argv[2], "wb"))) {
        fprintf(stderr, "usage: satc_js_oracle IN OUT\n");
        return 2;
    }
    uint32_t op;
    while (fread(&op, 4, 1, in) == 1) {
        uint32_t mode = rd_u32(), form = rd_u32(), first = rd_u32(), count = rd_u32();
        uint32_t nviews = rd_u32(), wants = rd_u32(), layout = rd_u32(), local = rd_u32();
        uint32_t meshes = rd_u32(), gsize = rd_u32();
        satc_frustum views[SATC_MAX_VIEWS];
        satc_status st = SATC_OK;
        for (uint32_t v = 0; v < nviews; v++) {
            satc_status s = read_view(&views[v]);
            if (st == SATC_OK) st = s;
        }
        float q[7] = {0};
        if (op == 3) rd_floats(q, 4);
        if (op == 4) rd_floats(q, 7);
        float *a[4] = {rd_array(), rd_array(), rd_array(), rd_array()};
        satc_batch b;
        memset(&b, 0, sizeof b);
        b.form = (satc_form)form;
        switch (form) {
        case SATC_FORM_AABB: b.aabb = (satc_aabbs){aos(a[0], 12), aos(a[1], 12)}; break;
        case SATC_FORM_MINMAX: b.minmax = (satc_minmax){aos(a[0], 12), aos(a[1], 12)}; break;
        case SATC_FORM_SPHERES: b.spheres = (satc_spheres){aos(a[0], 12), {a[1], 4}}; break;
        case SATC_FORM_OBB:
        case SATC_FORM_HALF_AXES:
            for (int j = 0; j < 3; j++) b.obb.axis[j] = aos(a[1] + 3 * j, 36);
            b.obb.center = aos(a[0], 12);
            if (form == SATC_FORM_OBB) b.obb.extent = aos(a[2], 12);
            break;
        case SATC_FORM_INSTANCES: {
            satc_instances *it = &b.instances;
            it->matrix = a[0];
            it->layout = (satc_affine)layout;
            it->stride = layout == 0 ? 64 : 48;
            size_t ls = local ? 12 : 0;
            it->local_center = aos(a[1], ls);
            it->local_half = aos(a[2], ls);
            if (local == 2) {
                it->mesh = (const uint32_t *)a[3];
                it->mesh_stride = 4;
                it->mesh_count = meshes;
            }
            break;
        }
        }
        float *gc = NULL, *gh = NULL;
        satc_groups g;
        if (st == SATC_OK && gsize) {
            size_t ng = (first + count + gsize - 1) / gsize;
            gc = malloc(12 * ng + 4), gh = malloc(12 * ng + 4);
            st = satc_group_bounds(&b, first + count, gsize, NULL, ng, gc, gh);
            g = (satc_groups){gsize, NULL, ng, aos(gc, 12), aos(gh, 12)};
            b.groups = &g;
        }
        size_t n = count;
        uint32_t *idx = malloc(4 * n * (nviews ? nviews : 1) + 4);
        uint8_t *bits = malloc(n / 8 + 9), *cls = malloc(n * (nviews ? nviews : 1) + 1);
        float *t = malloc(4 * n + 4);
        uint64_t *masks = calloc(n + 1, 8);
        satc_results r = {wants & 2 ? bits : NULL, wants & 4 ? cls : NULL, wants & 1 ? idx : NULL, 0};
        size_t nearest = 0, vis[SATC_MAX_VIEWS];
        if (st == SATC_OK) {
            if (op == 1) st = satc_cull(&views[0], &b, first, count, (satc_mode)mode, &r);
            else if (op == 3) st = satc_query_sphere(q, q[3], &b, first, count, (satc_mode)mode, &r);
            else if (op == 4) st = satc_query_ray(q, q + 3, q[6], &b, first, count, (satc_mode)mode, &r, t, &nearest);
            else if (op == 2) {
                uint32_t *ip[SATC_MAX_VIEWS];
                uint8_t *cp[SATC_MAX_VIEWS];
                for (uint32_t v = 0; v < nviews; v++) ip[v] = idx + n * v, cp[v] = cls + n * v;
                satc_view_results vr = {masks, wants & 1 ? ip : NULL, wants & 4 ? cp : NULL, vis};
                st = satc_cull_views(views, nviews, &b, first, count, (satc_mode)mode, &vr);
            }
        }
        int32_t s32 = st;
        wr(&s32, 4);
        if (st == SATC_OK) {
            for (uint32_t v = 0; v < nviews; v++) wr(&views[v], sizeof views[v]);
            if (op == 2) {
                unsigned word = nviews <= 8 ? 1 : nviews <= 16 ? 2 : nviews <= 32 ? 4 : 8;
                for (uint32_t v = 0; v < nviews; v++) {
                    uint32_t c = (uint32_t)vis[v];
                    wr(&c, 4);
                }
                wr(masks, word * n);
                if (wants & 1)
                    for (uint32_t v = 0; v < nviews; v++) wr(idx + n * v, 4 * vis[v]);
                if (wants & 4) wr(cls, n * nviews);
            } else {
                uint32_t c = (uint32_t)r.visible;
                wr(&c, 4);
                if (wants & 1) wr(idx, 4 * r.visible);
                if (wants & 2) wr(bits, (n + 7) / 8);
                if (wants & 4) wr(cls, n);
                if (op == 4) {
                    uint32_t nr = nearest == SIZE_MAX ? 0xffffffffu : (uint32_t)nearest;
                    wr(t, 4 * r.visible);
                    wr(&nr, 4);
                }
            }
        }
        for (int i = 0; i < 4; i++) free(a[i]);
        free(gc), free(gh), free(idx), free(bits), free(cls), free(t), free(masks);
    }
    fclose(out);
    fclose(in);
    return 0;
}
