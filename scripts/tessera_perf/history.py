"""The run history: one SQLite file. A run is identified by (machine,
label); its results by (lib, problem, impl) within the run, and each
imported file by its SHA-256, so importing a file again adds nothing and
the shards of one run can come in one import or several (same label).
Every import is one transaction: a rejected input leaves the file as it
was."""
import json
import sqlite3
from datetime import datetime, timezone

from .parse import Result, Run

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    machine TEXT NOT NULL,
    label TEXT NOT NULL,
    commit_id TEXT NOT NULL,
    date TEXT NOT NULL,
    header TEXT NOT NULL,
    UNIQUE (machine, label)
);
CREATE TABLE IF NOT EXISTS sources (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    imported_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    batch TEXT NOT NULL,
    driver TEXT NOT NULL,
    problem TEXT NOT NULL,
    lib TEXT NOT NULL,
    impl TEXT NOT NULL,
    dt TEXT NOT NULL,
    attrs TEXT NOT NULL,
    name TEXT NOT NULL,
    gops REAL NOT NULL,
    min_ms REAL NOT NULL,
    avg_ms REAL NOT NULL,
    samples TEXT NOT NULL,
    UNIQUE (run_id, lib, problem, impl)
);
CREATE INDEX IF NOT EXISTS results_problem ON results (driver, problem, lib);
"""

RESULT_COLUMNS = ("batch", "driver", "problem", "lib", "impl", "dt", "attrs",
                  "name", "gops", "min_ms", "avg_ms")


class HistoryError(Exception):
    """An import that conflicts with what the history holds."""


class History:
    def __init__(self, path):
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise HistoryError(f"{path}: not a history database: {e}") from e

    def close(self):
        self.db.close()

    def import_run(self, run, progress=None):
        """Adds the run's files not imported before. Returns (run id, number
        of results added). Raises HistoryError, leaving the database as it
        was, when the run's commit differs from the stored run of the same
        label or a result is already in that run from another file."""
        with self.db:  # one transaction: commit, or roll back on error
            cur = self.db.cursor()
            known = [s for s in run.sources
                     if cur.execute("SELECT 1 FROM sources WHERE sha256 = ?",
                                    (s[1],)).fetchone()]
            if len(known) == len(run.sources):
                row = cur.execute("SELECT run_id FROM sources WHERE sha256 = ?",
                                  (run.sources[0][1],)).fetchone()
                return row[0], 0
            if known:
                raise HistoryError(
                    "some files were imported before, some not: "
                    + ", ".join(name for name, _ in known)
                    + " already imported; import the new files alone")
            row = cur.execute(
                "SELECT id, commit_id, date FROM runs WHERE machine = ? AND label = ?",
                (run.machine, run.label)).fetchone()
            if row is None:
                cur.execute("INSERT INTO runs (machine, label, commit_id, date, header)"
                            " VALUES (?, ?, ?, ?, ?)",
                            (run.machine, run.label, run.commit, run.date,
                             json.dumps(run.header, sort_keys=True)))
                run_id = cur.lastrowid
            else:
                run_id, commit, date = row
                if commit != run.commit:
                    raise HistoryError(
                        f"run '{run.label}' of {run.machine} is commit {commit},"
                        f" the files are commit {run.commit}")
                cur.execute("UPDATE runs SET date = ? WHERE id = ?",
                            (min(date, run.date), run_id))
            now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            for name, digest in run.sources:
                cur.execute("INSERT INTO sources VALUES (?, ?, ?, ?)",
                            (run_id, name, digest, now))
            for i, r in enumerate(run.results):
                if progress and i % 500 == 0:
                    progress(f"importing {i}/{len(run.results)} results")
                try:
                    cur.execute(
                        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (run_id,) + tuple(getattr(r, c) for c in RESULT_COLUMNS)
                        + (";".join(repr(s) for s in r.samples),))
                except sqlite3.IntegrityError as e:
                    raise HistoryError(
                        f"'{r.problem}' ({r.lib}, {r.impl}) is already in run "
                        f"'{run.label}' from another file") from e
            return run_id, len(run.results)

    def runs(self, machine=None):
        """[(id, machine, label, commit, date)], oldest first."""
        sql = "SELECT id, machine, label, commit_id, date FROM runs"
        args = ()
        if machine:
            sql += " WHERE machine = ?"
            args = (machine,)
        return self.db.execute(sql + " ORDER BY date, id", args).fetchall()

    def find_run(self, machine, label):
        row = self.db.execute(
            "SELECT id, machine, label, commit_id, date FROM runs"
            " WHERE machine = ? AND label = ?", (machine, label)).fetchone()
        return row

    def previous_run(self, machine, before_date, exclude_label=None):
        """The machine's latest run dated before `before_date` (the
        baseline of a nightly run), or None."""
        return self.db.execute(
            "SELECT id, machine, label, commit_id, date FROM runs"
            " WHERE machine = ? AND date < ? AND label IS NOT ?"
            " ORDER BY date DESC, id DESC LIMIT 1",
            (machine, before_date, exclude_label)).fetchone()

    def load_run(self, run_id):
        """The stored run as a Run."""
        row = self.db.execute(
            "SELECT machine, label, commit_id, date, header FROM runs WHERE id = ?",
            (run_id,)).fetchone()
        if row is None:
            raise HistoryError(f"no run with id {run_id}")
        results = []
        for rec in self.db.execute(
                f"SELECT {', '.join(RESULT_COLUMNS)}, samples FROM results"
                " WHERE run_id = ? ORDER BY rowid", (run_id,)):
            values = dict(zip(RESULT_COLUMNS, rec[:-1]))
            values["samples"] = [float(s) for s in rec[-1].split(";") if s]
            results.append(Result(**values))
        sources = self.db.execute(
            "SELECT name, sha256 FROM sources WHERE run_id = ?", (run_id,)).fetchall()
        return Run(machine=row[0], label=row[1], commit=row[2], date=row[3],
                   header=json.loads(row[4]), results=results, sources=sources)

    def trend(self, machine, limit=30):
        """GFLOPS over the machine's last `limit` runs: (runs, {(batch, lib,
        problem): [GFLOPS or None per run]}), runs oldest first."""
        runs = self.runs(machine)[-limit:]
        series = {}
        for i, (run_id, *_rest) in enumerate(runs):
            for batch, lib, problem, gops, min_ms in self.db.execute(
                    "SELECT batch, lib, problem, gops, min_ms FROM results"
                    " WHERE run_id = ?", (run_id,)):
                values = series.setdefault((batch, lib, problem), [None] * len(runs))
                values[i] = gops / (min_ms / 1e3) if min_ms > 0 else None
        return runs, series
