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

static int opt(opt_lists_t *l, const char *tok) {
    err[0] = '\0';
    return opt_lists_parse_try(l, tok, err);
}

/* A rejected option: -1, message naming `named`, lists untouched. */
static int opt_rejected(opt_lists_t *l, const char *tok, const char *named) {
    static opt_lists_t before;
    before = *l;
    int ok = opt(l, tok) == -1 && strstr(err, named) != NULL &&
             memcmp(&before, l, sizeof(before)) == 0;
    if (!ok)
        fprintf(stderr, "'%s': message '%s', expected to name '%s'\n", tok, err,
                named);
    return ok;
}

/* Combination i of the conv options on mb5ic3ih5oc4kh3, as the driver's
 * loop builds it. */
static conv_prb_t prb_at(const opt_lists_t *l, int i) {
    conv_desc_t d;
    conv_desc_parse_try("mb5ic3ih5oc4kh3", &d, err);
    const char *values[OPT_MAX];
    bench_attr_t attr;
    opt_lists_get(l, i, values, &attr);
    conv_prb_t p;
    char repro[2048];
    conv_driver.make_prb(&d, values, &attr, &p, repro, sizeof(repro));
    return p;
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
    static opt_lists_t l;
    opt_driver_lists_init(&conv_driver, &l);
    CHECK(opt_lists_count(&l) == 1);
    conv_prb_t p = prb_at(&l, 0);
    CHECK(p.dir == CONV_FWD_B && p.alg == CONV_ALG_DIRECT);
    CHECK(p.cfg.src == tsr_f32 && p.cfg.dst == tsr_f32 && !p.cfg.legacy);
    CHECK(p.bia.dt == tsr_f32 && !strcmp(p.fpmath, "strict"));
    /* --mb=0: the descriptor's minibatch. */
    CHECK(!strcmp(p.stag, "any") && p.desc.mb == 5);

    CHECK(opt(&l, "--dir=FWD_D,bwd_w") == 1 && opt_lists_count(&l) == 2);
    CHECK(prb_at(&l, 0).dir == CONV_FWD_D && prb_at(&l, 1).dir == CONV_BWD_W);
    CHECK(opt_rejected(&l, "--dir=FWD_B,SIDEWAYS", "'SIDEWAYS'"));
    CHECK(opt_rejected(&l, "--dir=FWD_B,,FWD_D", "empty item"));
    /* --reset: every list back to its default. */
    opt_lists_reset(&l);
    CHECK(opt_lists_count(&l) == 1 && prb_at(&l, 0).dir == CONV_FWD_B);

    CHECK(opt(&l, "--cfg=u8s8u8,u8s8u8s32,f32_wino,bf16bf16f32") == 1);
    CHECK(opt_lists_count(&l) == 4);
    p = prb_at(&l, 0);
    CHECK(p.cfg.legacy && p.cfg.src == tsr_u8 && p.cfg.wei == tsr_s8 &&
          p.cfg.dst == tsr_u8);
    p = prb_at(&l, 1);
    CHECK(p.cfg.dst == tsr_u8 && !strcmp(p.cfg.text, "u8s8u8s32"));
    p = prb_at(&l, 2);
    CHECK(p.cfg.src == tsr_f32 && !strcmp(p.cfg.text, "f32_wino"));
    p = prb_at(&l, 3);
    CHECK(p.cfg.src == tsr_bf16 && p.cfg.dst == tsr_f32);
    CHECK(opt_rejected(&l, "--cfg=u8s8", "'u8s8'"));
    CHECK(opt_rejected(&l, "--cfg=q8s8u8", "'q8s8u8'"));
    CHECK(opt_rejected(&l, "--cfg=u8:s8:u8", "--cfg: "));

    /* --dt replaces the --cfg list (one list, two spellings). */
    CHECK(opt(&l, "--dt=u8:s8:u8,bf16,F32:f32:f32") == 1);
    CHECK(opt_lists_count(&l) == 3);
    p = prb_at(&l, 0);
    CHECK(!p.cfg.legacy && !strcmp(p.cfg.text, "u8:s8:u8"));
    p = prb_at(&l, 1);
    CHECK(p.cfg.wei == tsr_bf16 && !strcmp(p.cfg.text, "bf16"));
    p = prb_at(&l, 2);
    CHECK(!strcmp(p.cfg.text, "f32") && bench_dt_cfg_is_default(&p.cfg));
    CHECK(opt_rejected(&l, "--dt=u8:s8", "'u8:s8'"));
    CHECK(opt_rejected(&l, "--dt=u8:s8:q9", "'u8:s8:q9'"));
    CHECK(opt_rejected(&l, "--dt=u8s8u8", "--dt: "));
    /* oneDNN types the library lacks parse; the run says UNIMPLEMENTED. */
    CHECK(opt(&l, "--dt=f64") == 1 &&
          !strcmp(prb_at(&l, 0).cfg.unsupported, "f64"));
    CHECK(opt(&l, "--cfg=bf16") == 1 && opt_lists_count(&l) == 1 &&
          prb_at(&l, 0).cfg.legacy);
    /* An empty value is the default, --dt=f32. */
    CHECK(opt(&l, "--cfg=") == 1);
    p = prb_at(&l, 0);
    CHECK(!p.cfg.legacy && bench_dt_cfg_is_default(&p.cfg));

    CHECK(opt(&l, "--bia-dt=bf16") == 1 && prb_at(&l, 0).bia.dt == tsr_bf16);
    CHECK(opt(&l, "--bia_dt=s32") == 1 && prb_at(&l, 0).bia.dt == tsr_s32);
    CHECK(opt_rejected(&l, "--bia-dt=i7", "'i7'"));

    CHECK(opt(&l, "--stag=axb,nChw16c,b_fs_yx_fsv16") == 1);
    CHECK(opt_lists_count(&l) == 3 && !strcmp(prb_at(&l, 1).stag, "nChw16c"));
    CHECK(opt(&l, "--wtag=OIhw16i16o") == 1 &&
          !strcmp(prb_at(&l, 2).wtag, "OIhw16i16o"));
    CHECK(opt_rejected(&l, "--dtag=nchw,foo", "'foo'"));
    /* Longer than a problem keeps. */
    CHECK(opt_rejected(&l, "--dtag=abcdefghijabcdefghijabcdefghijab",
                       "unknown tag"));
    opt_lists_reset(&l);

    CHECK(opt(&l, "--alg=WINO,convolution_auto") == 1);
    CHECK(prb_at(&l, 0).alg == CONV_ALG_WINO &&
          prb_at(&l, 1).alg == CONV_ALG_AUTO);
    CHECK(opt_rejected(&l, "--alg=fft", "'fft'"));
    CHECK(opt(&l, "--mb=0,16") == 1 && opt_lists_count(&l) == 4);
    CHECK(prb_at(&l, 0).desc.mb == 5 && prb_at(&l, 1).desc.mb == 16);
    CHECK(opt_rejected(&l, "--mb=-1", "'-1'"));
    CHECK(opt(&l, "--attr-fpmath=bf16:true") == 1 &&
          !strcmp(prb_at(&l, 0).fpmath, "bf16:true"));
    CHECK(opt(&l, "--attr-fpmath=ANY") == 1);
    CHECK(opt_rejected(&l, "--attr-fpmath=f8", "'f8'"));
    CHECK(opt(&l, "--attr-post-ops=relu,sum:0.5") == 1 &&
          opt_lists_count(&l) == 8);
    CHECK(opt(&l, "--frobnicate=1") == 0 && opt(&l, "ic3ih5oc4kh3") == 0);
    opt_lists_reset(&l);
}

