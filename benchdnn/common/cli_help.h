/* The command line's help texts and its "did you mean" hints: the common
 * and --attr-* options as tables (name, value grammar, meaning) that
 * --help prints and that misspelt option names are matched against. */
#ifndef BENCHDNN_COMMON_CLI_HELP_H
#define BENCHDNN_COMMON_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    const char *name;  /* "mode" for --mode */
    const char *value; /* "C|P|CP|L|I|B|F", or NULL for a bare flag */
    const char *help;  /* one line */
} bench_option_doc_t;

extern const bench_option_doc_t bench_common_option_docs[];
extern const int bench_n_common_option_docs;
/* The --attr-* options of every driver with attributes. */
extern const bench_option_doc_t bench_attr_option_docs[];
extern const int bench_n_attr_option_docs;

/* "  --NAME=VALUE   help" lines. */
void bench_print_option_docs(FILE *f, const bench_option_doc_t *docs, int n);
/* One such line: `head` in a column, then `help` (its lines aligned). */
void bench_print_option_line(FILE *f, const char *head, const char *help);

/* Edit distance between the first alen bytes of a and b, a swap of two
 * neighbouring characters counting as one edit (optimal string
 * alignment). */
int bench_edit_distance(const char *a, size_t alen, const char *b);

/* The closest of several names to a misspelt word: feed the candidates,
 * then ask. A candidate within a third of the word's length (at least
 * one edit, at most two), or one the word starts (3 characters or more),
 * is close; the closest wins, the first on a tie. */
typedef struct {
    const char *word;
    size_t len;
    const char *best;
    int best_score; /* lower is closer */
} bench_suggest_t;

void bench_suggest_init(bench_suggest_t *s, const char *word, size_t len);
void bench_suggest_consider(bench_suggest_t *s, const char *name);
/* The common options, the --attr-* options and --reset. */
void bench_suggest_consider_common(bench_suggest_t *s);
/* The closest name, or NULL when none is close. */
const char *bench_suggest_best(const bench_suggest_t *s);

/* The name part of an option token: "mbb" for "--mbb=2" (len 3). */
const char *bench_option_name(const char *tok, size_t *len);

/* Usage error for an option token that no parser of `driver` took, with
 * the closest of `names` (the driver's options, n of them), the common
 * and the --attr-* options: "unknown option '--mbb=2' (did you mean
 * --mb=2?)", else a pointer to --DRIVER --help. */
void bench_unknown_option_error(const char *tok, const char *driver,
                                const char *const *names, int n)
        __attribute__((noreturn));

/* Appends a hint about a bad value `word` to the message in `err`
 * (BENCH_ERR_LEN bytes): " (did you mean 'NAME'?)" for the closest of
 * names[0..n), else, when `list` is set, " (one of: A, B, ...)". Nothing
 * when `word` is one of the names (its error lies elsewhere). */
void bench_append_value_hint(char *err, const char *word,
                             const char *const *names, int n, int list);

/* Usage error for a bad option value, message `err`; for a token without
 * '=' (`--mb 2`) it adds that the value follows '='. */
void bench_option_value_error(const char *tok, const char *err)
        __attribute__((noreturn));

#endif
