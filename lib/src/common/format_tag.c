/* Format tag parsing.
 *
 * Three spellings reach the same layout description:
 * - oneDNN's letter form: one letter per logical dim ('a' = dim 0), written
 *   from the outermost to the innermost; an upper-case letter is a blocked
 *   dim whose blocks follow as <size><lower-case letter>, outermost first.
 * - the classic aliases (nchw, OIhw16i16o, ...), kept as a table of their
 *   letter forms;
 * - OpenVINO GPU plugin names: '_'-separated segments of dim letters, where
 *   "fs" is the outer part of a blocked dim and "fsv16" its inner block. */
#include <ctype.h>
#include <string.h>

#include "format_tag.h"

/* A block this large is certainly a typo; the limit also keeps products of
 * blocks far away from overflow. */
enum { TSR_MAX_BLOCK = 1 << 16 };

typedef struct {
    const char *alias;
    const char *letters;
} tag_alias_t;

static const tag_alias_t tag_aliases[] = {
        /* Activations: n, c, [d,] [h,] w; x for 1D. */
        {"x", "a"},
        {"nc", "ab"},
        {"cn", "ba"},
        {"tn", "ab"},
        {"nt", "ba"},
        {"ncw", "abc"},
        {"nwc", "acb"},
        {"tnc", "abc"},
        {"ntc", "bac"},
        {"nchw", "abcd"},
        {"nhwc", "acdb"},
        {"chwn", "bcda"},
        {"ncdhw", "abcde"},
        {"ndhwc", "acdeb"},
        {"nCw4c", "aBc4b"},
        {"nCw8c", "aBc8b"},
        {"nCw16c", "aBc16b"},
        {"nChw4c", "aBcd4b"},
        {"nChw8c", "aBcd8b"},
        {"nChw16c", "aBcd16b"},
        {"nCdhw4c", "aBcde4b"},
        {"nCdhw8c", "aBcde8b"},
        {"nCdhw16c", "aBcde16b"},
        {"NCw16n16c", "ABc16a16b"},
        {"NChw16n16c", "ABcd16a16b"},
        {"NCdhw16n16c", "ABcde16a16b"},
        {"NChw32n32c", "ABcd32a32b"},
        /* Weights: [g,] o, i, [d,] [h,] w. */
        {"oi", "ab"},
        {"io", "ba"},
        {"oiw", "abc"},
        {"owi", "acb"},
        {"wio", "cba"},
        {"iwo", "bca"},
        {"oihw", "abcd"},
        {"ohwi", "acdb"},
        {"hwio", "cdba"},
        {"ihwo", "bcda"},
        {"iohw", "bacd"},
        {"oidhw", "abcde"},
        {"odhwi", "acdeb"},
        {"dhwio", "cdeba"},
        {"idhwo", "bcdea"},
        {"iodhw", "bacde"},
        {"goiw", "abcd"},
        {"gowi", "abdc"},
        {"wigo", "dcab"},
        {"goihw", "abcde"},
        {"gohwi", "abdec"},
        {"hwigo", "decab"},
        {"giohw", "acbde"},
        {"goidhw", "abcdef"},
        {"godhwi", "abdefc"},
        {"dhwigo", "defcab"},
        {"giodhw", "acbdef"},
        /* Blocked weights, 1D. */
        {"Oiw4o", "Abc4a"},
        {"Oiw16o", "Abc16a"},
        {"Owi4o", "Acb4a"},
        {"Owi8o", "Acb8a"},
        {"Owi16o", "Acb16a"},
        {"OIw4i4o", "ABc4b4a"},
        {"OIw4o4i", "ABc4a4b"},
        {"OIw8i8o", "ABc8b8a"},
        {"OIw8o8i", "ABc8a8b"},
        {"OIw16i16o", "ABc16b16a"},
        {"OIw16o16i", "ABc16a16b"},
        {"IOw16o16i", "BAc16a16b"},
        {"IOw16i16o", "BAc16b16a"},
        {"OIw4i16o4i", "ABc4b16a4b"},
        {"OIw8i16o2i", "ABc8b16a2b"},
        /* Blocked weights, 2D. */
        {"Oihw4o", "Abcd4a"},
        {"Oihw8o", "Abcd8a"},
        {"Oihw16o", "Abcd16a"},
        {"Ohwi4o", "Acdb4a"},
        {"Ohwi8o", "Acdb8a"},
        {"Ohwi16o", "Acdb16a"},
        {"Ohwi32o", "Acdb32a"},
        {"OIhw4i4o", "ABcd4b4a"},
        {"OIhw4o4i", "ABcd4a4b"},
        {"OIhw8i8o", "ABcd8b8a"},
        {"OIhw8o8i", "ABcd8a8b"},
        {"OIhw16i16o", "ABcd16b16a"},
        {"OIhw16o16i", "ABcd16a16b"},
        {"IOhw16o16i", "BAcd16a16b"},
        {"IOhw16i16o", "BAcd16b16a"},
        {"OIhw4i16o4i", "ABcd4b16a4b"},
        {"OIhw8i16o2i", "ABcd8b16a2b"},
        {"OIhw8o16i2o", "ABcd8a16b2a"},
        {"OIhw2i8o4i", "ABcd2b8a4b"},
        {"OhwI16o4i", "AcdB16a4b"},
        /* Blocked weights, 3D. */
        {"Oidhw4o", "Abcde4a"},
        {"Oidhw16o", "Abcde16a"},
        {"Odhwi4o", "Acdeb4a"},
        {"Odhwi8o", "Acdeb8a"},
        {"Odhwi16o", "Acdeb16a"},
        {"OIdhw4i4o", "ABcde4b4a"},
        {"OIdhw4o4i", "ABcde4a4b"},
        {"OIdhw8i8o", "ABcde8b8a"},
        {"OIdhw8o8i", "ABcde8a8b"},
        {"OIdhw16i16o", "ABcde16b16a"},
        {"OIdhw16o16i", "ABcde16a16b"},
        {"IOdhw16i16o", "BAcde16b16a"},
        {"IOdhw16o16i", "BAcde16a16b"},
        {"OIdhw4i16o4i", "ABcde4b16a4b"},
        {"OIdhw8i16o2i", "ABcde8b16a2b"},
        /* Grouped blocked weights. */
        {"Goiw8g", "Abcd8a"},
        {"Goiw16g", "Abcd16a"},
        {"gOiw16o", "aBcd16b"},
        {"gOwi16o", "aBdc16b"},
        {"gOIw4i4o", "aBCd4c4b"},
        {"gOIw8i8o", "aBCd8c8b"},
        {"gOIw8o8i", "aBCd8b8c"},
        {"gOIw16i16o", "aBCd16c16b"},
        {"gOIw16o16i", "aBCd16b16c"},
        {"Goihw8g", "Abcde8a"},
        {"Goihw16g", "Abcde16a"},
        {"gOihw4o", "aBcde4b"},
        {"gOihw16o", "aBcde16b"},
        {"gOhwi4o", "aBdec4b"},
        {"gOhwi8o", "aBdec8b"},
        {"gOhwi16o", "aBdec16b"},
        {"gOIhw4i4o", "aBCde4c4b"},
        {"gOIhw4o4i", "aBCde4b4c"},
        {"gOIhw8i8o", "aBCde8c8b"},
        {"gOIhw8o8i", "aBCde8b8c"},
        {"gOIhw16i16o", "aBCde16c16b"},
        {"gOIhw16o16i", "aBCde16b16c"},
        {"gIOhw16o16i", "aCBde16b16c"},
        {"gIOhw16i16o", "aCBde16c16b"},
        {"gOIhw4i16o4i", "aBCde4c16b4c"},
        {"gOIhw8i16o2i", "aBCde8c16b2c"},
        {"Goidhw8g", "Abcdef8a"},
        {"Goidhw16g", "Abcdef16a"},
        {"gOidhw16o", "aBcdef16b"},
        {"gOdhwi16o", "aBdefc16b"},
        {"gOIdhw4i4o", "aBCdef4c4b"},
        {"gOIdhw8i8o", "aBCdef8c8b"},
        {"gOIdhw8o8i", "aBCdef8b8c"},
        {"gOIdhw16i16o", "aBCdef16c16b"},
        {"gOIdhw16o16i", "aBCdef16b16c"},
};

