"""perf_history.py compare and report: exit status, Markdown and the
self-contained HTML page."""
import base64
import builtins
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import perf_history  # noqa: E402
from perf_run_files import LIB_BOTH, SHARDS, run_text, write  # noqa: E402
from tessera_perf import report  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False
needs_mpl = pytest.mark.skipif(
    not HAVE_MPL, reason="matplotlib missing (pip install -r scripts/requirements.txt)")


def cli(*args):
    return perf_history.main(["perf_history.py", *args])


def tight(center, n=12):
    return [center * (1 + 0.001 * ((i * 7) % 5 - 2)) for i in range(n)]


def two_runs(tmp_path, slow_factor):
    base = write(tmp_path, "base.txt", run_text(
        [("--conv a", tight(10.0)), ("--conv b", tight(4.0))],
        commit="c1", date="2026-11-01T01:00:00Z"))
    new = write(tmp_path, "new.txt", run_text(
        [("--conv a", tight(10.0 * slow_factor)), ("--conv b", tight(4.0))],
        commit="c2", date="2026-11-02T01:00:00Z"))
    return base, new


def test_compare_exits_non_zero_on_a_regression(tmp_path, capsys):
    base, new = two_runs(tmp_path, 1.10)
    md = str(tmp_path / "cmp.md")
    assert cli("compare", base, new, "--markdown", md) == 1
    out = capsys.readouterr().out
    assert "**1 regression(s)**: 1 regression, 0 improvement, 1 same, over 2 " \
        "problems" in out
    # The one statistic, its IQR and count, and the rate at that median.
    assert "median of per-run times" in out
    assert re.search(r"\| regression \| synthetic \| `--conv a` \| gemm:f32 "
                     r"\| 10 \[0\.022\] \(12\) \| 11 \[0\.025\] \(12\) "
                     r"\| 100\.00 GFLOPS \| 90\.91 GFLOPS \| 0\.909 \|", out)
    # The unchanged problem is folded away.
    changed, folded = out.split("<details>")
    assert "`--conv b`" not in changed and "`--conv b`" in folded
    assert "<summary>1 unchanged</summary>" in out
    assert open(md).read().strip() == out.strip()
    # The threshold is an option: a 15% minimum effect lets 10% pass.
    assert cli("compare", base, new, "--min-effect", "0.15") == 0


def test_compare_of_equal_runs_passes(tmp_path, capsys):
    base, new = two_runs(tmp_path, 1.0)
    assert cli("compare", base, new) == 0
    out = capsys.readouterr().out
    assert "**0 regression(s)**" in out and "No problem changed." in out


def test_compare_across_environments_says_so_first(tmp_path, capsys):
    base, _ = two_runs(tmp_path, 1.0)
    other = write(tmp_path, "other.txt", run_text(
        [("--conv a", tight(10.0 * 1.1)), ("--conv b", tight(4.0))],
        commit="c2").replace("# isa=avx2", "# isa=avx512_core"))
    assert cli("compare", base, other) == perf_history.EXIT_ENVIRONMENT == 3
    out = capsys.readouterr()
    assert out.out.splitlines()[2] == ("> **Environments differ** (isa: avx2 -> "
                                       "avx512_core): the times are not comparable;"
                                       " exit status 3.")
    assert "environments differ: isa" in out.err


def import_days(tmp_path, db, factors, machine="box", isa=lambda day: "avx2"):
    """One run per factor (the time of --conv a, --conv b stays)."""
    for day, f in enumerate(factors):
        text = run_text([("--conv a", tight(10.0 * f)), ("--conv b", tight(4.0))],
                        commit=f"c{day}", date=f"2026-10-{day + 1:02d}T01:00:00Z")
        path = write(tmp_path, f"d{day}.txt", text.replace("# isa=avx2",
                                                          f"# isa={isa(day)}"))
        assert cli("import", path, "--db", db, "--machine", machine) == 0


