/*
 * The chart, as hand-written SVG: one panel per scene, ns per box on a
 * log scale, one group per satc path and mode and per baseline, two bars
 * per group (4096 boxes in cache, 1M from memory) with min-max whiskers,
 * and the two rooflines (in-cache and streaming read of 60 B/box) as
 * dashed lines; last, the engine frame with each form's own rooflines.
 * All panels share one scale so they compare at a glance. Labels never
 * overlap: each is squeezed (textLength) into its group's width, values
 * run vertically over their bars.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "forms.h"
#include "report.h"

#define W 1400.0
#define PANEL_H 350.0
#define TOP 70.0
#define LEFT 72.0
#define RIGHT 170.0
#define PLOT_TOP 34.0    /* within a panel: room for its title */
#define PLOT_BOTTOM 62.0 /* within a panel: room for the group labels */

typedef struct group {
    char top[24], bottom[24], kept[24]; /* kept: extra boxes a baseline keeps */
    int span;                           /* top label spans this many groups (0: printed by an earlier one) */
    const bench_stats *v[BENCH_SIZES];
    int baseline;
} group;

static const char *const bar_fill[2][BENCH_SIZES] = {{"#9ec5ea", "#1f5f9e"}, {"#d9c6a5", "#8a6a34"}};
static const char *const roof_color[BENCH_SIZES] = {"#2a9d3a", "#c0392b"};

typedef struct scale {
    double lo, hi; /* decades: 10^lo .. 10^hi */
    double y0, y1; /* pixel rows of hi and lo */
} scale;

static double ypix(const scale *sc, double v)
{
    double t = (log10(v) - sc->lo) / (sc->hi - sc->lo);
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    return sc->y1 - t * (sc->y1 - sc->y0);
}

static void fmt_value(char *buf, size_t len, double v)
{
    if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (v >= 10)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.2f", v);
}

static int collect(const bench_results *r, int s, group *g)
{
    int k = 0;
    for (int pi = 0; pi < r->npaths; pi++) {
        int p = r->paths[pi];
        for (int m = 0; m < BENCH_MODES; m++) {
            if (!r->cell[p][m][s][0].done && !r->cell[p][m][s][1].done)
                continue;
            snprintf(g[k].top, sizeof g[k].top, "%s", bench_path_name(p));
            snprintf(g[k].bottom, sizeof g[k].bottom, "%s", bench_mode_short(m));
            g[k].kept[0] = 0;
            /* One path label over its modes. */
            g[k].span = k > 0 && !g[k - 1].baseline && !strcmp(g[k - 1].top, g[k].top) ? 0 : 1;
            if (g[k].span == 0) {
                int j = k - 1;
                while (g[j].span == 0)
                    j--;
                g[j].span++;
            }
            for (int z = 0; z < BENCH_SIZES; z++)
                g[k].v[z] = r->cell[p][m][s][z].done ? &r->cell[p][m][s][z].ns : NULL;
            g[k].baseline = 0;
            k++;
        }
    }
    static const char *const bl_top[BL_COUNT] = {"Eberly", "Hoff", "AABB", "cglm"};
    static const char *const bl_bottom[BL_COUNT] = {"26 axes", "vertices", "per box", "aabb_frust."};
    const bench_cell *ex = &r->cell[r->best][MODE_EXACT][s][BENCH_SIZES - 1];
    for (int w = 0; w < BL_COUNT; w++) {
        if (!r->base[w][s][0].done && !r->base[w][s][1].done)
            continue;
        snprintf(g[k].top, sizeof g[k].top, "%s", bl_top[w]);
        snprintf(g[k].bottom, sizeof g[k].bottom, "%s", bl_bottom[w]);
        g[k].span = 1;
        g[k].kept[0] = 0;
        if (ex->done && ex->visible && r->base[w][s][BENCH_SIZES - 1].done)
            snprintf(g[k].kept, sizeof g[k].kept, "+%.1f%% kept",
                     100.0 * (double)r->base[w][s][BENCH_SIZES - 1].fp / (double)ex->visible);
        for (int z = 0; z < BENCH_SIZES; z++)
            g[k].v[z] = r->base[w][s][z].done ? &r->base[w][s][z].ns : NULL;
        g[k].baseline = 1;
        k++;
    }
    return k;
}

/* A label centered at x, at most `width` pixels wide: squeezed by the
 * renderer when an estimate of its natural width says it would not fit. */
static void label(FILE *f, double x, double y, double width, double font, const char *cls, const char *text)
{
    double natural = 0.66 * font * (double)strlen(text);
    if (natural > width)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"middle\" textLength=\"%.1f\" "
                   "lengthAdjust=\"spacingAndGlyphs\">%s</text>\n",
                x, y, cls, width, text);
    else
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"middle\">%s</text>\n", x, y, cls,
                text);
}