/* Parses a positive decimal block size at *p, advancing it; 0 on error. */
static tsr_dim_t parse_block_size(const char **p) {
    tsr_dim_t value = 0;
    if (!isdigit((unsigned char)**p) || **p == '0')
        return 0;
    while (isdigit((unsigned char)**p)) {
        value = value * 10 + (**p - '0');
        if (value > TSR_MAX_BLOCK)
            return 0;
        (*p)++;
    }
    return value;
}

/* Checks the structural rules shared by every spelling: each dim appears
 * once among the outer dims, blocks name blocked dims only, and every
 * blocked dim has at least one block. */
static int layout_is_consistent(const tsr_tag_layout_t *layout,
                                const int *is_blocked) {
    int seen[TSR_MAX_NDIMS] = {0}, has_block[TSR_MAX_NDIMS] = {0};
    tsr_dim_t block_product = 1;
    for (int i = 0; i < layout->ndims; i++) {
        const int d = layout->outer_order[i];
        if (d < 0 || d >= layout->ndims || seen[d])
            return 0;
        seen[d] = 1;
    }
    for (int k = 0; k < layout->inner_nblks; k++) {
        const int d = layout->inner_idxs[k];
        if (d < 0 || d >= layout->ndims || !is_blocked[d])
            return 0;
        has_block[d] = 1;
        block_product *= layout->inner_blks[k];
        if (block_product > TSR_MAX_BLOCK)
            return 0;
    }
    for (int d = 0; d < layout->ndims; d++)
        if (is_blocked[d] && !has_block[d])
            return 0;
    return 1;
}

