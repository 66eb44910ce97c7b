/* --batch=FILE expansion: files are read, split into tokens (quotes keep
 * blanks and '#' inside a token; the driver strips the quotes), and their
 * own --batch options are expanded in turn. */
#define _GNU_SOURCE /* realpath, strdup */
#include "batch.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "benchdnn.h"

#define MAX_BATCH_DEPTH 32

/* Takes `tok` and `origin` (either may be NULL on entry: a NULL token
 * is an allocation that failed). */
static int token_list_push(token_list_t *list, char *tok, char *origin) {
    if (!tok) {
        free(origin);
        return -1;
    }
    if (list->n == list->cap) {
        const int cap = list->cap ? 2 * list->cap : 64;
        char **grown = realloc(list->tok, (size_t)cap * sizeof(char *));
        if (grown)
            list->tok = grown;
        char **grown_origin =
                grown ? realloc(list->origin, (size_t)cap * sizeof(char *))
                      : NULL;
        if (grown_origin)
            list->origin = grown_origin;
        if (!grown || !grown_origin) {
            free(tok);
            free(origin);
            return -1;
        }
        list->cap = cap;
    }
    list->origin[list->n] = origin;
    list->tok[list->n++] = tok;
    return 0;
}

static const token_list_t *current_tokens;

void batch_set_tokens(const token_list_t *list) {
    current_tokens = list;
}

const char *batch_token_origin(const char *tok) {
    const token_list_t *l = current_tokens;
    for (int i = 0; tok && l && l->origin && i < l->n; i++)
        if (l->tok[i] == tok)
            return l->origin[i];
    return NULL;
}

void token_list_free(token_list_t *list) {
    if (current_tokens == list)
        current_tokens = NULL;
    for (int i = 0; i < list->n; i++) {
        free(list->tok[i]);
        if (list->origin)
            free(list->origin[i]);
    }
    free(list->tok);
    free(list->origin);
    list->tok = list->origin = NULL;
    list->n = list->cap = 0;
}

/* What a path names; a batch file must be a regular file (a device such
 * as /dev/zero would never end, a directory has no text). */
typedef enum {
    PATH_MISSING = 0,
    PATH_FILE,
    PATH_DIR,
    PATH_OTHER, /* device, FIFO or socket */
} path_kind_t;

static path_kind_t path_kind(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0)
        return PATH_MISSING;
    return S_ISREG(st.st_mode)   ? PATH_FILE
           : S_ISDIR(st.st_mode) ? PATH_DIR
                                 : PATH_OTHER;
}

/* The candidate paths of a lookup: the first regular file wins; failing
 * that, the first other thing found is what the error names. */
typedef struct {
    char *out;
    size_t len;
    path_kind_t found;
    char other[PATH_MAX];
} lookup_t;

/* Tries dir/sub/file (dir/file without sub, file alone without dir); 1
 * when it is a regular file, left in l->out. */
static int try_path(lookup_t *l, const char *dir, const char *sub,
                    const char *file) {
    char path[PATH_MAX];
    int n = sub   ? snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file)
            : dir ? snprintf(path, sizeof(path), "%s/%s", dir, file)
                  : snprintf(path, sizeof(path), "%s", file);
    if (n <= 0 || (size_t)n >= sizeof(path) || (size_t)n >= l->len)
        return 0;
    const path_kind_t kind = path_kind(path);
    if (kind == PATH_FILE) {
        snprintf(l->out, l->len, "%s", path);
        l->found = PATH_FILE;
        return 1;
    }
    if (kind != PATH_MISSING && l->found == PATH_MISSING) {
        l->found = kind;
        snprintf(l->other, sizeof(l->other), "%s", path);
    }
    return 0;
}

/* Tries the inputs/ directory `inputs`: inputs/DRIVER/FILE, inputs/FILE
 * and, so that "inputs/conv/x" works from anywhere, its parent/FILE. */
static int try_inputs_dir(lookup_t *l, const char *inputs, const char *driver,
                          const char *file) {
    if (try_path(l, inputs, driver, file) || try_path(l, inputs, NULL, file))
        return 1;
    char parent[PATH_MAX];
    snprintf(parent, sizeof(parent), "%s", inputs);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent)
        return 0;
    *slash = '\0';
    return try_path(l, parent, NULL, file);
}

/* Looks up FILE: next to the including file (`base_dir`, "." on the
 * command line), then the source tree's and the install's inputs/, then
 * the current directory. */
