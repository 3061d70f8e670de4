/* Helpers of the robustness tests (see robust_util.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS next to the project's _POSIX_C_SOURCE */
#include "robust_util.h"
#include "core/internal.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long n_pass, n_fail;

int rb_check(int ok, const char *fmt, ...)
{
    if (ok) {
        n_pass++;
        return 1;
    }
    if (++n_fail <= 30) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL: ");
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
        fflush(stdout);
    }
    return 0;
}

int rb_finish(void)
{
    printf("%ld passed, %ld failed\n", n_pass, n_fail);
    fflush(stdout);
    return n_fail ? 1 : 0;
}

long rb_failures(void) { return n_fail; }

int rb_quick(void)
{
    const char *q = getenv("SATC_TEST_QUICK");
    return q && *q && *q != '0';
}

uint64_t rb_next(rb_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double rb_uniform(rb_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rb_next(r) >> 11) * 0x1.0p-53);
}

int rb_paths(satc_isa out[8])
{
    unsigned run = satc_isa_runnable();
    int n = 0;
    for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_AVX512; isa <<= 1)
        if (run & isa)
            out[n++] = (satc_isa)isa;
    return n;
}

void rb_random_quat(rb_rng *r, float q[4])
{
    double v[4], len;
    do {
        len = 0;
        for (int k = 0; k < 4; k++) {
            v[k] = rb_uniform(r, -1, 1);
            len += v[k] * v[k];
        }
    } while (len > 1 || len < 1e-6);
    len = sqrt(len);
    for (int k = 0; k < 4; k++)
        q[k] = (float)(v[k] / len);
}

/* A right-handed frame from a random quaternion: rows L, U, D. */
static void random_frame(rb_rng *r, satc_camera *cam)
{
    float q[4], c[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    satc_obb b;
    rb_random_quat(r, q);
    satc_obb_from_quat(&b, c, q, h);
    /* The quaternion's rotation is proper, so A0 x A1 = A2. */
    memcpy(cam->left, b.axis[0], sizeof cam->left);
    memcpy(cam->up, b.axis[1], sizeof cam->up);
    memcpy(cam->dir, b.axis[2], sizeof cam->dir);
}

void rb_camera_persp(satc_camera *cam, rb_rng *r, const float eye[3], float n, float f)
{
    memset(cam, 0, sizeof *cam);
    random_frame(r, cam);
    memcpy(cam->origin, eye, sizeof cam->origin);
    double mu = tan(0.5 * (60.0 * 3.14159265358979 / 180.0)) * n;
    double l = mu * 16.0 / 9.0;
    cam->l0 = (float)-l, cam->l1 = (float)l;
    cam->u0 = (float)-mu, cam->u1 = (float)mu;
    cam->n = n, cam->f = f;
}

void rb_camera_ortho(satc_camera *cam, rb_rng *r, const float eye[3], float w, float h, float n,
                     float f)
{
    memset(cam, 0, sizeof *cam);
    random_frame(r, cam);
    memcpy(cam->origin, eye, sizeof cam->origin);
    cam->l0 = -w, cam->l1 = w, cam->u0 = -h, cam->u1 = h;
    cam->n = n, cam->f = f;
    cam->orthographic = 1;
}

void rb_box_near(rb_rng *r, const satc_camera *cam, satc_obb *out)
{
    double p[3];
    if (cam->orthographic) {
        double x = rb_uniform(r, 1.3 * cam->l0, 1.3 * cam->l1);
        double y = rb_uniform(r, 1.3 * cam->u0, 1.3 * cam->u1);
        double span = (double)cam->f - cam->n;
        double z = rb_uniform(r, cam->n - 0.3 * span, cam->f + 0.3 * span);
        for (int k = 0; k < 3; k++)
            p[k] = cam->origin[k] + x * cam->left[k] + y * cam->up[k] + z * cam->dir[k];
    } else {
        double far = isinf(cam->f) ? 300.0 : cam->f;
        double t = rb_uniform(r, -0.2 * far, 1.3 * far);
        double x = rb_uniform(r, 1.4 * cam->l0, 1.4 * cam->l1) / cam->n;
        double y = rb_uniform(r, 1.4 * cam->u0, 1.4 * cam->u1) / cam->n;
        double at = fabs(t);
        for (int k = 0; k < 3; k++)
            p[k] = cam->origin[k] + t * cam->dir[k] + x * at * cam->left[k] + y * at * cam->up[k];
    }
    float c[3], q[4], h[3];
    for (int k = 0; k < 3; k++) {
        c[k] = (float)p[k];
        h[k] = (float)exp(rb_uniform(r, log(0.01), log(50.0)));
    }
    rb_random_quat(r, q);
    satc_obb_from_quat(out, c, q, h);
}

void rb_out_alloc(rb_out *o, size_t count)
{
    size_t n = count ? count : 1;
    o->bitmask = malloc((n + 7) / 8);
    o->classes = malloc(n);
    o->indices = malloc(n * sizeof *o->indices);
    o->visible = 0;
    if (!o->bitmask || !o->classes || !o->indices) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

void rb_out_free(rb_out *o)
{
    free(o->bitmask);
    free(o->classes);
    free(o->indices);
    memset(o, 0, sizeof *o);
}

void rb_reference(const satc_frustum *f, const satc_boxes *b, size_t first, size_t count,
                  satc_mode mode, rb_out *o)
{
    satc_results res = {o->bitmask, o->classes, o->indices, 0};
    /* The reference itself (satc_kernels_ref), not the scalar path: that
     * path is one of those compared with it. */
    satc_scalar_use_ref(1);
    satc_status st = satc_cull_batch_isa(SATC_ISA_SCALAR, f, b, first, count, mode, &res);
    satc_scalar_use_ref(0);
    if (st != SATC_OK) {
        fprintf(stderr, "scalar reference failed: %s\n", satc_status_string(st));
        exit(2);
    }
    o->visible = res.visible;
}

int rb_consistent(const rb_out *o, size_t first, size_t count)
{
    size_t k = 0;
    for (size_t j = 0; j < count; j++) {
        unsigned c = o->classes[j];
        unsigned bit = o->bitmask[j / 8] >> (j % 8) & 1u;
        if (c > SATC_INSIDE || bit != (c != SATC_OUTSIDE))
            return 0;
        if (bit) {
            if (k >= o->visible || o->indices[k] != first + j)
                return 0;
            k++;
        }
    }
    if (k != o->visible)
        return 0;
    if (count % 8 && (o->bitmask[count / 8] >> (count % 8)) != 0)
        return 0;
    return 1;
}

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

int rb_guard_alloc(rb_guard *g, size_t bytes, int at_end)
{
    size_t ps = page_size();
    size_t pages = (bytes + ps - 1) / ps;
    if (!pages)
        pages = 1;
    g->len = (pages + 1) * ps;
    g->map = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) {
        g->map = NULL;
        return -1;
    }
    unsigned char *base = g->map;
    unsigned char *guard = at_end ? base + pages * ps : base;
    if (mprotect(guard, ps, PROT_NONE) != 0) {
        munmap(g->map, g->len);
        g->map = NULL;
        return -1;
    }
    g->lo = at_end ? base : base + ps;
    g->hi = g->lo + pages * ps;
    return 0;
}

void rb_guard_free(rb_guard *g)
{
    if (g->map)
        munmap(g->map, g->len);
    memset(g, 0, sizeof *g);
}

void *rb_guard_place(const rb_guard *g, size_t bytes)
{
    /* at_end mappings have their guard right after hi. */
    unsigned char *base = g->map;
    if (g->lo == base)
        return g->hi - bytes;
    return g->lo;
}

static char context[256] = "start";

void rb_set_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
}