static int parse_letter_form(const char *tag, tsr_tag_layout_t *layout) {
    tsr_tag_layout_t parsed = {0};
    int is_blocked[TSR_MAX_NDIMS] = {0};
    const char *p = tag;
    while (isalpha((unsigned char)*p)) {
        const int lower = tolower((unsigned char)*p);
        if (parsed.ndims == TSR_MAX_NDIMS || lower - 'a' >= TSR_MAX_NDIMS)
            return 0;
        const int d = lower - 'a';
        parsed.outer_order[parsed.ndims++] = d;
        is_blocked[d] = isupper((unsigned char)*p) != 0;
        p++;
    }
    if (parsed.ndims == 0)
        return 0;
    while (*p) {
        if (parsed.inner_nblks == TSR_MAX_NDIMS)
            return 0;
        const tsr_dim_t block = parse_block_size(&p);
        if (block == 0 || !islower((unsigned char)*p))
            return 0;
        parsed.inner_blks[parsed.inner_nblks] = block;
        parsed.inner_idxs[parsed.inner_nblks] = *p - 'a';
        parsed.inner_nblks++;
        p++;
    }
    if (!layout_is_consistent(&parsed, is_blocked))
        return 0;
    *layout = parsed;
    return 1;
}

/* OpenVINO letters in logical order: data (b, f, spatial) and weights
 * (g, o, i, spatial); a tag's dims are the letters it uses, in this order. */
static const char openvino_data_dims[] = "bfwzyx";
static const char openvino_weights_dims[] = "goiwzyx";

/* Logical index of letter `c` among the letters present in `used`. */
static int openvino_dim_index(const char *alphabet, const int *used, char c) {
    int index = 0;
    for (const char *a = alphabet; *a; a++) {
        if (*a == c)
            return used[a - alphabet] ? index : -1;
        index += used[a - alphabet];
    }
    return -1;
}

