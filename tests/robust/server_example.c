#include <stdio.h>
#include <string.h>
#include <satc.h>

enum { SIDE = 128, N = SIDE * SIDE, PLAYERS = 3, GROUP = 64 };

static float center[N][3], half[N][3];      /* entities: world AABBs */
static float gcenter[N / GROUP][3], ghalf[N / GROUP][3];
static uint32_t seen[PLAYERS][N];

int main(void)
{
    /* Entities on a 2 m grid, stored row by row in 8 x 8 blocks, so
     * each group of 64 consecutive entities is one compact block. */
    for (int i = 0; i < N; i++) {
        int block = i / GROUP, k = i % GROUP;
        int x = (block % (SIDE / 8)) * 8 + k % 8, z = (block / (SIDE / 8)) * 8 + k / 8;
        float c[3] = {2.0f * (float)x, 0.5f, 2.0f * (float)z}, h[3] = {0.4f, 0.5f, 0.4f};
        memcpy(center[i], c, sizeof c), memcpy(half[i], h, sizeof h);
    }
    satc_batch batch = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(center[0], 12), SATC_VEC3S_AOS(half[0], 12)}};

    /* Group bounds, once for entities that do not move (or per frame
     * from the engine's own chunk bounds). */
    if (satc_group_bounds(&batch, N, GROUP, NULL, N / GROUP, gcenter[0], ghalf[0]))
        return 1;
    satc_groups groups = {.size = GROUP, .ngroups = N / GROUP,
                          .center = SATC_VEC3S_AOS(gcenter[0], 12),
                          .half = SATC_VEC3S_AOS(ghalf[0], 12)};
    satc_batch grouped = batch;
    grouped.groups = &groups;

    /* One view per player: 60 degrees, 60 m of interest. */
    satc_frustum views[PLAYERS];
    const float eye[PLAYERS][3] = {{10, 1.7f, 10}, {200, 1.7f, 128}, {-50, 1.7f, -50}};
    const float dir[PLAYERS][3] = {{0.6f, 0, 0.8f}, {-1, 0, 0}, {-1, 0, 0}};
    const float up[3] = {0, 1, 0};
    for (int p = 0; p < PLAYERS; p++)
        if (satc_frustum_perspective(&views[p], eye[p], dir[p], up, 1.047f, 1.0f, 0.1f, 60.0f))
            return 1;

    /* What to send to each player; groups out of every view are skipped
     * without reading their entities. */
    uint32_t *lists[PLAYERS] = {seen[0], seen[1], seen[2]};
    size_t count[PLAYERS], flat_count[PLAYERS];
    satc_view_results res = {.indices = lists, .visible = count};
    if (satc_cull_views(views, PLAYERS, &grouped, 0, N, SATC_EXACT, &res) != SATC_OK)
        return 1;
    for (int p = 0; p < PLAYERS; p++)
        printf("player %d sees %zu entities\n", p, count[p]);

    /* This example is also a test: the groups change nothing but speed.
     * Player 2 stands outside the world looking away from it. */
    static uint32_t flat[PLAYERS][N];
    uint32_t *flat_lists[PLAYERS] = {flat[0], flat[1], flat[2]};
    satc_view_results fres = {.indices = flat_lists, .visible = flat_count};
    int ok = satc_cull_views(views, PLAYERS, &batch, 0, N, SATC_EXACT, &fres) == SATC_OK;
    for (int p = 0; p < PLAYERS; p++)
        ok = ok && count[p] == flat_count[p] &&
             !memcmp(seen[p], flat[p], count[p] * sizeof seen[p][0]);
    ok = ok && count[0] > 100 && count[1] > 100 && count[2] == 0;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
