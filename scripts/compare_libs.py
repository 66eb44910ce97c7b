#!/usr/bin/env python3
"""Tessera against oneDNN from benchdnn runs with --lib=both.

    compare_libs.py [--peak-gflops P] RUN.txt [RUN.txt ...]

Each RUN.txt is the output of one batch run with the default perf template,
e.g. `benchdnn --conv --lib=both --mode=P --batch=inputs/perf/perf_conv_f32_any`.
oneDNN's perf lines carry the same problem string as Tessera's with a
leading "--lib=onednn ", which pairs them. Prints per run (batch) a Markdown
table: problem, each library's implementation and GFLOPS (at the minimum
time), the ratio Tessera/oneDNN (above 1: Tessera is faster), with
--peak-gflops each library's fraction of that peak, and the geometric mean
of the ratios. Problems one library did not run are listed without a ratio.
"""
import argparse
import math
import os
import sys

import perf_table

ONEDNN_PREFIX = "--lib=onednn "


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


def markdown_table(rows, peak_gflops=None):
    """The Markdown table of compare_rows() with a closing geomean row."""
    head = ["problem", "Tessera impl", "Tessera GFLOPS", "oneDNN impl",
            "oneDNN GFLOPS", "ratio Tessera/oneDNN"]
    align = ["---", "---", "---:", "---", "---:", "---:"]
    if peak_gflops:
        head += ["Tessera % of peak", "oneDNN % of peak"]
        align += ["---:", "---:"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    ratios = []
    for prb, t, o, ratio in rows:
        cells = [f"`{prb}`", _cell(t, "impl", "{}"),
                 _cell(t, "min_gflops", "{:.2f}"), _cell(o, "impl", "{}"),
                 _cell(o, "min_gflops", "{:.2f}"),
                 f"{ratio:.3f}" if ratio is not None else "-"]
        if peak_gflops:
            cells += [_peak_cell(t, peak_gflops), _peak_cell(o, peak_gflops)]
        if ratio is not None:
            ratios.append(ratio)
        lines.append("| " + " | ".join(cells) + " |")
    geomean = perf_table.geomean(ratios)
    count = f"{len(ratios)} problem" + ("" if len(ratios) == 1 else "s")
    tail = [f"geomean ({count})", "", "", "", "",
            f"{geomean:.3f}" if not math.isnan(geomean) else "-"]
    if peak_gflops:
        tail += ["", ""]
    lines.append("| " + " | ".join(tail) + " |")
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
    sections = []
    for path in args.runs:
        try:
            with open(path, encoding="utf-8") as f:
                run = perf_table.parse_perf_lines(f)
        except (OSError, ValueError) as e:
            print(f"compare_libs.py: {path}: {e}", file=sys.stderr)
            return 1
        tessera, onednn = split_libs(run)
        if not tessera or not onednn:
            print(f"compare_libs.py: {path}: no Tessera and oneDNN perf lines "
                  "(run benchdnn with --lib=both --mode=P)", file=sys.stderr)
            return 1
        name = os.path.splitext(os.path.basename(path))[0]
        sections.append(f"### {name}\n\n" + markdown_table(
            compare_rows(tessera, onednn), args.peak_gflops))
    print("\n\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
