#include <stdio.h>
#include <satc.h>

int main(void)
{
    /* Camera + 4 shadow cascades of one directional light (orthographic
     * boxes in the light's frame), culled in one pass. */
    satc_frustum views[5];
    const float eye[3] = {0, 2, 0}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    if (satc_frustum_perspective(&views[0], eye, dir, up, 1.0f, 16.0f / 9.0f, 0.1f, 400.0f))
        return 1;
    for (int c = 0; c < 4; c++) {
        float r = 10.0f * (float)(1 << (2 * c)); /* 10, 40, 160, 640 */
        /* One origin and frame for all four: they share each load. */
        satc_camera light = {.origin = {0, 100, 0},
                             .left = {1, 0, 0}, .up = {0, 0, 1}, .dir = {0, -1, 0},
                             .l0 = -r, .l1 = r, .u0 = 10 - 2 * r, .u1 = 10, .n = 0, .f = 200,
                             .orthographic = 1};
        if (satc_frustum_from_camera(&views[1 + c], &light))
            return 1;
    }

    /* Objects as world spheres (center, radius) records. */
    enum { N = 6 };
    const float spheres[N][4] = {{0, 1, -5, 1},     {0, 1, 5, 1},        {30, 1, -30, 2},
                                 {0, 1, -300, 5},   {500, 1, -500, 3},   {-2000, 1, 0, 1}};
    satc_batch batch = {.form = SATC_FORM_SPHERES,
                        .spheres = {SATC_VEC3S_AOS(&spheres[0][0], sizeof spheres[0]),
                                    {&spheres[0][3], sizeof spheres[0]}}};

    /* One byte per object: bit 0 the camera, bits 1-4 the cascades. */
    uint8_t mask[N];
    size_t visible[5];
    satc_view_results res = {.masks = mask, .visible = visible};
    if (satc_cull_views(views, 5, &batch, 0, N, SATC_EXACT, &res) != SATC_OK)
        return 1;
    for (int i = 0; i < N; i++)
        printf("object %d: views 0x%02x\n", i, mask[i]);

    /* This example is also a test. Object 1 is behind the camera but
     * casts into the first cascades; object 5 is in no view. */
    int ok = mask[0] == 0x1f && mask[1] == 0x1e && mask[2] == 0x1d && mask[3] == 0x19 &&
             mask[4] == 0x10 && mask[5] == 0x00 && visible[0] == 3;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
