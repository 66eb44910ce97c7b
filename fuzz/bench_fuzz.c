/* benchdnn in process: the exit hook longjmps back to bench_fuzz_run. */
#include "bench_fuzz.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_main.h"
#include "common/benchdnn.h"
#include "common/parser.h"

/* Limits that keep one input well under a second: the comma lists of the
 * options multiply, and each combination is one problem. */
#define MAX_TOKENS 32
#define MAX_COMMAS 8
/* The largest number an input may hold for its primitives to be created. */
#define MAX_INIT_NUMBER 16

static jmp_buf usage_exit_jump;
static int usage_exit_code;

static void usage_exit_hook(int code) {
    usage_exit_code = code;
    longjmp(usage_exit_jump, 1);
}

void bench_fuzz_init(void) {
    bench_set_exit_hook(usage_exit_hook);
    if (getenv("TSR_FUZZ_VERBOSE"))
        return;
    /* libFuzzer and the sanitizers write to the descriptor 2 directly or
     * through the stream they took at start-up: only benchdnn's output
     * goes. */
    if (!freopen("/dev/null", "w", stdout))
        abort();
    FILE *null_err = fopen("/dev/null", "w");
    if (!null_err)
        abort();
    stderr = null_err;
}

static void push_token(token_list_t *out, const char *text, size_t len) {
    if (len == 0)
        return;
    if (out->n == out->cap) {
        const int cap = out->cap ? 2 * out->cap : 16;
        char **grown = realloc(out->tok, (size_t)cap * sizeof(char *));
        if (!grown)
            abort();
        out->tok = grown;
        out->cap = cap;
    }
    char *tok = malloc(len + 1);
    if (!tok)
        abort();
    memcpy(tok, text, len);
    tok[len] = '\0';
    out->tok[out->n++] = tok;
}

void bench_fuzz_split(const uint8_t *data, size_t size, token_list_t *out) {
    const char *text = (const char *)data;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || text[i] == '\n' || text[i] == '\0') {
            push_token(out, text + start, i - start);
            start = i + 1;
        }
    }
}

/* Options the fuzz target decides itself, or that would run long. */
static int dropped(const char *tok, int init_mode) {
    static const char *const names[] = {"mode", "batch", "repeats-per-prb"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (parse_option_value(tok, names[i]))
            return 1;
    /* The C library's regex engine is not under test: repetitions can
     * make it take minutes. */
    const char *match = parse_option_value(tok, "match");
    if (match && strpbrk(match, "{*+\\"))
        return 1;
    /* oneDNN is not under test either. */
    return init_mode && parse_option_value(tok, "lib");
}

static int largest_number_is_small(int n, char **tokens) {
    for (int i = 0; i < n; i++) {
        for (const char *p = tokens[i]; *p;) {
            if (!isdigit((unsigned char)*p)) {
                p++;
                continue;
            }
            long long v = 0;
            for (; isdigit((unsigned char)*p); p++)
                if ((v = v * 10 + (*p - '0')) > MAX_INIT_NUMBER)
                    return 0;
        }
    }
    return 1;
}

int bench_fuzz_run(int ntokens, char **tokens) {
    if (ntokens > MAX_TOKENS)
        return -1;
    int commas = 0;
    for (int i = 0; i < ntokens; i++)
        for (const char *p = tokens[i]; *p; p++)
            commas += *p == ',';
    if (commas > MAX_COMMAS)
        return -1;
    const int init_mode = largest_number_is_small(ntokens, tokens);
    /* benchdnn, the forced mode, the kept tokens, NULL. */
    char **argv = calloc((size_t)ntokens + 3, sizeof(char *));
    if (!argv)
        abort();
    int argc = 0;
    argv[argc++] = "benchdnn";
    argv[argc++] = init_mode ? "--mode=I" : "--mode=L";
    for (int i = 0; i < ntokens; i++)
        if (!dropped(tokens[i], init_mode))
            argv[argc++] = tokens[i];
    int rc;
    if (setjmp(usage_exit_jump) == 0)
        rc = benchdnn_main(argc, argv);
    else
        rc = usage_exit_code;
    free(argv);
    return rc;
}
