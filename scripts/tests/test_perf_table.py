import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import perf_table  # noqa: E402

RUN_A = """\
0:PASSED __REPRO: --conv --mode=P ic3ih227oc96oh55kh11sh4n"conv1"
perf,cpu,ref:any,"conv1",--conv --mode=P ic3ih227oc96oh55kh11sh4n"conv1",0.21,1.5,10,21,12,17.5
perf,cpu,ref:any,,--conv --mode=P --cfg=u8s8u8 ic16ih5oc16kh3,0.002,0.1,0.5,4,1,2
tests:2 passed:2 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0 listed:0
"""
RUN_B = RUN_A.replace(",10,21,12,17.5", ",20,10.5,24,8.75")


def test_parse_keeps_only_perf_lines_and_splits_name_from_problem():
    run = perf_table.parse_perf_lines(RUN_A.splitlines())
    assert len(run) == 2
    conv1 = run['--conv --mode=P ic3ih227oc96oh55kh11sh4n"conv1"']
    assert conv1["name"] == '"conv1"'
    assert conv1["min_gflops"] == 21.0 and conv1["avg_ms"] == 12.0
    unnamed = run["--conv --mode=P --cfg=u8s8u8 ic16ih5oc16kh3"]
    assert unnamed["name"] == "" and unnamed["min_ms"] == 0.5


def test_malformed_perf_line_is_rejected():
    with pytest.raises(ValueError, match="non-numeric"):
        perf_table.parse_perf_lines(["perf,cpu,ref,,--conv x,a,b,c,d,e,f"])


def test_two_runs_give_ratios_and_geomean():
    a = perf_table.parse_perf_lines(RUN_A.splitlines())
    b = perf_table.parse_perf_lines(RUN_B.splitlines())
    table = perf_table.table_two(a, b)
    assert "| 21.0 | 10.5 | 2.00 |" in table
    # One problem 2x faster, the other equal: geomean sqrt(2).
    assert table.splitlines()[-1] == "| geomean | | | 1.41 |"
