/* The satc extension module: frusta, errors, the module table. */
#define SATC_PY_MODULE
#include "_satc.h"

#include <math.h>
#include <string.h>

static PyObject *frustum_wrap(const satc_frustum *f)
{
    FrustumObject *o = PyObject_New(FrustumObject, &satc_py_FrustumType);
    if (o)
        o->f = *f;
    return (PyObject *)o;
}

/* Which argument a frustum status names. */
static PyObject *frustum_error(satc_status st, const char *fn, const char *frame, const char *bounds)
{
    const char *what = fn;
    char buf[128];
    switch (st) {
    case SATC_ERR_NEAR: what = "near"; break;
    case SATC_ERR_FAR: what = "far"; break;
    case SATC_ERR_FRAME: what = frame; break;
    case SATC_ERR_BOUNDS: what = bounds; break;
    default: break;
    }
    snprintf(buf, sizeof buf, "%s: %s", fn, what);
    return satc_py_status_error(st, buf);
}

static PyObject *py_perspective(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"eye", "dir", "up", "fovy", "aspect", "near", "far", NULL};
    PyObject *oe, *od, *ou, *ofov, *oasp, *on, *of = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOO|O:perspective", kwl, &oe, &od, &ou, &ofov,
                                     &oasp, &on, &of))
        return NULL;
    float e[3], d[3], u[3];
    double fovy, aspect, n, f = INFINITY;
    if (satc_py_vec3_arg(oe, "eye", e, NULL) < 0 || satc_py_vec3_arg(od, "dir", d, NULL) < 0 ||
        satc_py_vec3_arg(ou, "up", u, NULL) < 0 || satc_py_finite_arg(ofov, "fovy", &fovy, 0) < 0 ||
        satc_py_finite_arg(oasp, "aspect", &aspect, 0) < 0 || satc_py_finite_arg(on, "near", &n, 0) < 0 ||
        (of && satc_py_finite_arg(of, "far", &f, 1) < 0))
        return NULL;
    satc_frustum out;
    satc_status st = satc_frustum_perspective(&out, e, d, u, (float)fovy, (float)aspect, (float)n,
                                              (float)f);
    if (st != SATC_OK)
        return frustum_error(st, "perspective", "dir, up (unit and orthogonal)", "fovy, aspect, near");
    return frustum_wrap(&out);
}

/* Is every value exactly a float? */
static int exact_floats(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if ((double)(float)v[k] != v[k])
            return 0;
    return 1;
}

static PyObject *py_camera(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"origin", "left", "up", "dir", "bounds", "near", "far",
                          "orthographic", "batch_origin", NULL};
    PyObject *oo, *ol, *ou, *od, *ob, *on, *of = NULL, *obo = Py_None;
    int ortho = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOO|O$pO:camera", kwl, &oo, &ol, &ou, &od, &ob,
                                     &on, &of, &ortho, &obo))
        return NULL;
    satc_camera_d cam;
    memset(&cam, 0, sizeof cam);
    float of3[3];
    double bo[3] = {0, 0, 0}, n, f = INFINITY, b[4];
    if (satc_py_vec3_arg(oo, "origin", of3, cam.origin) < 0 ||
        satc_py_vec3_arg(ol, "left", cam.left, NULL) < 0 ||
        satc_py_vec3_arg(ou, "up", cam.up, NULL) < 0 || satc_py_vec3_arg(od, "dir", cam.dir, NULL) < 0 ||
        satc_py_finite_arg(on, "near", &n, 0) < 0 || (of && satc_py_finite_arg(of, "far", &f, 1) < 0))
        return NULL;
    if (obo != Py_None && satc_py_vec3_arg(obo, "batch_origin", of3, bo) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(ob, "bounds: expected (l0, l1, u0, u1)");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "bounds: expected 4 numbers (l0, l1, u0, u1)");
        return NULL;
    }
    static const char *bn[4] = {"bounds[0] (l0)", "bounds[1] (l1)", "bounds[2] (u0)", "bounds[3] (u1)"};
    for (int k = 0; k < 4; k++)
        if (satc_py_finite_arg(PySequence_Fast_GET_ITEM(seq, k), bn[k], &b[k], 0) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    cam.l0 = (float)b[0];
    cam.l1 = (float)b[1];
    cam.u0 = (float)b[2];
    cam.u1 = (float)b[3];
    cam.n = (float)n;
    cam.f = (float)f;
    cam.orthographic = ortho;
    satc_frustum out;
    satc_status st;
    if (obo == Py_None && exact_floats(cam.origin, 3)) {
        satc_camera c;
        for (int k = 0; k < 3; k++)
            c.origin[k] = (float)cam.origin[k];
        memcpy(c.left, cam.left, sizeof c.left);
        memcpy(c.up, cam.up, sizeof c.up);
        memcpy(c.dir, cam.dir, sizeof c.dir);
        c.l0 = cam.l0, c.l1 = cam.l1, c.u0 = cam.u0, c.u1 = cam.u1, c.n = cam.n, c.f = cam.f;
        c.orthographic = ortho;
        st = satc_frustum_from_camera(&out, &c);
    } else {
        st = satc_frustum_from_camera_d(&out, &cam, bo);
    }
    if (st != SATC_OK)
        return frustum_error(st, "camera", "left, up, dir (right-handed orthonormal)",
                             st == SATC_ERR_BOUNDS && obo != Py_None ? "bounds or batch_origin" : "bounds");
    return frustum_wrap(&out);
}