static int parse_openvino(const char *tag, tsr_tag_layout_t *layout) {
    enum { MAX_SEGMENTS = 2 * TSR_MAX_NDIMS, MAX_LEN = 64 };
    if (strlen(tag) >= MAX_LEN)
        return 0;
    char copy[MAX_LEN];
    strcpy(copy, tag);

    /* First pass: split into outer letters (flagging "Ls" blocked outer
     * parts) and inner blocks "LsvN"; logical indices come after. */
    char outer_letters[TSR_MAX_NDIMS], block_letters[TSR_MAX_NDIMS];
    int outer_blocked[TSR_MAX_NDIMS];
    tsr_dim_t block_sizes[TSR_MAX_NDIMS];
    int nouter = 0, nblocks = 0, nsegments = 0;
    for (char *segment = copy; segment; nsegments++) {
        char *next = strchr(segment, '_');
        if (next)
            *next++ = '\0';
        const size_t len = strlen(segment);
        if (len == 0 || nsegments == MAX_SEGMENTS)
            return 0;
        if (len >= 4 && segment[1] == 's' && segment[2] == 'v') {
            const char *p = segment + 3;
            const tsr_dim_t block = parse_block_size(&p);
            if (block == 0 || *p || nblocks == TSR_MAX_NDIMS)
                return 0;
            block_letters[nblocks] = segment[0];
            block_sizes[nblocks++] = block;
        } else if (len == 2 && segment[1] == 's') {
            if (nouter == TSR_MAX_NDIMS)
                return 0;
            outer_blocked[nouter] = 1;
            outer_letters[nouter++] = segment[0];
        } else {
            for (const char *p = segment; *p; p++) {
                if (nouter == TSR_MAX_NDIMS)
                    return 0;
                outer_blocked[nouter] = 0;
                outer_letters[nouter++] = *p;
            }
        }
        segment = next;
    }

    const int is_weights = strpbrk(tag, "goi") != NULL;
    const char *alphabet =
            is_weights ? openvino_weights_dims : openvino_data_dims;
    int used[sizeof(openvino_weights_dims)] = {0};
    for (int i = 0; i < nouter; i++) {
        const char *at = strchr(alphabet, outer_letters[i]);
        if (!outer_letters[i] || !at || used[at - alphabet])
            return 0;
        used[at - alphabet] = 1;
    }

    tsr_tag_layout_t parsed = {0};
    int is_blocked[TSR_MAX_NDIMS] = {0};
    parsed.ndims = nouter;
    for (int i = 0; i < nouter; i++) {
        const int d = openvino_dim_index(alphabet, used, outer_letters[i]);
        parsed.outer_order[i] = d;
        is_blocked[d] = outer_blocked[i];
    }
    for (int k = 0; k < nblocks; k++) {
        const int d = openvino_dim_index(alphabet, used, block_letters[k]);
        if (d < 0)
            return 0;
        parsed.inner_idxs[k] = d;
        parsed.inner_blks[k] = block_sizes[k];
    }
    parsed.inner_nblks = nblocks;
    if (nouter == 0 || !layout_is_consistent(&parsed, is_blocked))
        return 0;
    *layout = parsed;
    return 1;
}

tsr_status_t tsr_format_tag_parse(const char *tag, tsr_tag_layout_t *layout) {
    if (!tag || !layout)
        return tsr_invalid_arguments;
    if (strcmp(tag, "any") == 0) {
        memset(layout, 0, sizeof(*layout));
        layout->is_any = 1;
        return tsr_success;
    }
    if (parse_letter_form(tag, layout))
        return tsr_success;
    for (size_t i = 0; i < sizeof(tag_aliases) / sizeof(*tag_aliases); i++)
        if (strcmp(tag, tag_aliases[i].alias) == 0)
            return parse_letter_form(tag_aliases[i].letters, layout)
                           ? tsr_success
                           : tsr_invalid_arguments;
    if (parse_openvino(tag, layout))
        return tsr_success;
    return tsr_invalid_arguments;
}
