/* satc.Pyramid.fill: a numpy depth image (linear, window or NDC depth,
 * every convention, holes never hiding anything) into the pyramid. */
#include "_satc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float f_up(double x)
{
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}

static float f_down(double x)
{
    float f = (float)x;
    return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

enum kind { K_LINEAR, K_WINDOW, K_NDC };

/* The image as the caller gave it, and how its pixels are read. */
typedef struct {
    const char *data;
    npy_intp rs, cs, h, w;
    int type, kind, rev, z01, ints, has_hole;
    double scale, hole;
} src_t;

static double px(const src_t *s, npy_intp j, npy_intp i)
{
    const char *p = s->data + j * s->rs + i * s->cs;
    switch (s->type) {
    case NPY_FLOAT32: return *(const float *)p;
    case NPY_FLOAT64: return *(const double *)p;
    case NPY_UINT16: return *(const uint16_t *)p;
    default: return *(const uint32_t *)p;
    }
}

static int is_hole(const src_t *s, double v)
{
    if (isnan(v) || (s->has_hole && v == s->hole))
        return 1;
    return s->kind == K_LINEAR && !(v > 0);
}

/* Any hole? (the in-place path only: float32 or the unorm types) */
static int any_hole(const src_t *s)
{
    if (s->type == NPY_FLOAT32) {
        float hole = (float)s->hole;
        int lin = s->kind == K_LINEAR, hh = s->has_hole;
        for (npy_intp j = 0; j < s->h; j++) {
            const float *r = (const float *)(s->data + j * s->rs);
            for (npy_intp i = 0; i < s->w; i++) {
                float v = r[i];
                if (v != v || (hh && v == hole) || (lin && !(v > 0)))
                    return 1;
            }
        }
        return 0;
    }
    if (!s->has_hole)
        return 0;
    for (npy_intp j = 0; j < s->h; j++)
        for (npy_intp i = 0; i < s->w; i++)
            if (px(s, j, i) == s->hole)
                return 1;
    return 0;
}

/* One pixel in the fill's format: holes become what means nothing drawn;
 * values round toward the far end. */
static void convert(const src_t *s, int fmt, void *out)
{
    for (npy_intp j = 0; j < s->h; j++)
        for (npy_intp i = 0; i < s->w; i++) {
            double v = px(s, j, i);
            size_t k = (size_t)(j * s->w + i);
            int hole = is_hole(s, v);
            if (fmt == SATC_DEPTH_FORMAT_UNORM16) {
                ((uint16_t *)out)[k] = hole ? (s->rev ? 0 : 65535) : (uint16_t)v;
            } else if (fmt == SATC_DEPTH_FORMAT_UNORM32) {
                ((uint32_t *)out)[k] = hole ? (s->rev ? 0 : UINT32_MAX) : (uint32_t)v;
            } else if (s->kind == K_LINEAR) {
                double d = s->ints ? (v + 1) * s->scale : v * s->scale;
                ((float *)out)[k] = hole ? INFINITY : f_up(d);
            } else {
                float far_end = !s->rev ? 1.0f : (s->kind == K_NDC && !s->z01) ? -1.0f : 0.0f;
                ((float *)out)[k] = hole ? far_end : s->rev ? f_down(v) : f_up(v);
            }
        }
}

static int kind_arg(PyObject *o, int *k)
{
    const char *s = o && PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s && !strcmp(s, "linear"))
        *k = K_LINEAR;
    else if (s && !strcmp(s, "window"))
        *k = K_WINDOW;
    else if (s && !strcmp(s, "ndc"))
        *k = K_NDC;
    else {
        PyErr_SetString(s ? PyExc_ValueError : PyExc_TypeError,
                        "kind: expected 'linear', 'window' or 'ndc'");
        return -1;
    }
    return 0;
}

