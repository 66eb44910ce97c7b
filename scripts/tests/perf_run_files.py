"""Helpers of the perf_history tests: fixture paths and synthetic run
files in the format ci/nightly.sh produces."""
import os

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
SHARDS = [os.path.join(FIXTURES, f"nightly_alexnet_shard{i}.txt") for i in (0, 1)]
LIB_BOTH = os.path.join(FIXTURES, "nightly_lib_both.txt")

TEMPLATE = ("perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,"
            "%-Gflops%,%0time%,%0Gflops%,%samples%")


def run_text(problems, commit="abc1234", date="2026-11-20T01:00:00Z",
             host="ci-box", batch="synthetic"):
    """benchdnn output for [(prb, samples_ms)], 1 GFLOP per problem."""
    lines = [f"# batch={batch}", f"# date={date}", f"# commit={commit}",
             "# compiler=GNU 12.2.0", "# isa=avx2", "# threads=2",
             "# cpu=Test CPU", f"# host={host}", f"Output template: {TEMPLATE}"]
    for i, (prb, samples) in enumerate(problems):
        lo, avg = min(samples), sum(samples) / len(samples)
        lines.append(f'perf,cpu,gemm:f32,,{prb},1,0.1,{lo},{1e3 / lo},{avg},'
                     f'{1e3 / avg},{";".join(repr(s) for s in samples)}')
        lines.append(f"{i}:EXECUTED __REPRO: {prb}")
    lines.append(f"tests:{len(problems)} passed:{len(problems)} skipped:0 "
                 "mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0 listed:0")
    return "\n".join(lines) + "\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)