static int lookup(lookup_t *l, const char *file, const char *base_dir,
                  const char *driver) {
    if (file[0] == '/')
        return try_path(l, NULL, NULL, file);
    if (try_path(l, base_dir, NULL, file))
        return 1;
#ifdef BENCHDNN_INPUTS_DIR
    if (try_inputs_dir(l, BENCHDNN_INPUTS_DIR, driver, file))
        return 1;
#endif
#ifdef BENCHDNN_INSTALL_INPUTS_DIR
    if (try_inputs_dir(l, BENCHDNN_INSTALL_INPUTS_DIR, driver, file))
        return 1;
#endif
    (void)try_inputs_dir;
    (void)driver;
    return try_path(l, ".", NULL, file);
}

/* Finds FILE into `out`; -1 with a message naming it when it is missing
 * or found only as something other than a regular file. */
static int find_batch_file(const char *file, const char *base_dir,
                           const char *driver, char *out, size_t len,
                           char *err) {
    lookup_t l = {.out = out, .len = len, .found = PATH_MISSING};
    if (lookup(&l, file, base_dir, driver))
        return 0;
    if (l.found == PATH_DIR)
        bench_set_err(err, "--batch: '%s' is a directory, not a batch file",
                      l.other);
    else if (l.found == PATH_OTHER)
        bench_set_err(err,
                      "--batch: '%s' is a device, FIFO or socket, not a "
                      "batch file",
                      l.other);
    else
        bench_set_err(err, "--batch: file '%s' not found", file);
    return -1;
}

/* The whole file, NUL-terminated, its length (without the terminator) in
 * *len; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (cap - n - 1 == 0) {
            char *grown = realloc(buf, 2 * cap);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

/* Length of the valid UTF-8 sequence at s (n > 0 bytes left); 0 when it
 * is not one (overlong forms and surrogates included). */
