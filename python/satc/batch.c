/* The batch constructors of the box and sphere forms (aabbs, minmax, obbs,
 * half_axes, spheres, instances). */
#include "_arrays.h"

#include <string.h>

/* Two vec3 arguments (aabbs, minmax). */
static PyObject *pair_form(PyObject *args_, PyObject *kw, const char *fn, const char *n0,
                           const char *n1, satc_form form, enum conv how)
{
    static char *kw_aabb[] = {"center", "half", NULL}, *kw_mm[] = {"min", "max", NULL};
    PyObject *o0, *o1;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "OO:%s", fn);
    if (!PyArg_ParseTupleAndKeywords(args_, kw, fmt, form == SATC_FORM_AABB ? kw_aabb : kw_mm, &o0,
                                     &o1))
        return NULL;
    arg_t a[2] = {{.name = n0}, {.name = n1}};
    npy_intp n;
    if (satc_py_take(o0, &a[0], 1, V3, 1, 0) < 0 || satc_py_take(o1, &a[1], 1, V3, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = satc_py_prepare(a, 2, how, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = satc_py_batch_new(fn);
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = form;
    if (form == SATC_FORM_AABB) {
        bo->b.aabb.center = satc_py_vec3_of(&a[0], 0);
        bo->b.aabb.half = satc_py_vec3_of(&a[1], 0);
    } else {
        bo->b.minmax.min = satc_py_vec3_of(&a[0], 0);
        bo->b.minmax.max = satc_py_vec3_of(&a[1], 0);
    }
    return satc_py_finish(bo, a, 2, conv, n);
}

PyObject *satc_py_aabbs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    return pair_form(args, kw, "aabbs", "center", "half", SATC_FORM_AABB, CONV_AABB);
}

PyObject *satc_py_minmax(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    return pair_form(args, kw, "minmax", "min", "max", SATC_FORM_MINMAX, CONV_MINMAX);
}

PyObject *satc_py_obbs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "axes", "extents", NULL};
    PyObject *o[3];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:obbs", kwl, &o[0], &o[1], &o[2]))
        return NULL;
    arg_t a[3] = {{.name = "center"}, {.name = "axes"}, {.name = "extents"}};
    npy_intp n;
    if (satc_py_take(o[0], &a[0], 1, V3, 1, 0) < 0 || satc_py_take(o[1], &a[1], 2, M33, 1, 0) < 0 ||
        satc_py_take(o[2], &a[2], 1, V3, 1, 0) < 0)
        FAIL_ARGS(a, 3);
    int conv = satc_py_prepare(a, 3, CONV_OBB, &n);
    if (conv < 0)
        FAIL_ARGS(a, 3);
    BatchObject *bo = satc_py_batch_new("obbs");
    if (!bo)
        FAIL_ARGS(a, 3);
    bo->b.form = SATC_FORM_OBB;
    bo->b.obb.center = satc_py_vec3_of(&a[0], 0);
    for (int j = 0; j < 3; j++)
        bo->b.obb.axis[j] = satc_py_vec3_of(&a[1], j);
    bo->b.obb.extent = satc_py_vec3_of(&a[2], 0);
    return satc_py_finish(bo, a, 3, conv, n);
}

