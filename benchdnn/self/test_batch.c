/* Batch files: nesting, comments, continuation lines, quotes, lookup next
 * to the including file, cycles and missing files. */
#include "self_util.h"

#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "common/batch.h"
#include "common/benchdnn.h"

static char dir[PATH_MAX];

static void write_file(const char *name, const char *text) {
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Expands the single argument `arg`; 0 or -1 (message in err). */
static int expand(const char *arg, token_list_t *out, char *err) {
    char *argv[] = {(char *)arg};
    return batch_expand_try(1, argv, "conv", out, err);
}

static int tokens_are(const token_list_t *t, const char *const *want, int n) {
    if (t->n != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(t->tok[i], want[i]) != 0)
            return 0;
    return 1;
}

static void test_nesting_and_syntax(void) {
    write_file("top.txt", "--mode=L   # a comment --batch=nothing.txt\n"
                          "\n"
                          "--batch=sub/inner.txt\n"
                          "A \\\n"
                          "  B\n"
                          "--attr-post-ops='sum;relu' n\"name # kept\"\n"
                          "long\\\n"
                          "token   \t last# trailing comment\n"
                          "--attr-post-ops=, \\\n"
                          "    sum:0.5, \\\n"
                          "    relu\n");
    write_file("sub/inner.txt", "X\tY\n--batch=leaf.txt\n");
    /* Found next to inner.txt first, not this one in the current dir. */
    write_file("sub/leaf.txt", "Z\n");
    write_file("leaf.txt", "WRONG\n");

    token_list_t t = {0};
    char err[BENCH_ERR_LEN] = "";
    const int rc = expand("--batch=top.txt", &t, err);
    CHECK(rc == 0);
    const char *const want[] = {"--mode=L",
                                "X",
                                "Y",
                                "Z",
                                "A",
                                "B",
                                "--attr-post-ops='sum;relu'",
                                "n\"name # kept\"",
                                "longtoken",
                                "last",
                                "--attr-post-ops=,sum:0.5,relu"};
    if (!CHECK(tokens_are(&t, want, (int)(sizeof(want) / sizeof(want[0])))))
        for (int i = 0; i < t.n; i++)
            fprintf(stderr, "token %d: [%s]\n", i, t.tok[i]);
    /* Each token's file and the line it starts on, continuations
     * counted. */
    const char *const origins[] = {
            "top.txt line 1",       "sub/inner.txt line 1",
            "sub/inner.txt line 1", "leaf.txt line 1",
            "top.txt line 4",       "top.txt line 5",
            "top.txt line 6",       "top.txt line 6",
            "top.txt line 7",       "top.txt line 8",
            "top.txt line 9"};
    for (int i = 0; i < t.n && i < 11; i++)
        if (!CHECK(t.origin[i] && !strcmp(t.origin[i], origins[i])))
            fprintf(stderr, "token %d: origin [%s]\n", i,
                    t.origin[i] ? t.origin[i] : "(none)");
    /* Registered, a token's origin is found by its pointer. */
    batch_set_tokens(&t);
    CHECK(!strcmp(batch_token_origin(t.tok[4]), "top.txt line 4"));
    CHECK(batch_token_origin("A") == NULL);
    token_list_free(&t);
    CHECK(batch_token_origin(NULL) == NULL);

    /* Arguments around a batch keep their order; theirs have no origin. */
    char *argv[] = {"--dir=FWD_D", "--batch=sub/leaf.txt", "ic1"};
    CHECK(batch_expand_try(3, argv, "conv", &t, err) == 0);
    const char *const want2[] = {"--dir=FWD_D", "Z", "ic1"};
    CHECK(tokens_are(&t, want2, 3));
    CHECK(t.n == 3 && !t.origin[0] && t.origin[1] && !t.origin[2]);
    token_list_free(&t);

    /* An absolute path. */
    char abs_arg[PATH_MAX + 32];
    snprintf(abs_arg, sizeof(abs_arg), "--batch=%s/sub/leaf.txt", dir);
    CHECK(expand(abs_arg, &t, err) == 0 && t.n == 1 && !strcmp(t.tok[0], "Z"));
    token_list_free(&t);
}

static void test_errors(void) {
    token_list_t t = {0};
    char err[BENCH_ERR_LEN] = "";

    CHECK(expand("--batch=no_such_file.txt", &t, err) == -1);
    CHECK(strstr(err, "no_such_file.txt") != NULL);
    CHECK(t.n == 0 && t.tok == NULL);

    write_file("c1.txt", "one --batch=c2.txt\n");
    write_file("c2.txt", "two --batch=c1.txt\n");
    CHECK(expand("--batch=c1.txt", &t, err) == -1);
    CHECK(strstr(err, "c1.txt") != NULL && strstr(err, "itself") != NULL);

    write_file("self.txt", "--batch=self.txt\n");
    CHECK(expand("--batch=self.txt", &t, err) == -1);

    write_file("quote.txt", "--attr-post-ops='sum\n");
    CHECK(expand("--batch=quote.txt", &t, err) == -1);
    CHECK(strstr(err, "quote.txt") != NULL);

    CHECK(expand("--batch=", &t, err) == -1);
    CHECK(expand("--batch", &t, err) == -1);

    /* A directory or a device is not a batch file, and is named so. */
    CHECK(expand("--batch=sub", &t, err) == -1);
    CHECK(t.n == 0);
    CHECK(strstr(err, "sub' is a directory") != NULL);
    CHECK(expand("--batch=/dev/null", &t, err) == -1);
    CHECK(strstr(err, "'/dev/null' is a device") != NULL);
}

/* Writes `n` bytes, NULs included. */
static void write_bytes(const char *name, const char *bytes, size_t n) {
    FILE *f = fopen(name, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(bytes, 1, n, f) == n);
        fclose(f);
    }
}

