#include <stdio.h>
#include <satc.h>

int main(void)
{
    /* Entities as world AABBs (center, half extents) records, as a game
     * server or an editor holds them. */
    enum { N = 5 };
    const float aabb[N][6] = {{0, 0, 0, 1, 1, 1},    {4, 0, 0, 1, 2, 1},  {10, 0, 0, 1, 1, 1},
                              {0, 6, 0, 2, 1, 2},    {-8, 0, 3, 1, 1, 1}};
    satc_batch batch = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(&aabb[0][0], sizeof aabb[0]),
                                 SATC_VEC3S_AOS(&aabb[0][3], sizeof aabb[0])}};
    uint32_t hit[N];
    satc_results out = {.indices = hit};

    /* Area of effect: a box 3 wide, turned 45 degrees about y, at (3, 0, 0). */
    const float s = 0.70710678f;
    satc_obb area = {.center = {3, 0, 0},
                     .axis = {{s, 0, -s}, {0, 1, 0}, {s, 0, s}},
                     .extent = {1.5f, 1.5f, 1.5f}};
    satc_frustum q;
    if (satc_frustum_from_box(&q, &area) || satc_cull(&q, &batch, 0, N, SATC_EXACT, &out))
        return 1;
    printf("area:");
    for (size_t k = 0; k < out.visible; k++)
        printf(" %u", (unsigned)hit[k]);

    /* Picking: the mouse ray clipped to the far plane, as a segment. */
    const float from[3] = {-20, 0.5f, 3}, to[3] = {20, 0.5f, 3};
    if (satc_frustum_from_segment(&q, from, to) || satc_cull(&q, &batch, 0, N, SATC_EXACT, &out))
        return 1;
    printf("\nray:");
    for (size_t k = 0; k < out.visible; k++)
        printf(" %u", (unsigned)hit[k]);
    printf("\n");
    return 0;
}