static PyObject *py_from_matrix(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"m", "zero_to_one", "reversed", "infinite_far", NULL};
    PyObject *om;
    int z01 = 0, rev = 0, inf = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$ppp:from_matrix", kwl, &om, &z01, &rev, &inf))
        return NULL;
    float m[16];
    if (satc_py_matrix4_arg(om, "m", m) < 0)
        return NULL;
    unsigned conv = SATC_MATRIX_ROW_MAJOR | (z01 ? SATC_DEPTH_ZERO_TO_ONE : 0) |
                    (rev ? SATC_DEPTH_REVERSED : 0) | (inf ? SATC_DEPTH_INFINITE_FAR : 0);
    satc_frustum out;
    satc_status st = satc_frustum_from_matrix(&out, m, conv);
    if (st != SATC_OK)
        return satc_py_status_error(st, "from_matrix: m");
    return frustum_wrap(&out);
}

static PyObject *py_from_planes(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"planes", "margin", NULL};
    PyObject *op, *omargin = NULL;
    double margin = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:from_planes", kwl, &op, &omargin))
        return NULL;
    if (omargin && satc_py_num_arg(omargin, "margin", &margin) < 0)
        return NULL;
    PyArrayObject *a =
        (PyArrayObject *)PyArray_FROMANY(op, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    if (!a) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "planes: expected a (K, 4) array of numbers");
        return NULL;
    }
    npy_intp k = PyArray_DIM(a, 0);
    if (PyArray_DIM(a, 1) != 4 || k < 1 || k > SATC_MAX_PLANES) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "planes: expected shape (K, 4) with 1 <= K <= %d",
                     SATC_MAX_PLANES);
        return NULL;
    }
    float p[SATC_MAX_PLANES][4];
    const double *v = PyArray_DATA(a);
    for (npy_intp i = 0; i < 4 * k; i++) {
        p[i / 4][i % 4] = (float)v[i];
        if (!isfinite(p[i / 4][i % 4])) {
            Py_DECREF(a);
            PyErr_Format(PyExc_ValueError, "planes: plane %ld is not finite", (long)(i / 4));
            return NULL;
        }
    }
    Py_DECREF(a);
    if (!isfinite(margin) || margin < 0) {
        PyErr_SetString(PyExc_ValueError, "margin: must be finite and >= 0");
        return NULL;
    }
    satc_frustum out;
    satc_status st = satc_frustum_from_planes(&out, (const float(*)[4])p, (size_t)k, (float)margin);
    if (st != SATC_OK)
        return satc_py_status_error(st, "from_planes: planes");
    return frustum_wrap(&out);
}

