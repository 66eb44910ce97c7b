"""Reading benchdnn run files (the checked-in fixtures are real output of
ci/nightly.sh's benchdnn command lines) and rejecting broken ones."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import perf_table  # noqa: E402
from perf_run_files import LIB_BOTH, SHARDS, run_text, write  # noqa: E402
from tessera_perf.parse import RunFormatError, read_run, read_run_file  # noqa: E402


def test_perf_table_follows_the_output_template_line():
    with open(SHARDS[0], encoding="utf-8") as f:
        run = perf_table.parse_perf_lines(f)
    assert len(run) == 3
    conv1 = run['--conv g1mb1ic3ih227oc96oh55kh11sh4ph0n"alexnet:conv1"']
    assert conv1["impl"] == "gemm:f32" and conv1["name"] == '"alexnet:conv1"'
    assert len(conv1["samples"]) == 6  # --fix-times-per-prb=6
    # The min time is the smallest sample and the average their mean.
    assert conv1["min_ms"] == min(conv1["samples"])
    assert conv1["avg_ms"] == pytest.approx(sum(conv1["samples"]) / 6, rel=1e-4)


def test_unsupported_template_is_rejected():
    with pytest.raises(ValueError, match="unsupported perf template"):
        perf_table.parse_perf_lines(["Output template: %prb%,%-time%"])


def test_shards_read_as_one_run():
    run = read_run(SHARDS)
    assert run.commit == "7294232-dirty" and run.machine == "vm"
    assert run.header["isa"] == "avx2" and run.header["threads"] == "2"
    # The run starts when its first shard did.
    assert run.date == min(read_run_file(p)[0]["date"] for p in SHARDS)
    assert run.label == f"{run.commit}@{run.date}"
    names = sorted(r.name for r in run.results)
    assert names == [f"alexnet:conv{i}" for i in range(1, 6)]
    assert {r.batch for r in run.results} == {"alexnet_f32"}
    assert all(r.driver == "conv" and r.dt == "f32" and r.lib == "tessera"
               for r in run.results)
    assert all(len(r.samples) == 6 for r in run.results)


def test_lib_both_lines_are_split_by_library():
    run = read_run([LIB_BOTH], machine="m1", label="nightly-7")
    assert (run.machine, run.label) == ("m1", "nightly-7")
    onednn = [r for r in run.results if r.lib == "onednn"]
    tessera = [r for r in run.results if r.lib == "tessera"]
    assert len(onednn) == len(tessera) == 2
    # The same problem key, told apart by the library and implementation.
    assert {r.problem for r in onednn} == {r.problem for r in tessera}
    assert all(r.impl.startswith("onednn:") for r in onednn)
    # No "# batch=" line: the file name names the batch.
    assert run.results[0].batch == "nightly_lib_both"


def test_attributes_and_data_type_come_from_the_problem(tmp_path):
    path = write(tmp_path, "a.txt", run_text([
        ("--conv --cfg=u8s8u8 --attr-post-ops=relu ic16ih5oc16kh3", [1.0, 1.1])]))
    (r,) = read_run([path]).results
    assert (r.dt, r.attrs) == ("u8s8u8", "--attr-post-ops=relu")


@pytest.mark.parametrize("mutate, message", [
    (lambda t: t[:t.index("tests:")], "cut off"),
    (lambda t: t.replace("# commit=abc1234\n", ""), "no run header"),
    (lambda t: t.replace(";1.1", ";x"), "non-numeric sample"),
    (lambda t: t.replace(",gemm:f32,,--conv", ",gemm:f32,,--conv,oops"), ""),
    (lambda t: t.replace("perf,cpu,gemm:f32,,--conv a,1,", "perf,cpu,gemm:f32,,--conv a,one,"),
     "non-numeric field"),
    (lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("perf,")),
     "no perf lines"),
])
def test_broken_files_are_rejected(tmp_path, mutate, message):
    good = run_text([("--conv a", [1.0, 1.1]), ("--conv b", [2.0, 2.1])])
    read_run([write(tmp_path, "good.txt", good)])  # the original is fine
    bad = mutate(good)
    assert bad != good
    path = write(tmp_path, "bad.txt", bad)
    if message:
        with pytest.raises(RunFormatError, match=message):
            read_run([path])
    else:  # an extra comma inside the problem: still one problem
        assert len(read_run([path]).results) == 2


def test_shards_of_different_commits_or_overlapping_are_rejected(tmp_path):
    a = write(tmp_path, "a.txt", run_text([("--conv a", [1.0, 1.1])]))
    b = write(tmp_path, "b.txt", run_text([("--conv b", [1.0, 1.1])], commit="def5678"))
    with pytest.raises(RunFormatError, match="different commits"):
        read_run([a, b])
    with pytest.raises(RunFormatError, match="shards overlap"):
        read_run([a, a])


def test_empty_shard_counts_for_nothing(tmp_path):
    """A shard that drew no problem: benchdnn prints no header and no perf
    line, only "tests:0". Two such files are alike byte for byte."""
    empty = "# batch=synthetic\ntests:0 passed:0 skipped:0 mistrusted:0 " \
            "unimplemented:0 invalid_arguments:0 failed:0 listed:0\n"
    e1 = write(tmp_path, "e1.txt", empty)
    e2 = write(tmp_path, "e2.txt", empty)
    a = write(tmp_path, "a.txt", run_text([("--conv a", [1.0, 1.1])]))
    run = read_run([e1, a, e2])
    assert len(run.results) == 1 and [n for n, _ in run.sources] == ["a.txt"]
    with pytest.raises(RunFormatError, match="no perf results"):
        read_run([e1, e2])
