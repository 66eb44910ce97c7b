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


def test_main_prints_a_section_per_run(tmp_path, capsys):
    a = tmp_path / "perf_conv_f32_any.txt"
    a.write_text(RUN)
    assert compare_libs.main(["compare_libs.py", str(a), FIXTURE]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### perf_conv_f32_any\n")
    assert "### compare_libs_both\n" in out
    assert out.count("| geomean") == 2


def test_main_rejects_a_run_without_both_libraries(tmp_path, capsys):
    only_tessera = tmp_path / "tessera.txt"
    only_tessera.write_text(RUN.splitlines()[0] + "\n")
    assert compare_libs.main(["compare_libs.py", str(only_tessera)]) == 1
    assert "--lib=both" in capsys.readouterr().err


def test_main_rejects_a_bad_peak(capsys):
    with pytest.raises(SystemExit) as e:
        compare_libs.main(["compare_libs.py", "--peak-gflops", "0", FIXTURE])
    assert e.value.code == 2