/* The bars of k groups from x0, gw pixels each, with whiskers and labels. */
static void bars(FILE *f, const bench_results *r, const scale *scp, const group *g, int k, double x0, double gw)
{
    scale sc = *scp;
    double bw = gw * 0.34;
    for (int i = 0; i < k; i++) {
        double gx = x0 + gw * i;
        /* Dotted separators: satc | baselines, and between satc's paths. */
        if (i > 0 && g[i].baseline && !g[i - 1].baseline)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-dasharray=\"2,3\"/>\n",
                    gx, sc.y0, gx, sc.y1 + 40);
        else if (i > 0 && !g[i].baseline && strcmp(g[i].top, g[i - 1].top) != 0)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-dasharray=\"1,4\"/>\n",
                    gx, sc.y0, gx, sc.y1 + 40);
        for (int z = 0; z < BENCH_SIZES; z++) {
            const bench_stats *v = g[i].v[z];
            if (!v || !(v->med > 0))
                continue;
            double bx = gx + gw * 0.5 + (z == 0 ? -bw - 1 : 1);
            double y = ypix(&sc, v->med);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s %s, %s boxes: %.4g ns/box [%.4g-%.4g]</title></rect>\n",
                    bx, y, bw, sc.y1 - y, bar_fill[g[i].baseline][z], g[i].top, g[i].bottom,
                    bench_size_label(r->sizes[z]), v->med, v->min, v->max);
            double cx = bx + bw * 0.5, ylo = ypix(&sc, v->min), yhi = ypix(&sc, v->max);
            fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"#222\" stroke-width=\"1\" fill=\"none\"/>\n",
                    cx, ylo, yhi, cx - 3, ylo, cx + 3, cx - 3, yhi, cx + 3);
            char lab[16];
            fmt_value(lab, sizeof lab, v->med);
            /* Vertical, over the whisker: a bar is wider than the text is tall. */
            fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" class=\"val\">%s</text>\n", cx + 3,
                    yhi - 3, lab);
        }
        if (g[i].span > 0)
            label(f, gx + gw * 0.5 * g[i].span, sc.y1 + 16, gw * g[i].span - 4, 11, "xlab", g[i].top);
        label(f, gx + gw * 0.5, sc.y1 + 31, gw - 4, 10, "xlab2", g[i].bottom);
        if (g[i].kept[0])
            label(f, gx + gw * 0.5, sc.y1 + 45, gw - 4, 10, "xlab3", g[i].kept);
    }

}

/* Panel title, plot area, log grid and the y label. */
static void axes(FILE *f, const scale *scp, double top, double x0, double x1, const char *title)
{
    scale sc = *scp;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ptitle\">%s</text>\n", x0, top + 20, title);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n", x0,
            sc.y0, x1 - x0, sc.y1 - sc.y0);
    /* Grid: decades labelled, 2 and 5 faint. */
    for (int d = (int)sc.lo; d <= (int)sc.hi; d++) {
        for (int m = 1; m <= 9; m++) {
            double v = (double)m * pow(10.0, d);
            if (log10(v) > sc.hi + 1e-9 || log10(v) < sc.lo - 1e-9)
                continue;
            if (m != 1 && m != 2 && m != 5)
                continue;
            double y = ypix(&sc, v);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", x0,
                    y, x1, y, m == 1 ? "#c8c8c8" : "#ececec");
            char lab[32];
            if (d >= 0)
                snprintf(lab, sizeof lab, "%.0f", v);
            else
                snprintf(lab, sizeof lab, "%.*f", -d, v);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"end\">%s</text>\n", x0 - 6, y + 4,
                    m == 1 ? "ytick" : "ytick2", lab);
        }
    }
    fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" class=\"axis\" text-anchor=\"middle\">ns / box</text>\n",
            x0 - 48, 0.5 * (sc.y0 + sc.y1));

}

