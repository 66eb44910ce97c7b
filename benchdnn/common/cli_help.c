/* Help tables and "did you mean" hints (see cli_help.h). */
#include "cli_help.h"

#include <string.h>

#include "benchdnn.h"

const bench_option_doc_t bench_common_option_docs[] = {
        {"batch", "FILE", "read options and problems from FILE"},
        {"reset", NULL, "driver options back to their defaults"},
        {"mode", "C|P|CP|L|I|B|F",
         "correctness, performance, both, list, init only, bitwise, fast "
         "performance [C]"},
        {"verbose", "N", "verbosity, also -vN [0]"},
        {"match", "REGEX", "run only problems whose repro matches"},
        {"impl", "A,B", "run only these implementations"},
        {"skip-impl", "A,B", "skip these implementations"},
        {"start", "N", "skip problems before index N [0]"},
        {"shard", "I/N", "run every N-th problem from I [0/1]"},
        {"fix-times-per-prb", "N", "timed runs per problem, 0: by time [0]"},
        {"max-ms-per-prb", "MS", "time budget per problem, 10..60000 [3000]"},
        {"repeats-per-prb", "N", "run each problem N times [1]"},
        {"perf-template", "default|csv|TEMPLATE", "performance line format"},
        {"canonical", "BOOL", "print every option in repro lines [false]"},
        {"mem-check", "BOOL", "skip problems that do not fit in memory"},
        {"cold-cache", "none|wei|all", "flush caches between timed runs"},
        {"summary", "[no-]failures", "closing summary block"},
        {"engine", "cpu", "the engine [cpu]"},
        {"allow-unimpl", "BOOL", "unimplemented is not a failure [false]"},
        {"lib", "tessera|onednn|both", "library per problem [tessera]"},
        {"help", NULL, "this text; after --DRIVER: the driver's options"},
        {"version", NULL, "benchdnn's and the library's versions"},
};
const int bench_n_common_option_docs =
        (int)(sizeof(bench_common_option_docs) /
              sizeof(bench_common_option_docs[0]));

const bench_option_doc_t bench_attr_option_docs[] = {
        {"attr-scratchpad", "library|user", "who owns the scratchpad"},
        {"attr-oscale", "POLICY:SCALE[*]", "output scales (v2.x)"},
        {"attr-scales", "ARG:POLICY[:SCALE[*]][+...]",
         "scales per argument (v3.x; ARG src|wei|dst)"},
        {"attr-zero-points", "ARG:POLICY[:ZP[*]][+...]",
         "zero points per argument"},
        {"attr-post-ops", "OP[+OP...]",
         "post-ops, OP one of sum[:SCALE[:ZP[:DT]]],\n"
         "ELTWISE[:ALPHA[:BETA[:SCALE]]] (relu, gelu_erf, ...),\n"
         "BINALG:DT[:POLICY[:TAG]] (add, mul, ...), prelu[:POLICY]"},
        {"attr-round-mode", "nearest|down", "rounding of the output"},
};
const int bench_n_attr_option_docs = (int)(sizeof(bench_attr_option_docs) /
                                           sizeof(bench_attr_option_docs[0]));

void bench_print_option_docs(FILE *f, const bench_option_doc_t *docs, int n) {
    for (int i = 0; i < n; i++) {
        char head[64];
        snprintf(head, sizeof(head), "--%s%s%s", docs[i].name,
                 docs[i].value ? "=" : "", docs[i].value ? docs[i].value : "");
        bench_print_option_line(f, head, docs[i].help);
    }
}

void bench_print_option_line(FILE *f, const char *head, const char *help) {
    enum { WIDTH = 30 };
    if (strlen(head) < WIDTH)
        fprintf(f, "  %-*s ", WIDTH, head);
    else
        fprintf(f, "  %s\n  %-*s ", head, WIDTH, "");
    /* Lines of a multi-line help align under its first. */
    for (const char *p = help;;) {
        const size_t len = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)len, p);
        if (!p[len])
            break;
        p += len + 1;
        fprintf(f, "  %-*s ", WIDTH, "");
    }
}

