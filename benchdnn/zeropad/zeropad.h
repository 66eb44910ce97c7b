/* benchdnn zeropad driver (DRIVERS.md §17):
 *
 *   benchdnn --zeropad [--dt=f32|bf16|f16|s32|s8|u8] [--tag=abx]
 *                      D0xD1x...[_nNAME]...
 *
 * Lists multiply in that order. Each problem allocates a tensor in the
 * layout `tag`, fills every byte with 0xFF, calls tsr_memory_zero_pad and
 * requires every logical element's bytes to be 0xFF still and every byte
 * of the blocked padding to be 0 (layouts without padding pass
 * trivially). No primitive and no attributes: the run is this driver's
 * own (zeropad_run.c). */
#ifndef BENCHDNN_ZEROPAD_ZEROPAD_H
#define BENCHDNN_ZEROPAD_ZEROPAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/benchdnn.h"
#include "common/dims_desc.h"
#include "common/opt_lists.h"
#include "tessera.h"

typedef struct {
    dims_desc_t desc;
    tsr_data_type_t dt; /* undef: a oneDNN type the library lacks */
    char dt_text[OPT_VALUE_LEN];
    char tag[OPT_VALUE_LEN];
} zeropad_prb_t;

void zeropad_prb_repro(const zeropad_prb_t *p, int canonical, char *buf,
                       size_t len);
int zeropad_bench(int ntokens, char **tokens);

/* Element offset of logical point `pos` (md->ndims entries, within
 * padded_dims) from md's blocking, computed by the harness itself. */
int64_t zeropad_offset(const tsr_memory_desc_t *md, const int64_t *pos);
/* Checks `data` (the buffer of md) after zero padding: 0xFF in every byte
 * of a logical element, 0 in every byte of a padded one. Sets res's
 * state, errors (points with a wrong byte) and total (padded points);
 * prints the first mismatches. */
void zeropad_check(const tsr_memory_desc_t *md, const uint8_t *data,
                   res_t *res);
void zeropad_run_problem(const zeropad_prb_t *p, const char *repro, res_t *res);

#endif
