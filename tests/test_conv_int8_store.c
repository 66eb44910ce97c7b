/* The optimized int8 convolutions store exactly what the reference does,
 * on values that reach every corner of the conversion: per-channel scales
 * and biases of NaN, infinities, huge and tiny magnitudes, signed zeros
 * and ties, into u8 and s8, with and without a ReLU, over 43 output
 * channels (whole 16-column groups, an 8-column group and a scalar tail)
 * and 8 points (a full row tile and a tail), for a 1x1 convolution and a
 * depthwise one (43 groups of one channel). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "conv_test_util.h"

enum { IC = 8, IH = 2, IW = 4, OC = 43, POINTS = IH * IW };

static tsr_engine_t engine;
static tsr_stream_t stream;

/* Scale and bias of channel oc: special values first, then ordinary ones
 * (ties at .5 after scaling by 0.5). */
static float scale_of(int oc) {
    static const float special[] = {NAN,    INFINITY, -INFINITY, 1e30f,
                                    -1e30f, 1e-30f,   0.f,       -0.f,
                                    0.5f,   -0.5f,    3e9f,      -3e9f};
    const int n = (int)(sizeof(special) / sizeof(special[0]));
    return oc < n ? special[n - 1 - oc % n] : (oc % 2 ? 0.5f : -0.75f);
}

static float bias_of(int oc) {
    static const float special[] = {-INFINITY, INFINITY, NAN,   1e30f,
                                    -0.f,      0.5f,     -0.5f, 0.f};
    const int n = (int)(sizeof(special) / sizeof(special[0]));
    return oc >= 24 && oc < 24 + n ? special[oc - 24] : (float)(oc % 7) - 3.f;
}

static void check_case(tsr_data_type_t ddt, int with_bias, int relu, int dw) {
    const int ic = dw ? OC : IC;
    conv_shape_t s = {
            .ndims = 4,
            .wei_ndims = dw ? 5 : 4,
            .src = {1, ic, IH, IW},
            .wei = {OC, dw ? 1 : IC, 1, 1, 1},
            .dst = {1, OC, IH, IW},
            .bias = with_bias ? OC : 0,
            .sdt = tsr_u8,
            .wdt = tsr_s8,
            .bdt = tsr_f32,
            .ddt = ddt,
            .stag = "acdb",
            .wtag = dw ? "abcde" : "abcd",
            .dtag = "acdb",
            .strides = {1, 1},
    };
    uint8_t src[POINTS * OC];
    int8_t wei[OC * IC];
    float bias[OC], scales[OC];
    for (int i = 0; i < POINTS * ic; i++)
        src[i] = (uint8_t)(i * 37 % 256);
    for (int i = 0; i < OC * (dw ? 1 : IC); i++)
        wei[i] = (int8_t)(i * 13 % 31 - 15);
    for (int oc = 0; oc < OC; oc++) {
        bias[oc] = bias_of(oc);
        scales[oc] = scale_of(oc);
    }

    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    /* Per output channel: over (g, oc) of grouped weights. */
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_WEIGHTS, dw ? 3 : 1);
    if (relu) {
        tsr_post_ops_t po;
        tsr_post_ops_create(&po);
        tsr_post_ops_append_eltwise(po, 1.f, tsr_eltwise_relu, 0.f, 0.f);
        tsr_primitive_attr_set_post_ops(attr, po);
        tsr_post_ops_destroy(po);
    }
    uint8_t fast[POINTS * OC], ref[POINTS * OC];
    memset(fast, 0x5a, sizeof(fast));
    memset(ref, 0xa5, sizeof(ref));
    const char *fast_name = "";
    tsr_memory_desc_t scales_md = md_1d(OC, tsr_f32);
    const test_arg_t scales_arg = {TSR_ARG_ATTR_SCALES | TSR_ARG_WEIGHTS,
                                   &scales_md, scales};
    CHECK_STATUS(conv_run_impl(&s, attr, engine, stream, NULL, src, wei,
                               with_bias ? bias : NULL, fast, 1, &scales_arg,
                               &fast_name),
                 tsr_success);
    CHECK_STATUS(conv_run_impl(&s, attr, engine, stream, "ref:any", src, wei,
                               with_bias ? bias : NULL, ref, 1, &scales_arg,
                               NULL),
                 tsr_success);
    /* The case is only worth its name when an optimized store ran. */
    CHECK(strcmp(fast_name, "ref:any") != 0);
    if (!CHECK(memcmp(fast, ref, sizeof(fast)) == 0))
        for (int i = 0; i < POINTS * OC; i++)
            if (fast[i] != ref[i]) {
                fprintf(stderr,
                        "%s dst %s bias %d relu %d dw %d: point %d oc %d: "
                        "%d, reference %d\n",
                        fast_name, ddt == tsr_u8 ? "u8" : "s8", with_bias, relu,
                        dw, i / OC, i % OC, fast[i], ref[i]);
                break;
            }
    tsr_primitive_attr_destroy(attr);
}

int main(void) {
    CHECK_STATUS(tsr_engine_create(&engine, tsr_cpu, 0), tsr_success);
    CHECK_STATUS(tsr_stream_create(&stream, engine), tsr_success);
    const tsr_data_type_t dts[2] = {tsr_u8, tsr_s8};
    for (int d = 0; d < 2; d++)
        for (int with_bias = 0; with_bias < 2; with_bias++)
            for (int relu = 0; relu < 2; relu++)
                for (int dw = 0; dw < 2; dw++)
                    check_case(dts[d], with_bias, relu, dw);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
