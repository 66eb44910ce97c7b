/* The sum, concat and shuffle drivers' pieces without the library: colon
 * lists, multi-dims descriptors, fills, the shuffle permutation and the
 * concat skips. */
#include "self_util.h"

#include <string.h>

#include "concat/concat.h"
#include "shuffle/shuffle.h"
#include "sum/multi_src.h"
#include "sum/sum.h"

static int parse_any(const char *text, void *d, char *message) {
    return concat_desc_parse_try(text, "concat", d, message);
}

static void print_any(const void *d, int canonical, char *buf, size_t len) {
    (void)canonical;
    concat_desc_print(d, buf, len);
}

static int equal(const void *a, const void *b) {
    return memcmp(a, b, sizeof(concat_desc_t)) == 0;
}

static int prints_as(const char *text, const char *expected) {
    return desc_prints_as(parse_any, print_any, equal, sizeof(concat_desc_t),
                          text, 0, expected);
}

static int rejected(const char *text, const char *named) {
    return desc_rejected(parse_any, sizeof(concat_desc_t), text, named, 1);
}

static void test_concat_descriptor(void) {
    concat_desc_t d;
    char err[BENCH_ERR_LEN];
    memset(&d, 0, sizeof(d));
    CHECK(parse_any("6x48x3:6x31x3:6x16x3_nfoo", &d, err) == 0);
    CHECK(d.n == 3 && d.ndims == 3 && d.dims[1][1] == 31 && d.dims[2][2] == 3 &&
          strcmp(d.name, "foo") == 0);
    CHECK(prints_as("2x16x3x4:2x8x3x4", "2x16x3x4:2x8x3x4"));
    /* Later tensors are padded with trailing 1s. */
    CHECK(prints_as("32x17x2x3:1x17", "32x17x2x3:1x17x1x1"));
    CHECK(prints_as("4_x3:4x5_n\"a:b\"", "4x3:4x5_na:b"));
    CHECK(rejected("2x3", "needs at least 2 tensors"));
    CHECK(rejected("2x3:", "needs at least 2 tensors"));
    CHECK(rejected("2x3::2x3", "empty or too long tensor"));
    CHECK(rejected("2x3:2xq", "tensor '2xq'"));
    CHECK(rejected("2x3:2x3x4", "more dims than the first"));
}

static void test_lists(void) {
    multi_src_list_t l;
    char buf[BENCH_ERR_LEN]; /* also the _try functions' message */
    CHECK(multi_src_split("f32:s8:u8", &l) == 0 && l.n == 3 &&
          strcmp(l.item[1], "s8") == 0);
    CHECK(multi_src_split("f32::u8", &l) != 0);
    CHECK(multi_src_split(":", &l) != 0);
    CHECK(multi_src_split("axb", &l) == 0 && multi_src_broadcast(&l, 3) == 0);
    multi_src_join(&l, buf, sizeof(buf));
    CHECK(strcmp(buf, "axb:axb:axb") == 0 && multi_src_all_equal(&l, "axb"));
    CHECK(multi_src_broadcast(&l, 2) != 0); /* 3 values for 2 sources */
    CHECK(multi_src_validate_dts("sdt", "f32:BF16:s8", buf) == 0);
    CHECK(multi_src_validate_dts("sdt", "f32:f31", buf) != 0 &&
          strstr(buf, "'f31'"));
    CHECK(multi_src_validate_tags("stag", "abx:aBx16b", buf) == 0);
    CHECK(multi_src_validate_tags("stag", "abx:any", buf) != 0);
    CHECK(multi_src_validate_dtag("dtag", "undef", buf) == 0 &&
          multi_src_validate_dtag("dtag", "any", buf) == 0);
    tsr_data_type_t dt;
    char text[MULTI_SRC_ITEM_LEN], unsupported[16];
    CHECK(multi_src_dt("BF16", &dt, text, unsupported) == 0 && dt == tsr_bf16 &&
          strcmp(text, "bf16") == 0 && !unsupported[0]);
    CHECK(multi_src_dt("f64", &dt, text, unsupported) == 0 &&
          strcmp(unsupported, "f64") == 0);
}

static void test_fills(void) {
    /* ((97i - 17 input + 101) % 16 + fmin) * 1.25, / 16 for bf16. */
    CHECK(sum_fill_value(tsr_f32, 0, 0) == -3.75f);
    CHECK(sum_fill_value(tsr_u8, 0, 0) == 6.25f);
    CHECK(sum_fill_value(tsr_bf16, 0, 0) == -0.1875f);
    CHECK(sum_fill_value(tsr_f32, 1, 3) ==
          (float)((291 - 17 + 101) % 16 - 8) * 1.25f);
    /* C's remainder goes negative, as oneDNN's does. */
    CHECK(sum_fill_value(tsr_f32, 6, 0) == -11.25f);
    /* ((97i + 101) % R + fmin) * (1 + 4 / R), / R for bf16 and f16. */
    CHECK(shuffle_fill_value(tsr_f32, 0) == -411.f * (1.f + 4.f / 1024));
    CHECK(shuffle_fill_value(tsr_bf16, 0) == 37.f / 128);
    CHECK(shuffle_fill_value(tsr_u8, 0) == 101.f * (1.f + 4.f / 256));
    CHECK(shuffle_fill_value(tsr_s8, 2) ==
          (295 % 256 - 128) * (1.f + 4.f / 256));
}

static void test_shuffle_permutation(void) {
    /* 12 channels in groups of 4: forward 5 -> (5 % 4) * 3 + 5 / 4 = 4. */
    CHECK(shuffle_ref_index(1, 12, 4, 5) == 4);
    CHECK(shuffle_ref_index(0, 12, 4, 4) == 5);
    static const int64_t sizes[][2] = {
            {12, 4}, {12, 3}, {240, 3}, {7, 7}, {8, 1}};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        const int64_t a_size = sizes[s][0], g = sizes[s][1];
        int seen[256] = {0}, inverse = 1;
        for (int64_t a = 0; a < a_size; a++) {
            const int64_t to = shuffle_ref_index(1, a_size, g, a);
            if (to >= 0 && to < a_size)
                seen[to]++;
            inverse &= shuffle_ref_index(0, a_size, g, to) == a;
        }
        int permutation = 1;
        for (int64_t a = 0; a < a_size; a++)
            permutation &= seen[a] == 1;
        CHECK(permutation && inverse);
    }
}

static void test_concat_skips(void) {
    concat_prb_t p;
    memset(&p, 0, sizeof(p));
    snprintf(p.dtag, sizeof(p.dtag), "abx");
    p.sdt_dt = tsr_bf16;
    p.ddt_dt = tsr_s8;
    CHECK(concat_skip_reason(&p) != NULL);
    p.ddt_dt = tsr_f32;
    CHECK(concat_skip_reason(&p) == NULL);
    p.sdt_dt = tsr_u8;
    p.ddt_dt = tsr_bf16;
    CHECK(concat_skip_reason(&p) != NULL);
    p.sdt_dt = tsr_f32;
    CHECK(concat_skip_reason(&p) == NULL);
    /* Without a dst descriptor dst is the sources' type. */
    snprintf(p.dtag, sizeof(p.dtag), "undef");
    p.sdt_dt = p.ddt_dt = tsr_bf16;
    CHECK(concat_skip_reason(&p) == NULL);
}

int main(void) {
    test_concat_descriptor();
    test_lists();
    test_fills();
    test_shuffle_permutation();
    test_concat_skips();
    return check_failures() != 0;
}
