"""The SQLite history: import, de-duplication, shard merging and the
all-or-nothing rejection of bad input."""
import os
import sqlite3
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import perf_history  # noqa: E402
from perf_run_files import LIB_BOTH, SHARDS, run_text, write  # noqa: E402
from tessera_perf.history import SCHEMA, History, HistoryError  # noqa: E402
from tessera_perf.parse import read_run  # noqa: E402


def dump(db_path):
    """Every row of every table: to check that nothing changed."""
    con = sqlite3.connect(db_path)
    try:
        tables = [t for (t,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in tables}
    finally:
        con.close()


def cli(*args):
    return perf_history.main(["perf_history.py", *args])


def test_import_twice_adds_nothing(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    assert cli("import", *SHARDS, "--db", db) == 0
    first = dump(db)
    assert len(first["runs"]) == 1 and len(first["results"]) == 5
    assert cli("import", *SHARDS, "--db", db) == 0
    assert "already imported" in capsys.readouterr().out
    assert dump(db) == first


def test_shards_imported_one_by_one_form_one_run(tmp_path):
    db = str(tmp_path / "h.db")
    for shard in SHARDS:
        assert cli("import", shard, "--db", db, "--run", "nightly-41",
                   "--machine", "box") == 0
    rows = dump(db)
    assert len(rows["runs"]) == 1 and len(rows["results"]) == 5
    assert len(rows["sources"]) == 2
    h = History(db)
    (run_row,) = h.runs("box")
    run = h.load_run(run_row[0])
    h.close()
    # The stored run gives back what was read, samples included.
    original = {r.key: r for r in read_run(SHARDS).results}
    for r in run.results:
        assert r.samples == original[r.key].samples
        assert r.min_ms == original[r.key].min_ms


def test_bad_file_in_an_import_writes_nothing(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    assert cli("import", LIB_BOTH, "--db", db) == 0
    before = dump(db)
    cut = write(tmp_path, "cut.txt", open(SHARDS[1]).read().split("tests:")[0])
    assert cli("import", SHARDS[0], cut, "--db", db) == 2
    assert "cut off" in capsys.readouterr().err
    assert dump(db) == before


def test_conflict_found_mid_import_rolls_back(tmp_path):
    """The conflict shows only when the results go in, after the run row
    and the source rows were written: the transaction undoes those."""
    db = str(tmp_path / "h.db")
    a = write(tmp_path, "a.txt", run_text([("--conv a", [1.0, 1.1])]))
    # Another file of the same run label repeating problem a.
    b = write(tmp_path, "b.txt", run_text([("--conv b", [1.0, 1.1]),
                                           ("--conv a", [1.0, 1.2])],
                                          date="2026-11-19T00:00:00Z"))
    assert cli("import", a, "--db", db, "--run", "r1") == 0
    before = dump(db)
    h = History(db)
    with pytest.raises(HistoryError, match="already in run 'r1'"):
        h.import_run(read_run([b], label="r1"))
    h.close()
    assert dump(db) == before  # the run's date and b's source row are gone


def test_same_label_with_another_commit_is_rejected(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    a = write(tmp_path, "a.txt", run_text([("--conv a", [1.0, 1.1])]))
    b = write(tmp_path, "b.txt", run_text([("--conv b", [1.0])], commit="fff0000"))
    assert cli("import", a, "--db", db, "--run", "r1") == 0
    before = dump(db)
    assert cli("import", b, "--db", db, "--run", "r1") == 2
    assert "is commit abc1234" in capsys.readouterr().err
    assert dump(db) == before


def test_not_a_database_is_a_clear_error(tmp_path, capsys):
    db = write(tmp_path, "h.db", "this is not sqlite " * 100)
    assert cli("import", SHARDS[0], "--db", db) == 2
    assert "not a history database" in capsys.readouterr().err


def test_series_per_problem_over_the_runs(tmp_path):
    db = str(tmp_path / "h.db")
    for day in (1, 2, 3):
        path = write(tmp_path, f"d{day}.txt", run_text(
            [("--conv a", [1.0 + day, 1.1 + day])], commit=f"c{day}",
            date=f"2026-11-0{day}T01:00:00Z"))
        assert cli("import", path, "--db", db) == 0
    h = History(db)
    runs, series = h.series("ci-box")
    assert [r[3] for r in runs] == ["c1", "c2", "c3"]
    assert [r.samples for r in series["--conv a"]] == [
        [1.0 + day, 1.1 + day] for day in (1, 2, 3)]
    h.close()


def test_a_history_from_before_gbytes_gets_the_column(tmp_path):
    db = str(tmp_path / "old.db")
    con = sqlite3.connect(db)
    con.executescript(SCHEMA.replace("    gbytes REAL NOT NULL DEFAULT 0,\n", ""))
    con.close()
    path = write(tmp_path, "a.txt", run_text([("--conv a", [1.0, 1.1])]))
    assert cli("import", path, "--db", db) == 0
    h = History(db)
    (run,) = h.runs()
    assert h.load_run(run[0]).results[0].gbytes == 0.0
    h.close()
