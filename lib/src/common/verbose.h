/* oneDNN-style verbose lines:
 *   onednn_verbose,exec,cpu,convolution,ref:any,forward_training,
 *     src_f32::blocked:abcd:f0 wei_f32::blocked:abcd:f0 ...,attr-...,
 *     mb2_ic3oc64_ih227oh55kh11sh4dh0ph0_iw227ow55kw11sw4dw0pw0,1.234
 * (prefix "tessera_verbose"), printed on creation (level 2) and execution
 * (level 1). */
#ifndef TSR_COMMON_VERBOSE_H
#define TSR_COMMON_VERBOSE_H

#include "primitive.h"

int tsr_verbose_level(void);
double tsr_time_ms(void);
/* Fills pd->info from the op desc, mds and attributes. */
void tsr_verbose_fill_info(struct tsr_primitive_desc *pd);
/* The AUX,PRB part of a line ("alg:convolution_direct,mb2_ic3...",
 * ",2x16x7x7"): kinds' verbose_problem entries. */
void tsr_verbose_conv_problem(const struct tsr_primitive_desc *pd, char *buf,
                              size_t len);
void tsr_verbose_ip_problem(const struct tsr_primitive_desc *pd, char *buf,
                            size_t len);
void tsr_verbose_matmul_problem(const struct tsr_primitive_desc *pd, char *buf,
                                size_t len);
/* The dims of the first argument. */
void tsr_verbose_dims_problem(const struct tsr_primitive_desc *pd, char *buf,
                              size_t len);
/* "AUX,A0xA1:B0xB1...": `aux` (may be NULL) and the dims of each of the n
 * descriptors, benchdnn's multi-dims form (binary, prelu, concat). */
void tsr_verbose_multi_dims_problem(const char *aux,
                                    const tsr_memory_desc_t *const *mds, int n,
                                    char *buf, size_t len);
void tsr_verbose_print(const char *stage, const struct tsr_primitive_desc *pd,
                       double ms);

#endif
