"""History verdicts on synthetic series: a step is flagged and stays
flagged until accepted, a 1%-per-run drift is flagged within 7 runs,
noise of the same magnitude without a step is not, the pinned run is a
reference, and an environment change is reported as such."""
import math
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import perf_history  # noqa: E402
from perf_run_files import run_text, write  # noqa: E402
from tessera_perf import trend  # noqa: E402


def nightly(series):
    """The verdict of each night, judging the series up to that night."""
    return [v.verdict if v else None
            for v in (trend.judge_series(series[:k]) for k in range(1, len(series) + 1))]


def steady(n, rnd, sd=0.01, level=10.0):
    return [level * (1 + rnd.gauss(0, sd)) for _ in range(n)]


@pytest.mark.parametrize("seed", range(10))
def test_ten_percent_step_is_flagged_and_stays_flagged(seed):
    rnd = random.Random(seed)
    series = steady(15, rnd) + steady(10, rnd, level=11.0)
    v = nightly(series)
    assert "regression" not in v[:15]
    # The first slow night is a suspect (a spike looks the same), every
    # later one a regression.
    assert v[15] == "suspect" and v[16:] == ["regression"] * 9
    last = trend.judge_series(series)
    assert last.step_run == 15 and last.change == pytest.approx(0.10, abs=0.02)


@pytest.mark.parametrize("seed", range(10))
def test_one_percent_per_run_drift_is_flagged_within_seven_runs(seed):
    rnd = random.Random(seed)
    series = steady(15, rnd, sd=0.005) + [
        10.0 * 1.01 ** k * (1 + rnd.gauss(0, 0.005)) for k in range(1, 8)]
    v = nightly(series)
    assert "regression" not in v[:15]
    assert "regression" in v[15:], v[15:]


@pytest.mark.parametrize("seed", range(10))
def test_noise_of_the_same_magnitude_is_not_flagged(seed):
    # 1% per run, as large as the drift's step from run to run.
    v = nightly(steady(40, random.Random(seed)))
    assert set(v) <= {"new", "same"}, v


@pytest.mark.parametrize("seed", range(5))
def test_a_one_night_spike_of_the_steps_size_is_no_step(seed):
    rnd = random.Random(seed)
    series = steady(20, rnd)
    series[12] *= 1.10
    series[17] *= 0.90
    v = nightly(series)
    assert v[12] == "suspect" and v[17] in ("suspect", "same")
    assert set(v) <= {"new", "same", "suspect"}, v


def test_segments_split_at_the_step_only():
    assert trend.segments([1.0] * 5 + [2.0] * 5, 0.1) == [(0, 5), (5, 10)]
    assert trend.segments([1.0] * 10, 0.1) == [(0, 10)]


def test_drift_statistics():
    assert trend.theil_sen_slope([1, 2, 3, 4, 10]) == pytest.approx(1.0)
    assert trend.mann_kendall_increasing([1, 2, 3, 4, 5, 6, 7]) < 0.01
    assert trend.mann_kendall_increasing([7, 6, 5, 4, 3, 2, 1]) > 0.99


def test_pinned_run_is_a_reference():
    # A slow level from the start of the series: no step to see, but the
    # pinned run (index 0, fast) says regression.
    rnd = random.Random(3)
    series = [9.0] + steady(12, rnd, sd=0.003)
    assert trend.judge_series(series).verdict == "same"
    v = trend.judge_series(series, pinned=0)
    assert v.verdict == "regression" and v.reason == "slower than the pinned run"
    assert trend.judge_series(series, start=1, pinned=0).verdict == "same"


# Through the command line and the database.

def cli(*args):
    return perf_history.main(["perf_history.py", *args])


def import_nights(tmp_path, db, levels, isa=lambda night: "avx2", first=0):
    rnd = random.Random(1)
    for night, level in enumerate(levels, first):
        samples = [level * (1 + rnd.gauss(0, 0.003)) for _ in range(8)]
        text = run_text([("--conv a", samples), ("--conv b", [4.0, 4.01, 3.99])],
                        commit=f"c{night}", date=f"2026-10-{night + 1:02d}T01:00:00Z")
        path = write(tmp_path, f"n{night}.txt",
                     text.replace("# isa=avx2", f"# isa={isa(night)}"))
        assert cli("import", path, "--db", db, "--machine", "box") == 0


def test_regression_stays_red_until_accepted(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    import_nights(tmp_path, db, [10.0] * 12 + [11.0])
    assert cli("compare", "--baseline", "history", "--db", db) == 0  # a suspect
    assert "| suspect | synthetic | `--conv a` |" in capsys.readouterr().out
    import_nights(tmp_path, db, [11.0] * 3, first=13)
    assert cli("compare", "--baseline", "history", "--db", db) == 1  # still red
    capsys.readouterr()
    assert cli("accept", "--conv a", "--db", db) == 0
    assert "accepted '--conv a' as of run 'c15@" in capsys.readouterr().out
    assert cli("compare", "--baseline", "history", "--db", db) == 0
    # Another slowdown after the acceptance is flagged again.
    import_nights(tmp_path, db, [11.0] * 4 + [12.5] * 2, first=16)
    assert cli("compare", "--baseline", "history", "--db", db) == 1
    # Accepting a whole run, by its label.
    assert cli("accept", "c21@2026-10-22T01:00:00Z", "--db", db) == 0
    assert cli("compare", "--baseline", "history", "--db", db) == 0
    assert cli("accept", "--conv zzz", "--db", db) == 2
    assert "neither a run label nor a problem" in capsys.readouterr().err


def test_pinned_run_through_the_cli(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    # A slow run pinned, then the history drifts; then the pinned run is fast.
    import_nights(tmp_path, db, [10.0] + [11.0] * 12)
    assert cli("compare", "--baseline", "history", "--db", db) == 0
    assert cli("pin", "c0@2026-10-01T01:00:00Z", "--db", db) == 0
    assert "pinned run 'c0@" in capsys.readouterr().out
    assert cli("compare", "--baseline", "history", "--db", db) == 1
    assert "slower than the pinned run" in capsys.readouterr().out
    assert cli("pin", "nope", "--db", db) == 2


def test_environment_change_is_reported_as_such(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    # avx512_core from night 12 on, and 10% slower with it.
    import_nights(tmp_path, db, [10.0] * 12 + [11.0],
                  isa=lambda n: "avx2" if n < 12 else "avx512_core")
    assert cli("compare", "--baseline", "history", "--db", db) == 3
    out = capsys.readouterr()
    assert "> **Environments differ** (isa: avx2 -> avx512_core)" in out.out
    assert "environment changed: isa: avx2 -> avx512_core" in out.err
    assert "regression" not in out.out.split("| verdict |")[1]  # series restart
    # The next nights compare within the new environment only.
    import_nights(tmp_path, db, [11.0] * 5, isa=lambda n: "avx512_core", first=13)
    assert cli("compare", "--baseline", "history", "--db", db) == 0
    assert "Environments differ" not in capsys.readouterr().out


def test_noise_band_and_levels_for_the_plot():
    series = [10.0, 10.1, 9.9, 10.0, 10.05, 9.95, 10.0, 10.1, 9.9, 10.0, 11.0, 11.05]
    v = trend.judge_series(series)
    lo, hi = v.band_ms
    assert lo < v.window_ms < hi and hi / lo - 1 < 0.1
    assert [(a, b) for a, b, _ in v.levels] == [(0, 10), (10, 12)]
    assert math.isclose(v.levels[-1][2], math.sqrt(11.0 * 11.05))
