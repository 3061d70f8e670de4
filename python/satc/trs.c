/* TRS volumes (position, quaternion, scale) and Gaussian splats. */
#include "_arrays.h"

#include <math.h>
#include <string.h>

/* ---- TRS volumes and Gaussian splats ---- */

/* Quaternions: (N, 4) or (4,) shared, or a tuple of four 1-D float32
 * arrays. float32, uint8 and int8 are read in place when the four
 * components are adjacent, 4-byte aligned, with a non-negative volume
 * stride that is a multiple of 4; other layouts are copied (same type)
 * and other float types converted to float32. */
static PyArrayObject *take_quat(PyObject *obj, unsigned *fmt, int *conv, npy_intp *rows,
                                npy_intp *stride)
{
    PyArrayObject *a = NULL;
    *conv = 0;
    if (obj == NULL || obj == Py_None) {
        PyErr_SetString(PyExc_TypeError, "rotation: an array is required");
        return NULL;
    }
    int tk = PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 4 ? satc_py_tuple_kind(obj, 4) : 0;
    if (tk < 0) {
        satc_py_ambiguous("rotation", 4);
        return NULL;
    }
    if (tk) {
        /* separate x, y, z, w arrays (fields of one record): in place when
         * they are adjacent float32 fields */
        PyArrayObject *c[4] = {0};
        int adjacent = 1;
        npy_intp n = -1;
        for (int k = 0; k < 4; k++) {
            c[k] = (PyArrayObject *)PyArray_FROM_O(PyTuple_GET_ITEM(obj, k));
            if (!c[k] || PyArray_NDIM(c[k]) != 1 || (n >= 0 && PyArray_DIM(c[k], 0) != n) ||
                PyArray_DESCR(c[k])->kind != 'f') {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError,
                                "rotation: a tuple must hold four 1-D float arrays of one length");
                for (int j = 0; j <= k; j++)
                    Py_XDECREF(c[j]);
                return NULL;
            }
            n = PyArray_DIM(c[k], 0);
            adjacent &= PyArray_TYPE(c[k]) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(c[k]) &&
                        (char *)PyArray_DATA(c[k]) == (char *)PyArray_DATA(c[0]) + 4 * k &&
                        (n <= 1 || PyArray_STRIDE(c[k], 0) == PyArray_STRIDE(c[0], 0));
        }
        npy_intp s = n > 1 ? PyArray_STRIDE(c[0], 0) : 16;
        adjacent &= s >= 16 && satc_py_aligned4(PyArray_DATA(c[0]), s);
        if (adjacent) {
            /* a (n, 4) view of the records over the first array's memory */
            npy_intp dims[2] = {n, 4}, st[2] = {s, 4};
            Py_INCREF(PyArray_DESCR(c[0]));
            a = (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, PyArray_DESCR(c[0]), 2, dims, st,
                                                      PyArray_DATA(c[0]), 0, NULL);
            if (a) {
                Py_INCREF(c[0]);
                if (PyArray_SetBaseObject(a, (PyObject *)c[0]) < 0)
                    Py_CLEAR(a);
            }
        } else {
            npy_intp dims[2] = {n, 4};
            a = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_FLOAT32);
            for (int k = 0; a && k < 4; k++) {
                PyArrayObject *f = (PyArrayObject *)PyArray_FROMANY((PyObject *)c[k], NPY_FLOAT32, 1, 1,
                                                                    NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
                if (!f) {
                    Py_CLEAR(a);
                    break;
                }
                const float *src = PyArray_DATA(f);
                float *dst = PyArray_DATA(a);
                for (npy_intp i = 0; i < n; i++)
                    dst[4 * i + k] = src[i];
                Py_DECREF(f);
            }
            *conv = 1;
        }
        for (int k = 0; k < 4; k++)
            Py_DECREF(c[k]);
        if (!a)
            return NULL;
        *fmt = SATC_QUAT_F32;
        *rows = n;
        *stride = n > 1 ? PyArray_STRIDE(a, 0) : 0;
        return a;
    }
    if (PyArray_Check(obj)) {
        Py_INCREF(obj);
        a = (PyArrayObject *)obj;
    } else if (!(a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_CARRAY))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rotation: expected an array of numbers");
        return NULL;
    }
    PyArray_Descr *d = PyArray_DESCR(a);
    int type = PyArray_TYPE(a);
    if (type == NPY_UINT8)
        *fmt = SATC_QUAT_U8;
    else if (type == NPY_INT8)
        *fmt = SATC_QUAT_I8;
    else if (d->kind == 'f' && d->elsize <= 8)
        *fmt = SATC_QUAT_F32;
    else {
        PyObject *s = PyObject_Str((PyObject *)d);
        PyErr_Format(PyExc_TypeError,
                     "rotation: expected float32, float64, uint8 or int8 quaternions, got dtype %s",
                     s ? PyUnicode_AsUTF8(s) : "?");
        Py_XDECREF(s);
        Py_DECREF(a);
        return NULL;
    }
    int nd = PyArray_NDIM(a);
    if (!((nd == 2 || nd == 1) && PyArray_DIM(a, nd - 1) == 4)) {
        char got[64];
        PyErr_Format(PyExc_ValueError, "rotation: expected shape (N, 4) or (4,), got %s",
                     satc_py_shape_text(a, got, sizeof got));
        Py_DECREF(a);
        return NULL;
    }
    npy_intp n = nd == 2 ? PyArray_DIM(a, 0) : -1;
    npy_intp vs = (nd == 2 && n > 1) ? PyArray_STRIDE(a, 0) : 0;
    int native = *fmt != SATC_QUAT_F32 || (type == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(a));
    int in_place = native && PyArray_STRIDE(a, nd - 1) == d->elsize && vs >= 0 &&
                   satc_py_aligned4(PyArray_DATA(a), vs);
    if (!in_place) {
        int to = *fmt == SATC_QUAT_F32 ? NPY_FLOAT32 : type;
        PyArrayObject *c = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, to, 0, 0,
                                                            NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST |
                                                                NPY_ARRAY_ENSURECOPY);
        Py_DECREF(a);
        if (!c)
            return NULL;
        a = c;
        vs = (nd == 2 && n > 1) ? PyArray_STRIDE(a, 0) : 0;
        *conv = 1;
    }
    *rows = n;
    *stride = vs;
    return a;
}