PyObject *satc_py_half_axes(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "axes", NULL};
    PyObject *o[2];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:half_axes", kwl, &o[0], &o[1]))
        return NULL;
    arg_t a[2] = {{.name = "center"}, {.name = "axes"}};
    npy_intp n;
    if (satc_py_take(o[0], &a[0], 1, V3, 1, 0) < 0 || satc_py_take(o[1], &a[1], 2, M33, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = satc_py_prepare(a, 2, CONV_NEAREST, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = satc_py_batch_new("half_axes");
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = SATC_FORM_HALF_AXES;
    bo->b.half_axes.center = satc_py_vec3_of(&a[0], 0);
    for (int j = 0; j < 3; j++)
        bo->b.half_axes.axis[j] = satc_py_vec3_of(&a[1], j);
    return satc_py_finish(bo, a, 2, conv, n);
}

PyObject *satc_py_spheres(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "radius", NULL};
    PyObject *o[2];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:spheres", kwl, &o[0], &o[1]))
        return NULL;
    arg_t a[2] = {{.name = "center"}, {.name = "radius"}};
    npy_intp n;
    if (satc_py_take(o[0], &a[0], 1, V3, 1, 0) < 0 || satc_py_take(o[1], &a[1], 0, NULL, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = satc_py_prepare(a, 2, CONV_SPHERE, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = satc_py_batch_new("spheres");
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = SATC_FORM_SPHERES;
    bo->b.spheres.center = satc_py_vec3_of(&a[0], 0);
    bo->b.spheres.radius.p = PyArray_DATA(a[1].arr);
    bo->b.spheres.radius.stride = (size_t)satc_py_elem_stride(&a[1]);
    return satc_py_finish(bo, a, 2, conv, n);
}

PyObject *satc_py_instances(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"matrices", "local_center", "local_half", "mesh", NULL};
    PyObject *om, *oc, *oh, *omesh = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:instances", kwl, &om, &oc, &oh, &omesh))
        return NULL;
    arg_t m = {.name = "matrices"}, loc[2] = {{.name = "local_center"}, {.name = "local_half"}};
    PyArrayObject *mesh = NULL;
    int mesh_conv = 0;
    npy_intp n, nloc;
    if (satc_py_take(om, &m, 2, M44, 0, 1) < 0 || satc_py_take(oc, &loc[0], 1, V3, 1, 0) < 0 ||
        satc_py_take(oh, &loc[1], 1, V3, 1, 0) < 0)
        goto fail;
    n = PyArray_DIM(m.arr, 0);
    int conv_m = !m.in_place, conv_l;
    if (satc_py_local_boxes(loc, omesh, n, "matrices", &mesh, &nloc, &conv_l, &mesh_conv) < 0 ||
        (conv_m && satc_py_convert_all(&m, 1, CONV_NEAREST, n) < 0))
        goto fail;
    BatchObject *bo = satc_py_batch_new("instances");
    if (!bo)
        goto fail;
    bo->b.form = SATC_FORM_INSTANCES;
    satc_instances *in = &bo->b.instances;
    npy_intp r = PyArray_STRIDE(m.arr, 1);
    int rows4 = PyArray_DIM(m.arr, 1) == 4;
    in->matrix = PyArray_DATA(m.arr);
    in->stride = n > 1 ? (size_t)PyArray_STRIDE(m.arr, 0) : (rows4 ? 64 : 48);
    in->layout = r == 16 ? SATC_AFFINE_ROWS
                         : (rows4 ? SATC_AFFINE_4X4_COLUMN_MAJOR : SATC_AFFINE_4X3_COLUMN_MAJOR);
    in->local_center = satc_py_vec3_of(&loc[0], 0);
    in->local_half = satc_py_vec3_of(&loc[1], 0);
    if (mesh) {
        in->mesh = PyArray_DATA(mesh);
        in->mesh_stride = n > 1 ? (size_t)PyArray_STRIDE(mesh, 0) : 4;
        in->mesh_count = (size_t)nloc;
    }
    bo->count = n;
    const char *names[4];
    int nn = 0;
    if (conv_m)
        names[nn++] = "matrices";
    if (conv_l)
        names[nn++] = "local_center", names[nn++] = "local_half";
    if (mesh_conv)
        names[nn++] = "mesh";
    if (satc_py_keep_names(bo, names, nn) < 0 || PyList_Append(bo->arrays, (PyObject *)m.arr) < 0 ||
        satc_py_keep_arg(bo, &loc[0]) < 0 || satc_py_keep_arg(bo, &loc[1]) < 0 ||
        (mesh && PyList_Append(bo->arrays, (PyObject *)mesh) < 0))
        goto fail_bo;
    Py_XDECREF(mesh);
    satc_py_arg_clear(&m);
    satc_py_arg_clear(&loc[0]);
    satc_py_arg_clear(&loc[1]);
    return (PyObject *)bo;
fail_bo:
    Py_DECREF(bo);
fail:
    Py_XDECREF(mesh);
    satc_py_arg_clear(&m);
    satc_py_arg_clear(&loc[0]);
    satc_py_arg_clear(&loc[1]);
    return NULL;
}
