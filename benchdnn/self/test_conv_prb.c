/* The convolution driver around the descriptor: option parsing and list
 * multiplication, repro lines that reproduce their problem, layout
 * meta-tags, fill and comparison rules, quantization masks, and the
 * reference against hand-computed results. */
#include "self_util.h"

#include <math.h>
#include <string.h>

#include "common/attr.h"
#include "common/benchdnn.h"
#include "conv/conv.h"

static char err[BENCH_ERR_LEN];

static int opt(conv_settings_t *s, const char *tok) {
    err[0] = '\0';
    return conv_settings_parse_try(s, tok, err);
}

/* A rejected option: -1, message naming `named`, settings untouched. */
static int opt_rejected(conv_settings_t *s, const char *tok,
                        const char *named) {
    conv_settings_t before = *s;
    int ok = opt(s, tok) == -1 && strstr(err, named) != NULL &&
             memcmp(&before, s, sizeof(before)) == 0;
    if (!ok)
        fprintf(stderr, "'%s': message '%s', expected to name '%s'\n", tok, err,
                named);
    return ok;
}

/* A problem from the tokens of a command line, split at blanks. */
static int prb_from_line(const char *line, conv_prb_t *p) {
    char copy[2048];
    char *toks[64];
    int n = 0;
    snprintf(copy, sizeof(copy), "%s", line);
    for (char *t = strtok(copy, " "); t && n < 64; t = strtok(NULL, " "))
        toks[n++] = t;
    err[0] = '\0';
    return conv_prb_from_args_try(n, toks, p, err);
}

static void test_options(void) {
    conv_settings_t s;
    conv_settings_init(&s);
    CHECK(conv_settings_count(&s) == 1);
    CHECK(s.dir[0] == CONV_FWD_B && s.alg[0] == CONV_ALG_DIRECT);
    CHECK(s.cfg[0].src == tsr_f32 && s.cfg[0].dst == tsr_f32);
    CHECK(!strcmp(s.stag[0], "any") && s.mb[0] == 0);

    CHECK(opt(&s, "--dir=FWD_D,bwd_w") == 1 && s.n_dir == 2);
    CHECK(s.dir[0] == CONV_FWD_D && s.dir[1] == CONV_BWD_W);
    CHECK(opt_rejected(&s, "--dir=FWD_B,SIDEWAYS", "'SIDEWAYS'"));
    CHECK(opt_rejected(&s, "--dir=FWD_B,,FWD_D", "empty item"));

    CHECK(opt(&s, "--cfg=u8s8u8,u8s8u8s32,f32_wino,bf16bf16f32") == 1);
    CHECK(s.n_cfg == 4 && s.cfg[0].legacy);
    CHECK(s.cfg[0].src == tsr_u8 && s.cfg[0].wei == tsr_s8 &&
          s.cfg[0].dst == tsr_u8);
    CHECK(s.cfg[1].dst == tsr_u8 && !strcmp(s.cfg[1].text, "u8s8u8s32"));
    CHECK(s.cfg[2].src == tsr_f32 && !strcmp(s.cfg[2].text, "f32_wino"));
    CHECK(s.cfg[3].src == tsr_bf16 && s.cfg[3].dst == tsr_f32);
    CHECK(opt_rejected(&s, "--cfg=u8s8", "'u8s8'"));
    CHECK(opt_rejected(&s, "--cfg=q8s8u8", "'q8s8u8'"));

    CHECK(opt(&s, "--dt=u8:s8:u8,bf16,F32:f32:f32") == 1 && s.n_cfg == 3);
    CHECK(!s.cfg[0].legacy && !strcmp(s.cfg[0].text, "u8:s8:u8"));
    CHECK(s.cfg[1].wei == tsr_bf16 && !strcmp(s.cfg[1].text, "bf16"));
    CHECK(!strcmp(s.cfg[2].text, "f32") && bench_dt_cfg_is_default(&s.cfg[2]));
    CHECK(opt_rejected(&s, "--dt=u8:s8", "'u8:s8'"));
    CHECK(opt_rejected(&s, "--dt=u8:s8:q9", "'u8:s8:q9'"));
    /* oneDNN types the library lacks parse; the run says UNIMPLEMENTED. */
    CHECK(opt(&s, "--dt=f64") == 1 && !strcmp(s.cfg[0].unsupported, "f64"));

    CHECK(opt(&s, "--bia-dt=bf16") == 1 && s.bia[0].dt == tsr_bf16);
    CHECK(opt(&s, "--bia_dt=s32") == 1 && s.bia[0].dt == tsr_s32);
    CHECK(opt_rejected(&s, "--bia-dt=i7", "'i7'"));

    CHECK(opt(&s, "--stag=axb,nChw16c,b_fs_yx_fsv16") == 1 && s.n_stag == 3);
    CHECK(opt(&s, "--wtag=OIhw16i16o") == 1);
    CHECK(opt_rejected(&s, "--dtag=nchw,foo", "'foo'"));
    CHECK(opt(&s, "--alg=WINO,convolution_auto") == 1);
    CHECK(s.alg[0] == CONV_ALG_WINO && s.alg[1] == CONV_ALG_AUTO);
    CHECK(opt_rejected(&s, "--alg=fft", "'fft'"));
    CHECK(opt(&s, "--mb=0,16") == 1 && s.mb[1] == 16);
    CHECK(opt_rejected(&s, "--mb=-1", "'-1'"));
    CHECK(opt(&s, "--attr-fpmath=bf16:true") == 1);
    CHECK(opt_rejected(&s, "--attr-fpmath=f8", "'f8'"));
    CHECK(opt(&s, "--attr-post-ops=relu,sum:0.5") == 1);
    CHECK(opt(&s, "--frobnicate=1") == 0 && opt(&s, "ic3ih5oc4kh3") == 0);
    conv_settings_fini(&s);
}