/* k, the splat cube's half size in scale units: finite and > 0. */
static int splat_k(PyObject *obj, float *out)
{
    double k = SATC_SPLAT_K_DEFAULT;
    if (obj && satc_py_num_arg(obj, "k", &k) < 0)
        return -1;
    if (!(k > 0) || !isfinite((float)k)) {
        char num[40];
        snprintf(num, sizeof num, "%.9g", k);
        PyErr_Format(PyExc_ValueError, "k: must be finite and > 0, got %s", num);
        return -1;
    }
    *out = (float)k;
    return 0;
}

PyObject *satc_py_trs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"position", "rotation", "scale", "local_center", "local_half", "mesh",
                          "k", "log_scale", "wxyz", NULL};
    PyObject *op, *oq, *os, *oc = Py_None, *oh = Py_None, *omesh = Py_None, *k = NULL;
    int logs = 0, wxyz = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OOO$Opp:trs", kwl, &op, &oq, &os, &oc, &oh,
                                     &omesh, &k, &logs, &wxyz))
        return NULL;
    arg_t ps[2] = {{.name = "position"}, {.name = "scale"}};
    arg_t loc[2] = {{.name = "local_center"}, {.name = "local_half"}};
    PyArrayObject *q = NULL, *mesh = NULL;
    BatchObject *bo = NULL;
    int has_local = oc != Py_None || oh != Py_None, conv_q = 0, conv_ps = 0, conv_l = 0, mesh_conv = 0;
    npy_intp n, nq, qs, nloc = 0;
    unsigned fmt = 0;
    float kf;
    if (splat_k(k, &kf) < 0)
        goto fail;
    if (has_local && (oc == Py_None || oh == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "local_center, local_half: give both or neither");
        goto fail;
    }
    if (!has_local && omesh != Py_None) {
        PyErr_SetString(PyExc_TypeError, "mesh: mesh ids need local_center and local_half");
        goto fail;
    }
    if (satc_py_take(op, &ps[0], 1, V3, 1, 0) < 0 || satc_py_take(os, &ps[1], 1, V3, 1, 0) < 0 ||
        !(q = take_quat(oq, &fmt, &conv_q, &nq, &qs)))
        goto fail;
    if (satc_py_arg_rows(&ps[0]) < 0 && satc_py_arg_rows(&ps[1]) < 0 && nq >= 0) {
        n = nq;
    } else {
        if ((n = satc_py_common_rows(ps, 2)) < 0)
            goto fail;
        if (nq >= 0 && nq != n) {
            PyErr_Format(PyExc_ValueError, "rotation: %ld volumes, but position and scale have %ld",
                         (long)nq, (long)n);
            goto fail;
        }
    }
    if (!ps[0].in_place || !ps[1].in_place) {
        conv_ps = 1;
        if (satc_py_convert_all(ps, 2, CONV_NEAREST, -1) < 0)
            goto fail;
    }
    if (has_local) {
        if (satc_py_take(oc, &loc[0], 1, V3, 1, 0) < 0 || satc_py_take(oh, &loc[1], 1, V3, 1, 0) < 0)
            goto fail;
        if (satc_py_local_boxes(loc, omesh, n, "volumes", &mesh, &nloc, &conv_l, &mesh_conv) < 0)
            goto fail;
    }
    if (!(bo = satc_py_batch_new("trs")))
        goto fail;
    bo->b.form = SATC_FORM_TRS;
    satc_trs *t = &bo->b.trs;
    t->position = satc_py_vec3_of(&ps[0], 0);
    t->scale = satc_py_vec3_of(&ps[1], 0);
    t->rotation = PyArray_DATA(q);
    t->rotation_stride = (size_t)qs;
    t->format = fmt | (wxyz ? SATC_QUAT_WXYZ : 0u) | (logs ? SATC_TRS_LOG_SCALE : 0u);
    t->k = kf;
    if (has_local) {
        bo->local.center = satc_py_vec3_of(&loc[0], 0);
        bo->local.half = satc_py_vec3_of(&loc[1], 0);
        if (mesh) {
            bo->local.mesh = PyArray_DATA(mesh);
            bo->local.mesh_stride = n > 1 ? (size_t)PyArray_STRIDE(mesh, 0) : 4;
            bo->local.mesh_count = (size_t)nloc;
        }
        t->local = &bo->local;
    }
    bo->count = n;
    const char *names[6];
    int nn = 0;
    if (conv_ps)
        names[nn++] = "position", names[nn++] = "scale";
    if (conv_q)
        names[nn++] = "rotation";
    if (conv_l)
        names[nn++] = "local_center", names[nn++] = "local_half";
    if (mesh_conv)
        names[nn++] = "mesh";
    if (satc_py_keep_names(bo, names, nn) < 0 || satc_py_keep_arg(bo, &ps[0]) < 0 || satc_py_keep_arg(bo, &ps[1]) < 0 ||
        PyList_Append(bo->arrays, (PyObject *)q) < 0 ||
        (has_local && (satc_py_keep_arg(bo, &loc[0]) < 0 || satc_py_keep_arg(bo, &loc[1]) < 0)) ||
        (mesh && PyList_Append(bo->arrays, (PyObject *)mesh) < 0))
        goto fail;
    Py_XDECREF(q);
    Py_XDECREF(mesh);
    for (int j = 0; j < 2; j++)
        satc_py_arg_clear(&ps[j]), satc_py_arg_clear(&loc[j]);
    return (PyObject *)bo;
