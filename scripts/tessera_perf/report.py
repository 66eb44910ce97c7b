"""Markdown and HTML reports of a run: its comparison with the baseline,
the geomean per batch, Tessera against oneDNN (--lib=both runs) and, in
the HTML page, plots drawn by matplotlib embedded as base64 PNGs, so the
page is one self-contained file."""
import base64
import html
import io
import math
import re

import compare_libs
from .stats import geomean_by_batch

MAX_LINES_PER_PLOT = 10  # problems per trend figure, for a readable legend


class MissingPackage(RuntimeError):
    pass


def pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, no display
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise MissingPackage(
            "the HTML report needs matplotlib: "
            "pip install -r scripts/requirements.txt") from e
    return plt


def _fmt(value, spec=".3f"):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, spec)


def _short(problem, width=60):
    return problem if len(problem) <= width else problem[:width - 3] + "..."


NAME_RE = re.compile(r'n"([^"]*)"$')


def _label(problem, width=50):
    """A legend label: the problem's name first (names repeat across
    minibatches, so the rest follows, shortened)."""
    m = NAME_RE.search(problem)
    if not m:
        return _short(problem.split(" ", 1)[-1], width)
    rest = problem[:m.start()].split(" ", 1)[-1]
    return _short(f"{m.group(1)} [{rest}]", width)


def run_facts(run):
    """The run's identity and header, as (key, value) pairs."""
    facts = [("machine", run.machine), ("run", run.label),
             ("commit", run.commit), ("date", run.date)]
    for key in ("isa", "threads", "cpu", "compiler", "build_type",
                "build_options"):
        if key in run.header:
            facts.append((key, run.header[key]))
    return facts


def lib_sections(run):
    """{batch: (tessera, onednn)} dicts of compare_libs.compare_rows()
    for the batches where both libraries ran."""
    by_batch = {}
    for r in run.results:
        libs = by_batch.setdefault(r.batch, ({}, {}))
        side = libs[0] if r.lib == "tessera" else libs[1]
        side[r.problem] = {"impl": r.impl, "min_gflops": r.gflops}
    return {b: libs for b, libs in by_batch.items() if libs[0] and libs[1]}


def _verdict_counts(rows):
    counts = {"regression": 0, "improvement": 0, "same": 0}
    for row in rows:
        counts[row.verdict] += 1
    return counts


