import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import compare_libs  # noqa: E402
import perf_table  # noqa: E402

# A real run: benchdnn --conv --lib=both --mode=P over three small
# problems, the last one (bf16) unimplemented in oneDNN 2.6 on AVX2.
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures",
                       "compare_libs_both.txt")


def fixture_run():
    with open(FIXTURE, encoding="utf-8") as f:
        return perf_table.parse_perf_lines(f)


def test_fixture_pairs_each_problem_with_its_onednn_run():
    tessera, onednn = compare_libs.split_libs(fixture_run())
    assert len(tessera) == 3 and len(onednn) == 2
    assert set(onednn) <= set(tessera)
    assert all(not prb.startswith("--lib=") for prb in list(tessera) + list(onednn))
    assert all(o["impl"].startswith("onednn:") for o in onednn.values())
    assert all(not t["impl"].startswith("onednn:") for t in tessera.values())


def test_fixture_rows_have_ratios_where_both_ran():
    rows = compare_libs.compare_rows(*compare_libs.split_libs(fixture_run()))
    assert len(rows) == 3
    for prb, t, o, ratio in rows[:2]:
        assert ratio == pytest.approx(t["min_gflops"] / o["min_gflops"])
    prb, t, o, ratio = rows[2]
    assert "bf16" in prb and t is not None and o is None and ratio is None


def test_fixture_table_has_geomean_of_the_two_ratios():
    rows = compare_libs.compare_rows(*compare_libs.split_libs(fixture_run()))
    table = compare_libs.markdown_table(rows)
    lines = table.splitlines()
    assert lines[0].startswith("| problem | Tessera impl | Tessera GFLOPS |")
    assert len(lines) == 2 + 3 + 1
    expected = perf_table.geomean([r[3] for r in rows if r[3] is not None])
    assert lines[-1].startswith("| geomean (2 problems) |")
    assert lines[-1].endswith(f"| {expected:.3f} |")
    assert "| - | - | - |" in lines[4]  # oneDNN's missing run


RUN = """\
perf,cpu,ref:any,"a",--conv ic16ih7oc16oh7kh3ph1n"a",0.1,1,10,10,12,8
0:EXECUTED __REPRO: --conv ic16ih7oc16oh7kh3ph1n"a"
perf,cpu,onednn:jit:avx2,"a",--lib=onednn --conv ic16ih7oc16oh7kh3ph1n"a",0.1,1,2.5,40,3,33
0:EXECUTED __REPRO: --lib=onednn --conv ic16ih7oc16oh7kh3ph1n"a"
perf,cpu,gemm:f32,,--conv ic8ih7oc8oh7kh1ph0,0.1,1,1,100,1,100
perf,cpu,onednn:jit_1x1:avx2,,--lib=onednn --conv ic8ih7oc8oh7kh1ph0,0.1,1,1,100,1,100
"""


def test_ratio_geomean_and_peak_fraction():
    rows = compare_libs.compare_rows(
        *compare_libs.split_libs(perf_table.parse_perf_lines(RUN.splitlines())))
    assert [r[3] for r in rows] == [0.25, 1.0]
    table = compare_libs.markdown_table(rows, peak_gflops=200)
    assert ('| `--conv ic16ih7oc16oh7kh3ph1n"a"` | ref:any | 10.00 | '
            'onednn:jit:avx2 | 40.00 | 0.250 | 5.0% | 20.0% |') in table
    # geomean of 0.25 and 1: 0.5
    assert table.splitlines()[-1] == "| geomean (2 problems) |  |  |  |  | 0.500 |  |  |"


def test_main_prints_one_table_with_a_geomean_per_run(tmp_path, capsys):
    a = tmp_path / "perf_conv_f32_any.txt"
    a.write_text(RUN)
    assert compare_libs.main(["compare_libs.py", str(a), FIXTURE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| problem |")
    assert sum(line.startswith("| problem |") for line in lines) == 1
    # RUN's 2 rows, its geomean, the fixture's 3 rows, its geomean, all.
    assert len(lines) == 2 + 2 + 1 + 3 + 1 + 1
    assert lines[4] == ("| **geomean perf_conv_f32_any** (2 problems) "
                        "|  |  |  |  | 0.500 |")
    assert lines[8].startswith("| **geomean compare_libs_both** (2 problems) |")
    assert lines[9].startswith("| **geomean all batches** (4 problems) |")


# Real runs of the inner product and matmul drivers with --lib=both
# --mode=P: f32 and u8s8s8 problems, and a bf16 one oneDNN 2.6 does not
# implement on AVX2 (no oneDNN perf line).
IP_FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures",
                          "compare_libs_ip.txt")
MATMUL_FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures",
                              "compare_libs_matmul.txt")


def read_run(path):
    with open(path, encoding="utf-8") as f:
        return perf_table.parse_perf_lines(f)


@pytest.mark.parametrize("path, driver, count", [
    (IP_FIXTURE, "--ip ", 4), (MATMUL_FIXTURE, "--matmul ", 3)])
def test_ip_and_matmul_lines_pair_by_problem(path, driver, count):
    tessera, onednn = compare_libs.split_libs(read_run(path))
    assert len(tessera) == count and len(onednn) == count - 1
    assert set(onednn) < set(tessera)
    assert all(prb.startswith(driver) for prb in tessera)
    assert all(o["impl"].startswith("onednn:") for o in onednn.values())
    assert all(not t["impl"].startswith("onednn:") for t in tessera.values())
    rows = compare_libs.compare_rows(tessera, onednn)
    for prb, t, o, ratio in rows[:-1]:
        assert o["gops"] == t["gops"]  # the same problem
        assert ratio == pytest.approx(t["min_gflops"] / o["min_gflops"])
    prb, t, o, ratio = rows[-1]
    assert "bf16" in prb and o is None and ratio is None


