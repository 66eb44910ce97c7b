/* The run header of performance output (see run_header.h). The build
 * facts come from benchdnn/CMakeLists.txt as compile definitions of this
 * file only, so a new commit rebuilds one file. */
#define _POSIX_C_SOURCE 200809L /* gethostname, gmtime_r */
#include "run_header.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tessera.h"

#ifndef BENCHDNN_COMMIT
#define BENCHDNN_COMMIT "unknown"
#endif
#ifndef BENCHDNN_COMPILER
#define BENCHDNN_COMPILER "unknown"
#endif
#ifndef BENCHDNN_BUILD_TYPE
#define BENCHDNN_BUILD_TYPE "unknown"
#endif
#ifndef BENCHDNN_BUILD_OPTIONS
#define BENCHDNN_BUILD_OPTIONS "unknown"
#endif

static int header_printed;

/* The first "model name" of /proc/cpuinfo, or "unknown". */
static void read_cpu_model(char *out, size_t len) {
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            continue;
        const char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(out, len, "%s", v);
        out[strcspn(out, "\r\n")] = '\0';
        break;
    }
    fclose(f);
}

static char *add_key(run_header_t *h, const char *key) {
    h->key[h->n] = key;
    return h->value[h->n++];
}

void run_header_collect(run_header_t *h) {
    const size_t len = sizeof(h->value[0]);
    h->n = 0;
    const time_t now = time(NULL);
    struct tm utc;
    char *v = add_key(h, "date");
    if (gmtime_r(&now, &utc))
        strftime(v, len, "%Y-%m-%dT%H:%M:%SZ", &utc);
    else
        snprintf(v, len, "unknown");
    snprintf(add_key(h, "commit"), len, "%s", BENCHDNN_COMMIT);
    snprintf(add_key(h, "compiler"), len, "%s", BENCHDNN_COMPILER);
    snprintf(add_key(h, "build_type"), len, "%s", BENCHDNN_BUILD_TYPE);
    snprintf(add_key(h, "build_options"), len, "%s", BENCHDNN_BUILD_OPTIONS);
    snprintf(add_key(h, "isa"), len, "%s",
             tsr_cpu_isa2str(tsr_get_effective_cpu_isa()));
    snprintf(add_key(h, "threads"), len, "%d", omp_get_max_threads());
    read_cpu_model(add_key(h, "cpu"), len);
    v = add_key(h, "host");
    if (gethostname(v, len) != 0)
        snprintf(v, len, "unknown");
    v[len - 1] = '\0';
}

void run_header_print_once(void) {
    if (header_printed)
        return;
    header_printed = 1;
    run_header_t h;
    run_header_collect(&h);
    for (int i = 0; i < h.n; i++)
        printf("# %s=%s\n", h.key[i], h.value[i]);
}