/* Not text: named with the file and line, nothing expanded. */
static int rejected_as(const char *name, const char *message) {
    token_list_t t = {0};
    char err[BENCH_ERR_LEN] = "";
    char arg[64];
    snprintf(arg, sizeof(arg), "--batch=%s", name);
    const int ok = expand(arg, &t, err) == -1 && t.n == 0 &&
                   strstr(err, name) != NULL && strstr(err, message) != NULL;
    if (!ok)
        fprintf(stderr, "%s: [%s]\n", name, err);
    return ok;
}

static void test_not_text(void) {
    static const char nul[] = "A\nB\nC\0D\n";
    write_bytes("nul.txt", nul, sizeof(nul) - 1);
    CHECK(rejected_as("nul.txt", "line 3: NUL byte"));
    static const char control[] = "A\n\x01\n";
    write_bytes("control.txt", control, sizeof(control) - 1);
    CHECK(rejected_as("control.txt", "line 2: byte 0x01, not UTF-8"));
    /* A lone continuation byte, an overlong '/', a surrogate, a
     * truncated sequence at the end. */
    static const char *const bad[] = {"A \x80", "\xc0\xaf", "\xed\xa0\x80",
                                      "A\n\n\n\xe2\x82"};
    static const char *const bad_line[] = {
            "line 1: byte 0x80", "line 1: byte 0xc0", "line 1: byte 0xed",
            "line 4: byte 0xe2"};
    for (int i = 0; i < 4; i++) {
        write_bytes("bad.txt", bad[i], strlen(bad[i]));
        CHECK(rejected_as("bad.txt", bad_line[i]));
    }
    /* UTF-8 text, CRLF line ends and form feeds are fine. */
    static const char good[] =
            "# caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\r\nX\f\n";
    write_bytes("good.txt", good, sizeof(good) - 1);
    token_list_t t = {0};
    char err[BENCH_ERR_LEN] = "";
    CHECK(expand("--batch=good.txt", &t, err) == 0 && t.n == 1 &&
          !strcmp(t.tok[0], "X"));
    token_list_free(&t);
}

int main(void) {
    snprintf(dir, sizeof(dir), "%s/benchdnn_batch_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char sub[PATH_MAX + 8];
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    mkdir(sub, 0700);
    /* Command-line batch files are looked up from the current directory. */
    if (chdir(dir) != 0) {
        perror("chdir");
        return 1;
    }
    test_nesting_and_syntax();
    test_errors();
    test_not_text();

    const char *names[] = {"top.txt",     "sub/inner.txt", "sub/leaf.txt",
                           "leaf.txt",    "c1.txt",        "c2.txt",
                           "self.txt",    "quote.txt",     "nul.txt",
                           "control.txt", "bad.txt",       "good.txt"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        unlink(names[i]);
    rmdir("sub");
    if (chdir("/") == 0)
        rmdir(dir);
    return check_failures() != 0;
}
