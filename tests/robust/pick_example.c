#include <math.h>
#include <stdio.h>
#include <satc.h>

int main(void)
{
    /* Entities as world AABBs (center, half extents) records. */
    enum { N = 5 };
    const float aabb[N][6] = {{0, 0, -10, 1, 1, 1},  {0, 0, -4, 0.5f, 0.5f, 0.5f},
                              {3, 0, -6, 1, 1, 1},   {0, 0, 5, 1, 1, 1},
                              {0, 0.75f, -20, 2, 0.75f, 2}};
    satc_batch batch = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(&aabb[0][0], sizeof aabb[0]),
                                 SATC_VEC3S_AOS(&aabb[0][3], sizeof aabb[0])}};
    uint32_t hit[N];
    float t[N];
    satc_results out = {.indices = hit};

    /* Picking: the mouse ray from the camera, a half-line (tmax = +Inf).
     * Exact mode; t[k] is where the ray enters box hit[k] (in units of
     * |dir|), `nearest` the box it enters first. The ray grazes box 1's
     * top face: touching is a hit. */
    const float eye[3] = {0, 0.5f, 0}, dir[3] = {0, 0, -1};
    size_t nearest;
    if (satc_query_ray(eye, dir, INFINITY, &batch, 0, N, SATC_EXACT, &out, t, &nearest))
        return 1;
    printf("ray:");
    for (size_t k = 0; k < out.visible; k++)
        printf(" %u (t %g)", (unsigned)hit[k], t[k]);
    printf(", nearest %zu\n", nearest);
    int ok = out.visible == 3 && hit[0] == 0 && hit[1] == 1 && hit[2] == 4 && t[1] == 3.5f &&
             nearest == 1;

    /* Area of effect: every entity within 2.5 of an explosion at (2, 0, -8)
     * (box 0's edge is 1.41 away, box 2's face 1, box 1's edge 3.81). */
    const float blast[3] = {2, 0, -8};
    if (satc_query_sphere(blast, 2.5f, &batch, 0, N, SATC_EXACT, &out))
        return 1;
    printf("blast:");
    for (size_t k = 0; k < out.visible; k++)
        printf(" %u", (unsigned)hit[k]);
    printf("\n");
    ok &= out.visible == 2 && hit[0] == 0 && hit[1] == 2;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
