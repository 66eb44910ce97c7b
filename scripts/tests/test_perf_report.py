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
    assert "**1 regression(s)**, 0 improvement(s), 1 unchanged" in out
    assert re.search(r"\| regression \| synthetic \| tessera \| `--conv a` \| gemm:f32 "
                     r"\| 100\.20 \| 91\.09 \| 0\.909 \|", out)
    assert open(md).read().strip() == out.strip()
    # The threshold is an option: a 15% minimum effect lets 10% pass.
    assert cli("compare", base, new, "--min-effect", "0.15") == 0


def test_compare_of_equal_runs_passes(tmp_path, capsys):
    base, new = two_runs(tmp_path, 1.0)
    assert cli("compare", base, new) == 0
    assert "**0 regression(s)**" in capsys.readouterr().out


def test_compare_against_history(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    base, new = two_runs(tmp_path, 1.10)
    # No earlier run yet: nothing to compare, no failure.
    assert cli("compare", new, "--baseline", "history", "--db", db) == 0
    assert "no earlier run" in capsys.readouterr().out
    assert cli("import", base, "--db", db) == 0
    assert cli("import", new, "--db", db) == 0
    # The new run is in the db already: its baseline is the run before.
    assert cli("compare", new, "--baseline", "history", "--db", db) == 1
    assert "Against run c1@2026-11-01T01:00:00Z" in capsys.readouterr().out


def test_bad_usage_is_exit_2(tmp_path, capsys):
    base, _ = two_runs(tmp_path, 1.0)
    assert cli("compare", base) == 2
    assert cli("compare", base, base, "--alpha", "3") == 2
    assert "--alpha must be in [0, 1)" in capsys.readouterr().err


def test_markdown_has_the_libraries_side_by_side(tmp_path):
    from tessera_perf.parse import read_run
    from tessera_perf.stats import Thresholds
    run = read_run([LIB_BOTH])
    text = report.markdown_report(run, None, [], Thresholds())
    assert "No baseline run" in text
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
        report.ratio_plot([])


def images(page):
    return [base64.b64decode(m) for m in
            re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


@needs_mpl
def test_report_writes_markdown_and_self_contained_html(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    base, new = two_runs(tmp_path, 1.10)
    for path in (base, new):
        assert cli("import", path, "--db", db, "--machine", "box") == 0
    assert cli("import", LIB_BOTH, "--db", db, "--machine", "box",
               "--run", "with-onednn") == 0
    out = tmp_path / "out"
    # The report of the run c2 against c1.
    assert cli("report", "--db", db, "--out", str(out), "--run",
               "c2@2026-11-02T01:00:00Z") == 0
    md = (out / "report.md").read_text()
    assert "# Performance: box, commit c2" in md
    assert "**1 regression(s)**" in md and "| synthetic | tessera | 0.953 |" in md
    page = (out / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert 'class="regression"' in page and "GFLOPS over the runs" in page
    # Self-contained: no external resources, every image an embedded PNG:
    # the ratio chart and one trend per (batch, library) in the db.
    assert "http://" not in page and "https://" not in page
    pngs = images(page)
    assert len(pngs) == 1 + 3
    assert all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    # Progress on stderr.
    assert "plotting trend 3/3" in capsys.readouterr().err


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
    # Against the shards' run: no problem in common.
    assert "over 0 problems in both runs" in md


def test_report_of_an_empty_db_is_an_error(tmp_path, capsys):
    assert cli("report", "--db", str(tmp_path / "h.db"), "--out", str(tmp_path)) == 2
    assert "no runs in" in capsys.readouterr().err
