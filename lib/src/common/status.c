/* Printable names of the library's enums. Algorithm names follow benchdnn's
 * spelling so that the harness and verbose lines read the same words. */
#include "tessera.h"

const char *tsr_status2str(tsr_status_t status) {
    switch (status) {
    case tsr_success:
        return "success";
    case tsr_out_of_memory:
        return "out_of_memory";
    case tsr_invalid_arguments:
        return "invalid_arguments";
    case tsr_unimplemented:
        return "unimplemented";
    case tsr_last_impl_reached:
        return "last_impl_reached";
    case tsr_runtime_error:
        return "runtime_error";
    case tsr_not_required:
        return "not_required";
    }
    return "undef";
}

const char *tsr_alg_kind2str(tsr_alg_kind_t alg) {
    switch (alg) {
    case tsr_convolution_direct:
        return "direct";
    case tsr_convolution_winograd:
        return "wino";
    case tsr_convolution_auto:
        return "auto";
    case tsr_eltwise_relu:
        return "relu";
    case tsr_eltwise_tanh:
        return "tanh";
    case tsr_eltwise_elu:
        return "elu";
    case tsr_eltwise_square:
        return "square";
    case tsr_eltwise_abs:
        return "abs";
    case tsr_eltwise_sqrt:
        return "sqrt";
    case tsr_eltwise_linear:
        return "linear";
    case tsr_eltwise_bounded_relu:
        return "bounded_relu";
    case tsr_eltwise_soft_relu:
        return "soft_relu";
    case tsr_eltwise_logistic:
        return "logistic";
    case tsr_eltwise_exp:
        return "exp";
    case tsr_eltwise_gelu_tanh:
        return "gelu_tanh";
    case tsr_eltwise_swish:
        return "swish";
    case tsr_eltwise_log:
        return "log";
    case tsr_eltwise_clip:
        return "clip";
    case tsr_eltwise_clip_v2:
        return "clip_v2";
    case tsr_eltwise_pow:
        return "pow";
    case tsr_eltwise_gelu_erf:
        return "gelu_erf";
    case tsr_eltwise_round:
        return "round";
    case tsr_eltwise_logsigmoid:
        return "logsigmoid";
    case tsr_eltwise_mish:
        return "mish";
    case tsr_eltwise_hardswish:
        return "hardswish";
    case tsr_eltwise_hardsigmoid:
        return "hardsigmoid";
    case tsr_eltwise_relu_use_dst_for_bwd:
        return "relu_dst";
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return "tanh_dst";
    case tsr_eltwise_elu_use_dst_for_bwd:
        return "elu_dst";
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return "sqrt_dst";
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return "logistic_dst";
    case tsr_eltwise_exp_use_dst_for_bwd:
        return "exp_dst";
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return "clip_v2_dst";
    case tsr_binary_add:
        return "add";
    case tsr_binary_mul:
        return "mul";
    case tsr_binary_max:
        return "max";
    case tsr_binary_min:
        return "min";
    case tsr_binary_div:
        return "div";
    case tsr_binary_sub:
        return "sub";
    case tsr_binary_ge:
        return "ge";
    case tsr_binary_gt:
        return "gt";
    case tsr_binary_le:
        return "le";
    case tsr_binary_lt:
        return "lt";
    case tsr_binary_eq:
        return "eq";
    case tsr_binary_ne:
        return "ne";
    default:
        break;
    }
    return "undef";
}

const char *tsr_cpu_isa2str(tsr_cpu_isa_t isa) {
    switch (isa) {
    case tsr_cpu_isa_generic:
        return "generic";
    case tsr_cpu_isa_sse41:
        return "sse41";
    case tsr_cpu_isa_avx2:
        return "avx2";
    case tsr_cpu_isa_avx512_core:
        return "avx512_core";
    case tsr_cpu_isa_avx512_core_vnni:
        return "avx512_core_vnni";
    case tsr_cpu_isa_avx512_core_bf16:
        return "avx512_core_bf16";
    case tsr_cpu_isa_avx512_core_amx:
        return "avx512_core_amx";
    }
    return "undef";
}