static void test_lists_multiply(void) {
    conv_settings_t s;
    conv_settings_init(&s);
    CHECK(opt(&s, "--dir=FWD_B,FWD_D") == 1);
    CHECK(opt(&s, "--attr-post-ops=,relu") == 1);
    CHECK(opt(&s, "--mb=1,3") == 1);
    CHECK(conv_settings_count(&s) == 8);
    conv_desc_t d;
    CHECK(conv_desc_parse_try("ic3ih5oc4kh3", &d, err) == 0);
    /* Stable order, the later option varying fastest. */
    const conv_dir_t dirs[8] = {CONV_FWD_B, CONV_FWD_B, CONV_FWD_B, CONV_FWD_B,
                                CONV_FWD_D, CONV_FWD_D, CONV_FWD_D, CONV_FWD_D};
    const int posts[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const int64_t mbs[8] = {1, 3, 1, 3, 1, 3, 1, 3};
    for (int i = 0; i < 8; i++) {
        conv_prb_t p;
        conv_settings_get(&s, &d, i, &p);
        CHECK(p.dir == dirs[i] && p.attr.n_post_ops == posts[i] &&
              p.desc.mb == mbs[i]);
    }
    conv_settings_fini(&s);
}

static void test_repro(void) {
    static const char *const lines[] = {
            "--conv ic3ih5oc4oh3kh3ph0",
            "--conv --dir=FWD_I --cfg=u8s8u8 --bia-dt=s32 --stag=axb "
            "--dtag=nChw16c --alg=auto --attr-fpmath=bf16 "
            "--attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5+relu "
            "g2mb3ic16ih7oc16oh7kh3ph1n\"x:1\"",
            "--conv --dt=s8:s8:f32 --attr-scales=src:common:0.25+wei:per_oc:1 "
            "--attr-zero-points=src:common:2 ic8iw12oc8ow12kw3pw1",
            "--conv --dir=BWD_D --dt=f64 ic3id6oc4od4kd3pd0"};
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        conv_prb_t p, q;
        char repro[2048], canonical[2048], again[2048];
        if (!CHECK(prb_from_line(lines[i], &p) == 0))
            continue;
        conv_prb_repro(&p, 0, repro, sizeof(repro));
        if (strcmp(repro, lines[i]) != 0)
            fprintf(stderr, "'%s' reprinted as '%s'\n", lines[i], repro);
        CHECK(!strcmp(repro, lines[i]));
        /* The canonical line describes the same problem. */
        conv_prb_repro(&p, 1, canonical, sizeof(canonical));
        CHECK(prb_from_line(canonical, &q) == 0);
        conv_prb_repro(&q, 0, again, sizeof(again));
        CHECK(!strcmp(again, repro) && conv_desc_equal(&p.desc, &q.desc));
    }
    /* --mb lands in the descriptor of the repro line. */
    conv_prb_t p;
    char repro[2048];
    CHECK(prb_from_line("--mb=5 ic3ih5oc4kh3", &p) == 0 && p.desc.mb == 5);
    conv_prb_repro(&p, 0, repro, sizeof(repro));
    CHECK(!strcmp(repro, "--conv mb5ic3ih5oc4oh3kh3ph0"));
    CHECK(prb_from_line("--dir=FWD_B", &p) == -1 && strstr(err, "no "));
    CHECK(prb_from_line("--nope ic3ih5oc4kh3", &p) == -1 &&
          strstr(err, "'--nope'"));
}

