/*
 * Keeps each C example of README.md and the docs pages identical to its file
 * under tests/robust/ (compiled and run as a test). The page holds the file as
 * the fenced ```c block right after the line
 *     <!-- example: tests/robust/NAME.c -->
 * Usage: readme_check PAGE.md path/to/NAME.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb, cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static int fail(const char *why)
{
    printf("%s\n0 passed, 1 failed\n", why);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return fail("usage: readme_check README.md readme_example.c");
    char *readme = slurp(argv[1]), *code = slurp(argv[2]);
    if (!readme || !code)
        return fail("cannot read the files");
    const char *base = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];
    char marker[512];
    snprintf(marker, sizeof marker, "<!-- example: tests/robust/%s -->\n```c\n", base);
    char *start = strstr(readme, marker);
    if (!start)
        return fail("README.md has no example marker followed by a ```c fence");
    start += strlen(marker);
    char *end = strstr(start, "\n```\n");
    if (!end)
        return fail("README.md: the example's fence is not closed");
    end[1] = '\0'; /* keep the block's last newline */
    if (strcmp(start, code) != 0) {
        size_t line = 1, k = 0;
        while (start[k] && start[k] == code[k])
            line += start[k++] == '\n';
        printf("README.md's example differs from %s at line %zu of the file\n", argv[2], line);
        return fail("copy the file into README.md's block (or back)");
    }
    printf("README.md's example equals %s\n1 passed, 0 failed\n", argv[2]);
    free(readme);
    free(code);
    return 0;
}
