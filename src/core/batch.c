/* What a batch is: the argument checks shared by every entry point and
 * pass (the one place that says what a valid batch, frustum, call and
 * group table are) and the list of a batch's streams. Below every layer
 * that uses it; calls nothing but the types in internal.h. */
#include "internal.h"

static int misaligned(const void *p, size_t stride)
{
    return ((uintptr_t)p % sizeof(float)) != 0 || stride % sizeof(float) != 0;
}

/* A vec3 stream: non-NULL components (else 1), float-aligned, and a float3
 * record no shorter than its three floats (else 2). */
static int check_vec3s(const satc_vec3s *v)
{
    if (!v->x || !v->y || !v->z)
        return 1;
    if (misaligned(v->x, v->stride) || misaligned(v->y, 0) || misaligned(v->z, 0))
        return 2;
    if (v->stride && v->stride < 3 * sizeof(float) && v->y == v->x + 1 && v->z == v->x + 2)
        return 2;
    return 0;
}

/* The smallest stride of a matrix layout (bytes the loaders may read). */
static size_t matrix_bytes(satc_affine lay)
{
    switch (lay) {
    case SATC_AFFINE_4X4_COLUMN_MAJOR: return 16 * sizeof(float);
    case SATC_AFFINE_ROWS: return 12 * sizeof(float);
    case SATC_AFFINE_4X3_COLUMN_MAJOR: return 12 * sizeof(float);
    }
    return 0;
}

/* What the form reads, for count > 0: SATC_ERR_NULL or SATC_ERR_LAYOUT. */
static satc_status check_batch(const satc_batch *b)
{
    int e = 0;
    switch (b->form) {
    case SATC_FORM_OBB:
        e = check_vec3s(&b->obb.center) | check_vec3s(&b->obb.extent);
        for (int j = 0; j < 3; j++)
            e |= check_vec3s(&b->obb.axis[j]);
        break;
    case SATC_FORM_AABB: e = check_vec3s(&b->aabb.center) | check_vec3s(&b->aabb.half); break;
    case SATC_FORM_MINMAX: e = check_vec3s(&b->minmax.min) | check_vec3s(&b->minmax.max); break;
    case SATC_FORM_HALF_AXES:
        e = check_vec3s(&b->half_axes.center);
        for (int j = 0; j < 3; j++)
            e |= check_vec3s(&b->half_axes.axis[j]);
        break;
    case SATC_FORM_INSTANCES: {
        const satc_instances *s = &b->instances;
        e = check_vec3s(&s->local_center) | check_vec3s(&s->local_half);
        if (!s->matrix)
            e |= 1;
        else if (misaligned(s->matrix, s->stride) || !matrix_bytes(s->layout) ||
                 s->stride < matrix_bytes(s->layout))
            e |= 2;
        if (s->mesh && misaligned(s->mesh, s->mesh_stride))
            e |= 2;
        break;
    }
    case SATC_FORM_TRS: {
        const satc_trs *s = &b->trs;
        const satc_local_boxes *lb = s->local;
        unsigned fmt = s->format;
        e = check_vec3s(&s->position) | check_vec3s(&s->scale);
        if (lb) {
            e |= check_vec3s(&lb->center) | check_vec3s(&lb->half);
            if (lb->mesh && misaligned(lb->mesh, lb->mesh_stride))
                e |= 2;
        }
        if (!s->rotation)
            e |= 1;
        else if (misaligned(s->rotation, s->rotation_stride) ||
                 ((fmt & 3u) == SATC_QUAT_F32 && s->rotation_stride && s->rotation_stride < 16))
            e |= 2;
        if ((fmt & ~15u) || (fmt & 3u) == 3u)
            e |= 4;
        if (!isfinite(s->k) || s->k < 0.0f)
            e |= 2;
        break;
    }
    case SATC_FORM_SPHERES:
        e = check_vec3s(&b->spheres.center);
        if (!b->spheres.radius.p)
            e |= 1;
        else if (misaligned(b->spheres.radius.p, b->spheres.radius.stride))
            e |= 2;
        break;
    }
    return (e & 1) ? SATC_ERR_NULL : (e & 4) ? SATC_ERR_FLAGS : (e & 2) ? SATC_ERR_LAYOUT : SATC_OK;
}