static void test_shapes_and_tags(void) {
    conv_prb_t p;
    CHECK(prb_from_line("g2ic16ih7oc8kh3ph1", &p) == 0);
    int64_t dims[TSR_MAX_NDIMS];
    CHECK(conv_src_dims(&p, dims) == 4 && dims[0] == 2 && dims[1] == 16);
    CHECK(conv_wei_dims(&p, dims) == 5 && dims[0] == 2 && dims[1] == 4 &&
          dims[2] == 8 && dims[3] == 3 && dims[4] == 3);
    CHECK(conv_dst_dims(&p, dims) == 4 && dims[1] == 8 && dims[2] == 7);
    CHECK(conv_reduction_len(&p) == 8 * 9);
    CHECK(conv_ops(&p) == 2.0 * 2 * 8 * 49 * 8 * 9);
    CHECK(conv_wei_oc_mask(&p) == 3);

    char tag[32];
    const char *const cases[][3] = {
            {"axb", "4", "acdb"},        {"axb", "3", "acb"},
            {"abx", "5", "abcde"},       {"xba", "4", "cdba"},
            {"aBx16b", "5", "aBcde16b"}, {"ABx16a16b", "3", "ABc16a16b"},
            {"nChw8c", "4", "nChw8c"},   {"any", "4", "any"},
            {"abx", "1", "a"},           {"axb", "1", "a"},
            {"axb", "2", "ab"},          {"xba", "1", "a"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bench_resolve_tag(cases[i][0], cases[i][1][0] - '0', tag, sizeof(tag));
        CHECK(!strcmp(tag, cases[i][2]));
    }
}

static int quant_count(const char *line, int is_zp, bench_qarg_t arg,
                       int64_t *count, int *mask) {
    conv_prb_t p;
    conv_quant_t q;
    char reason[128];
    if (prb_from_line(line, &p) != 0 ||
        conv_quant_init(&p, &q, reason, sizeof(reason)) != 0)
        return -1;
    const conv_q_entry_t *e = is_zp ? &q.zero_points[arg] : &q.scales[arg];
    *count = e->count;
    *mask = e->mask;
    return 0;
}

static void test_quant_masks(void) {
    int64_t count;
    int mask;
    CHECK(quant_count("--attr-scales=wei:per_oc:1 g2ic16ih7oc8kh3", 0, QARG_WEI,
                      &count, &mask) == 0 &&
          mask == 3 && count == 8);
    CHECK(quant_count("--attr-scales=wei:per_oc:1 ic16ih7oc8kh3", 0, QARG_WEI,
                      &count, &mask) == 0 &&
          mask == 1 && count == 8);
    CHECK(quant_count("--attr-zero-points=dst:per_dim_1:1 ic16ih7oc8kh3", 1,
                      QARG_DST, &count, &mask) == 0 &&
          mask == 2 && count == 8);
    CHECK(quant_count("--attr-zero-points=src:per_dim_1:1 ic16ih7oc8kh3", 1,
                      QARG_SRC, &count, &mask) == 0 &&
          count == 16);
    /* Per-channel src scales would not factor out of the sum. */
    conv_prb_t p;
    conv_quant_t q;
    char reason[128] = "";
    CHECK(prb_from_line("--attr-scales=src:per_dim_1:1 ic16ih7oc8kh3", &p) ==
          0);
    CHECK(conv_quant_init(&p, &q, reason, sizeof(reason)) == -1 &&
          strstr(reason, "src scales"));
    const int64_t dims[3] = {2, 3, 4}, pos[3] = {1, 2, 3};
    CHECK(attr_mask_index(5, 3, dims, pos) == 1 * 4 + 3);
    CHECK(attr_mask_index(0, 3, dims, pos) == 0);
}

/* Largest |value| a fill produces. */
static int fill_max(const conv_fill_t *f) {
    return f->hi > -f->lo ? f->hi : -f->lo;
}

static void test_fill_rules(void) {
    conv_prb_t p;
    conv_fill_t src, wei, dst;
    CHECK(prb_from_line("--cfg=u8s8u8 ic256ih13oc384kh3ph1", &p) == 0);
    conv_fill_cfg(&p, CONV_DATA_SRC, &src);
    conv_fill_cfg(&p, CONV_DATA_WEI, &wei);
    conv_fill_cfg(&p, CONV_DATA_DST, &dst);
    CHECK(src.lo >= 0 && src.hi > src.lo && src.hi <= 255);
    CHECK(wei.lo < 0 && wei.hi > 0 && wei.hi <= 127);
    CHECK(dst.lo >= 0 && dst.hi <= 255);
    /* About two dozen non-zero terms per 8-bit output point. */
    const double k = (double)conv_reduction_len(&p);
    CHECK(wei.density < 1 && wei.density * k > 10 && wei.density * k < 50);
    CHECK(src.seed != wei.seed && wei.seed != dst.seed);

    /* Whatever K, the largest sum stays exact in f32. */
    static const char *const big[] = {
            "ic8192ih3oc1kh3", "ic4096id3oc1kd3",
            "--dt=u8:s8:f32 --attr-zero-points=src:common:100 "
            "ic8192ih3oc1kh3"};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        CHECK(prb_from_line(big[i], &p) == 0);
        conv_fill_cfg(&p, CONV_DATA_SRC, &src);
        conv_fill_cfg(&p, CONV_DATA_WEI, &wei);
        const double zp =
                p.attr.zero_points[QARG_SRC].set
                        ? fabs((double)p.attr.zero_points[QARG_SRC].value)
                        : 0;
        CHECK(((double)fill_max(&src) + zp) * fill_max(&wei) *
                      (double)conv_reduction_len(&p) <
              16777216.0);
    }

    float div[512];
    conv_fill_binary_src1(tsr_binary_div, tsr_f32, 0, div, 512);
    int powers = 1;
    for (int i = 0; i < 512; i++) {
        int e;
        powers &= div[i] != 0 && fabsf(frexpf(div[i], &e)) == 0.5f;
    }
    CHECK(powers);
}

