/* benchdnn's command line: the input is the arguments after "benchdnn",
 * one per line (or NUL-separated), e.g. "--conv\n--dir=FWD_I\nmb1ic8iw16
 * oc8kw3". Every driver's descriptor grammar, options and --attr-*
 * strings, the common options and the driver dispatch; problems are
 * listed (--mode=L), or created (--mode=I) when all their numbers are
 * small (bench_fuzz.h). */
#include <stddef.h>
#include <stdint.h>

#include "bench_fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    bench_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    token_list_t tokens = {0};
    bench_fuzz_split(data, size, &tokens);
    bench_fuzz_run(tokens.n, tokens.tok);
    token_list_free(&tokens);
    return 0;
}