def comparison_table(rows):
    """Markdown rows of compare_results(): the regressions first."""
    order = {"regression": 0, "improvement": 1, "same": 2}
    lines = ["| verdict | batch | lib | problem | impl (base -> new) | base GFLOPS"
             " | new GFLOPS | ratio new/base | p(slower) |",
             "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for row in sorted(rows, key=lambda r: (order[r.verdict], r.ratio)):
        impl = row.new_impl if row.base_impl == row.new_impl else \
            f"{row.base_impl} -> {row.new_impl}"
        lines.append(
            f"| {row.verdict} | {row.batch} | {row.lib} | `{row.problem}` | {impl}"
            f" | {row.base_gflops:.2f} | {row.new_gflops:.2f} | {_fmt(row.ratio)}"
            f" | {_fmt(row.p_slower, '.2g')} |")
    return "\n".join(lines)


def geomean_table(rows):
    lines = ["| batch | lib | geomean ratio new/base |", "| --- | --- | ---: |"]
    for (batch, lib), g in sorted(geomean_by_batch(rows).items()):
        lines.append(f"| {batch} | {lib} | {_fmt(g)} |")
    return "\n".join(lines)


def markdown_report(run, base, rows, thresholds):
    """The Markdown summary (for CI job summaries)."""
    out = [f"# Performance: {run.machine}, commit {run.commit}", ""]
    out += ["| | |", "| --- | --- |"]
    out += [f"| {k} | {v} |" for k, v in run_facts(run)]
    out.append("")
    if base is None:
        out += ["No baseline run: nothing to compare with.", ""]
    else:
        c = _verdict_counts(rows)
        out += [f"## Against run {base.label} (commit {base.commit}, {base.date})", "",
                f"**{c['regression']} regression(s)**, {c['improvement']} "
                f"improvement(s), {c['same']} unchanged, over {len(rows)} "
                f"problems in both runs. A regression: Mann-Whitney U p < "
                f"{thresholds.alpha} and a slowdown above "
                f"{thresholds.min_effect:.0%} (above "
                f"{thresholds.min_effect_no_samples:.0%} without samples).", "",
                "### Geomean per batch", "", geomean_table(rows), "",
                "### Problems", "", comparison_table(rows), ""]
    for batch, (tessera, onednn) in sorted(lib_sections(run).items()):
        out += [f"## Tessera vs oneDNN: {batch}", "",
                compare_libs.markdown_table(compare_libs.compare_rows(tessera, onednn)),
                ""]
    return "\n".join(out)


def _png(fig, plt):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def trend_plots(history, machine, progress=None, limit=30):
    """[(title, base64 PNG)]: GFLOPS per problem over the machine's runs,
    one figure per batch and library (at most MAX_LINES_PER_PLOT lines)."""
    plt = pyplot()
    runs, series = history.trend(machine, limit)
    labels = [f"{commit[:16]}\n{date[:16]}" for _i, _m, _l, commit, date in runs]
    groups = {}
    for (batch, lib, problem), values in sorted(series.items()):
        groups.setdefault((batch, lib), []).append((problem, values))
    chunks = []
    for (batch, lib), lines in groups.items():
        for start in range(0, len(lines), MAX_LINES_PER_PLOT):
            part = lines[start:start + MAX_LINES_PER_PLOT]
            suffix = f" ({start + 1}-{start + len(part)} of {len(lines)})" \
                if len(lines) > MAX_LINES_PER_PLOT else ""
            chunks.append((f"GFLOPS trend: {batch}, {lib}{suffix}", part))
    plots = []
    for i, (title, part) in enumerate(chunks):
        if progress:
            progress(f"plotting trend {i + 1}/{len(chunks)}")
        fig, ax = plt.subplots(figsize=(9, 4))
        for problem, values in part:
            xs = [x for x, v in enumerate(values) if v is not None]
            ax.plot(xs, [values[x] for x in xs], marker="o", label=_label(problem))
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("GFLOPS (min time)")
        ax.set_title(title)
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
        plots.append((title, _png(fig, plt)))
    return plots


def ratio_plot(rows):
    """Base64 PNG: ratio new/base per problem, bars coloured by verdict."""
    plt = pyplot()
    colours = {"regression": "tab:red", "improvement": "tab:green", "same": "tab:gray"}
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.2))
    ys = range(len(rows))
    ax.barh(ys, [0 if math.isnan(r.ratio) else r.ratio for r in rows],
            color=[colours[r.verdict] for r in rows])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([f"{r.lib}: {_label(r.problem, 40)}" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("performance ratio new/base (above 1: faster)")
    ax.set_title("Against the baseline")
    return _png(fig, plt)


def libs_plot(batch, tessera, onednn):
    """Base64 PNG: Tessera and oneDNN GFLOPS side by side per problem."""
    plt = pyplot()
    problems = [p for p in tessera if p in onednn]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(problems) + 1.2))
    ys = range(len(problems))
    ax.barh([y - 0.2 for y in ys], [tessera[p]["min_gflops"] for p in problems],
            height=0.4, label="Tessera")
    ax.barh([y + 0.2 for y in ys], [onednn[p]["min_gflops"] for p in problems],
            height=0.4, label="oneDNN")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([_label(p) for p in problems], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("GFLOPS (min time)")
    ax.set_title(f"Tessera vs oneDNN: {batch}")
    ax.legend(fontsize=7)
    return _png(fig, plt)


def _md_table_to_html(markdown):
    """A Markdown table of this module as an HTML table."""
    lines = [l for l in markdown.splitlines() if l.startswith("|")]
    cells = [[c.strip() for c in l.strip("|").split("|")] for l in lines]
    head, body = cells[0], cells[2:]
    out = ["<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>"]
    for row in body:
        cls = f' class="{row[0]}"' if row and row[0] in ("regression", "improvement") else ""
        out.append(f"<tr{cls}>" + "".join(
            f"<td>{html.escape(c.strip('`'))}</td>" for c in row) + "</tr>")
    return "\n".join(out + ["</table>"])


STYLE = """body{font-family:sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;font-size:0.85em;margin:1em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
tr.regression{background:#fdd}tr.improvement{background:#dfd}
img{max-width:100%}"""


def html_report(history, run, base, rows, thresholds, progress=None):
    """The self-contained HTML page: facts, verdicts and plots."""
    e = html.escape
    parts = [f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
             f"<title>Performance: {e(run.machine)} {e(run.commit)}</title>"
             f"<style>{STYLE}</style></head><body>",
             f"<h1>Performance: {e(run.machine)}, commit {e(run.commit)}</h1><table>"]
    parts += [f"<tr><th>{e(k)}</th><td>{e(str(v))}</td></tr>" for k, v in run_facts(run)]
    parts.append("</table>")
    if base is None:
        parts.append("<p>No baseline run: nothing to compare with.</p>")
    else:
        c = _verdict_counts(rows)
        parts += [f"<h2>Against run {e(base.label)} (commit {e(base.commit)})</h2>",
                  f"<p><b>{c['regression']} regression(s)</b>, {c['improvement']}"
                  f" improvement(s), {c['same']} unchanged (Mann-Whitney U p &lt; "
                  f"{thresholds.alpha}, slowdown above {thresholds.min_effect:.0%}).</p>",
                  "<h3>Geomean per batch</h3>", _md_table_to_html(geomean_table(rows))]
        if rows:
            if progress:
                progress("plotting the ratios")
            parts.append(f'<img alt="ratio new/base" src="data:image/png;base64,'
                         f'{ratio_plot(rows)}">')
        parts += ["<h3>Problems</h3>", _md_table_to_html(comparison_table(rows))]
    for batch, (tessera, onednn) in sorted(lib_sections(run).items()):
        if progress:
            progress(f"plotting Tessera vs oneDNN: {batch}")
        parts += [f"<h2>Tessera vs oneDNN: {e(batch)}</h2>",
                  f'<img alt="Tessera vs oneDNN {e(batch)}" src="data:image/png;base64,'
                  f'{libs_plot(batch, tessera, onednn)}">',
                  _md_table_to_html(compare_libs.markdown_table(
                      compare_libs.compare_rows(tessera, onednn)))]
    parts.append("<h2>GFLOPS over the runs</h2>")
    for title, png in trend_plots(history, run.machine, progress):
        parts.append(f'<img alt="{e(title)}" src="data:image/png;base64,{png}">')
    parts.append("</body></html>")
    return "\n".join(parts)
