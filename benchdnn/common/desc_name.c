/* Descriptor names (see desc_name.h). */
#include <ctype.h>
#include <string.h>

#include "benchdnn.h"
#include "desc_name.h"

int desc_parse_name(const char *s, const char *full, const char *what,
                    char *name, size_t len, char *err) {
    size_t n = strlen(s);
    if (n > 0 && (s[0] == '"' || s[0] == '\'')) {
        if (n < 2 || s[n - 1] != s[0]) {
            bench_set_err(err,
                          "bad %s descriptor '%s': unmatched quote in name "
                          "'%s'",
                          what, full, s);
            return -1;
        }
        s++;
        n -= 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\'' || isspace((unsigned char)s[i])) {
            bench_set_err(err,
                          "bad %s descriptor '%s': name '%.*s' contains a "
                          "quote or a space",
                          what, full, (int)n, s);
            return -1;
        }
    }
    if (n >= len) {
        bench_set_err(err,
                      "bad %s descriptor '%s': name longer than %d "
                      "characters",
                      what, full, (int)len - 1);
        return -1;
    }
    memcpy(name, s, n);
    name[n] = '\0';
    return 0;
}