static void test_compare_rules(void) {
    conv_prb_t p;
    compare_cfg_t c;
    CHECK(prb_from_line("--attr-post-ops=sum:0.5+relu+linear:2:1 "
                        "--attr-oscale=per_oc:0.25 ic3ih5oc4kh3",
                        &p) == 0);
    conv_compare_cfg(&p, &c);
    CHECK(c.dt == tsr_f32 && c.threshold == 0 && c.abs_threshold == 0);
    CHECK(prb_from_line("--attr-post-ops=tanh ic3ih5oc4kh3", &p) == 0);
    conv_compare_cfg(&p, &c);
    CHECK(c.threshold > 0 && c.threshold < 1e-4f);
    CHECK(prb_from_line("--cfg=u8s8u8 --attr-post-ops=logistic ic3ih5oc4kh3",
                        &p) == 0);
    conv_compare_cfg(&p, &c);
    CHECK(c.abs_threshold == 1 && c.threshold == 0);
    /* A scale that is not a multiple of 2^-8 makes rounding differ. */
    CHECK(prb_from_line("--cfg=u8s8s8 --attr-oscale=common:0.3 ic3ih5oc4kh3",
                        &p) == 0);
    conv_compare_cfg(&p, &c);
    CHECK(c.abs_threshold == 1);
    CHECK(prb_from_line("--cfg=bf16bf16bf16 ic3ih5oc4kh3", &p) == 0);
    conv_compare_cfg(&p, &c);
    CHECK(c.dt == tsr_bf16 && c.threshold == 0);
}