static void test_lists_multiply(void) {
    static opt_lists_t l;
    opt_driver_lists_init(&conv_driver, &l);
    CHECK(opt(&l, "--dir=FWD_B,FWD_D") == 1);
    CHECK(opt(&l, "--attr-post-ops=,relu") == 1);
    CHECK(opt(&l, "--mb=1,3") == 1);
    CHECK(opt_lists_count(&l) == 8);
    /* Stable order, the later option varying fastest. */
    const conv_dir_t dirs[8] = {CONV_FWD_B, CONV_FWD_B, CONV_FWD_B, CONV_FWD_B,
                                CONV_FWD_D, CONV_FWD_D, CONV_FWD_D, CONV_FWD_D};
    const int posts[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const int64_t mbs[8] = {1, 3, 1, 3, 1, 3, 1, 3};
    for (int i = 0; i < 8; i++) {
        conv_prb_t p = prb_at(&l, i);
        CHECK(p.dir == dirs[i] && p.attr.n_post_ops == posts[i] &&
              p.desc.mb == mbs[i]);
    }
    /* The whole order: dir, cfg/dt, bia-dt, stag, wtag, dtag, alg,
     * attr-fpmath, the --attr-* lists, mb (fastest). */
    static const char *const two_each[] = {
            "--dt=f32,bf16",           "--bia-dt=f32,s32", "--stag=any,axb",
            "--wtag=any,abx",          "--dtag=any,axb",   "--alg=direct,auto",
            "--attr-fpmath=strict,any"};
    for (size_t k = 0; k < sizeof(two_each) / sizeof(two_each[0]); k++)
        CHECK(opt(&l, two_each[k]) == 1);
    CHECK(opt_lists_count(&l) == 1 << 10);
    int ok = 1;
    for (int i = 0; i < 1 << 10; i++) {
        const conv_prb_t p = prb_at(&l, i);
        const int bits =
                (p.dir == CONV_FWD_D) << 9 | (p.cfg.src == tsr_bf16) << 8 |
                (p.bia.dt == tsr_s32) << 7 |
                (p.stag[0] == 'a' && p.stag[1] == 'x') << 6 |
                (p.wtag[1] == 'b') << 5 | (p.dtag[1] == 'x') << 4 |
                (p.alg == CONV_ALG_AUTO) << 3 | (p.fpmath[0] == 'a') << 2 |
                (p.attr.n_post_ops == 1) << 1 | (p.desc.mb == 3);
        ok &= bits == i;
    }
    CHECK(ok);
    opt_lists_reset(&l);
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
    /* Of --cfg and --dt, the last given sets the data types. */
    CHECK(prb_from_line("--cfg=u8s8u8 --dt=bf16 ic3ih5oc4kh3", &p) == 0);
    conv_prb_repro(&p, 0, repro, sizeof(repro));
    CHECK(!strcmp(repro, "--conv --dt=bf16 ic3ih5oc4oh3kh3ph0"));
    CHECK(prb_from_line("--dt=bf16 --cfg=bf16 ic3ih5oc4kh3", &p) == 0);
    conv_prb_repro(&p, 0, repro, sizeof(repro));
    CHECK(!strcmp(repro, "--conv --cfg=bf16 ic3ih5oc4oh3kh3ph0"));
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
