#!/usr/bin/env python3
"""Tessera against oneDNN from benchdnn runs with --lib=both.

    compare_libs.py [--peak-gflops P] RUN.txt [RUN.txt ...]

Each RUN.txt is the output of one batch run with the default perf template
by any driver, e.g.
`benchdnn --ip --lib=both --mode=P --batch=inputs/perf/perf_ip_f32`.
oneDNN's perf lines carry the same problem string as Tessera's with a
leading "--lib=onednn ", which pairs them. Prints one Markdown table over
all runs: problem, each library's implementation and GFLOPS (at the
minimum time), the ratio Tessera/oneDNN (above 1: Tessera is faster), with
--peak-gflops each library's fraction of that peak; after each run's
(batch's) problems a row with the geometric mean of its ratios, and with
several runs a last one over all of them. Problems one library did not run
are listed without a ratio. A problem that appears more than once in a
RUN.txt (the batch run several times into one file, as
ci/compare_onednn.sh does with ROUNDS=N) keeps each library's fastest
result: machines are noisy, and the best of several runs per side is the
steadier figure. Such runs also get a column with the median over rounds
of each round's ratio (Tessera's i-th run against oneDNN's i-th, which
--lib=both times in turns with it): a machine whose speed changes for
minutes at a time can hand one library a fast round the other never gets,
which skews the ratio of bests but not the ratios within rounds.
"""
import argparse
import math
import os
import statistics
import sys

import perf_table

ONEDNN_PREFIX = "--lib=onednn "


def best_runs(lines):
    """Like perf_table.parse_perf_lines, but of a problem listed several
    times keeps the record with the highest GFLOPS at the minimum time;
    its "rounds" field lists every run's GFLOPS in order."""
    best, rounds = {}, {}
    for _, r in perf_table.iter_perf_records(lines):
        rounds.setdefault(r["prb"], []).append(r["min_gflops"])
        kept = best.get(r["prb"])
        if kept is None or r["min_gflops"] > kept["min_gflops"]:
            best[r["prb"]] = r
    for prb, r in best.items():
        best[prb] = dict(r, rounds=rounds[prb])
    return best


def round_ratio(t, o):
    """The median of Tessera/oneDNN over the rounds both ran, or None
    unless there are at least two."""
    if not t or not o:
        return None
    pairs = [a / b for a, b in zip(t.get("rounds", []), o.get("rounds", []))
             if a > 0 and b > 0]
    return statistics.median(pairs) if len(pairs) >= 2 else None


def split_libs(run):
    """Splits parse_perf_lines' result into ({prb: tessera}, {prb: onednn})
    keyed by the problem string without the library option, in order."""
    tessera, onednn = {}, {}
    for prb, fields in run.items():
        if prb.startswith(ONEDNN_PREFIX):
            onednn[prb[len(ONEDNN_PREFIX):]] = fields
        else:
            tessera[prb] = fields
    return tessera, onednn


def compare_rows(tessera, onednn):
    """Returns [(prb, tessera fields or None, onednn fields or None, ratio
    or None)] over the problems of both, Tessera's order first."""
    rows = []
    for prb in list(tessera) + [p for p in onednn if p not in tessera]:
        t, o = tessera.get(prb), onednn.get(prb)
        ratio = None
        if t and o and t["min_gflops"] > 0 and o["min_gflops"] > 0:
            ratio = t["min_gflops"] / o["min_gflops"]
        rows.append((prb, t, o, ratio))
    return rows


def _cell(fields, key, fmt):
    return fmt.format(fields[key]) if fields else "-"


def _peak_cell(fields, peak):
    return f"{fields['min_gflops'] / peak:.1%}" if fields else "-"


def _line(cells):
    return "| " + " | ".join(cells) + " |"


def _has_rounds(rows):
    return any(round_ratio(t, o) is not None for _, t, o, _ in rows)