fail:
    Py_XDECREF(bo);
    Py_XDECREF(q);
    Py_XDECREF(mesh);
    for (int j = 0; j < 2; j++)
        satc_py_arg_clear(&ps[j]), satc_py_arg_clear(&loc[j]);
    return NULL;
}

PyObject *satc_py_splats(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"records", "k", NULL};
    PyObject *orec, *k = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:splats", kwl, &orec, &k))
        return NULL;
    float kf;
    if (splat_k(k, &kf) < 0)
        return NULL;
    if (!PyArray_Check(orec)) {
        PyErr_SetString(PyExc_TypeError,
                        "records: expected a numpy array of 32-byte records (a 32-byte dtype, or "
                        "uint8 of shape (N, 32))");
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)orec;
    int nd = PyArray_NDIM(a);
    npy_intp n, rs;
    if (nd == 1 && PyArray_DESCR(a)->elsize == 32 && PyArray_DESCR(a)->kind == 'V') {
        n = PyArray_DIM(a, 0);
    } else if (nd == 2 && PyArray_TYPE(a) == NPY_UINT8 && PyArray_DIM(a, 1) == 32) {
        n = PyArray_DIM(a, 0);
        if (n > 0 && PyArray_STRIDE(a, 1) != 1)
            goto copy;
    } else {
        char got[64];
        PyObject *s = PyObject_Str((PyObject *)PyArray_DESCR(a));
        PyErr_Format(PyExc_TypeError,
                     "records: expected a 1-D array of a 32-byte record dtype or uint8 of shape "
                     "(N, 32), got dtype %s, shape %s",
                     s ? PyUnicode_AsUTF8(s) : "?", satc_py_shape_text(a, got, sizeof got));
        Py_XDECREF(s);
        return NULL;
    }
    rs = n > 1 ? PyArray_STRIDE(a, 0) : 32;
    int conv = 0;
    if (!(rs >= 32 && satc_py_aligned4(PyArray_DATA(a), rs))) {
    copy:;
        /* not readable in place: one aligned copy of the bytes */
        npy_intp dims[2] = {PyArray_DIM(a, 0), 32};
        PyArrayObject *c = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT8);
        if (!c)
            return NULL;
        for (npy_intp i = 0; i < dims[0]; i++) {
            const char *src = (const char *)PyArray_DATA(a) + i * PyArray_STRIDE(a, 0);
            char *dst = (char *)PyArray_DATA(c) + 32 * i;
            if (nd == 2)
                for (int b = 0; b < 32; b++)
                    dst[b] = src[b * PyArray_STRIDE(a, 1)];
            else
                memcpy(dst, src, 32);
        }
        a = c;
        n = dims[0];
        rs = 32;
        conv = 1;
    } else {
        Py_INCREF(a);
    }
    BatchObject *bo = satc_py_batch_new("trs");
    if (!bo) {
        Py_DECREF(a);
        return NULL;
    }
    const float *rec = PyArray_DATA(a);
    bo->b.form = SATC_FORM_TRS;
    bo->b.trs.position = SATC_VEC3S_AOS(rec, (size_t)(n > 1 ? rs : 0));
    bo->b.trs.scale = SATC_VEC3S_AOS(rec + 3, (size_t)(n > 1 ? rs : 0));
    bo->b.trs.rotation = (const char *)rec + 28;
    bo->b.trs.rotation_stride = (size_t)(n > 1 ? rs : 0);
    bo->b.trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
    bo->b.trs.k = kf;
    bo->count = n;
    const char *names[1] = {"records"};
    int rc = satc_py_keep_names(bo, names, conv) < 0 || PyList_Append(bo->arrays, (PyObject *)a) < 0;
    Py_DECREF(a);
    if (rc) {
        Py_DECREF(bo);
        return NULL;
    }
    return (PyObject *)bo;
}
