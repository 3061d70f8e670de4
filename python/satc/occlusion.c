/* Occlusion measures: each volume's visibility share in a pyramid, and
 * the C library's own time of an occlusion cull, for the benchmark. */
#include "_satc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHUNK = 4096, MAX_SPAN = 32 };

/* The share of the texels over box (c, h)'s screen rectangle whose depth
 * reaches its nearest point: 1 when it reaches the near plane. */
static float share(const satc_pyramid *p, const float c[3], const float h[3])
{
    const satc_frustum *f = &p->view;
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    double d[3], mag = 0;
    for (int k = 0; k < 3; k++) {
        d[k] = (double)c[k] - (double)f->origin[k];
        mag += fabs(d[k]) + (double)h[k];
    }
    if (!isfinite(mag))
        return 1.0f;
    double zmin = INFINITY, amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    int persp = f->kind == SATC_FRUSTUM_PERSPECTIVE;
    double zs[8], as[8], bs[8];
    for (int s = 0; s < 8; s++) {
        double q[3];
        for (int k = 0; k < 3; k++)
            q[k] = d[k] + ((s >> k) & 1 ? (double)h[k] : -(double)h[k]);
        zs[s] = D[0] * q[0] + D[1] * q[1] + D[2] * q[2];
        as[s] = L[0] * q[0] + L[1] * q[1] + L[2] * q[2];
        bs[s] = U[0] * q[0] + U[1] * q[1] + U[2] * q[2];
        zmin = zs[s] < zmin ? zs[s] : zmin;
    }
    /* the sums' rounding is below 2^-50 of mag: a far wider margin */
    zmin -= mag * 0x1p-40;
    if (!(zmin > f->n))
        return 1.0f;
    for (int s = 0; s < 8; s++) {
        double a = persp ? as[s] / zs[s] : as[s], b = persp ? bs[s] / zs[s] : bs[s];
        amin = a < amin ? a : amin;
        amax = a > amax ? a : amax;
        bmin = b < bmin ? b : bmin;
        bmax = b > bmax ? b : bmax;
    }
    double x0 = f->x0, x1 = f->x1, y0 = f->y0, y1 = f->y1;
    double ea = 0x1p-30 * (fabs(amin) + fabs(amax) + (x1 - x0));
    double eb = 0x1p-30 * (fabs(bmin) + fabs(bmax) + (y1 - y0));
    double tw = (x1 - x0) / p->width, th = (y1 - y0) / p->height;
    double fi0 = floor((x1 - (amax + ea)) / tw), fi1 = floor((x1 - (amin - ea)) / tw);
    double fj0 = floor(((bmin - eb) - y0) / th), fj1 = floor(((bmax + eb) - y0) / th);
    fi0 = fi0 < 0 ? 0 : fi0;
    fj0 = fj0 < 0 ? 0 : fj0;
    fi1 = fi1 > p->width - 1 ? p->width - 1 : fi1;
    fj1 = fj1 > p->height - 1 ? p->height - 1 : fj1;
    if (!(fi0 <= fi1 && fj0 <= fj1))
        return 1.0f;
    uint32_t i0 = (uint32_t)fi0, i1 = (uint32_t)fi1, j0 = (uint32_t)fj0, j1 = (uint32_t)fj1;
    uint32_t k = 0;
    while (k + 1 < p->levels && ((i1 >> k) - (i0 >> k) >= MAX_SPAN || (j1 >> k) - (j0 >> k) >= MAX_SPAN))
        k++;
    const float *t = p->depth + p->level_off[k];
    uint32_t lw = p->level_w[k], n = 0, tot = 0;
    float z = (float)zmin;
    if ((double)z > zmin)
        z = nextafterf(z, -INFINITY);
    for (uint32_t j = j0 >> k; j <= j1 >> k; j++)
        for (uint32_t i = i0 >> k; i <= i1 >> k; i++, tot++)
            n += !(t[(size_t)j * lw + i] < z);
    return (float)n / (float)tot;
}

