/* Argument expansion: --batch=FILE is replaced in place by the file's
 * tokens, recursively. In a file `#` starts a comment, a trailing `\`
 * joins the next line, blank space separates tokens. A relative FILE is
 * looked up next to the including file, then under inputs/<driver>/ and
 * inputs/ of the source tree (BENCHDNN_INPUTS_DIR) and of the install.
 * A missing file, a directory or a device given as one, and a file that
 * is not UTF-8 text (a NUL byte, another control character, invalid
 * bytes) are usage errors (exit 2) naming the file, and the line. */
#ifndef BENCHDNN_COMMON_BATCH_H
#define BENCHDNN_COMMON_BATCH_H

typedef struct {
    int n, cap;
    char **tok; /* owned strings */
    /* "FILE line N" for a batch file's token, else NULL; the array itself
     * is NULL in a list built by hand (the fuzz targets'). */
    char **origin;
} token_list_t;

/* Expands argv[0..argc) into `out`. `driver` names the inputs/ subfolder. */
int batch_expand(int argc, char **argv, const char *driver, token_list_t *out);
void token_list_free(token_list_t *list);

/* Where the token `tok` (a pointer of `list`'s) comes from, so that usage
 * errors can name the batch file and line: batch_set_tokens() registers
 * the list the driver loop runs; batch_token_origin() is then "FILE line
 * N", or NULL for a token of the command line or of no registered list. */
void batch_set_tokens(const token_list_t *list);
const char *batch_token_origin(const char *tok);
/* The same without exiting: 0, or -1 with a message in `err`
 * (BENCH_ERR_LEN bytes) naming the file; `out` is untouched then. */
int batch_expand_try(int argc, char **argv, const char *driver,
                     token_list_t *out, char *err);

#endif
