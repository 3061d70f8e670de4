/* The figures of the table as JSON (hand-written; every string written
 * here is one of the program's own names, so nothing needs escaping
 * except the CPU name). */
#include <stdio.h>

#include "forms.h"
#include "report.h"

static void str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

/* A number, or null when it is not finite (JSON has no NaN). */
static const char *num(double v)
{
    static char buf[16][32];
    static int k;
    char *b = buf[k++ % 16];
    if (v != v || v > 1e300 || v < -1e300)
        snprintf(b, 32, "null");
    else
        snprintf(b, 32, "%.5g", v);
    return b;
}

static void stats(FILE *f, const bench_stats *s)
{
    fprintf(f, "\"ns_per_box\": %s, \"ns_min\": %s, \"ns_max\": %s, \"samples\": %d", num(s->med),
            num(s->min), num(s->max), s->samples);
}

static void targets(FILE *f, const bench_target *t, int k)
{
    for (int i = 0; i < k; i++) {
        fprintf(f, "    {\"target\": ");
        str(f, t[i].what);
        fprintf(f, ", \"measured\": ");
        str(f, t[i].figure);
        fprintf(f, ", \"value\": %s, \"limit\": %s, \"status\": \"%s\", \"note\": ", num(t[i].value), num(t[i].limit),
                t[i].avail ? (t[i].pass ? "PASS" : "MISS") : "n/a");
        str(f, t[i].note);
        fprintf(f, "}%s\n", i + 1 < k ? "," : "");
    }
}

/* One row of the engine frame: stats, and false positives as counts and
 * as shares of the boxes kept. */
static void frame_row_json(FILE *f, const char *key, const frame_row *x, double bytes)
{
    double v = x->visible ? (double)x->visible : 1.0;
    fprintf(f, "\"%s\": {", key);
    stats(f, &x->ns);
    fprintf(f, ", \"gb_per_s\": %s", num(bytes / x->ns.med));
    if (x->visible)
        fprintf(f, ", \"visible\": %zu, \"false_positives\": %zu, \"false_positive_rate\": %s, "
                   "\"false_positives_vs_obb\": %zu, \"false_positive_rate_vs_obb\": %s",
                x->visible, x->fp, num((double)x->fp / v), x->fp_obb, num((double)x->fp_obb / v));
    if (x->fn)
        fprintf(f, ", \"false_negatives_vs_exact\": %zu, \"false_negatives_true\": %zu", x->fn, x->fn_true);
    fputc('}', f);
}

static void frame_json(FILE *f, const bench_results *r)
{
    const bench_frame *F = &r->frame;
    if (!F->done) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{\"scene\": \"city\", \"path\": \"%s\", \"output\": \"bitmask\",\n   \"forms\": [\n", F->path);
    int first = 1;
    for (int fm = 0; fm < FR_FORMS; fm++)
        for (int z = 0; z < BENCH_SIZES; z++) {
            double b = frame_form_bytes(fm);
            fprintf(f, "%s    {\"form\": ", first ? "" : ",\n");
            str(f, frame_form_name(fm));
            fprintf(f, ", \"boxes\": %zu, \"bytes_per_box\": %s, \"matches_scalar\": %s, ", r->sizes[z], num(b),
                    F->mismatch[fm] ? "false" : "true");
            frame_row_json(f, "roofline", &F->roof[fm][z], b);
            fprintf(f, ", ");
            frame_row_json(f, "conservative", &F->cull[fm][0][z], b);
            fprintf(f, ", ");
            frame_row_json(f, "exact", &F->cull[fm][1][z], b);
            fprintf(f, ", \"conservative_x_roofline\": %s, \"exact_x_roofline\": %s}",
                    num(F->cull[fm][0][z].ns.med / F->roof[fm][z].ns.med),
                    num(F->cull[fm][1][z].ns.med / F->roof[fm][z].ns.med));
            first = 0;
        }
    fprintf(f, "\n   ],\n   \"baselines\": [\n");
    first = 1;
    for (int w = 0; w < FB_COUNT; w++)
        for (int z = 0; z < BENCH_SIZES; z++) {
            fprintf(f, "%s    {\"way\": ", first ? "" : ",\n");
            str(f, frame_base_name(w));
            fprintf(f, ", \"boxes\": %zu, ", r->sizes[z]);
            fprintf(f, "\"bytes_per_box\": %s, ", num(frame_base_bytes(w)));
            frame_row_json(f, "result", &F->base[w][z], frame_base_bytes(w));
            fputc('}', f);
            first = 0;
        }
    fprintf(f, "\n   ],\n   \"targets\": [\n");
    bench_target t[FRAME_MAX_TARGETS];
    targets(f, t, frame_targets(r, t));
    fprintf(f, "   ]}");
}