def _header(peak_gflops, rounds=False):
    head = ["problem", "Tessera impl", "Tessera GFLOPS", "oneDNN impl",
            "oneDNN GFLOPS", "ratio Tessera/oneDNN"]
    align = ["---", "---", "---:", "---", "---:", "---:"]
    if rounds:
        head.append("median ratio of rounds")
        align.append("---:")
    if peak_gflops:
        head += ["Tessera % of peak", "oneDNN % of peak"]
        align += ["---:", "---:"]
    return [_line(head), _line(align)]


def _ratio_cell(ratio):
    return f"{ratio:.3f}" if ratio is not None else "-"


def _row(row, peak_gflops, rounds=False):
    prb, t, o, ratio = row
    cells = [f"`{prb}`", _cell(t, "impl", "{}"),
             _cell(t, "min_gflops", "{:.2f}"), _cell(o, "impl", "{}"),
             _cell(o, "min_gflops", "{:.2f}"), _ratio_cell(ratio)]
    if rounds:
        cells.append(_ratio_cell(round_ratio(t, o)))
    if peak_gflops:
        cells += [_peak_cell(t, peak_gflops), _peak_cell(o, peak_gflops)]
    return _line(cells)


def _geomean_cell(ratios):
    geomean = perf_table.geomean(ratios)
    return f"{geomean:.3f}" if not math.isnan(geomean) else "-"


def _geomean_row(label, rows, peak_gflops, rounds=False):
    ratios = _ratios(rows)
    count = f"{len(ratios)} problem" + ("" if len(ratios) == 1 else "s")
    cells = [f"{label} ({count})", "", "", "", "", _geomean_cell(ratios)]
    if rounds:
        cells.append(_geomean_cell(
            [x for x in (round_ratio(t, o) for _, t, o, _ in rows)
             if x is not None]))
    if peak_gflops:
        cells += ["", ""]
    return _line(cells)


def _ratios(rows):
    return [r[3] for r in rows if r[3] is not None]


def markdown_table(rows, peak_gflops=None):
    """The Markdown table of compare_rows() with a closing geomean row."""
    rounds = _has_rounds(rows)
    return "\n".join(_header(peak_gflops, rounds) +
                     [_row(r, peak_gflops, rounds) for r in rows] +
                     [_geomean_row("geomean", rows, peak_gflops, rounds)])


def combined_table(batches, peak_gflops=None):
    """One Markdown table of [(batch name, compare_rows())]: each batch's
    rows closed by its geomean row ("geomean NAME"), then, with several
    batches, the geomean over all of them."""
    rounds = any(_has_rounds(rows) for _, rows in batches)
    lines = _header(peak_gflops, rounds)
    every = []
    for name, rows in batches:
        lines += [_row(r, peak_gflops, rounds) for r in rows]
        lines.append(_geomean_row(f"**geomean {name}**", rows, peak_gflops,
                                  rounds))
        every += rows
    if len(batches) > 1:
        lines.append(_geomean_row("**geomean all batches**", every,
                                  peak_gflops, rounds))
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.strip().splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="RUN.txt",
                        help="benchdnn output of one batch with --lib=both")
    parser.add_argument("--peak-gflops", type=float, default=None,
                        help="machine peak, for the fraction-of-peak columns")
    args = parser.parse_args(argv[1:])
    if args.peak_gflops is not None and not args.peak_gflops > 0:
        parser.error("--peak-gflops must be positive")
    batches = []
    for path in args.runs:
        try:
            with open(path, encoding="utf-8") as f:
                run = best_runs(f)
        except (OSError, ValueError) as e:
            print(f"compare_libs.py: {path}: {e}", file=sys.stderr)
            return 1
        tessera, onednn = split_libs(run)
        if not tessera or not onednn:
            print(f"compare_libs.py: {path}: no Tessera and oneDNN perf lines "
                  "(run benchdnn with --lib=both --mode=P)", file=sys.stderr)
            return 1
        name = os.path.splitext(os.path.basename(path))[0]
        batches.append((name, compare_rows(tessera, onednn)))
    print(combined_table(batches, args.peak_gflops))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
