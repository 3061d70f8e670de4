/* The summary printed before the tables: what a user wants to know in ten
 * seconds. Every figure comes from the tables below it (same run). */
#include <stdio.h>
#include <unistd.h>

#include "forms.h"
#include "report.h"

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

/* Of the pair of engine-frame ways starting at `kind` (the peer's AVX2
 * and AVX-512 builds), the one that ran closest to satc on its own
 * instruction set: a compiler's choice for one build (clang's gathers
 * from memory, say) must not make satc look better than the peer's best
 * build does. */
static int frame_way(const bench_frame *F, int kind, int z)
{
    int best = -1;
    for (int w = kind; w <= kind + 1; w++)
        if (F->base[w][z].done && (best < 0 || frame_x_satc(F, w, z) < frame_x_satc(F, best, z)))
            best = w;
    return best;
}

/* x: the way's time over satc exact's on the same data. */
static void way_line(const char *name, double ns, double x, size_t extra, size_t kept_by_satc, size_t missed)
{
    printf("  %-42s %7.1f %9.1f x %+10.2f %%", name, ns, x, pct(extra, kept_by_satc));
    if (missed)
        printf("  misses %zu visible", missed);
    printf("\n");
}

static void form_line(const char *name, double ns, double roof)
{
    printf("  %-52s %7.2f %10.2f\n", name, ns, ns / roof);
}

/* The headline: what satc is, then its ratio to the fastest other way of
 * culling the same instance matrices (Filament's or Bevy's, in the build
 * closest to satc), from memory and in cache. */
void bench_headline(const bench_results *r)
{
    printf("satc %d.%d.%d: SIMD frustum culling of box arrays, never dropping a visible box (%s). Against the fastest other way:\n",
           SATC_VERSION_MAJOR, SATC_VERSION_MINOR, SATC_VERSION_PATCH, bench_path_name(r->best));
    const bench_frame *F = &r->frame;
    static const char *const where[BENCH_SIZES] = {"4096 matrices in cache:", "1 M matrices from memory:"};
    for (int z = BENCH_SIZES - 1; F->done && z >= 0; z--) {
        int best = -1;
        static const int kinds[2] = {FB_FILAMENT, FB_BEVY};
        for (int i = 0; i < 2; i++) {
            int w = frame_way(F, kinds[i], z);
            if (w >= 0 && (best < 0 || frame_x_satc(F, w, z) < frame_x_satc(F, best, z)))
                best = w;
        }
        if (best < 0)
            continue;
        /* every path keeps the same boxes: count them on the main path's row */
        const frame_row *b = &F->base[best][z], *s = &F->cull[FR_INST][1][z];
        double x = frame_x_satc(F, best, z);
        double fewer = b->visible ? 100.0 * ((double)b->visible - (double)s->visible) / (double)b->visible : 0.0;
        printf("  %-25s satc exact is %.2fx %s than %s culler (%s build), keeps %.1f %% fewer boxes\n", where[z],
               x >= 1 ? x : 1 / x, x >= 1 ? "faster" : "slower",
               frame_base_kind(best) == FB_FILAMENT ? "Filament's" : "Bevy's", fb_peer_get(frame_base_peer(best))->name,
               fewer);
    }
    printf("\n");
}

