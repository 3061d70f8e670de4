/*
 * Plain driver for the fuzz harness, so `meson test` exercises it with any
 * compiler: runs every file of the given corpus directories (or files),
 * then seeded mutations of each (byte flips, truncations) and seeded
 * random inputs. Each input counts as one check.
 * Usage: fuzz_driver [--mutations N] [--random N] PATH...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cull.h"

static long passed, failed;

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void one(const uint8_t *data, size_t size, const char *what)
{
    int f = satc_fuzz_one(data, size);
    if (f) {
        failed++;
        printf("FAIL: %s: %d rules broken\n", what, f);
    } else {
        passed++;
    }
}

static int run_file(const char *path, int mutations, uint64_t *seed)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, fp);
    int err = ferror(fp);
    fclose(fp);
    if (err)
        return -1;
    one(buf, n, path);
    uint8_t m[1 << 16];
    for (int k = 0; k < mutations && n; k++) {
        size_t len = n;
        memcpy(m, buf, n);
        int flips = 1 + (int)(next(seed) % 4);
        for (int j = 0; j < flips; j++)
            m[next(seed) % len] ^= (uint8_t)(1u << (next(seed) % 8));
        if (next(seed) % 4 == 0)
            len = (size_t)(next(seed) % (len + 1));
        char what[512];
        snprintf(what, sizeof what, "%s mutation %d", path, k);
        one(m, len, what);
    }
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Runs the files of a directory in name order (deterministic); returns
 * how many were run, or -1 when the path cannot be read. An unreadable
 * file in it, or an empty directory, is a failure (a corpus that runs
 * nothing must not pass). */
static int run_dir(const char *dir, int mutations, uint64_t *seed)
{
    DIR *d = opendir(dir);
    if (!d)
        return run_file(dir, mutations, seed) ? -1 : 1;
    char *names[1024];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 1024) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count])
            break;
        snprintf(names[count], len, "%s/%s", dir, e->d_name);
        count++;
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], cmp);
    for (int k = 0; k < count; k++) {
        if (run_file(names[k], mutations, seed)) {
            printf("FAIL: cannot read %s\n", names[k]);
            failed++;
        }
        free(names[k]);
    }
    if (!count) {
        printf("FAIL: corpus directory %s is empty\n", dir);
        failed++;
    }
    return count;
}

int main(int argc, char **argv)
{
    int mutations = 200, random_inputs = 2000, paths = 0, files = 0;
    uint64_t seed = 0x66757a7aull;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--mutations") && k + 1 < argc) {
            mutations = atoi(argv[++k]);
        } else if (!strcmp(argv[k], "--random") && k + 1 < argc) {
            random_inputs = atoi(argv[++k]);
        } else {
            int c = run_dir(argv[k], mutations, &seed);
            if (c < 0) {
                printf("FAIL: cannot read %s\n", argv[k]);
                failed++;
            } else {
                files += c;
            }
            paths++;
        }
    }
    uint8_t buf[2048];
    for (int k = 0; k < random_inputs; k++) {
        size_t len = (size_t)(next(&seed) % sizeof buf);
        for (size_t j = 0; j < len; j++)
            buf[j] = (uint8_t)next(&seed);
        char what[64];
        snprintf(what, sizeof what, "random input %d", k);
        one(buf, len, what);
    }
    printf("%d corpus files, %d mutations each, %d random inputs\n", files, mutations,
           random_inputs);
    if (!paths)
        printf("(no corpus given)\n");
    printf("inputs %ld: frusta built %ld (oracle-eligible %ld, plane volumes %ld), boxes culled on "
           "every path %ld, culled boxes checked against the oracle %ld\n",
           satc_fuzz_counts.inputs, satc_fuzz_counts.frusta_built, satc_fuzz_counts.oracle_cams,
           satc_fuzz_counts.plane_volumes, satc_fuzz_counts.boxes, satc_fuzz_counts.oracle_checked);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
