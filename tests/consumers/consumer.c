/*
 * The consumers' program (CMake, Meson, vendored): it links satc as an
 * outside project would, through the installed header and library only,
 * culls one box in view and one behind the camera, and checks the answer.
 */
#include <stdio.h>
#include <satc.h>

int main(void)
{
    const float eye[3] = {0, 0, 0}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    satc_frustum frustum;
    if (satc_frustum_perspective(&frustum, eye, dir, up, 1.0f, 1.0f, 0.1f, 100.0f) != SATC_OK)
        return 1;

    /* Two world AABBs (center, half extents): ahead, and behind the eye. */
    const float center[2][3] = {{0, 0, -10}, {0, 0, 10}}, half[2][3] = {{1, 1, 1}, {1, 1, 1}};
    satc_batch batch = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(&center[0][0], sizeof center[0]),
                                 SATC_VEC3S_AOS(&half[0][0], sizeof half[0])}};
    uint32_t visible[2];
    satc_results res = {.indices = visible};
    if (satc_cull(&frustum, &batch, 0, 2, SATC_EXACT, &res) != SATC_OK)
        return 1;

    unsigned v = satc_version();
    int ok = res.visible == 1 && visible[0] == 0;
    printf("satc %u.%u.%u (header %d.%d.%d), path %s: %zu of 2 boxes visible\n",
           v / 10000, v / 100 % 100, v % 100, SATC_VERSION_MAJOR, SATC_VERSION_MINOR,
           SATC_VERSION_PATCH, satc_isa_name(satc_isa_active()), res.visible);
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
