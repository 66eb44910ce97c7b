"""A/B timing of two benchdnn binaries in one job: each problem runs on
both, alternately and round by round (A B, then B A, ...), so that a
machine that slows down slows both sides. Every benchdnn call times one
problem (the repro in a one-line batch file, so it is read exactly as
benchdnn printed it); its samples join that side's sample set. Problems
whose first verdict is "regression" (or "improvement") run again, alone,
and keep it only when the second pass agrees, else they are "unstable"."""
import os
import subprocess
import tempfile
from dataclasses import dataclass, field

import perf_table
from .parse import Result, problem_parts
from .stats import Thresholds, compare_results

TEMPLATE = ("perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,"
            "%-Gflops%,%0time%,%0Gflops%,%Gibytes%,%Gobytes%,%samples%")
LISTED_MARK = ":LISTED __REPRO: "
CALL_TIMEOUT_S = 600


class AbError(RuntimeError):
    """A benchdnn call that failed or printed no perf line."""


@dataclass
class Side:
    label: str  # "base" or "new"
    binary: str
    env: dict = field(default_factory=dict)  # extra environment variables
    source: str = ""  # what the binary was built from, for the report

    def environ(self):
        env = dict(os.environ)
        env.update(self.env)
        return env


def _call(side, args):
    cmd = [side.binary, *args]
    try:
        done = subprocess.run(cmd, env=side.environ(), capture_output=True,
                              text=True, timeout=CALL_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise AbError(f"{side.label}: {' '.join(cmd)}: {e}") from e
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-5:])
        raise AbError(f"{side.label}: {' '.join(cmd)} exited with "
                      f"{done.returncode}:\n{tail}")
    return done.stdout


def list_problems(side, driver, batch, extra_args=()):
    """The repros of a batch, in order (Tessera's only)."""
    out = _call(side, [f"--{driver}", "--mode=L", *extra_args, f"--batch={batch}"])
    repros = [line.split(LISTED_MARK, 1)[1] for line in out.splitlines()
              if LISTED_MARK in line]
    return [r for r in repros if not r.startswith("--lib=")]


def time_problem(side, repro, timing_args, workdir, batch):
    """(run header, Result) of one benchdnn call timing `repro`."""
    driver, _, rest = repro.partition(" ")
    path = os.path.join(workdir, "problem.batch")
    with open(path, "w", encoding="utf-8") as f:
        f.write("--reset\n" + rest + "\n")
    out = _call(side, [driver, "--mode=P", f"--perf-template={TEMPLATE}",
                       *timing_args, f"--batch={path}"])
    lines = out.splitlines()
    header = dict(line[2:].split("=", 1) for line in lines
                  if line.startswith("# ") and "=" in line)
    records = [r for _, r in perf_table.iter_perf_records(lines)]
    if len(records) != 1:
        raise AbError(f"{side.label}: {len(records)} perf lines for {repro}")
    r = records[0]
    _lib, _problem, drv, dt, attrs = problem_parts(r["prb"])
    return header, Result(batch=batch, driver=drv, problem=repro, lib="tessera",
                          impl=r["impl"], dt=dt, attrs=attrs,
                          name=r["name"].strip('"'), gops=r["gops"],
                          min_ms=r["min_ms"], avg_ms=r["avg_ms"],
                          samples=list(r.get("samples", [])),
                          gbytes=r.get("gibytes", 0.0) + r.get("gobytes", 0.0))


@dataclass
class Problem:
    batch: str
    repro: str
    # Per side label: [samples of round 0, of round 1, ...] per pass.
    passes: list = field(default_factory=list)
    results: dict = field(default_factory=dict)  # side label -> last Result

    def pooled(self, label, pass_index=-1):
        """The side's Result with every sample of one pass."""
        r = self.results[label]
        samples = [s for rnd in self.passes[pass_index][label] for s in rnd]
        return Result(**{**r.__dict__, "samples": samples,
                         "min_ms": min(samples), "avg_ms": sum(samples) / len(samples)})


def interleave(sides, problems, rounds, timing_args, progress=None, what="pass"):
    """Times every problem on both sides, `rounds` times, alternating which
    side goes first. Adds one pass to each Problem; returns the headers
    {side label: run header}."""
    headers = {}
    for p in problems:
        p.passes.append({s.label: [] for s in sides})
    with tempfile.TemporaryDirectory(prefix="tessera-ab-") as workdir:
        for rnd in range(rounds):
            for i, p in enumerate(problems):
                order = sides if (rnd + i) % 2 == 0 else sides[::-1]
                for side in order:
                    header, result = time_problem(side, p.repro, timing_args,
                                                  workdir, p.batch)
                    headers.setdefault(side.label, header)
                    p.passes[-1][side.label].append(result.samples)
                    p.results[side.label] = result
            if progress:
                progress(f"{what}: round {rnd + 1}/{rounds} done "
                         f"({len(problems)} problems x {len(sides)} sides)")
    return headers


def run_ab(base, new, sets, rounds, timing_args, thresholds=Thresholds(),
           confirm_rounds=None, progress=None, list_args=()):
    """Times the sets [(driver, batch file)] on both sides and judges them.
    Returns (problems, headers, rows, first_rows): rows are the final
    stats.Comparison rows (a first-pass regression not confirmed becomes
    "unstable"), first_rows those of the first pass."""
    problems = []
    for driver, batch in sets:
        name = os.path.basename(batch)
        listed = list_problems(base, driver, batch, list_args)
        on_new = set(list_problems(new, driver, batch, list_args))
        problems += [Problem(name, r) for r in listed if r in on_new]
        if progress:
            progress(f"{name}: {len(listed)} problems")
    sides = [base, new]
    headers = interleave(sides, problems, rounds, timing_args, progress, "timing")
    first = {p.repro: compare_results([p.pooled("base")], [p.pooled("new")],
                                      thresholds)[0] for p in problems}
    suspects = [p for p in problems
                if first[p.repro].verdict in ("regression", "improvement")]
    final = dict(first)
    if suspects:
        if progress:
            progress(f"re-running {len(suspects)} candidate change(s)")
        interleave(sides, suspects, confirm_rounds or rounds, timing_args,
                   progress, "confirming")
        for p in suspects:
            row = compare_results([p.pooled("base")], [p.pooled("new")],
                                  thresholds)[0]
            was = first[p.repro].verdict
            if row.verdict != was:
                row.note = f"first pass: {was}, second: {row.verdict}"
                row.judgement.verdict = "unstable"
            else:
                row.note = "confirmed by a second pass"
            final[p.repro] = row
    rows = [final[p.repro] for p in problems]
    return problems, headers, rows, [first[p.repro] for p in problems]