static size_t utf8_seq_len(const unsigned char *s, size_t n) {
    const unsigned c = s[0];
    size_t len;
    uint32_t min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    uint32_t cp = c & (0x3fu >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* The control characters text may hold: blanks and line ends. */
static int is_text_control(unsigned c) {
    return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* A batch file is UTF-8 text: a NUL byte (which would end it silently),
 * another control character or a byte that is not UTF-8 is an error
 * naming the file and the line. */
static int check_text(const char *text, size_t n, const char *path, char *err) {
    const unsigned char *s = (const unsigned char *)text;
    int line = 1;
    for (size_t i = 0; i < n;) {
        const unsigned c = s[i];
        if (c == 0) {
            bench_set_err(err, "--batch: '%s' line %d: NUL byte, not text",
                          path, line);
            return -1;
        }
        const size_t len = utf8_seq_len(s + i, n - i);
        if ((c < 0x20 && !is_text_control(c)) || c == 0x7f || len == 0) {
            bench_set_err(err,
                          "--batch: '%s' line %d: byte 0x%02x, not UTF-8 "
                          "text",
                          path, line, c);
            return -1;
        }
        if (c == '\n')
            line++;
        i += len;
    }
    return 0;
}

/* Joins continued lines in place: a backslash, optional blanks or '\r',
 * then a newline are removed together with the next line's indentation.
 * When the text before the backslash ends with ',' (a comma list carried
 * over, as in oneDNN's "--attr-post-ops=, \" then "sum:0.5, \") the blanks
 * before the backslash go too, so the list stays one token; otherwise they
 * stay and separate the tokens as written ("A \" + "B" is two tokens,
 * "long\" + "token" one). */
static void join_continuations(char *text, int *line_of) {
    char *out = text;
    int line = 1;
    for (const char *p = text; *p;) {
        if (*p == '\\') {
            const char *q = p + 1;
            while (*q == ' ' || *q == '\t' || *q == '\r')
                q++;
            if (*q == '\n' || *q == '\0') {
                char *last = out;
                while (last > text && (last[-1] == ' ' || last[-1] == '\t'))
                    last--;
                if (last > text && last[-1] == ',')
                    out = last;
                if (*q == '\n') {
                    q++;
                    line++;
                }
                while (*q == ' ' || *q == '\t')
                    q++;
                p = q;
                continue;
            }
        }
        line_of[out - text] = line;
        if (*p == '\n')
            line++;
        *out++ = *p++;
    }
    *out = '\0';
}

/* "FILE line N". */
static char *origin_of(const char *path, int line) {
    const size_t len = strlen(path) + 32;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s line %d", path, line);
    return s;
}

/* Splits file text (`n` bytes) into tokens, each with its origin. */
static int tokenize(char *text, size_t n, const char *path, token_list_t *out,
                    char *err) {
    size_t cap = 256, len = 0;
    char *cur = malloc(cap);
    int *line_of = malloc((n + 1) * sizeof(int));
    char quote = 0;
    int rc = 0, token_line = 1;
    if (!cur || !line_of) {
        free(cur);
        free(line_of);
        bench_set_err(err, "--batch: out of memory reading '%s'", path);
        return -1;
    }
    join_continuations(text, line_of);
    for (const char *p = text;; p++) {
        if (!quote && *p == '#') {
            while (p[1] && p[1] != '\n')
                p++;
            continue;
        }
        const int end_of_text = *p == '\0';
        if (end_of_text || (!quote && isspace((unsigned char)*p))) {
            if (len > 0) {
                cur[len] = '\0';
                if (token_list_push(out, strdup(cur),
                                    origin_of(path, token_line)) != 0) {
                    rc = -1;
                    break;
                }
                len = 0;
            }
            if (end_of_text)
                break;
            continue;
        }
        if (*p == '\'' || *p == '"') {
            if (!quote)
                quote = *p;
            else if (quote == *p)
                quote = 0;
        }
        if (len + 2 > cap) {
            char *grown = realloc(cur, 2 * cap);
            if (!grown) {
                rc = -1;
                break;
            }
            cur = grown;
            cap *= 2;
        }
        if (len == 0)
            token_line = line_of[p - text];
        cur[len++] = *p;
    }
    free(cur);
    free(line_of);
    if (rc == 0 && quote) {
        bench_set_err(err, "--batch: unterminated %c quote in '%s'", quote,
                      path);
        rc = -1;
    } else if (rc != 0) {
        bench_set_err(err, "--batch: out of memory reading '%s'", path);
    }
    return rc;
}

typedef struct {
    const char *driver;
    int depth;
    char *chain[MAX_BATCH_DEPTH]; /* real paths of the files being read */
} expand_ctx_t;

static int expand_tokens(int n, char *const *toks, char *const *origins,
                         const char *base_dir, expand_ctx_t *ctx,
                         token_list_t *out, char *err);

static int expand_batch_file(const char *file, const char *base_dir,
                             expand_ctx_t *ctx, token_list_t *out, char *err) {
    char path[PATH_MAX];
    if (!*file) {
        bench_set_err(err, "--batch: missing file name");
        return -1;
    }
    if (find_batch_file(file, base_dir, ctx->driver, path, sizeof(path), err) !=
        0)
        return -1;
    if (ctx->depth == MAX_BATCH_DEPTH) {
        bench_set_err(err, "--batch: files nested deeper than %d at '%s'",
                      MAX_BATCH_DEPTH, file);
        return -1;
    }
    char *real = realpath(path, NULL);
    if (!real) {
        bench_set_err(err, "--batch: cannot resolve '%s'", path);
        return -1;
    }
    for (int i = 0; i < ctx->depth; i++) {
        if (strcmp(ctx->chain[i], real) == 0) {
            bench_set_err(err, "--batch: '%s' includes itself", file);
            free(real);
            return -1;
        }
    }
    size_t text_len = 0;
    char *text = read_file(real, &text_len);
    if (!text) {
        bench_set_err(err, "--batch: cannot read '%s'", path);
        free(real);
        return -1;
    }
    token_list_t file_toks = {0};
    int rc = check_text(text, text_len, path, err);
    if (rc == 0)
        rc = tokenize(text, text_len, file, &file_toks, err);
    free(text);
    if (rc == 0) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", real);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        ctx->chain[ctx->depth++] = real;
        rc = expand_tokens(file_toks.n, file_toks.tok, file_toks.origin, dir,
                           ctx, out, err);
        ctx->depth--;
    }
    token_list_free(&file_toks);
    free(real);
    return rc;
}

static int expand_tokens(int n, char *const *toks, char *const *origins,
                         const char *base_dir, expand_ctx_t *ctx,
                         token_list_t *out, char *err) {
    for (int i = 0; i < n; i++) {
        const char *tok = toks[i];
        const char *origin = origins ? origins[i] : NULL;
        if (strncmp(tok, "--batch=", 8) == 0) {
            if (expand_batch_file(tok + 8, base_dir, ctx, out, err) != 0)
                return -1;
        } else if (strcmp(tok, "--batch") == 0) {
            bench_set_err(err, "--batch: expected --batch=FILE");
            return -1;
        } else if (token_list_push(out, strdup(tok),
                                   origin ? strdup(origin) : NULL) != 0 ||
                   (origin && !out->origin[out->n - 1])) {
            bench_set_err(err, "out of memory");
            return -1;
        }
    }
    return 0;
}

int batch_expand_try(int argc, char **argv, const char *driver,
                     token_list_t *out, char *err) {
    expand_ctx_t ctx = {.driver = driver, .depth = 0};
    token_list_t result = {0};
    if (expand_tokens(argc, argv, NULL, ".", &ctx, &result, err) != 0) {
        token_list_free(&result);
        return -1;
    }
    *out = result;
    return 0;
}

int batch_expand(int argc, char **argv, const char *driver, token_list_t *out) {
    char err[BENCH_ERR_LEN];
    if (batch_expand_try(argc, argv, driver, out, err) != 0)
        bench_usage_error("%s", err);
    return 0;
}