static void panel(FILE *f, const bench_results *r, int s, double top, const scale *proto)
{
    group g[BENCH_PATHS * BENCH_MODES + BL_COUNT];
    int k = collect(r, s, g);
    scale sc = *proto;
    sc.y0 = top + PLOT_TOP;
    sc.y1 = top + PANEL_H - PLOT_BOTTOM;
    double x0 = LEFT, x1 = W - RIGHT, gw = (x1 - x0) / (k ? k : 1);

    char title[128];
    snprintf(title, sizeof title, "%s scene: ns per box (log scale), median with min-max", bench_scene_names[s]);
    axes(f, &sc, top, x0, x1, title);
    bars(f, r, &sc, g, k, x0, gw);

    /* Rooflines, labelled in the right margin. */
    for (int z = 0; z < BENCH_SIZES; z++) {
        double v = r->roof[s][z].med;
        if (!(v > 0))
            continue;
        double y = ypix(&sc, v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"8,4\"/>\n",
                x0, y, x1, y, roof_color[z]);
        char lab[16];
        fmt_value(lab, sizeof lab, v);
        /* Keep the two labels apart when the lines are close. */
        double dy = 0;
        if (z == 1) {
            double y0 = ypix(&sc, r->roof[s][0].med);
            if (fabs(y - y0) < 26)
                dy = y > y0 ? 26 - (y - y0) : -(26 - (y0 - y));
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">roofline %s</text>\n", x1 + 6, y + dy - 2,
                roof_color[z], z == 0 ? "4096 (in cache)" : "1M (streaming)");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">%s ns/box</text>\n", x1 + 6, y + dy + 11,
                roof_color[z], lab);
    }
}

/* The engine frame: per form conservative and exact (bars 4096 and 1M),
 * then the engine ways; each form's two rooflines as dashed segments over
 * its groups (they differ per form). */
static int frame_collect(const bench_results *r, group *g)
{
    static const char *const short_form[FR_FORMS] = {"matrix 64 B", "AABB c/h 24 B", "AABB rec 24 B",
                                                     "min/max 24 B", "half-axes 48 B", "sphere 16 B",
                                                     "OBB 60 B"};
    static const char *const base_top[FB_COUNT] = {"satc/inst.", "Filament", "Filament", "Fil. pass",
                                                   "Fil. pass", "Bevy", "Bevy"};
    const bench_frame *F = &r->frame;
    int k = 0;
    for (int fm = 0; fm < FR_FORMS; fm++)
        for (int m = 0; m < 2; m++, k++) {
            snprintf(g[k].top, sizeof g[k].top, "%s", short_form[fm]);
            snprintf(g[k].bottom, sizeof g[k].bottom, "%s", m ? "exact" : "cons");
            g[k].span = m ? 0 : 2;
            g[k].kept[0] = 0;
            for (int z = 0; z < BENCH_SIZES; z++)
                g[k].v[z] = F->cull[fm][m][z].done ? &F->cull[fm][m][z].ns : NULL;
            g[k].baseline = 0;
        }
    for (int w = 0; w < FB_COUNT; w++, k++) {
        int pb = frame_base_peer(w);
        const fb_peer *p = pb < 0 ? NULL : fb_peer_get(pb);
        snprintf(g[k].top, sizeof g[k].top, "%s", base_top[w]);
        snprintf(g[k].bottom, sizeof g[k].bottom, "%s", pb < 0 ? "helpers" : p ? p->name : "n/a");
        g[k].span = 1;
        g[k].kept[0] = 0;
        const frame_row *b = &F->base[w][BENCH_SIZES - 1];
        if (b->done && b->visible > b->fp)
            snprintf(g[k].kept, sizeof g[k].kept, "+%.1f%% kept",
                     100.0 * (double)b->fp / (double)(b->visible - b->fp));
        for (int z = 0; z < BENCH_SIZES; z++)
            g[k].v[z] = F->base[w][z].done ? &F->base[w][z].ns : NULL;
        g[k].baseline = 1;
    }
    return k;
}

static void frame_panel(FILE *f, const bench_results *r, double top, const scale *proto)
{
    group g[2 * FR_FORMS + FB_COUNT];
    int k = frame_collect(r, g);
    scale sc = *proto;
    sc.y0 = top + PLOT_TOP;
    sc.y1 = top + PANEL_H - PLOT_BOTTOM;
    double x0 = LEFT, x1 = W - RIGHT, gw = (x1 - x0) / k;
    axes(f, &sc, top, x0, x1,
         "engine frame, city: each form culled in place by satc_cull; engine ways on the instance matrices");
    bars(f, r, &sc, g, k, x0, gw);
    for (int fm = 0; fm < FR_FORMS; fm++)
        for (int z = 0; z < BENCH_SIZES; z++) {
            double v = r->frame.roof[fm][z].ns.med;
            if (!(v > 0))
                continue;
            double y = ypix(&sc, v), xa = x0 + gw * 2 * fm + 2, xb = xa + 2 * gw - 4;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
                       "stroke-dasharray=\"6,3\"><title>%s read of %.0f B/box, %s: %.4g ns/box</title></line>\n",
                    xa, y, xb, y, roof_color[z], z ? "streaming" : "in-cache", frame_form_bytes(fm),
                    bench_size_label(r->sizes[z]), v);
        }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">dashed: each form's</text>\n", x1 + 6,
            sc.y0 + 12, roof_color[1]);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">read, 1M (streaming)</text>\n", x1 + 6,
            sc.y0 + 25, roof_color[1]);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">and 4096 (in cache)</text>\n", x1 + 6,
            sc.y0 + 38, roof_color[0]);
}

