/* The "did you mean" matching of misspelt options and drivers, and that
 * every common option the parser takes is one --help lists. */
#include "self_util.h"

#include <stdio.h>
#include <string.h>

#include "common/cli_help.h"
#include "common/parser.h"

static int distance(const char *a, const char *b) {
    return bench_edit_distance(a, strlen(a), b);
}

/* The suggestion for `word` among `names` (NULL-terminated) and the
 * common options. */
static const char *suggest(const char *word, const char *const *names) {
    bench_suggest_t s;
    bench_suggest_init(&s, word, strlen(word));
    for (; names && *names; names++)
        bench_suggest_consider(&s, *names);
    bench_suggest_consider_common(&s);
    return bench_suggest_best(&s);
}

static int suggests(const char *word, const char *const *names,
                    const char *expected) {
    const char *got = suggest(word, names);
    return expected ? got && !strcmp(got, expected) : got == NULL;
}

static void test_edit_distance(void) {
    CHECK(distance("", "") == 0);
    CHECK(distance("mb", "mb") == 0);
    CHECK(distance("mbb", "mb") == 1);    /* deletion */
    CHECK(distance("stg", "stag") == 1);  /* insertion */
    CHECK(distance("dtag", "stag") == 1); /* substitution */
    CHECK(distance("cnov", "conv") == 1); /* neighbours swapped */
    CHECK(distance("rleu", "relu") == 1); /* neighbours swapped */
    CHECK(distance("kitten", "sitting") == 3);
    CHECK(distance("abc", "") == 3 && distance("", "abc") == 3);
    /* Only the first alen bytes of a count: "--mbb=2" has name "mbb". */
    CHECK(bench_edit_distance("mbb=2", 3, "mb") == 1);
}

static void test_suggest(void) {
    static const char *const drivers[] = {"conv", "ip", "matmul", "eltwise",
                                          NULL};
    static const char *const conv_opts[] = {"dir", "cfg", "dt", "stag",
                                            "mb",  "alg", NULL};
    CHECK(suggests("cnov", drivers, "conv"));
    CHECK(suggests("matmull", drivers, "matmul"));
    CHECK(suggests("mbb", conv_opts, "mb"));
    CHECK(suggests("stagg", conv_opts, "stag"));
    CHECK(suggests("attr-post-op", conv_opts, "attr-post-ops"));
    CHECK(suggests("attr-post", conv_opts, "attr-post-ops")); /* a prefix */
    CHECK(suggests("mdoe", conv_opts, "mode"));
    CHECK(suggests("max-ms-per-prbs", NULL, "max-ms-per-prb"));
    /* Nothing close: no guess. */
    CHECK(suggests("frobnicate", drivers, NULL));
    CHECK(suggests("no-such-option", conv_opts, NULL));
    CHECK(suggests("xy", conv_opts, NULL));
    /* A short word allows one edit only ("dt" is two away). */
    CHECK(suggests("ab", conv_opts, "mb"));
    CHECK(suggests("zzz", conv_opts, NULL));
    /* The word itself is not suggested back. */
    CHECK(suggests("mode", NULL, NULL));
}

static void test_option_name(void) {
    size_t len;
    const char *name = bench_option_name("--mbb=2", &len);
    CHECK(len == 3 && !strncmp(name, "mbb", len));
    name = bench_option_name("--inplace", &len);
    CHECK(len == 7 && !strcmp(name, "inplace"));
}

/* Every option --help lists is one parse_common_option takes, so a
 * suggestion never names an option that does not exist. */
static void test_common_docs_are_options(void) {
    char err[BENCH_ERR_LEN];
    static const char *const main_options[] = {"batch", "reset", "help",
                                               "version"};
    for (int i = 0; i < bench_n_common_option_docs; i++) {
        const char *name = bench_common_option_docs[i].name;
        int handled_by_main = 0;
        for (size_t k = 0; k < sizeof(main_options) / sizeof(*main_options);
             k++)
            handled_by_main |= !strcmp(name, main_options[k]);
        if (handled_by_main)
            continue;
        char tok[64];
        snprintf(tok, sizeof(tok), "--%s=bad value", name);
        const int rc = parse_common_option_try(tok, err);
        if (!CHECK(rc != 0))
            fprintf(stderr, "  --%s is not a common option\n", name);
    }
}

/* Value hints: the closest value, the list (cut to the message buffer),
 * or nothing when the value is itself valid. */
static void test_value_hint(void) {
    static const char *const names[] = {"nchw", "nhwc", "ncw"};
    char err[BENCH_ERR_LEN] = "bad";
    bench_append_value_hint(err, "nhcw", names, 3, 1);
    CHECK(!strcmp(err, "bad (did you mean 'nchw'?)"));
    snprintf(err, sizeof(err), "bad");
    bench_append_value_hint(err, "zzzzzz", names, 3, 1);
    CHECK(!strcmp(err, "bad (one of: nchw, nhwc, ncw)"));
    snprintf(err, sizeof(err), "bad");
    bench_append_value_hint(err, "zzzzzz", names, 3, 0);
    CHECK(!strcmp(err, "bad"));
    bench_append_value_hint(err, "nhwc", names, 3, 1);
    CHECK(!strcmp(err, "bad"));
    bench_append_value_hint(NULL, "nhcw", names, 3, 1); /* no message */
    /* Many long names: cut with "...)" inside the buffer. */
    static const char *const longs[] = {
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            "cccccccccccccccccccccccccccccccccccccccc",
            "dddddddddddddddddddddddddddddddddddddddd",
            "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
            "ffffffffffffffffffffffffffffffffffffffff",
            "gggggggggggggggggggggggggggggggggggggggg"};
    snprintf(err, sizeof(err), "bad");
    bench_append_value_hint(err, "z", longs, 7, 1);
    const size_t len = strlen(err);
    CHECK(len < BENCH_ERR_LEN && len > 4 && !strcmp(err + len - 4, "...)"));
}

int main(void) {
    bench_settings_init();
    test_edit_distance();
    test_suggest();
    test_value_hint();
    test_option_name();
    test_common_docs_are_options();
    bench_settings_free();
    return check_failures() != 0;
}