static PyObject *py_box_frustum(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "half", "axes", NULL};
    PyObject *oc, *oh, *oa = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:box_frustum", kwl, &oc, &oh, &oa))
        return NULL;
    satc_obb box;
    if (satc_py_vec3_arg(oc, "center", box.center, NULL) < 0 ||
        satc_py_vec3_arg(oh, "half", box.extent, NULL) < 0)
        return NULL;
    static const float I[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    memcpy(box.axis, I, sizeof I);
    if (oa != Py_None) {
        PyObject *seq = PySequence_Fast(oa, "axes: expected a 3x3 array (rows are the axes)");
        if (!seq)
            return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != 3) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "axes: expected shape (3, 3)");
            return NULL;
        }
        for (int j = 0; j < 3; j++)
            if (satc_py_vec3_arg(PySequence_Fast_GET_ITEM(seq, j), "axes", box.axis[j], NULL) < 0) {
                Py_DECREF(seq);
                return NULL;
            }
        Py_DECREF(seq);
    }
    satc_frustum out;
    satc_status st = satc_frustum_from_box(&out, &box);
    if (st != SATC_OK)
        return satc_py_status_error(st, st == SATC_ERR_FRAME ? "box_frustum: axes" : "box_frustum: half");
    return frustum_wrap(&out);
}

static PyObject *py_segment_frustum(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"p0", "p1", NULL};
    PyObject *o0, *o1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:segment_frustum", kwl, &o0, &o1))
        return NULL;
    float p0[3], p1[3];
    if (satc_py_vec3_arg(o0, "p0", p0, NULL) < 0 || satc_py_vec3_arg(o1, "p1", p1, NULL) < 0)
        return NULL;
    satc_frustum out;
    satc_status st = satc_frustum_from_segment(&out, p0, p1);
    if (st != SATC_OK)
        return satc_py_status_error(st, "segment_frustum: p0, p1");
    return frustum_wrap(&out);
}

/* ---- Frustum type ---- */

static PyObject *vec_list(const float *v, int n)
{
    PyObject *l = PyTuple_New(n);
    for (int k = 0; l && k < n; k++)
        PyTuple_SET_ITEM(l, k, PyFloat_FromDouble(v[k]));
    return l;
}

static PyObject *fr_kind(FrustumObject *o, void *c)
{
    (void)c;
    const char *k = o->f.kind == SATC_FRUSTUM_PERSPECTIVE    ? "perspective"
                    : o->f.kind == SATC_FRUSTUM_ORTHOGRAPHIC ? "orthographic"
                                                             : "planes";
    return PyUnicode_FromString(k);
}
static PyObject *fr_origin(FrustumObject *o, void *c)
{
    (void)c;
    return vec_list(o->f.origin, 3);
}
static PyObject *fr_frame(FrustumObject *o, void *c)
{
    (void)c;
    return Py_BuildValue("(NNN)", vec_list(o->f.frame[0], 3), vec_list(o->f.frame[1], 3),
                         vec_list(o->f.frame[2], 3));
}
static PyObject *fr_near(FrustumObject *o, void *c)
{
    (void)c;
    return PyFloat_FromDouble(o->f.n);
}
static PyObject *fr_far(FrustumObject *o, void *c)
{
    (void)c;
    return PyFloat_FromDouble(o->f.f);
}
static PyObject *fr_bounds(FrustumObject *o, void *c)
{
    (void)c;
    float b[4] = {o->f.x0, o->f.x1, o->f.y0, o->f.y1};
    return vec_list(b, 4);
}
static PyObject *fr_raw(FrustumObject *o, void *c)
{
    (void)c;
    return PyBytes_FromStringAndSize((const char *)&o->f, sizeof o->f);
}

static PyGetSetDef frustum_getset[] = {
    {"kind", (getter)fr_kind, NULL, "'perspective', 'orthographic' or 'planes'.", NULL},
    {"origin", (getter)fr_origin, NULL, "The apex (perspective) or frame origin E, world units.", NULL},
    {"frame", (getter)fr_frame, NULL, "Rows L, U, D of the frame (unit, right-handed).", NULL},
    {"near", (getter)fr_near, NULL, "Near distance along D.", NULL},
    {"far", (getter)fr_far, NULL, "Far distance along D (inf for an infinite far plane).", NULL},
    {"bounds", (getter)fr_bounds, NULL,
     "(x0, x1, y0, y1): slopes l/n along L and U (perspective) or bounds (orthographic).", NULL},
    {"raw", (getter)fr_raw, NULL, "The satc_frustum struct's bytes (plain data).", NULL},
    {NULL}};

static PyObject *frustum_repr(FrustumObject *o)
{
    PyObject *k = fr_kind(o, NULL);
    char buf[160];
    snprintf(buf, sizeof buf, "origin (%g, %g, %g), near %g, far %g", o->f.origin[0],
             o->f.origin[1], o->f.origin[2], o->f.n, o->f.f);
    PyObject *r = PyUnicode_FromFormat("satc.Frustum(%U, %s)", k, buf);
    Py_XDECREF(k);
    return r;
}

