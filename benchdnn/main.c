/* benchdnn: the command line of common/bench_main.h; exits 0 (all good),
 * 1 (a problem failed) or 2 (usage error). */
#include "common/bench_main.h"

int main(int argc, char **argv) {
    return benchdnn_main(argc, argv);
}
