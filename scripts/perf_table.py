#!/usr/bin/env python3
"""Turns benchdnn performance output into a Markdown table.

    perf_table.py RUN.txt                 one run: problem, GFLOPS (min, avg)
    perf_table.py RUN_A.txt RUN_B.txt     two runs side by side, ratio A/B
                                          per problem and its geomean

Reads the default perf template
(perf,ENGINE,IMPL,NAME,PRB,Gops,ctime,min_time,min_Gflops,avg_time,avg_Gflops)
and ignores every other line. Problems are matched by their PRB string.
"""
import math
import sys


def parse_perf_lines(lines):
    """Returns {prb: dict(impl, name, gops, min_ms, min_gflops, avg_ms,
    avg_gflops)} from benchdnn's default-template perf lines."""
    runs = {}
    for line in lines:
        line = line.strip()
        if not line.startswith("perf,"):
            continue
        fields = line.split(",")
        if len(fields) < 11:
            raise ValueError(f"perf line with too few fields: {line}")
        numbers = fields[-6:]
        try:
            gops, _ctime, min_ms, min_gf, avg_ms, avg_gf = map(float, numbers)
        except ValueError as e:
            raise ValueError(f"perf line with a non-numeric field: {line}") from e
        impl = fields[2]
        # NAME may be empty; PRB starts at the first field opening with "--".
        middle = fields[3:-6]
        start = next((i for i, f in enumerate(middle) if f.startswith("--")), 1)
        name = ",".join(middle[:start])
        prb = ",".join(middle[start:])
        runs[prb] = dict(impl=impl, name=name, gops=gops, min_ms=min_ms,
                         min_gflops=min_gf, avg_ms=avg_ms, avg_gflops=avg_gf)
    return runs


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table_one(run):
    rows = ["| problem | impl | GFLOPS (min time) | GFLOPS (avg time) |",
            "| --- | --- | ---: | ---: |"]
    for prb, r in run.items():
        rows.append(f"| `{prb}` | {r['impl']} | {r['min_gflops']:.1f} | "
                    f"{r['avg_gflops']:.1f} |")
    return "\n".join(rows)


def table_two(run_a, run_b, label_a="A", label_b="B"):
    rows = [f"| problem | {label_a} GFLOPS | {label_b} GFLOPS | ratio {label_a}/{label_b} |",
            "| --- | ---: | ---: | ---: |"]
    ratios = []
    for prb, a in run_a.items():
        b = run_b.get(prb)
        if b is None:
            continue
        ratio = a["min_gflops"] / b["min_gflops"] if b["min_gflops"] > 0 else float("nan")
        ratios.append(ratio)
        rows.append(f"| `{prb}` | {a['min_gflops']:.1f} | {b['min_gflops']:.1f} | {ratio:.2f} |")
    rows.append(f"| geomean | | | {geomean(ratios):.2f} |")
    return "\n".join(rows)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs = []
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            runs.append(parse_perf_lines(f))
    if len(runs) == 1:
        print(table_one(runs[0]))
    else:
        print(table_two(runs[0], runs[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
