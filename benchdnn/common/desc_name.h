/* The name part of a problem descriptor: `n` then the name to the end,
 * optionally in one pair of quotes, without spaces or inner quotes. */
#ifndef BENCHDNN_COMMON_DESC_NAME_H
#define BENCHDNN_COMMON_DESC_NAME_H

#include <stddef.h>

/* Parses the text after `n` into name (len bytes). Returns 0, or -1 with
 * "bad WHAT descriptor 'FULL': ..." in err. */
int desc_parse_name(const char *s, const char *full, const char *what,
                    char *name, size_t len, char *err);

#endif