int bench_write_svg(const bench_results *r, const char *path)
{
    /* One scale for all panels, whole decades around every value shown. */
    double vmin = INFINITY, vmax = 0;
    for (int s = 0; s < BENCH_SCENES; s++) {
        group g[BENCH_PATHS * BENCH_MODES + BL_COUNT];
        int k = collect(r, s, g);
        for (int i = 0; i < k; i++)
            for (int z = 0; z < BENCH_SIZES; z++)
                if (g[i].v[z] && g[i].v[z]->med > 0) {
                    vmin = fmin(vmin, g[i].v[z]->min);
                    vmax = fmax(vmax, g[i].v[z]->max);
                }
        for (int z = 0; z < BENCH_SIZES; z++)
            if (r->roof[s][z].med > 0) {
                vmin = fmin(vmin, r->roof[s][z].med);
                vmax = fmax(vmax, r->roof[s][z].med);
            }
    }
    if (r->frame.done) {
        group g[2 * FR_FORMS + FB_COUNT];
        int k = frame_collect(r, g);
        for (int i = 0; i < k; i++)
            for (int z = 0; z < BENCH_SIZES; z++)
                if (g[i].v[z] && g[i].v[z]->med > 0)
                    vmin = fmin(vmin, g[i].v[z]->min), vmax = fmax(vmax, g[i].v[z]->max);
        for (int fm = 0; fm < FR_FORMS; fm++)
            for (int z = 0; z < BENCH_SIZES; z++)
                if (r->frame.roof[fm][z].ns.med > 0)
                    vmin = fmin(vmin, r->frame.roof[fm][z].ns.med);
    }
    if (!(vmax > 0) || !isfinite(vmin)) {
        vmin = 0.1;
        vmax = 100;
    }
    scale sc;
    sc.lo = floor(log10(vmin));
    sc.hi = ceil(log10(vmax * 4.0)); /* room for the vertical value labels */
    if (sc.hi <= sc.lo)
        sc.hi = sc.lo + 1;
    sc.y0 = sc.y1 = 0;

    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int panels = BENCH_SCENES + (r->frame.done != 0);
    double h = TOP + panels * PANEL_H + 40;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
            W, h, W, h);
    fprintf(f, "<style>\n"
               ".title{font-size:19px;font-weight:bold}\n.sub{font-size:12px;fill:#444}\n"
               ".ptitle{font-size:15px;font-weight:bold}\n.ytick{font-size:12px}\n.ytick2{font-size:10px;fill:#888}\n"
               ".axis{font-size:12px}\n.xlab{font-size:11px;font-weight:bold}\n.xlab2{font-size:10px}\n"
               ".xlab3{font-size:10px;fill:#8a3a00}\n"
               ".val{font-size:9px;fill:#333}\n.roof{font-size:11px;font-weight:bold}\n.leg{font-size:12px}\n"
               "</style>\n");
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.1f\" y=\"26\" class=\"title\">satc: OBB-frustum culling, ns per box (lower is better)</text>\n", LEFT);
    fprintf(f, "<text x=\"%.1f\" y=\"46\" class=\"sub\">%s, 1 thread; %s run; cons = conservative, exact, class = exact with classes; "
               "baselines one box per call; +N%% kept: boxes kept that satc exact culls, 1M; roofline = read of the same bytes</text>\n",
            LEFT, r->cpu, r->run);
    /* Legend. */
    double lx = LEFT, ly = 58;
    const char *const leg[4] = {"satc 4096 boxes", "satc 1M boxes", "baseline 4096", "baseline 1M"};
    for (int i = 0; i < 4; i++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n", lx, ly, bar_fill[i / 2][i % 2]);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"leg\">%s</text>\n", lx + 19, ly + 10, leg[i]);
        lx += 150;
    }
    for (int s = 0; s < BENCH_SCENES; s++)
        panel(f, r, s, TOP + s * PANEL_H, &sc);
    if (r->frame.done)
        frame_panel(f, r, TOP + BENCH_SCENES * PANEL_H, &sc);
    fprintf(f, "</svg>\n");
    return fclose(f) == 0 ? 0 : -1;
}