/* 3x3 input 1..9, a 3x3 kernel of ones, padding 1, bias 3. */
static void run_small_ref(const conv_prb_t *p, const float *dst_old,
                          float *dst) {
    float src[9], wei[9], bia[1] = {3};
    for (int i = 0; i < 9; i++) {
        src[i] = (float)(i + 1);
        wei[i] = 1;
    }
    const conv_ref_args_t args = {.src = src,
                                  .wei = wei,
                                  .bia = bia,
                                  .dst_old = dst_old,
                                  .bin_src1 = NULL,
                                  .dst = dst};
    conv_ref_fwd(p, &args);
}

static void test_reference(void) {
    conv_prb_t p;
    float dst[9];
    /* Neighbourhood sums of 1..9 plus the bias. */
    CHECK(prb_from_line("mb1ic1ih3oc1kh3ph1", &p) == 0);
    run_small_ref(&p, NULL, dst);
    const float sums[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
    int ok = 1;
    for (int i = 0; i < 9; i++)
        ok &= dst[i] == sums[i] + 3;
    CHECK(ok);

    /* u8: src zero point 1 -> acc(0,0) = 0+1+3+4 = 8, centre 36;
     * 0.5 * (acc + 3) = 5.5 and 19.5; sum:2 over dst_old 2 adds 4: 9.5
     * and 23.5; relu; nearest even gives 10 and 24, down 9 and 23. */
    float old[9];
    for (int i = 0; i < 9; i++)
        old[i] = 2;
    CHECK(prb_from_line("--cfg=u8s8u8 --attr-oscale=common:0.5 "
                        "--attr-zero-points=src:common:1 "
                        "--attr-post-ops=sum:2+relu mb1ic1ih3oc1kh3ph1",
                        &p) == 0);
    run_small_ref(&p, old, dst);
    CHECK(dst[0] == 10 && dst[4] == 24);
    p.attr.round_mode = tsr_round_down;
    run_small_ref(&p, old, dst);
    CHECK(dst[0] == 9 && dst[4] == 23);
    /* Saturation: negated results clamp to 0 in u8, 300+ to 255. */
    CHECK(prb_from_line("--cfg=u8s8u8 --attr-post-ops=linear:-1 "
                        "mb1ic1ih3oc1kh3ph1",
                        &p) == 0);
    run_small_ref(&p, NULL, dst);
    CHECK(dst[0] == 0 && dst[4] == 0);
    CHECK(prb_from_line("--cfg=u8s8u8 --attr-post-ops=linear:8 "
                        "mb1ic1ih3oc1kh3ph1",
                        &p) == 0);
    run_small_ref(&p, NULL, dst);
    CHECK(dst[0] == 120 && dst[4] == 255);

    /* Depthwise 1D with per-channel weights scales and a dst scale:
     * channel 0 = 2 * (1, 2) * 0.25 / 0.5, channel 1 = -1 * (3, 4) * 0.5
     * / 0.5. */
    CHECK(prb_from_line("--dir=FWD_D --attr-scales=wei:per_oc:1+dst:common:0.5"
                        " g2mb1ic2iw2oc2kw1",
                        &p) == 0);
    const float src[4] = {1, 2, 3, 4}, wei[2] = {2, -1};
    const conv_ref_args_t args = {.src = src, .wei = wei, .dst = dst};
    conv_ref_fwd(&p, &args);
    CHECK(dst[0] == 1 && dst[1] == 2 && dst[2] == -3 && dst[3] == -4);
}

int main(void) {
    bench_settings_init();
    test_options();
    test_lists_multiply();
    test_repro();
    test_shapes_and_tags();
    test_quant_masks();
    test_fill_rules();
    test_compare_rules();
    test_reference();
    bench_settings_free();
    return check_failures() != 0;
}