def test_named_matmul_problem_fields():
    tessera, onednn = compare_libs.split_libs(read_run(MATMUL_FIXTURE))
    prb = '--matmul 12x384x64:12x64x384n"bert_base:scores_384"'
    assert tessera[prb]["name"] == '"bert_base:scores_384"'
    assert tessera[prb]["impl"] == "gemm:f32"
    assert onednn[prb]["impl"] == "onednn:gemm:jit"
    assert onednn[prb]["gops"] == pytest.approx(0.226492)
    assert onednn[prb]["min_gflops"] == pytest.approx(11.3439)


def test_ip_and_matmul_in_one_table_with_peak(capsys):
    assert compare_libs.main(["compare_libs.py", "--peak-gflops", "100",
                              IP_FIXTURE, MATMUL_FIXTURE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("| Tessera % of peak | oneDNN % of peak |")
    assert len(lines) == 2 + 4 + 1 + 3 + 1 + 1
    assert lines[2] == (
        '| `--ip mb32ic2048ih1iw1oc1000n"resnet_50:fc1000_mb32"` | gemm:f32 '
        '| 71.03 | onednn:x64:gemm:jit | 128.63 | 0.552 | 71.0% | 128.6% |')
    assert lines[5].endswith("| ref:any | 0.03 | - | - | - | 0.0% | - |")
    runs = [read_run(IP_FIXTURE), read_run(MATMUL_FIXTURE)]
    ratios = [[r[3] for r in compare_libs.compare_rows(
        *compare_libs.split_libs(run)) if r[3] is not None] for run in runs]
    ip_mean, mm_mean, all_mean = (perf_table.geomean(ratios[0]),
                                  perf_table.geomean(ratios[1]),
                                  perf_table.geomean(ratios[0] + ratios[1]))
    assert lines[6] == (f"| **geomean compare_libs_ip** (3 problems) |  |  "
                        f"|  |  | {ip_mean:.3f} |  |  |")
    assert lines[10] == (f"| **geomean compare_libs_matmul** (2 problems) "
                         f"|  |  |  |  | {mm_mean:.3f} |  |  |")
    assert lines[11] == (f"| **geomean all batches** (5 problems) |  |  |  "
                         f"|  | {all_mean:.3f} |  |  |")


def test_main_rejects_a_run_without_both_libraries(tmp_path, capsys):
    only_tessera = tmp_path / "tessera.txt"
    only_tessera.write_text(RUN.splitlines()[0] + "\n")
    assert compare_libs.main(["compare_libs.py", str(only_tessera)]) == 1
    assert "--lib=both" in capsys.readouterr().err


def test_main_rejects_a_bad_peak(capsys):
    with pytest.raises(SystemExit) as e:
        compare_libs.main(["compare_libs.py", "--peak-gflops", "0", FIXTURE])
    assert e.value.code == 2


def rounds_of(*rounds):
    """benchdnn perf lines of one problem run in rounds: for each round
    (Tessera GFLOPS, oneDNN GFLOPS), at 0.1 GOPS and 0.1 / GFLOPS s."""
    prb = "--conv ic8ih7oc8oh7kh1ph0"
    lines = []
    for t, o in rounds:
        lines.append(f"perf,cpu,gemm:f32,,{prb},0.1,1,{100 / t},{t},2,50")
        lines.append(f"perf,cpu,onednn:jit_1x1:avx2,,--lib=onednn {prb},0.1,1,"
                     f"{100 / o},{o},4,25")
    return lines


def test_repeated_problems_keep_each_librarys_best():
    # Two rounds of one problem: Tessera is fastest in the second, oneDNN in
    # the first; each side keeps its own best.
    run = compare_libs.best_runs(rounds_of((50, 100), (80, 25)))
    rows = compare_libs.compare_rows(*compare_libs.split_libs(run))
    assert len(rows) == 1
    prb, t, o, ratio = rows[0]
    assert t["min_gflops"] == 80 and o["min_gflops"] == 100
    assert ratio == pytest.approx(0.8)


def test_rounds_add_the_median_of_round_ratios():
    # Three rounds: Tessera/oneDNN per round 0.5, 2 (oneDNN's slow round)
    # and 0.889 (both at their best speed, but not in the same round as
    # oneDNN's best: the ratio of bests says 0.8); the median is 0.889.
    rows = compare_libs.compare_rows(*compare_libs.split_libs(
        compare_libs.best_runs(rounds_of((50, 100), (50, 25), (80, 90)))))
    prb, t, o, ratio = rows[0]
    assert t["rounds"] == [50, 50, 80] and o["rounds"] == [100, 25, 90]
    assert ratio == pytest.approx(0.8)
    assert compare_libs.round_ratio(t, o) == pytest.approx(80 / 90)
    lines = compare_libs.markdown_table(rows).splitlines()
    assert lines[0].endswith("| ratio Tessera/oneDNN | median ratio of rounds |")
    assert lines[2].endswith("| 80.00 | onednn:jit_1x1:avx2 | 100.00 | 0.800 "
                             "| 0.889 |")
    assert lines[-1] == "| geomean (1 problem) |  |  |  |  | 0.800 | 0.889 |"


def test_a_single_round_has_no_round_column():
    run = compare_libs.best_runs(RUN.splitlines())
    rows = compare_libs.compare_rows(*compare_libs.split_libs(run))
    assert compare_libs.round_ratio(rows[0][1], rows[0][2]) is None
    assert "median ratio of rounds" not in compare_libs.markdown_table(rows)
