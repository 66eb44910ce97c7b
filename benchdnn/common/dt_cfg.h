/* Data types of a problem as the drivers' options give them. */
#ifndef BENCHDNN_COMMON_DT_CFG_H
#define BENCHDNN_COMMON_DT_CFG_H

#include "common/benchdnn.h"
#include "tessera.h"

/* Data types of a problem, from --cfg (v2.x names such as "u8s8u8",
 * "bf16bf16f32", "f32_wino") or --dt (v3.x "f32", "u8:s8:u8"). A type the
 * library lacks (oneDNN's f64, f8_e5m2, ...) parses, so foreign batch
 * files run; the problem then reports UNIMPLEMENTED naming it. */
typedef struct {
    char text[48];                 /* as printed after --cfg= / --dt= */
    int legacy;                    /* came from --cfg */
    tsr_data_type_t src, wei, dst; /* undef when `unsupported` is set */
    char unsupported[16];
} bench_dt_cfg_t;

int bench_dt_cfg_parse_try(const char *value, int legacy, bench_dt_cfg_t *cfg,
                           char *err);
/* The default f32 however spelled (--cfg=f32, --dt=f32, --dt=f32:f32:f32):
 * not printed in repro lines unless canonical. */
int bench_dt_cfg_is_default(const bench_dt_cfg_t *cfg);

/* Bias data type from --bia-dt: a library type, or an unsupported name. */
typedef struct {
    tsr_data_type_t dt;
    char unsupported[16];
} bench_bia_dt_t;

int bench_bia_dt_parse_try(const char *value, bench_bia_dt_t *bia, char *err);

#endif
