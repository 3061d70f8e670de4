#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <satc.h>

/* One job: a range of the batch, its own index list (no sharing). */
typedef struct job {
    const satc_frustum *frustum;
    const satc_batch *batch;
    size_t first, count;
    uint8_t *bitmask; /* the shared bitmask: each job writes its own bytes */
    uint32_t *indices;
    size_t visible;
    satc_status status;
} job;

static void *run(void *p)
{
    job *j = p;
    satc_results r = {.bitmask = j->bitmask + j->first / 8, .indices = j->indices};
    j->status = satc_cull(j->frustum, j->batch, j->first, j->count, SATC_EXACT, &r);
    j->visible = r.visible;
    return NULL;
}

int main(void)
{
    enum { N = 100000, JOBS = 4 };
    const float eye[3] = {0, 2, 0}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    satc_frustum frustum;
    if (satc_frustum_perspective(&frustum, eye, dir, up, 1.0f, 1.5f, 0.1f, 500.0f) != SATC_OK)
        return 1;
    /* World AABBs as records, e.g. an ECS component array. */
    typedef struct { float center[3], extents[3]; } bounds;
    bounds *b = malloc(N * sizeof *b);
    uint8_t *mask = malloc((N + 7) / 8);
    uint32_t *indices = malloc(N * sizeof *indices), *merged = malloc(N * sizeof *merged);
    if (!b || !mask || !indices || !merged)
        return 1;
    for (size_t i = 0; i < N; i++) {
        b[i] = (bounds){{(float)(i % 100) * 4 - 200, 0, -(float)(i / 100) * 2}, {1, 1, 1}};
    }
    satc_batch batch = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(&b[0].center[0], sizeof b[0]),
                                 SATC_VEC3S_AOS(&b[0].extents[0], sizeof b[0])}};

    /* Split at multiples of 64 (bitmask bytes stay whole, and SIMD vectors
     * too); each job gets a slice of one index array sized for its range. */
    job jobs[JOBS];
    pthread_t threads[JOBS];
    size_t per = (N / JOBS + 63) / 64 * 64;
    for (int t = 0; t < JOBS; t++) {
        size_t first = per * (size_t)t < N ? per * (size_t)t : N;
        size_t end = first + per < N ? first + per : N;
        jobs[t] = (job){&frustum, &batch, first, end - first, mask, indices + first, 0, SATC_OK};
        pthread_create(&threads[t], NULL, run, &jobs[t]);
    }
    /* Merge: the index lists in job order are the increasing list. */
    size_t total = 0;
    int ok = 1;
    for (int t = 0; t < JOBS; t++) {
        pthread_join(threads[t], NULL);
        ok &= jobs[t].status == SATC_OK;
        memmove(merged + total, jobs[t].indices, jobs[t].visible * sizeof *merged);
        total += jobs[t].visible;
    }

    /* This example is also a test: one call gives the same answer. */
    satc_results one = {.indices = indices};
    ok &= satc_cull(&frustum, &batch, 0, N, SATC_EXACT, &one) == SATC_OK;
    ok &= one.visible == total && !memcmp(indices, merged, total * sizeof *merged);
    size_t bits = 0;
    for (size_t i = 0; i < N; i++)
        bits += mask[i / 8] >> (i % 8) & 1;
    ok &= bits == total;
    printf("%zu of %d boxes visible, %d jobs\n%d passed, %d failed\n", total, N, JOBS, ok, !ok);
    free(b), free(mask), free(indices), free(merged);
    return ok ? 0 : 1;
}
