#!/usr/bin/env python3
"""Turns benchdnn performance output into a Markdown table.

    perf_table.py RUN.txt                 one run: problem, GFLOPS (min, avg)
    perf_table.py RUN_A.txt RUN_B.txt     two runs side by side, ratio A/B
                                          per problem and its geomean

Reads perf lines of the default perf template
(perf,ENGINE,IMPL,NAME,PRB,Gops,ctime,min_time,min_Gflops,avg_time,avg_Gflops)
or of the template an "Output template:" line names (any comma-separated
template with %name%,%prb% side by side), and ignores every other line.
Problems are matched by their PRB string.
"""
import math
import sys


DEFAULT_TEMPLATE = ("perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,"
                    "%-time%,%-Gflops%,%0time%,%0Gflops%")
TEMPLATE_PREFIX = "Output template: "

# Template fields -> record keys; the rest keep their field name.
FIELD_KEYS = {
    "%engine%": "engine", "%impl%": "impl", "%Gops%": "gops",
    "%+ctime%": "ctime_ms", "%-time%": "min_ms", "%-Gflops%": "min_gflops",
    "%0time%": "avg_ms", "%0Gflops%": "avg_gflops", "%+time%": "max_ms",
    "%samples%": "samples", "%Gibytes%": "gibytes", "%Gobytes%": "gobytes",
}
NUMERIC_KEYS = {"gops", "ctime_ms", "min_ms", "min_gflops", "avg_ms",
                "avg_gflops", "max_ms", "gibytes", "gobytes"}


def template_layout(template):
    """Splits a comma-separated perf template around its %name%,%prb%
    pair (the only fields whose text may hold commas): returns (head,
    tail), the fields before and after the pair."""
    tokens = template.split(",")
    for i in range(len(tokens) - 1):
        if tokens[i] == "%name%" and tokens[i + 1] == "%prb%":
            return tokens[:i], tokens[i + 2:]
    raise ValueError(f"unsupported perf template (needs %name%,%prb%): {template}")


def _field_value(token, text, line):
    key = FIELD_KEYS.get(token, token.strip("%"))
    if key == "samples":
        try:
            return key, [float(v) for v in text.split(";") if v]
        except ValueError as e:
            raise ValueError(f"perf line with a non-numeric sample: {line}") from e
    if key in NUMERIC_KEYS:
        try:
            return key, float(text)
        except ValueError as e:
            raise ValueError(f"perf line with a non-numeric field: {line}") from e
    return key, text


def parse_perf_line(line, layout):
    """One perf line as a dict (impl, name, prb, gops, min_ms, ...) per the
    (head, tail) layout of its template."""
    head, tail = layout
    fields = line.split(",")
    if len(fields) < len(head) + len(tail) + 1:
        raise ValueError(f"perf line with too few fields: {line}")
    record = {}
    for token, text in list(zip(head, fields)) + list(
            zip(tail, fields[len(fields) - len(tail):])):
        if token.startswith("%"):
            key, value = _field_value(token, text, line)
            record[key] = value
        elif token != text:
            raise ValueError(f"perf line does not follow its template: {line}")
    # NAME may be empty; PRB starts at the first field opening with "--".
    middle = fields[len(head):len(fields) - len(tail)]
    start = next((i for i, f in enumerate(middle) if f.startswith("--")), 1)
    record["name"] = ",".join(middle[:start])
    record["prb"] = ",".join(middle[start:])
    return record


def iter_perf_records(lines):
    """Yields (line_number, record) for every perf line, following the
    "Output template:" lines (the default template until one is seen)."""
    layout = template_layout(DEFAULT_TEMPLATE)
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if line.startswith(TEMPLATE_PREFIX):
            layout = template_layout(line[len(TEMPLATE_PREFIX):])
        elif line.startswith("perf,"):
            yield number, parse_perf_line(line, layout)


def parse_perf_lines(lines):
    """Returns {prb: dict(impl, name, gops, min_ms, min_gflops, avg_ms,
    avg_gflops, ...)} from benchdnn's perf lines (the last line wins)."""
    return {r["prb"]: r for _, r in iter_perf_records(lines)}


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