def test_compare_against_history(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    assert cli("compare", "--baseline", "history", "--db", db) == 2
    assert "no run" in capsys.readouterr().err
    import_days(tmp_path, db, [1.0] * 12 + [1.10] * 2)
    assert cli("compare", "--baseline", "history", "--db", db) == 1
    out = capsys.readouterr().out
    assert re.search(r"\| regression \| synthetic \| `--conv a` \| gemm:f32 "
                     r"\| 11 \| 10 \| \+10\.0% \| 90\.91 GFLOPS \| step at run 13", out)
    # The run before had no regression.
    assert cli("compare", "--baseline", "history", "--db", db, "--run",
               "c11@2026-10-12T01:00:00Z") == 0


def test_markdown_has_the_libraries_side_by_side(tmp_path):
    from tessera_perf.parse import read_run
    run = read_run([LIB_BOTH])
    text = report.markdown_trend(run, [], {})
    assert "## Tessera vs oneDNN: nightly_lib_both" in text
    assert "| `--conv ic16ih14oc32oh14kh3ph1n\"small:3x3\"` | gemm:f32 | 65.04 | " \
           "onednn:jit:avx2 | 165.86 | 0.392 |" in text


def test_missing_matplotlib_gives_the_install_line(monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(report.MissingPackage,
                       match=r"pip install -r scripts/requirements.txt"):
        report.pyplot()


def test_labels_put_the_name_first():
    assert report.problem_label('--conv g2ic96ih27oc256oh27kh5ph2n"alexnet:conv2"') \
        == "alexnet:conv2 · g2ic96ih27oc256oh27kh5ph2"
    assert report.problem_label("--eltwise --alg=relu 32x64x112x112_nresnet50:relu") \
        == "resnet50:relu · --alg=relu 32x64x112x112"
    assert report.problem_label("--conv ic3ih5oc4") == "ic3ih5oc4"


def images(page):
    return [base64.b64decode(m) for m in
            re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


@needs_mpl
def test_report_writes_markdown_and_self_contained_html(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    import_days(tmp_path, db, [1.0] * 12 + [1.10] * 2)
    assert cli("import", LIB_BOTH, "--db", db, "--machine", "other") == 0
    out = tmp_path / "out"
    assert cli("report", "--db", db, "--out", str(out), "--machine", "box",
               "--html-link", "https://ci.example/report.html") == 1
    md = (out / "report.md").read_text()
    assert "# Performance: box, commit c13" in md
    assert "Full report: [https://ci.example/report.html]" in md
    assert "**1 regression(s)**" in md and "<summary>1 unchanged</summary>" in md
    page = (out / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    # The regressed row: its label (name first), the repro on hover, a link
    # to its plot; the plot block has the command to copy.
    assert '<tr class="regression">' in page
    assert '<td title="benchdnn --mode=P --conv a"><a href="#plot-0">a</a></td>' in page
    assert '<div class="plot" id="plot-0">' in page
    assert "<pre>benchdnn --mode=P --conv a</pre>" in page
    # Self-contained: no external resources; one plot (the changed problem).
    assert "http://" not in page and "https://" not in page
    pngs = images(page)
    assert len(pngs) == 1 and pngs[0].startswith(b"\x89PNG\r\n\x1a\n")
    assert "plotting trend 1/1" in capsys.readouterr().err


@needs_mpl
def test_report_of_a_lib_both_run_plots_the_libraries(tmp_path):
    db = str(tmp_path / "h.db")
    assert cli("import", *SHARDS, "--db", db, "--machine", "box") == 0
    assert cli("import", LIB_BOTH, "--db", db, "--machine", "box",
               "--run", "later") == 0
    out = tmp_path / "out"
    assert cli("report", "--db", db, "--out", str(out)) == 0  # the latest run
    page = (out / "report.html").read_text()
    assert '<img alt="Tessera vs oneDNN nightly_lib_both"' in page
    assert "onednn:jit_1x1:avx2" in page
    md = (out / "report.md").read_text()
    assert "| new | nightly_lib_both |" in md  # 1 run: nothing to compare


def test_report_of_an_empty_db_is_an_error(tmp_path, capsys):
    assert cli("report", "--db", str(tmp_path / "h.db"), "--out", str(tmp_path)) == 2
    assert "no run" in capsys.readouterr().err
