"""A benchdnn performance run read from one or more output files (the
shards of one run), checked for completeness.

A run file holds the run header ("# key=value" lines, see benchdnn's
common/run_header.h; ci/nightly.sh adds "# batch=NAME"), an "Output
template:" line, perf lines (perf_table.py parses them), result lines and
the closing "tests:N ..." summary, whose absence marks a cut-off file.
"""
import hashlib
import os
import re
from dataclasses import dataclass, field

import perf_table

ONEDNN_PREFIX = "--lib=onednn "
SUMMARY_RE = re.compile(r"^tests:(\d+) passed:(\d+) ")
SHARD_SUFFIX_RE = re.compile(r"[._-]shard[._-]?\d+(of\d+)?$")
REQUIRED_HEADER_KEYS = ("date", "commit")


class RunFormatError(ValueError):
    """A run file that is corrupt, cut off or not a benchdnn perf run."""


@dataclass
class Result:
    """One problem of a run, as the history stores it."""
    batch: str
    driver: str
    problem: str  # the repro string without --lib=onednn
    lib: str  # "tessera" or "onednn"
    impl: str
    dt: str
    attrs: str
    name: str
    gops: float
    min_ms: float
    avg_ms: float
    samples: list = field(default_factory=list)
    gbytes: float = 0.0  # bytes read and written (GB), for GB/s

    @property
    def key(self):
        """What identifies the problem within a run."""
        return (self.lib, self.problem, self.impl)

    @property
    def gflops(self):
        """GFLOPS at the minimum time."""
        return self.gops / (self.min_ms / 1e3) if self.min_ms > 0 else 0.0


@dataclass
class Run:
    machine: str
    label: str
    commit: str
    date: str
    header: dict
    results: list
    sources: list  # [(file name, sha256)]


def problem_parts(prb):
    """(lib, problem, driver, dt, attrs) of a perf line's repro string."""
    lib = "tessera"
    if prb.startswith(ONEDNN_PREFIX):
        lib, prb = "onednn", prb[len(ONEDNN_PREFIX):]
    tokens = prb.split(" ")
    driver = tokens[0][2:] if tokens and tokens[0].startswith("--") else ""
    dt = "f32"  # every driver's default
    attrs = []
    for tok in tokens[1:]:
        if tok.startswith(("--cfg=", "--dt=")):
            dt = tok.split("=", 1)[1]
        elif tok.startswith("--attr-"):
            attrs.append(tok)
    return lib, prb, driver, dt, " ".join(attrs)


def default_batch_name(path):
    """The batch a file holds when its header does not say: the file name
    without extension and shard suffix (conv_any.shard1of4.txt -> conv_any)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return SHARD_SUFFIX_RE.sub("", stem)


def _merge(old, new):
    """Repeats of one problem in a file (--repeats-per-prb): one result."""
    total = len(old.samples) + len(new.samples)
    if old.samples or new.samples:
        old.avg_ms = (sum(old.samples) + sum(new.samples)) / total
    old.min_ms = min(old.min_ms, new.min_ms)
    old.samples = old.samples + new.samples


def read_run_file(path, batch=None):
    """Parses one file: returns (header dict, [Result], sha256); an empty
    shard ("tests:0", no perf line) gives ({}, [], sha256). Raises
    RunFormatError naming the file and line for anything incomplete."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RunFormatError(f"{path}: cannot read: {e}") from e
    lines = text.splitlines()
    header, summary_tests = {}, None
    for line in lines:
        if line.startswith("# ") and "=" in line:
            key, value = line[2:].split("=", 1)
            header.setdefault(key.strip(), value.strip())
        m = SUMMARY_RE.match(line)
        if m:
            summary_tests = int(m.group(1))
    digest = hashlib.sha256(data).hexdigest()
    if summary_tests == 0 and not any(l.startswith("perf,") for l in lines):
        return {}, [], digest  # a shard that drew no problem of its batch
    missing = [k for k in REQUIRED_HEADER_KEYS if k not in header]
    if missing:
        raise RunFormatError(
            f"{path}: no run header ({', '.join('# ' + k + '=' for k in missing)}"
            " missing): not the output of benchdnn --mode=P")
    if summary_tests is None:
        raise RunFormatError(
            f"{path}: no 'tests:N ...' summary line: the run was cut off")
    batch = batch or header.get("batch") or default_batch_name(path)
    results = {}
    try:
        for number, r in perf_table.iter_perf_records(lines):
            for key in ("impl", "gops", "min_ms", "avg_ms"):
                if key not in r:
                    raise ValueError(f"line {number}: the perf template has no "
                                     f"{key} field")
            lib, problem, driver, dt, attrs = problem_parts(r["prb"])
            if r["impl"].startswith("onednn:"):  # oneDNN's lines name it so too
                lib = "onednn"
            res = Result(batch=batch, driver=driver, problem=problem, lib=lib,
                         impl=r["impl"], dt=dt, attrs=attrs,
                         name=r["name"].strip('"'), gops=r["gops"],
                         min_ms=r["min_ms"], avg_ms=r["avg_ms"],
                         samples=r.get("samples", []),
                         gbytes=r.get("gibytes", 0.0) + r.get("gobytes", 0.0))
            if res.min_ms < 0 or res.gops < 0 or any(s < 0 for s in res.samples):
                raise ValueError(f"line {number}: negative time or operations")
            if res.key in results:
                _merge(results[res.key], res)
            else:
                results[res.key] = res
    except ValueError as e:
        raise RunFormatError(f"{path}: {e}") from e
    if not results:
        raise RunFormatError(f"{path}: no perf lines (run benchdnn with --mode=P)")
    if len(results) > summary_tests:
        raise RunFormatError(f"{path}: {len(results)} perf results but the "
                             f"summary counts {summary_tests} tests")
    return header, list(results.values()), digest


def read_run(paths, machine=None, label=None, batch=None, progress=None):
    """Reads the files of one run (its shards) into a Run. The files must
    agree on the commit; the run's date is the earliest header date; the
    machine defaults to the header's host; the label (what identifies the
    run with the machine) defaults to COMMIT@DATE."""
    headers, results, sources, seen = [], [], [], {}
    for i, path in enumerate(paths):
        if progress:
            progress(f"reading {i + 1}/{len(paths)}: {path}")
        header, file_results, digest = read_run_file(path, batch)
        for r in file_results:
            if r.key in seen:
                raise RunFormatError(
                    f"{path}: problem '{r.problem}' ({r.lib}, {r.impl}) is "
                    f"also in {seen[r.key]}: shards overlap")
            seen[r.key] = path
        if not file_results:
            continue  # an empty shard: nothing to store or to tell apart
        headers.append(header)
        results.extend(file_results)
        sources.append((os.path.basename(path), digest))
    if not results:
        raise RunFormatError("no perf results in " + ", ".join(paths))
    commits = sorted({h["commit"] for h in headers})
    if len(commits) > 1:
        raise RunFormatError(f"the files are of different commits ({', '.join(commits)}):"
                             " not one run")
    header = dict(headers[0])
    header["date"] = min(h["date"] for h in headers)
    header.pop("batch", None)
    machine = machine or header.get("host") or "unknown"
    label = label or f"{commits[0]}@{header['date']}"
    return Run(machine=machine, label=label, commit=commits[0],
               date=header["date"], header=header, results=results,
               sources=sources)
