/* Layout tags as the drivers' options give them (see layout_tag.h). */
#include "common/layout_tag.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/cli_help.h"

void bench_resolve_tag(const char *tag, int ndims, char *out, size_t len) {
    /* The outer part (letters before the first block size) of a meta-tag
     * is dim letters and one 'x' standing for the dims it does not name,
     * in order: axb -> acdb for 4 dims, aBx16b -> aBcd16b. */
    size_t outer = strcspn(tag, "0123456789");
    const char *x = memchr(tag, 'x', outer);
    int meta = x && memchr(x + 1, 'x', outer - (size_t)(x - tag) - 1) == NULL;
    for (size_t i = 0; meta && i < outer; i++)
        meta = tag[i] == 'x' || (tolower((unsigned char)tag[i]) >= 'a' &&
                                 tolower((unsigned char)tag[i]) <= 'f');
    if (!meta) {
        snprintf(out, len, "%s", tag);
        return;
    }
    int used[26] = {0};
    for (size_t i = 0; i < outer; i++) {
        int c = tolower((unsigned char)tag[i]) - 'a';
        if (tag[i] != 'x' && c >= 0 && c < 26)
            used[c] = 1;
    }
    char spatial[TSR_MAX_NDIMS + 1];
    int n = 0;
    for (int c = 0; c < ndims && c < 26 && n < TSR_MAX_NDIMS; c++)
        if (!used[c])
            spatial[n++] = (char)('a' + c);
    spatial[n] = '\0';
    /* Letters of dims the tensor does not have drop out: abx is "a" for
     * one dim, as oneDNN reads it. */
    char resolved[64];
    size_t pos = 0;
    for (size_t i = 0;
         i < strlen(tag) && pos + TSR_MAX_NDIMS + 1 < sizeof(resolved); i++) {
        if (tag + i == x) {
            for (int k = 0; k < n; k++)
                resolved[pos++] = spatial[k];
            continue;
        }
        const int c = tolower((unsigned char)tag[i]) - 'a';
        if (i < outer && c >= ndims)
            continue;
        resolved[pos++] = tag[i];
    }
    resolved[pos] = '\0';
    snprintf(out, len, "%s", resolved);
}

/* 1 when `tag` (meta-tags resolved) has a layout of rank `ndims`. */
static int tag_fits_rank(const char *tag, int ndims) {
    char resolved[64];
    bench_resolve_tag(tag, ndims, resolved, sizeof(resolved));
    tsr_dims_t dims;
    for (int d = 0; d < ndims; d++)
        dims[d] = 32;
    tsr_memory_desc_t md;
    return tsr_memory_desc_init_by_tag(&md, ndims, dims, tsr_f32, resolved) ==
           tsr_success;
}

int bench_tag_is_valid(const char *tag) {
    if (strcmp(tag, "any") == 0)
        return 1;
    for (int ndims = 1; ndims <= BENCH_TAG_MAX_NDIMS; ndims++)
        if (tag_fits_rank(tag, ndims))
            return 1;
    return 0;
}

int bench_tag_error(char *err, const char *option, const char *tag) {
    /* The tags users type most, for "did you mean". */
    static const char *const common_tags[] = {
            "any",    "abx",        "axb",      "xba",   "aBx4b", "aBx8b",
            "aBx16b", "ABx16a16b",  "nchw",     "nhwc",  "nc",    "cn",
            "ncw",    "nwc",        "chwn",     "ncdhw", "ndhwc", "nCw16c",
            "nChw8c", "nChw16c",    "nCdhw16c", "oi",    "io",    "oiw",
            "owi",    "oihw",       "ohwi",     "hwio",  "iohw",  "oidhw",
            "goihw",  "OIhw16i16o", "ab",       "ba",    "abc",   "acb",
            "abcd",   "acdb",       "abcde",    "acdeb",
    };
    bench_set_err(err, "--%s: unknown tag '%s'", option, tag);
    if (!err)
        return -1;
    const size_t before = strlen(err);
    bench_append_value_hint(err, tag, common_tags,
                            (int)(sizeof(common_tags) / sizeof(*common_tags)),
                            0);
    if (strlen(err) == before)
        snprintf(err + before, BENCH_ERR_LEN - before,
                 " (a tag is oneDNN's letters as acdb or aBcd16b, an alias "
                 "as nhwc or OIhw16i16o, or abx, axb, aBx16b)");
    return -1;
}

int bench_md_init_by_tag(tsr_memory_desc_t *md, int ndims, const int64_t *dims,
                         tsr_data_type_t dt, const char *tag,
                         const char *option, const char *what, res_t *res) {
    char resolved[64];
    bench_resolve_tag(tag, ndims, resolved, sizeof(resolved));
    const tsr_status_t st =
            tsr_memory_desc_init_by_tag(md, ndims, dims, dt, resolved);
    if (st == tsr_success)
        return 1;
    res->state =
            st == tsr_out_of_memory ? STATE_SKIPPED : STATE_INVALID_ARGUMENTS;
    if (strcmp(tag, "any") != 0 && !tag_fits_rank(tag, ndims))
        snprintf(res->reason, sizeof(res->reason),
                 "%s=%s does not describe a %d-dimensional tensor", option, tag,
                 ndims);
    else
        snprintf(res->reason, sizeof(res->reason), "%s memory descriptor: %s",
                 what, tsr_status2str(st));
    return 0;
}
