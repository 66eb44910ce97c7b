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
    gbytes REAL NOT NULL DEFAULT 0,
    UNIQUE (run_id, lib, problem, impl)
);
CREATE TABLE IF NOT EXISTS pins (
    machine TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id)
);
CREATE TABLE IF NOT EXISTS accepts (
    machine TEXT NOT NULL,
    problem TEXT NOT NULL,  -- '*': every problem of the run
    run_id INTEGER NOT NULL REFERENCES runs(id),
    UNIQUE (machine, problem, run_id)
);
CREATE INDEX IF NOT EXISTS results_problem ON results (driver, problem, lib);
"""

RESULT_COLUMNS = ("batch", "driver", "problem", "lib", "impl", "dt", "attrs",
                  "name", "gops", "min_ms", "avg_ms", "gbytes")


class HistoryError(Exception):
    """An import that conflicts with what the history holds."""


class History:
    def __init__(self, path):
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
            columns = [c[1] for c in self.db.execute("PRAGMA table_info(results)")]
            if "gbytes" not in columns:  # a history from before GB/s
                self.db.execute("ALTER TABLE results ADD COLUMN gbytes REAL"
                                " NOT NULL DEFAULT 0")
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
            if progress:
                progress(f"importing {len(run.results)} results into run '{run.label}'")
            for r in run.results:
                try:
                    cur.execute(
                        f"INSERT INTO results (run_id, {', '.join(RESULT_COLUMNS)},"
                        f" samples) VALUES ({', '.join('?' * (len(RESULT_COLUMNS) + 2))})",
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

    def run_headers(self, machine):
        """{run id: header dict} of the machine's runs."""
        return {run_id: json.loads(header) for run_id, header in self.db.execute(
            "SELECT id, header FROM runs WHERE machine = ?", (machine,))}

    def pin(self, machine, run_id):
        """Pins the run as the machine's known-good run."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO pins VALUES (?, ?)",
                            (machine, run_id))

    def pinned(self, machine):
        row = self.db.execute("SELECT run_id FROM pins WHERE machine = ?",
                              (machine,)).fetchone()
        return row[0] if row else None

    def accept(self, machine, problem, run_id):
        """Accepts the performance of `problem` ('*': every problem) as of
        the run: the history of that problem restarts there."""
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO accepts VALUES (?, ?, ?)",
                            (machine, problem, run_id))

    def accepted(self, machine):
        """{problem or '*': [run ids]}."""
        out = {}
        for problem, run_id in self.db.execute(
                "SELECT problem, run_id FROM accepts WHERE machine = ?", (machine,)):
            out.setdefault(problem, []).append(run_id)
        return out

    def series(self, machine, lib="tessera"):
        """Every stored result of the machine's runs, per problem: (runs,
        {problem: [Result or None per run]}), runs oldest first."""
        runs = self.runs(machine)
        index = {row[0]: i for i, row in enumerate(runs)}
        out = {}
        for rec in self.db.execute(
                f"SELECT run_id, {', '.join(RESULT_COLUMNS)}, samples FROM results"
                " WHERE lib = ? AND run_id IN (SELECT id FROM runs WHERE machine = ?)",
                (lib, machine)):
            values = dict(zip(RESULT_COLUMNS, rec[1:-1]))
            values["samples"] = [float(x) for x in rec[-1].split(";") if x]
            per_run = out.setdefault(values["problem"], [None] * len(runs))
            per_run[index[rec[0]]] = Result(**values)
        return runs, out