static void on_fault(int sig)
{
    static const char head[] = "FAULT (signal) while testing: ";
    (void)sig;
    ssize_t w = write(STDOUT_FILENO, head, sizeof head - 1);
    w = write(STDOUT_FILENO, context, strlen(context));
    w = write(STDOUT_FILENO, "\n", 1);
    (void)w;
    _exit(1);
}

void rb_catch_faults(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

int rb_batch_alloc(rb_batch *b, size_t count)
{
    memset(b, 0, sizeof *b);
    if (satc_box_arrays_alloc(&b->a, count) != SATC_OK)
        return -1;
    b->v = satc_box_arrays_view(&b->a);
    b->count = count;
    return 0;
}

void rb_batch_free(rb_batch *b)
{
    satc_box_arrays_free(&b->a);
    memset(b, 0, sizeof *b);
}

void rb_batch_set(rb_batch *b, size_t i, const satc_obb *box)
{
    satc_box_arrays_set(&b->a, i, box);
}

void rb_fill_near(rb_batch *b, size_t count, rb_rng *r, const satc_camera *cam)
{
    for (size_t i = 0; i < count; i++) {
        satc_obb box;
        rb_box_near(r, cam, &box);
        rb_batch_set(b, i, &box);
    }
}

float *rb_field(const satc_box_arrays *a, int k, size_t i)
{
    if (k < 3)
        return &a->center[k][i];
    if (k < 12)
        return &a->axis[(k - 3) / 3][(k - 3) % 3][i];
    return &a->extent[k - 12][i];
}

const char *rb_field_name(int k)
{
    static const char *names[15] = {"center.x", "center.y", "center.z", "A0.x", "A0.y",
                                    "A0.z",     "A1.x",     "A1.y",     "A1.z", "A2.x",
                                    "A2.y",     "A2.z",     "extent0",  "extent1", "extent2"};
    return k >= 0 && k < 15 ? names[k] : "?";
}