PyObject *satc_py_visibility(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"pyramid", "batch", "mode", "first", "count", NULL};
    PyObject *op, *ob, *omode = NULL, *ofirst = NULL, *ocount = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OO:visibility", kwl, &op, &ob, &omode, &ofirst,
                                     &ocount))
        return NULL;
    if (!PyObject_TypeCheck(op, &satc_py_PyramidType)) {
        PyErr_Format(PyExc_TypeError, "pyramid: expected a satc.Pyramid, got %s", Py_TYPE(op)->tp_name);
        return NULL;
    }
    const satc_pyramid *p = &((PyramidObject *)op)->p;
    BatchObject *bo = satc_py_as_batch(ob);
    satc_mode mode = SATC_EXACT;
    size_t fst, cnt;
    if (!bo || satc_py_span_args(bo, omode, &mode, NULL, NULL, NULL, &(unsigned){0}, ofirst, ocount,
                                 &fst, &cnt) < 0)
        return NULL;
    npy_intp n = (npy_intp)cnt;
    PyObject *res = PyArray_SimpleNew(1, &n, NPY_FLOAT32);
    uint8_t *cls = malloc(cnt ? cnt : 1);
    float *box = malloc(CHUNK * 6 * sizeof *box);
    if (!res || !cls || !box) {
        Py_XDECREF(res);
        free(cls);
        free(box);
        return PyErr_NoMemory();
    }
    float *out = PyArray_DATA((PyArrayObject *)res);
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    satc_results r = {.classes = cls};
    if (st == SATC_OK)
        st = satc_cull_occluded(p, call.b, fst, cnt, mode, &r, NULL, NULL);
    satc_py_call_end(&call);
    for (size_t k0 = 0; st == SATC_OK && k0 < cnt; k0 += CHUNK) {
        size_t m = cnt - k0 < CHUNK ? cnt - k0 : CHUNK;
        st = satc_to_aabbs(&bo->b, fst + k0, m, box, box + 3 * CHUNK);
        for (size_t i = 0; st == SATC_OK && i < m; i++) {
            uint8_t c = cls[k0 + i];
            out[k0 + i] = c == SATC_INTERSECTING || c == SATC_INSIDE
                              ? share(p, box + 3 * i, box + 3 * CHUNK + 3 * i)
                              : 0.0f;
        }
    }
    Py_END_ALLOW_THREADS
    free(cls);
    free(box);
    if (st != SATC_OK) {
        Py_DECREF(res);
        return satc_py_call_error(st, nomem, "visibility");
    }
    return res;
}

/* The calling thread's CPU time, as the benchmark times the Python side. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

PyObject *satc_py_time_c_occlusion(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"pyramid", "depth", "batch", "reps", NULL};
    PyObject *op, *od, *ob, *oreps;
    Py_ssize_t reps;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:_time_c_occlusion", kwl, &op, &od, &ob, &oreps) ||
        satc_py_index_arg(oreps, "reps", &reps) < 0)
        return NULL;
    if (!PyObject_TypeCheck(op, &satc_py_PyramidType) || !PyArray_Check(od) ||
        PyArray_TYPE((PyArrayObject *)od) != NPY_FLOAT32 || !PyArray_ISCARRAY_RO((PyArrayObject *)od) ||
        PyArray_NDIM((PyArrayObject *)od) != 2 || reps < 1) {
        PyErr_SetString(PyExc_ValueError, "a Pyramid, a C-ordered 2-D float32 linear depth image, reps >= 1");
        return NULL;
    }
    satc_pyramid *p = &((PyramidObject *)op)->p;
    BatchObject *bo = satc_py_as_batch(ob);
    if (!bo)
        return NULL;
    PyArrayObject *d = (PyArrayObject *)od;
    satc_depth_image img = {.data = PyArray_DATA(d), .width = (uint32_t)PyArray_DIM(d, 1),
                            .height = (uint32_t)PyArray_DIM(d, 0), .row_bytes = (size_t)PyArray_STRIDE(d, 0),
                            .format = SATC_DEPTH_FORMAT_LINEAR, .conventions = SATC_IMAGE_TOP_DOWN};
    size_t n = (size_t)bo->count;
    void *bits = malloc(n / 8 + 1);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!bits || !t) {
        free(bits);
        free(t);
        return PyErr_NoMemory();
    }
    satc_results r = {.bitmask = bits};
    satc_status st = SATC_OK;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < reps && st == SATC_OK; k++) {
        double t0 = now_ns();
        st = satc_pyramid_fill(p, &img);
        if (st == SATC_OK)
            st = satc_cull_occluded(p, &bo->b, 0, n, SATC_EXACT, &r, NULL, NULL);
        t[k] = now_ns() - t0;
    }
    Py_END_ALLOW_THREADS
    free(bits);
    if (st != SATC_OK) {
        free(t);
        return satc_py_status_error(st, "_time_c_occlusion");
    }
    PyObject *l = PyList_New(reps);
    for (Py_ssize_t k = 0; l && k < reps; k++)
        PyList_SET_ITEM(l, k, PyFloat_FromDouble(t[k]));
    free(t);
    return l;
}
