/* The reorder and zeropad drivers' own pieces: --oflag parsing, the
 * reference formula and compensation sums, the harness' blocked offsets
 * (against the library's public offset query) and the zeropad byte check,
 * which must catch a stray byte in the padding and in a logical element. */
#include "self_util.h"

#include "reorder/reorder.h"
#include "zeropad/zeropad.h"

static void test_oflag(void) {
    int masks[REORDER_OFLAG_COUNT];
    char err[BENCH_ERR_LEN];
    CHECK(reorder_oflag_parse_try("", masks, err) == 0);
    CHECK(masks[REORDER_OFLAG_S8S8_COMP] == -1 &&
          masks[REORDER_OFLAG_ZP_COMP] == -1);
    CHECK(reorder_oflag_parse_try("zp_comp:1+s8s8_comp:3", masks, err) == 0);
    CHECK(masks[REORDER_OFLAG_ZP_COMP] == 1 &&
          masks[REORDER_OFLAG_S8S8_COMP] == 3);
    static const char *const bad[] = {"zp_comp", "zp_comp:x", "comp:1",
                                      "zp_comp:1+", "zp_comp:-1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        masks[0] = 42;
        CHECK(reorder_oflag_parse_try(bad[i], masks, err) == -1 &&
              strstr(err, bad[i]) && masks[0] == 42);
    }
}

static reorder_prb_t prb_2x3(void) {
    reorder_prb_t p;
    memset(&p, 0, sizeof(p));
    p.desc.ndims = 2;
    p.desc.dims[0] = 2;
    p.desc.dims[1] = 3;
    p.sdt = p.ddt = tsr_f32;
    p.comp_mask[0] = p.comp_mask[1] = -1;
    bench_attr_init(&p.attr);
    return p;
}

static void test_ref(void) {
    reorder_prb_t p = prb_2x3();
    char err[BENCH_ERR_LEN];
    /* oneDNN's oscale vector: the last of the per-dim values is halved. */
    CHECK(attr_try_parse_oscale(&p.attr, "per_dim_1:4", err) == 0);
    const int64_t last[2] = {1, 2}, first[2] = {1, 0};
    CHECK(reorder_alpha(&p, last) == 2.f && reorder_alpha(&p, first) == 4.f);
    CHECK(attr_try_parse_zero_points(&p.attr, "src:common:-1+dst:common:2",
                                     err) == 0);
    /* 4 * (3 - -1) + 2 */
    CHECK(reorder_ref_value(&p, first, 3.f, 100.f) == 18.f);

    /* v3: the sum term is divided by the dst scale with the source's. */
    reorder_prb_t q = prb_2x3();
    CHECK(attr_try_parse_scales(&q.attr, "src:common:4+dst:common:2", err) ==
          0);
    CHECK(attr_try_parse_post_ops(&q.attr, "sum:0.5", err) == 0);
    CHECK(reorder_ref_value(&q, first, 3.f, 8.f) == (4 * 3 + 0.5f * 8) / 2);

    /* Sums per dim 0 of the dst values. */
    const float dst[6] = {1, -2, 3, 127, -128, 5};
    int64_t sums[3];
    reorder_ref_comp(&q, 1, dst, sums);
    CHECK(sums[0] == 2 && sums[1] == 4);
    reorder_ref_comp(&q, 2, dst, sums);
    CHECK(sums[0] == 128 && sums[1] == -130 && sums[2] == 8);
}

static void test_offsets(void) {
    static const char *const tags[] = {"aBcd16b", "ABcd16b16a", "abCD4d4c",
                                       "acdb", "OIhw4i16o4i"};
    const tsr_dim_t dims[4] = {17, 19, 5, 6};
    for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
        tsr_memory_desc_t md;
        CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, tags[t]) ==
              tsr_success);
        int mismatches = 0;
        int64_t pos[4];
        for (pos[0] = 0; pos[0] < dims[0]; pos[0]++)
            for (pos[1] = 0; pos[1] < dims[1]; pos[1]++)
                for (pos[2] = 0; pos[2] < dims[2]; pos[2]++)
                    for (pos[3] = 0; pos[3] < dims[3]; pos[3]++)
                        mismatches += zeropad_offset(&md, pos) !=
                                      tsr_memory_desc_offset(&md, pos);
        CHECK(mismatches == 0);
    }
}

typedef struct {
    const tsr_memory_desc_t *md;
    const uint8_t *data;
    res_t res;
} check_call_t;

static void run_check(void *ctx) {
    check_call_t *c = ctx;
    memset(&c->res, 0, sizeof(c->res));
    zeropad_check(c->md, c->data, &c->res);
}

static void test_zeropad_check(void) {
    const tsr_dim_t dims[3] = {2, 17, 3};
    tsr_memory_desc_t md;
    CHECK(tsr_memory_desc_init_by_tag(&md, 3, dims, tsr_s8, "aBc16b") ==
          tsr_success);
    const size_t size = tsr_memory_desc_get_size(&md);
    uint8_t *data = malloc(size);
    memset(data, 0xFF, size);
    check_call_t c = {&md, data, {0}};
    /* Nothing zeroed yet: every padded point fails. */
    free(capture_stdout(run_check, &c));
    CHECK(c.res.state == STATE_FAILED && c.res.errors == 2 * 15 * 3 &&
          c.res.total == 2 * 32 * 3);
    /* Padding of channels 17..31 zeroed: passes. */
    for (int64_t n = 0; n < 2; n++)
        for (int64_t c = 17; c < 32; c++)
            for (int64_t w = 0; w < 3; w++) {
                const int64_t pos[3] = {n, c, w};
                data[zeropad_offset(&md, pos)] = 0;
            }
    run_check(&c);
    CHECK(c.res.state == STATE_PASSED && c.res.errors == 0);
    /* One stray byte in a logical element, one in the padding. */
    const int64_t logical[3] = {1, 16, 2}, padded[3] = {0, 20, 1};
    data[zeropad_offset(&md, logical)] = 0;
    data[zeropad_offset(&md, padded)] = 1;
    char *out = capture_stdout(run_check, &c);
    CHECK(c.res.state == STATE_FAILED && c.res.errors == 2);
    CHECK(out && strstr(out, "[0,20,1] padded element") &&
          strstr(out, "[1,16,2] logical element"));
    free(out);
    free(data);
}

int main(void) {
    test_oflag();
    test_ref();
    test_offsets();
    test_zeropad_check();
    return check_failures() != 0;
}
