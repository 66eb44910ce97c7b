/* Batch files: the input's first line names the driver ("--conv"; conv
 * when it names none), the rest is a batch file's text. It is written to
 * a file named "b" in a folder of this process, so that "--batch=b" in the
 * text includes the file itself, then expanded as benchdnn expands
 * --batch=FILE (comments, quotes, continued lines, nested files, the text
 * checks), and the tokens run as fuzz_benchdnn_cli runs its own. */
#define _GNU_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_fuzz.h"
#include "common/benchdnn.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char batch_dir[64];
static char batch_path[96];

static void remove_batch_dir(void) {
    unlink(batch_path);
    rmdir(batch_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(batch_dir, sizeof(batch_dir), "%s/tsr_fuzz_batch.XXXXXX",
             tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(batch_dir))
        abort();
    snprintf(batch_path, sizeof(batch_path), "%s/b", batch_dir);
    atexit(remove_batch_dir);
    bench_fuzz_init();
    return 0;
}

static const char *const drivers[] = {
        "conv",    "ip",  "matmul", "eltwise", "binary",  "prelu",
        "reorder", "sum", "concat", "shuffle", "zeropad",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *driver = "conv";
    const uint8_t *eol = memchr(data, '\n', size);
    if (eol && size > 2 && data[0] == '-' && data[1] == '-') {
        const size_t len = (size_t)(eol - data) - 2;
        for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
            if (strlen(drivers[i]) == len &&
                !memcmp(data + 2, drivers[i], len)) {
                driver = drivers[i];
                size -= (size_t)(eol + 1 - data);
                data = eol + 1;
                break; /* data is the batch text now */
            }
    }
    FILE *f = fopen(batch_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();

    char option[128];
    snprintf(option, sizeof(option), "--batch=%s", batch_path);
    char *argv[] = {option};
    token_list_t tokens = {0};
    char err[BENCH_ERR_LEN];
    if (batch_expand_try(1, argv, driver, &tokens, err) != 0)
        return 0; /* a usage error naming the file: the expected end */

    /* The driver, then the file's tokens. */
    char dashed[16];
    snprintf(dashed, sizeof(dashed), "--%s", driver);
    char **run = malloc(((size_t)tokens.n + 1) * sizeof(char *));
    if (!run)
        abort();
    run[0] = dashed;
    if (tokens.n > 0) /* an empty file has no token list */
        memcpy(run + 1, tokens.tok, (size_t)tokens.n * sizeof(char *));
    bench_fuzz_run(tokens.n + 1, run);
    free(run);
    token_list_free(&tokens);
    return 0;
}