int bench_write_json(const bench_results *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  \"benchmark\": \"satc\",\n  \"cpu\": ");
    str(f, r->cpu);
    fprintf(f, ",\n  \"run\": \"%s\", \"samples_cached\": %d, \"samples_memory\": %d,\n", r->run, r->reps_cached,
            r->reps_memory);
    fprintf(f, "  \"roofline_loop\": \"%s\", \"scrub_bytes\": %zu, \"isa_query_ns\": %.1f,\n", r->stream_name,
            r->scrub_bytes, r->cpuid_ns);
    fprintf(f, "  \"load_average\": [%s, %s],\n", num(r->load[0]), num(r->load[1]));
    fprintf(f, "  \"native_paths\": [");
    for (int i = 0; i < r->npaths; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", bench_path_name(r->paths[i]));
    fprintf(f, "], \"best_path\": \"%s\", \"cglm\": ", bench_path_name(r->best));
    str(f, r->have_cglm ? bl_cglm_version() : "absent");
    fprintf(f, ",\n  \"sizes\": [%zu, %zu],\n", r->sizes[0], r->sizes[1]);

    fprintf(f, "  \"roofline\": [\n");
    int first = 1;
    for (int s = 0; s < BENCH_SCENES; s++)
        for (int z = 0; z < BENCH_SIZES; z++) {
            fprintf(f, "%s    {\"scene\": \"%s\", \"boxes\": %zu, \"bytes_per_box\": 60, ", first ? "" : ",\n",
                    bench_scene_names[s], r->sizes[z]);
            stats(f, &r->roof[s][z]);
            fprintf(f, ", \"gb_per_s\": %s}", num(60.0 / r->roof[s][z].med));
            first = 0;
        }
    fprintf(f, "\n  ],\n  \"satc\": [\n");
    first = 1;
    for (int pi = 0; pi < r->npaths; pi++) {
        int p = r->paths[pi];
        for (int m = 0; m < BENCH_MODES; m++)
            for (int s = 0; s < BENCH_SCENES; s++)
                for (int z = 0; z < BENCH_SIZES; z++) {
                    const bench_cell *c = &r->cell[p][m][s][z];
                    if (!c->done)
                        continue;
                    const bench_cell *sc = &r->cell[0][m][s][z];
                    double n = (double)r->sizes[z];
                    fprintf(f, "%s    {\"path\": \"%s\", \"mode\": \"%s\", \"scene\": \"%s\", \"boxes\": %zu, ",
                            first ? "" : ",\n", bench_path_name(p), bench_mode_name(m), bench_scene_names[s],
                            r->sizes[z]);
                    stats(f, &c->ns);
                    fprintf(f,
                            ", \"mboxes_per_s\": %s, \"bytes_per_box\": %s, \"gb_per_s\": %s, "
                            "\"roofline_ratio\": %s, \"speedup_vs_scalar\": %s, \"visible\": %zu, "
                            "\"visible_fraction\": %s",
                            num(1e3 / c->ns.med), num(c->bytes), num(c->bytes / c->ns.med),
                            num(c->ns.med / r->roof[s][z].med), num(sc->done ? sc->ns.med / c->ns.med : 0.0),
                            c->visible, num((double)c->visible / n));
                    if (m == MODE_CONS)
                        fprintf(f, ", \"false_positives_vs_exact\": %zu, \"false_positive_rate\": %s",
                                r->cons_fp[s][z], num((double)r->cons_fp[s][z] / n));
                    fprintf(f, ", \"matches_scalar\": %s}", r->mismatch[p][s][z] ? "false" : "true");
                    first = 0;
                }
    }
    fprintf(f, "\n  ],\n  \"baselines\": [\n");
    first = 1;
    for (int w = 0; w < BL_COUNT; w++)
        for (int s = 0; s < BENCH_SCENES; s++)
            for (int z = 0; z < BENCH_SIZES; z++) {
                const bench_base *b = &r->base[w][s][z];
                if (!b->done)
                    continue;
                const bench_cell *ex = &r->cell[r->best][MODE_EXACT][s][z];
                const bench_cell *co = &r->cell[r->best][MODE_CONS][s][z];
                fprintf(f, "%s    {\"baseline\": \"%s\", \"label\": \"%s\", \"scene\": \"%s\", \"boxes\": %zu, ",
                        first ? "" : ",\n", bl_name(w), bl_label(w), bench_scene_names[s], r->sizes[z]);
                stats(f, &b->ns);
                fprintf(f,
                        ", \"bytes_per_box\": %s, \"gb_per_s\": %s, \"satc_exact_speedup\": %s, "
                        "\"satc_conservative_speedup\": %s, \"visible\": %zu, \"false_negatives_vs_exact\": %zu, "
                        "\"false_negatives_true\": %zu, \"false_positives_vs_exact\": %zu",
                        num(b->bytes), num(b->bytes / b->ns.med), num(ex->done ? b->ns.med / ex->ns.med : 0.0),
                        num(co->done ? b->ns.med / co->ns.med : 0.0), b->visible, b->fn, b->fn_true, b->fp);
                if (w == BL_HOFF)
                    fprintf(f,
                            ", \"as_written_lost_visible\": %zu, \"as_written_false_negatives_vs_exact\": %zu, "
                            "\"as_written_false_negatives_true\": %zu",
                            r->hoff_lost[s][z], r->hoff_fn_written[s][z], r->hoff_fn_written_true[s][z]);
                fputc('}', f);
                first = 0;
            }
    for (int c = 0; c < 2; c++) {
        const int done = c ? r->thr_cached_done : r->threads_done;
        fprintf(f, c ? ",\n  \"threads_in_cache\": " : "\n  ],\n  \"threads\": ");
        if (!done) {
            fprintf(f, "null");
            continue;
        }
        fprintf(f, "{\"scene\": \"city\", \"boxes\": %zu, \"path\": \"%s\", \"rows\": [\n",
                c ? r->thr_cached_n : r->thr_n, bench_path_name(r->best));
        for (int m = 0; m < 3; m++) {
            for (int t = 0; t < 2; t++) {
                fprintf(f, "    {\"mode\": \"%s\", \"threads\": %d, ", m == 2 ? "stream" : bench_mode_name(m),
                        t ? r->nthreads : 1);
                stats(f, c ? &r->thr_cached[m][t] : &r->thr[m][t]);
                fprintf(f, "}%s\n", m == 2 && t == 1 ? "" : ",");
            }
        }
        fprintf(f, "  ]}");
    }
    fprintf(f, ",\n  \"engine_frame\": ");
    frame_json(f, r);
    fprintf(f, ",\n  \"all_paths_match_scalar\": %s", bench_any_mismatch(r) ? "false" : "true");
    fprintf(f, ",\n  \"targets\": [\n");
    bench_target t[BENCH_MAX_TARGETS];
    targets(f, t, bench_targets(r, t));
    fprintf(f, "  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}