void bench_summary(const bench_results *r)
{
    const int L = BENCH_SIZES - 1, city = 0, best = r->best;
    const bench_cell *ex = &r->cell[best][MODE_EXACT][city][L], *co = &r->cell[best][MODE_CONS][city][L];
    const bench_cell *exc = &r->cell[best][MODE_EXACT][city][0], *coc = &r->cell[best][MODE_CONS][city][0];
    printf("satc %d.%d.%d benchmark: summary (tables below; bench/README.md explains every column)\n",
           SATC_VERSION_MAJOR, SATC_VERSION_MINOR, SATC_VERSION_PATCH);
    printf("machine  %s, %ld CPUs, load %.1f -> %.1f (other load widens the ranges below)\n", r->cpu,
           sysconf(_SC_NPROCESSORS_ONLN), r->load[0], r->load[1]);
    printf("path     %s, the fastest this CPU runs (also timed:", bench_path_name(best));
    for (int i = 0; i < r->npaths; i++)
        if (r->paths[i] != best)
            printf(" %s", bench_path_name(r->paths[i]));
    printf("); one thread, medians\n");
    long npre, nall;
    bench_preempt_counts(&npre, &nall);
    printf("timing   wall clock beside the thread's CPU time: %ld of %ld samples were preempted by other\n"
           "         processes (wall > 1.1 x CPU time), after up to two retries of those under 20 ms\n", npre, nall);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu > 0 && (r->load[0] > (double)ncpu || r->load[1] > (double)ncpu))
        printf("note     other programs kept the %ld CPUs busy (load above %ld): the figures below,\n"
               "         from memory above all, are slower and noisier than this machine can do;\n"
               "         run the benchmark again when it is quiet\n",
               ncpu, ncpu);
    printf("\n");

    printf("%-54s %7s %10s\n", "city scene, satc", "ns/box", "x read");
    if (ex->done)
        form_line("oriented boxes (60 B), 1 M from memory, exact", ex->ns.med, r->roof[city][L].med);
    if (co->done)
        form_line("oriented boxes (60 B), 1 M from memory, conservative", co->ns.med, r->roof[city][L].med);
    if (exc->done)
        form_line("oriented boxes (60 B), 4096 in cache, exact", exc->ns.med, r->roof[city][0].med);
    if (coc->done)
        form_line("oriented boxes (60 B), 4096 in cache, conservative", coc->ns.med, r->roof[city][0].med);
    const bench_frame *F = &r->frame;
    if (F->done) {
        const frame_row *ie = &F->cull[FR_INST][1][L], *ac = &F->cull[FR_AABB3][0][L];
        form_line("instances (4x4 matrix, 64 B), 1 M, exact, ns/instance", ie->ns.med, F->roof[FR_INST][L].ns.med);
        form_line("world AABBs (center/half, 24 B), 1 M, conservative", ac->ns.med, F->roof[FR_AABB3][L].ns.med);
    }
    /* Exact mode does the conservative test and more: a lower median is
     * other load on the machine, which the reader should be told. */
    if ((ex->done && co->done && ex->ns.med < co->ns.med) || (exc->done && coc->done && exc->ns.med < coc->ns.med))
        printf("  (exact timed below conservative: exact does all of conservative's work and more, so the\n"
               "   difference is other load during the run: see the ranges in the tables below)\n");

    if (ex->done) {
        printf("\n%-44s %7s %11s %12s\n", "other ways, city, 1 M, one box per call", "ns/box", "satc exact",
               "extra kept");
        for (int w = 0; w < BL_COUNT; w++) {
            static const char *const names[BL_COUNT] = {
                "(a) Eberly: 26 separating axes", "(b) Hoff: box vertices, frustum edges",
                "(c) world AABB, then 6 planes", "(d) cglm: glm_aabb_frustum on world AABBs"};
            const bench_base *b = &r->base[w][city][L];
            if (b->done)
                way_line(names[w], b->ns.med, b->ns.med / ex->ns.med, b->fp, ex->visible, b->fn_true);
        }
        if (!r->base[BL_CGLM][city][L].done)
            printf("  (d) cglm: not found at build time (libcglm-dev adds it)\n");
    }
    if (F->done) {
        printf("%-44s %7s %11s %12s\n", "engine ways, the same 1 M instance matrices", "ns/inst", "satc exact",
               "extra kept");
        static const int kinds[3] = {FB_TODAY, FB_FILAMENT, FB_BEVY};
        static const char *const names[3] = {"satc_obb_from_matrix + cull, per instance",
                                             "Filament: Arvo AABB + 6 planes", "Bevy: 6 planes on the matrix"};
        for (int i = 0; i < 3; i++) {
            int w = kinds[i] == FB_TODAY ? (F->base[FB_TODAY][L].done ? FB_TODAY : -1) : frame_way(F, kinds[i], L);
            if (w < 0)
                continue;
            const frame_row *b = &F->base[w][L], *s = &F->cull[FR_INST][1][L]; /* same boxes on every path */
            char name[80];
            int pb = frame_base_peer(w);
            snprintf(name, sizeof name, "%s%s%s%s", names[i], pb < 0 ? "" : " (", pb < 0 ? "" : fb_peer_get(pb)->name,
                     pb < 0 ? "" : ")");
            way_line(name, b->ns.med, frame_x_satc(F, w, L), b->fp, s->visible, b->fn_true);
        }
    }
    printf("\nx read: time / a plain read of the same bytes in the same run (1.0 would be memory speed).\n"
           "satc exact: how many times faster satc's exact mode is on the same data. extra kept: boxes\n"
           "the way keeps that satc exact culls, per 100 it keeps; none misses a visible box unless it\n"
           "says so. The chart and the JSON are written at the end of this program's output.\n");
}
