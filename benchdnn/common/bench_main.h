/* benchdnn's command line as a function, for main.c and for the fuzz
 * targets that run it in their own process (fuzz/): argv[0] is the
 * program, then common options, the driver (--conv ...), its options and
 * problems. Prints the results and the summary; returns the exit status:
 * 0 all good, 1 a problem failed, 2 usage error. --help, --DRIVER --help
 * and --version print and return 0. Usage errors end in
 * bench_usage_exit() (common/benchdnn.h). The drivers are listed in
 * drivers[] of bench_main.c. */
#ifndef BENCHDNN_COMMON_BENCH_MAIN_H
#define BENCHDNN_COMMON_BENCH_MAIN_H

int benchdnn_main(int argc, char **argv);

#endif