static PyObject *frustum_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    (void)t, (void)a, (void)k;
    PyErr_SetString(PyExc_TypeError,
                    "build a Frustum with satc.perspective, camera, from_matrix, from_intrinsics, "
                    "from_planes, box_frustum or segment_frustum");
    return NULL;
}

PyTypeObject satc_py_FrustumType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "satc.Frustum",
    .tp_basicsize = sizeof(FrustumObject),
    .tp_dealloc = (destructor)PyObject_Free,
    .tp_repr = (reprfunc)frustum_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A view volume built once per frame (a satc_frustum): perspective, orthographic\n"
              "or a convex volume of planes. Immutable; share it between threads freely.",
    .tp_getset = frustum_getset,
    .tp_new = frustum_new,
};

/* ---- module ---- */

static PyObject *py_isa(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return PyUnicode_FromString(satc_isa_name(satc_isa_active()));
}

static PyObject *py_isa_runnable(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return satc_py_isa_set(satc_isa_runnable());
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef methods[] = {
    {"perspective", KW(py_perspective),
     "perspective(eye, dir, up, fovy, aspect, near, far=inf) -> Frustum\n\n"
     "A symmetric perspective camera at eye looking along dir (unit) with up (unit,\n"
     "orthogonal to dir); fovy the vertical field of view in radians, aspect =\n"
     "width / height, 0 < near < far (far may be inf). ValueError names the argument."},
    {"camera", KW(py_camera),
     "camera(origin, left, up, dir, bounds, near, far=inf, *, orthographic=False,\n"
     "       batch_origin=None) -> Frustum\n\n"
     "satc's camera: origin E, frame L, U, D (right-handed orthonormal, L x U = D),\n"
     "bounds (l0, l1, u0, u1) on the near plane (perspective; off-center allowed) or\n"
     "of the box (orthographic). An origin that is not exactly float32, or a\n"
     "batch_origin (volumes stored relative to it), goes through satc's double camera:\n"
     "E - batch_origin is rounded once and the rounding enters the tolerance."},
    {"from_matrix", KW(py_from_matrix),
     "from_matrix(m, *, zero_to_one=False, reversed=False, infinite_far=False) -> Frustum\n\n"
     "The frustum of a 4x4 view-projection matrix, clip = m @ (x, y, z, 1): m[r, c] is\n"
     "row r, column c as written on paper (a row-vector engine's matrix, v' = v M,\n"
     "is passed transposed). Depth range [-1, 1] (OpenGL) unless zero_to_one\n"
     "(Direct3D, Vulkan, Metal); reversed: near maps to the far end; infinite_far: no\n"
     "far plane. The matrix is rounded to float32 and its clip volume is contained."},
    {"from_planes", KW(py_from_planes),
     "from_planes(planes, margin=0.0) -> Frustum\n\n"
     "A convex volume: points with a x + b y + c z + d >= 0 for each row (a, b, c, d)\n"
     "of planes (K, 4), 1 <= K <= 16. Exact mode needs a bounded volume."},
    {"box_frustum", KW(py_box_frustum),
     "box_frustum(center, half, axes=None) -> Frustum\n\n"
     "A query box as an orthographic frustum (axes: rows are its orthonormal axes;\n"
     "None: the world axes). cull() with it answers which volumes touch the box."},
    {"segment_frustum", KW(py_segment_frustum),
     "segment_frustum(p0, p1) -> Frustum\n\nA segment as a zero-width box: cull() with it "
     "answers which volumes it touches."},
    {"cull", KW(satc_py_cull),
     "cull(frustum, batch, mode='exact', output='mask', *, first=0, count=None, isa=None)\n\n"
     "Culls volumes [first, first + count) of batch against frustum. output: 'mask'\n"
     "(bool per volume), 'indices' (uint32 indices of the visible volumes), 'classes'\n"
     "(uint8: 0 outside, 1 intersecting, 2 inside), 'bitmask' (packed, little bit\n"
     "order) or 'count'. A Pyramid in place of the frustum also drops the volumes it\n"
     "hides (class 3, OCCLUDED). The GIL is released during the cull."},
    {"cull_views", KW(satc_py_cull_views),
     "cull_views(frusta, batch, mode='exact', output='mask', *, first=0, count=None, isa=None)\n\n"
     "Many views in one pass over the batch (64 per pass): output 'mask' gives a\n"
     "(views, volumes) bool array, 'classes' (views, volumes) uint8, 'indices' a list\n"
     "of uint32 arrays, 'count' an int64 array. Each view's answer equals cull()'s."},
    {"query_sphere", KW(satc_py_query_sphere),
     "query_sphere(batch, center, radius, mode='exact', output='mask', *, first=0, count=None, "
     "isa=None)\n\nWhich volumes touch the ball (same outputs as cull)."},
    {"query_ray", KW(satc_py_query_ray),
     "query_ray(batch, origin, dir, tmax=inf, mode='exact', *, first=0, count=None, isa=None)\n"
     "    -> (indices, t, nearest)\n\n"
     "Which volumes the ray origin + t dir, 0 <= t <= tmax, touches: their indices,\n"
     "the entry parameter t of each, and the index of the nearest hit (or None)."},
    {"group_bounds", KW(satc_py_group_bounds),
     "group_bounds(batch, size=None, offsets=None, count=None) -> (center, half)\n\n"
     "World AABBs of groups of consecutive volumes: (G, 3) float32 arrays."},
    {"to_aabbs", KW(satc_py_to_aabbs),
     "to_aabbs(batch, first=0, count=None) -> (center, half)\n\n"
     "World AABBs containing each volume, as (N, 3) float32 arrays."},
    {"_time_c_cull", KW(satc_py_time_c_cull),
     "_time_c_cull(frustum, batch, mode, output, reps) -> list of ns per call, timed in C."},
    {"aabbs", KW(satc_py_aabbs),
     "aabbs(center, half) -> Batch\n\nWorld axis-aligned boxes from centers and half sizes:\n"
     "(N, 3) arrays, (3,) for one value shared by all, or a tuple of three 1-D arrays."},
    {"minmax", KW(satc_py_minmax),
     "minmax(min, max) -> Batch\n\nWorld axis-aligned boxes from two corners ((N, 3) each)."},
    {"obbs", KW(satc_py_obbs),
     "obbs(center, axes, extents) -> Batch\n\nOriented boxes: center (N, 3), axes (N, 3, 3) "
     "with axes[i, j] the unit\naxis A_j (a rotation matrix R whose columns are the axes: pass "
     "R.transpose(0, 2, 1)),\nextents (N, 3) half sizes along them."},
    {"half_axes", KW(satc_py_half_axes),
     "half_axes(center, axes) -> Batch\n\nBoxes {c + s0 H0 + s1 H1 + s2 H2 : |s_j| <= 1}: axes "
     "(N, 3, 3), axes[i, j] = H_j."},
    {"instances", KW(satc_py_instances),
     "instances(matrices, local_center, local_half, mesh=None) -> Batch\n\n"
     "An affine world matrix per instance (N, 4, 4) or (N, 3, 4), element [i, r, c] =\n"
     "row r, column c, x' = M x; read in place row-major or column-major (a transposed\n"
     "view). Local boxes: (3,) shared, (N, 3) per instance, or a (M, 3) table picked\n"
     "by mesh ids (N,)."},
    {"spheres", KW(satc_py_spheres),
     "spheres(center, radius) -> Batch\n\nBounding spheres: center (N, 3), radius (N,) or one "
     "number."},
    {"trs", KW(satc_py_trs),
     "trs(position, rotation, scale, local_center=None, local_half=None, mesh=None, *,\n"
     "    k=3.0, log_scale=False, wxyz=False) -> Batch\n\n"
     "Transforms: volume i is a local box mapped by x' = position[i] + R(rotation[i])\n"
     "diag(scale[i]) x. position, scale: (N, 3) (or (3,) shared, or three 1-D arrays);\n"
     "rotation: (N, 4) quaternions (x, y, z, w), or (w, x, y, z) with wxyz=True: float32\n"
     "(need not be unit), uint8 ((b - 128) / 128 per component) or int8 (b / 127), or\n"
     "a tuple of four 1-D float arrays. log_scale: the scales are natural logs (PLY\n"
     "splats). The local box: local_center/local_half (3,) shared, (N, 3) per volume\n"
     "or a (M, 3) table picked by mesh ids; without one, a Gaussian splat's cube\n"
     "[-k, k]^3 in scale units."},
    {"splats", KW(satc_py_splats),
     "splats(records, k=3.0) -> Batch\n\n"
     "Gaussian splats from 32-byte .splat records read in place (a 1-D array of a\n"
     "32-byte dtype, or uint8 of shape (N, 32)): position float32 x 3, linear scale\n"
     "float32 x 3, RGBA bytes, rotation bytes (w, x, y, z) as (b - 128) / 128; each\n"
     "splat's box is [-k, k]^3 in scale units (k sigma)."},
    {"cull_depth", KW(satc_py_cull_depth),
     "cull_depth(frustum, batch, mode='exact', sort=16, *, first=0, count=None, isa=None)\n"
     "    -> (indices, depth, key, order)\n\n"
     "cull() with output 'indices', plus each visible volume's view depth (float32,\n"
     "D.(center - E)), its key (sort=16: uint16 quantised between the least and greatest\n"
     "finite depth; 32: uint32 of the exact depth's order; None: no key) and the visible\n"
     "indices back to front (decreasing key, ties by increasing index; None without a\n"
     "sort). A splat renderer's draw order from one pass over the batch."},
    {"sort_depth", KW(satc_py_sort_depth),
     "sort_depth(depth, indices, sort=16) -> (key, order)\n\n"
     "The keys and back-to-front order cull_depth gives, for depths the caller holds:\n"
     "depth[k] belongs to volume indices[k]; equal keys keep the order of indices."},
    {"visibility", KW(satc_py_visibility),
     "visibility(pyramid, batch, mode='exact', *, first=0, count=None) -> (N,) float32\n\n"
     "Per volume, the share of its screen rectangle (of its world AABB, at the pyramid\n"
     "level where it spans at most 32 x 32 texels) whose texels reach its nearest depth,\n"
     "where it may be in front of what the pyramid holds: 0 for volumes cull() reports\n"
     "outside or occluded, 1 for those reaching the near plane. Any volume a ray sees\n"
     "has visibility > 0; the share over-estimates the visible part of the volume."},
    {"_time_c_occlusion", KW(satc_py_time_c_occlusion),
     "_time_c_occlusion(pyramid, depth, batch, reps) -> list of ns per fill and occlusion cull, timed in C."},
    {"isa", py_isa, METH_NOARGS, "isa() -> str: the path culls run on (e.g. 'avx2')."},
    {"isa_runnable", py_isa_runnable, METH_NOARGS,
     "isa_runnable() -> list of str: the paths this machine can run (for isa=)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "satc._satc",
                                    "satc's C library over numpy arrays (see the satc package).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__satc(void)
{
    import_array();
    satc_py_outs_init();
    if (PyType_Ready(&satc_py_FrustumType) < 0 || PyType_Ready(&satc_py_BatchType) < 0 ||
        PyType_Ready(&satc_py_PyramidType) < 0)
        return NULL;
    char version[32];
    unsigned v = satc_version();
    snprintf(version, sizeof version, "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
    PyObject *m = PyModule_Create(&moddef);
    if (!m)
        return NULL;
    Py_INCREF(&satc_py_FrustumType);
    Py_INCREF(&satc_py_BatchType);
    Py_INCREF(&satc_py_PyramidType);
    if (PyModule_AddObject(m, "Frustum", (PyObject *)&satc_py_FrustumType) < 0 ||
        PyModule_AddObject(m, "Batch", (PyObject *)&satc_py_BatchType) < 0 ||
        PyModule_AddObject(m, "Pyramid", (PyObject *)&satc_py_PyramidType) < 0 ||
        PyModule_AddIntConstant(m, "OCCLUDED", SATC_OCCLUDED) < 0 ||
        PyModule_AddIntConstant(m, "OUTSIDE", SATC_OUTSIDE) < 0 ||
        PyModule_AddIntConstant(m, "INTERSECTING", SATC_INTERSECTING) < 0 ||
        PyModule_AddIntConstant(m, "INSIDE", SATC_INSIDE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_VIEWS", SATC_MAX_VIEWS) < 0 ||
        PyModule_AddStringConstant(m, "__version__", version) < 0 ||
        PyModule_AddIntConstant(m, "c_version", (long)satc_version()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