int bench_edit_distance(const char *a, size_t alen, const char *b) {
    enum { MAX_LEN = 64 };
    const size_t blen = strlen(b);
    if (alen >= MAX_LEN || blen >= MAX_LEN)
        return MAX_LEN;
    /* Three rows of the dynamic programme: i-2, i-1 and i. */
    int rows[3][MAX_LEN + 1];
    for (size_t j = 0; j <= blen; j++)
        rows[0][j] = (int)j;
    for (size_t i = 1; i <= alen; i++) {
        int *cur = rows[i % 3], *prev = rows[(i - 1) % 3],
            *prev2 = rows[(i + 1) % 3];
        cur[0] = (int)i;
        for (size_t j = 1; j <= blen; j++) {
            const int cost = a[i - 1] != b[j - 1];
            int d = prev[j - 1] + cost;
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
    }
    return rows[alen % 3][blen];
}

void bench_suggest_init(bench_suggest_t *s, const char *word, size_t len) {
    s->word = word;
    s->len = len;
    s->best = NULL;
    s->best_score = 0;
}

void bench_suggest_consider(bench_suggest_t *s, const char *name) {
    if (!name || s->len == 0)
        return;
    const int dist = bench_edit_distance(s->word, s->len, name);
    if (dist == 0)
        return; /* the word itself: nothing to suggest */
    int max_dist = (int)(s->len / 3);
    max_dist = max_dist < 1 ? 1 : max_dist > 2 ? 2 : max_dist;
    int score;
    if (dist <= max_dist)
        score = dist;
    else if (s->len >= 3 && strncmp(name, s->word, s->len) == 0)
        score = max_dist + 1; /* a prefix: after every close spelling */
    else
        return;
    if (!s->best || score < s->best_score) {
        s->best = name;
        s->best_score = score;
    }
}

void bench_suggest_consider_common(bench_suggest_t *s) {
    for (int i = 0; i < bench_n_common_option_docs; i++)
        bench_suggest_consider(s, bench_common_option_docs[i].name);
    for (int i = 0; i < bench_n_attr_option_docs; i++)
        bench_suggest_consider(s, bench_attr_option_docs[i].name);
}

const char *bench_suggest_best(const bench_suggest_t *s) {
    return s->best;
}

const char *bench_option_name(const char *tok, size_t *len) {
    const char *name = tok;
    while (*name == '-')
        name++;
    *len = strcspn(name, "=");
    return name;
}

void bench_unknown_option_error(const char *tok, const char *driver,
                                const char *const *names, int n) {
    size_t len;
    const char *name = bench_option_name(tok, &len);
    bench_suggest_t s;
    bench_suggest_init(&s, name, len);
    for (int i = 0; i < n; i++)
        bench_suggest_consider(&s, names[i]);
    bench_suggest_consider_common(&s);
    const char *best = bench_suggest_best(&s);
    if (!best)
        bench_usage_error("unknown option '%s' (see --%s --help)", tok, driver);
    bench_usage_error("unknown option '%s' (did you mean --%s%s?)", tok, best,
                      name[len] == '=' ? name + len : "");
}

void bench_append_value_hint(char *err, const char *word,
                             const char *const *names, int n, int list) {
    if (!err)
        return; /* a caller that only asks whether the value parses */
    bench_suggest_t s;
    bench_suggest_init(&s, word, strlen(word));
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], word) == 0)
            return;
        bench_suggest_consider(&s, names[i]);
    }
    size_t used = strlen(err);
    const char *best = bench_suggest_best(&s);
    if (best) {
        snprintf(err + used, BENCH_ERR_LEN - used, " (did you mean '%s'?)",
                 best);
        return;
    }
    if (!list)
        return;
    /* As many names as fit, then "...". */
    const char *open = " (one of: ";
    if (used + strlen(open) + 8 >= BENCH_ERR_LEN)
        return;
    used += (size_t)snprintf(err + used, BENCH_ERR_LEN - used, "%s", open);
    for (int i = 0; i < n; i++) {
        const size_t need = strlen(names[i]) + 2;
        if (used + need + 5 >= BENCH_ERR_LEN) {
            used += (size_t)snprintf(err + used, BENCH_ERR_LEN - used, "...");
            break;
        }
        used += (size_t)snprintf(err + used, BENCH_ERR_LEN - used, "%s%s",
                                 i ? ", " : "", names[i]);
    }
    snprintf(err + used, BENCH_ERR_LEN - used, ")");
}

void bench_option_value_error(const char *tok, const char *err) {
    if (strncmp(tok, "--", 2) == 0 && !strchr(tok, '='))
        bench_usage_error("%s (an option's value follows '=' in the same "
                          "argument: %s=VALUE)",
                          err, tok);
    bench_usage_error("%s", err);
}