/* The fill's pixel format for this kind and dtype, -1 (TypeError) when none. */
static int format_of(int kind, int type, int *ints)
{
    *ints = type == NPY_UINT16 || type == NPY_UINT32;
    int fl = type == NPY_FLOAT32 || type == NPY_FLOAT64;
    if (kind == K_LINEAR && (fl || *ints))
        return SATC_DEPTH_FORMAT_LINEAR;
    if (kind == K_WINDOW && type == NPY_UINT16)
        return SATC_DEPTH_FORMAT_UNORM16;
    if (kind == K_WINDOW && type == NPY_UINT32)
        return SATC_DEPTH_FORMAT_UNORM32;
    if (fl)
        return kind == K_WINDOW ? SATC_DEPTH_FORMAT_FLOAT : SATC_DEPTH_FORMAT_FLOAT_NDC;
    return -1;
}

PyObject *satc_py_pyramid_fill(PyramidObject *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = {"depth", "kind", "near", "far", "zero_to_one", "reversed", "infinite_far",
                          "top_down", "scale", "hole", "projection", NULL};
    PyObject *od, *okind = NULL, *onear = Py_None, *ofar = Py_None, *oscale = Py_None, *ohole = Py_None;
    PyObject *oproj = Py_None;
    int z01 = 0, rev = 0, inf = 0, top = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$OOppppOOO:fill", kwl, &od, &okind, &onear, &ofar,
                                     &z01, &rev, &inf, &top, &oscale, &ohole, &oproj))
        return NULL;
    src_t s = {.rev = rev, .z01 = z01, .scale = 1.0};
    if (okind && kind_arg(okind, &s.kind) < 0)
        return NULL;
    float proj[16];
    int has_proj = oproj != Py_None;
    if (has_proj) {
        if (s.kind == K_LINEAR) {
            PyErr_SetString(PyExc_TypeError, "projection: linear depth needs none (kind 'window' or 'ndc')");
            return NULL;
        }
        if (onear != Py_None || ofar != Py_None || inf) {
            PyErr_SetString(PyExc_TypeError,
                            "projection: it replaces near, far and infinite_far; give one or the other");
            return NULL;
        }
        if (satc_py_matrix4_arg(oproj, "projection", proj) < 0)
            return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(od);
    if (!a) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "depth: expected a 2-D numpy array");
        return NULL;
    }
    PyObject *res = NULL;
    void *copy = NULL;
    s.type = PyArray_TYPE(a);
    int fmt = PyArray_ISNOTSWAPPED(a) ? format_of(s.kind, s.type, &s.ints) : -1;
    if (fmt < 0) {
        PyObject *d = PyObject_Str((PyObject *)PyArray_DESCR(a));
        PyErr_Format(PyExc_TypeError,
                     "depth: kind '%s' takes %s in native byte order, got dtype %s",
                     s.kind == K_LINEAR ? "linear" : s.kind == K_WINDOW ? "window" : "ndc",
                     s.kind == K_LINEAR   ? "float32/64 or uint16/uint32 (integers times scale)"
                     : s.kind == K_WINDOW ? "float32/64, uint16 or uint32 (unorm)"
                                          : "float32/64",
                     d ? PyUnicode_AsUTF8(d) : "?");
        Py_XDECREF(d);
        goto done;
    }
    if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 0) < 1 || PyArray_DIM(a, 1) < 1 ||
        PyArray_DIM(a, 0) > 65536 || PyArray_DIM(a, 1) > 65536) {
        PyErr_SetString(PyExc_ValueError,
                        "depth: expected a 2-D image (rows, columns) of 1..65536 pixels each");
        goto done;
    }
    double near = 0, far = 0, scale = s.ints ? 0.001 : 1.0;
    if (s.kind != K_LINEAR && !has_proj) {
        if (onear == Py_None || (ofar == Py_None && !inf)) {
            PyErr_Format(PyExc_TypeError, "%s: kind '%s' needs the projection's near and far",
                         onear == Py_None ? "near" : "far", s.kind == K_WINDOW ? "window" : "ndc");
            goto done;
        }
        if (satc_py_num_arg(onear, "near", &near) < 0 ||
            (ofar != Py_None && satc_py_num_arg(ofar, "far", &far) < 0))
            goto done;
    } else if (oscale != Py_None) {
        if (satc_py_num_arg(oscale, "scale", &scale) < 0)
            goto done;
        if (!(scale > 0) || !isfinite(scale)) {
            PyErr_SetString(PyExc_ValueError, "scale: must be finite and > 0 (world units per unit)");
            goto done;
        }
    }
    if (oscale != Py_None && s.kind != K_LINEAR) {
        PyErr_SetString(PyExc_TypeError, "scale: only linear depth takes a scale");
        goto done;
    }
    s.scale = scale;
    if (ohole != Py_None) {
        if (satc_py_num_arg(ohole, "hole", &s.hole) < 0)
            goto done;
        s.has_hole = 1;
    }
    s.data = PyArray_DATA(a);
    s.h = PyArray_DIM(a, 0);
    s.w = PyArray_DIM(a, 1);
    s.rs = PyArray_STRIDE(a, 0);
    s.cs = PyArray_STRIDE(a, 1);
    size_t es = fmt == SATC_DEPTH_FORMAT_UNORM16 ? 2 : 4;
    npy_intp rs = s.h > 1 ? s.rs : (npy_intp)(s.w * (npy_intp)es);
    int same = (fmt == SATC_DEPTH_FORMAT_UNORM16 || fmt == SATC_DEPTH_FORMAT_UNORM32 ||
                s.type == NPY_FLOAT32) && !(s.kind == K_LINEAR && (s.ints || scale != 1.0));
    int in_place = same && (s.w == 1 || s.cs == (npy_intp)es) && rs % (npy_intp)es == 0 &&
                   (rs < 0 ? -rs : rs) >= s.w * (npy_intp)es && (uintptr_t)s.data % es == 0;
    satc_depth_image img = {.width = (uint32_t)s.w, .height = (uint32_t)s.h, .format = (satc_depth_format)fmt,
                            .near_z = (float)near, .far_z = (float)far};
    unsigned conv = (z01 ? SATC_DEPTH_ZERO_TO_ONE : SATC_DEPTH_NEG_ONE_TO_ONE) |
                    (rev ? SATC_DEPTH_REVERSED : 0u) | (inf ? SATC_DEPTH_INFINITE_FAR : 0u);
    satc_status st = SATC_OK;
    int nomem = 0;
    Py_BEGIN_ALLOW_THREADS
    if (in_place && !any_hole(&s)) {
        /* rows upward in memory: start at the last row, the other row order */
        int flip = rs < 0;
        img.data = flip ? s.data + (s.h - 1) * rs : s.data;
        img.row_bytes = (size_t)(flip ? -rs : rs);
        img.conventions = conv | ((top ^ flip) ? SATC_IMAGE_TOP_DOWN : 0u);
    } else {
        copy = malloc((size_t)(s.h * s.w) * es);
        if (copy) {
            convert(&s, fmt, copy);
            img.data = copy;
            img.row_bytes = (size_t)s.w * es;
            img.conventions = conv | (top ? SATC_IMAGE_TOP_DOWN : 0u);
        } else {
            nomem = 1;
        }
    }
    if (!nomem)
        st = has_proj ? satc_pyramid_fill_matrix(&self->p, &img, proj, SATC_MATRIX_ROW_MAJOR)
                      : satc_pyramid_fill(&self->p, &img);
    Py_END_ALLOW_THREADS
    if (nomem) {
        PyErr_NoMemory();
        goto done;
    }
    if (st != SATC_OK) {
        const char *what = has_proj && (st == SATC_ERR_NEAR || st == SATC_ERR_MATRIX)
                               ? "fill: projection"
                           : st == SATC_ERR_NEAR  ? "fill: near"
                           : st == SATC_ERR_FAR ? "fill: far"
                           : st == SATC_ERR_NONFINITE ? "fill: near, far"
                           : st == SATC_ERR_FLAGS ? "fill: infinite_far (an orthographic view has a far plane)"
                                                   : "fill: depth";
        satc_py_status_error(st, what);
        goto done;
    }
    satc_py_pyramid_reset_coverage(self);
    Py_INCREF(self);
    res = (PyObject *)self;
done:
    free(copy);
    Py_DECREF(a);
    return res;
}