satc_status satc_check_vec3s(const satc_vec3s *v)
{
    int e = check_vec3s(v);
    return e == 1 ? SATC_ERR_NULL : e ? SATC_ERR_LAYOUT : SATC_OK;
}

satc_status satc_check_results(const satc_frustum *f, const satc_batch *b, size_t first,
                               size_t count, satc_mode mode, const satc_results *out)
{
    if (!out)
        return SATC_ERR_NULL;
    satc_status st = satc_check_call(f, b, first, count, mode, out->indices != NULL);
    return st == SATC_OK && count ? satc_check_groups(b) : st;
}

satc_status satc_check_volumes(const satc_batch *b, size_t first, size_t count)
{
    if (!b)
        return SATC_ERR_NULL;
    if ((unsigned)b->form < 1 || (unsigned)b->form > SATC_NFORMS)
        return SATC_ERR_FLAGS;
    if (count > SIZE_MAX - first)
        return SATC_ERR_RANGE;
    return count ? check_batch(b) : SATC_OK;
}

/* A kind satc builds, with counts that keep the kernels in their arrays. */
static int kind_ok(const satc_frustum *f)
{
    if (f->kind == SATC_FRUSTUM_PLANES)
        return f->nplanes >= 1 && f->nplanes <= SATC_MAX_PLANES &&
               f->nverts <= SATC_MAX_PLANE_VERTS && f->nedges <= SATC_MAX_PLANE_EDGES;
    return f->kind == SATC_FRUSTUM_PERSPECTIVE || f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
}

satc_status satc_check_call(const satc_frustum *f, const satc_batch *b, size_t first,
                            size_t count, satc_mode mode, int want_indices)
{
    if (!f || !b)
        return SATC_ERR_NULL;
    if ((mode != SATC_CONSERVATIVE && mode != SATC_EXACT) || !kind_ok(f) ||
        (unsigned)b->form < 1 || (unsigned)b->form > SATC_NFORMS)
        return SATC_ERR_FLAGS;
    if (f->kind == SATC_FRUSTUM_PLANES && mode == SATC_EXACT && f->nverts == 0)
        return SATC_ERR_FAR; /* unbounded: no vertices for the exact test */
    if (count > SIZE_MAX - first)
        return SATC_ERR_RANGE;
    if (count == 0)
        return SATC_OK;
    satc_status st = check_batch(b);
    if (st != SATC_OK)
        return st;
    if (want_indices && first + count - 1 > UINT32_MAX)
        return SATC_ERR_RANGE;
    return SATC_OK;
}

satc_status satc_check_groups(const satc_batch *b)
{
    const satc_groups *gs = b->groups;
    if (!gs)
        return SATC_OK;
    if (!gs->size && !gs->offsets)
        return SATC_ERR_NULL;
    if (gs->size && gs->ngroups > SIZE_MAX / gs->size)
        return SATC_ERR_RANGE;
    if (!gs->ngroups)
        return SATC_OK;
    satc_status st = satc_check_vec3s(&gs->center);
    if (st == SATC_OK)
        st = satc_check_vec3s(&gs->half);
    if (st != SATC_OK)
        return st;
    if (!gs->size) {
        for (size_t g = 0; g < gs->ngroups; g++) {
            if (gs->offsets[g + 1] < gs->offsets[g])
                return SATC_ERR_LAYOUT;
        }
    }
    return SATC_OK;
}

int satc_batch_streams(const satc_batch *b, const satc_vec3s *v[5], const satc_floats **f)
{
    *f = NULL;
    switch (b->form) {
    case SATC_FORM_OBB:
        v[0] = &b->obb.center, v[1] = &b->obb.axis[0], v[2] = &b->obb.axis[1];
        v[3] = &b->obb.axis[2], v[4] = &b->obb.extent;
        return 5;
    case SATC_FORM_AABB: v[0] = &b->aabb.center, v[1] = &b->aabb.half; return 2;
    case SATC_FORM_MINMAX: v[0] = &b->minmax.min, v[1] = &b->minmax.max; return 2;
    case SATC_FORM_HALF_AXES:
        v[0] = &b->half_axes.center;
        for (int j = 0; j < 3; j++)
            v[1 + j] = &b->half_axes.axis[j];
        return 4;
    case SATC_FORM_SPHERES: v[0] = &b->spheres.center, *f = &b->spheres.radius; return 1;
    default: return -1;
    }
}
