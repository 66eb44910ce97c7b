"""Markdown and HTML reports: an A/B comparison, two runs compared, or a
run against the machine's history (trend verdicts); Tessera against
oneDNN for --lib=both runs. Every figure is the one statistic of
stats.STATISTIC. The Markdown (CI job summaries) shows only what changed
and folds the rest; the HTML page is one self-contained file (matplotlib
plots as base64 PNGs): one small plot per changed problem, linked from
its table row, the full repro on hover and the command to copy."""
import base64
import html
import io
import math
import re

import compare_libs
from .environment import ENV_KEYS
from .stats import STATISTIC, geomean_by_batch, rate, rate_unit


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


NAME_RE = re.compile(r'(?:n"[^"]*"|_n\S+)$')


def problem_label(problem, width=60):
    """A readable label: the problem's name (n"NAME" or _nNAME in the
    repro) first, then the rest of its repro without the driver, shortened."""
    rest = problem.split(" ", 1)[-1]
    m = NAME_RE.search(rest)
    if not m:
        return _short(rest, width)
    name = m.group(0)[2:].strip('"') if m.group(0).startswith("_n") else \
        m.group(0)[2:-1]
    return _short(f"{name} · {rest[:m.start()]}", width)


def repro_command(problem, commands=None):
    """The command line that reruns the problem: `benchdnn`, or with
    commands ([(side, "VAR=VALUE /path/to/benchdnn"), ...], an A/B's two
    sides) one line per side."""
    if not commands:
        return f"benchdnn --mode=P {problem}"
    return "\n".join(f"{side}: {cmd} --mode=P {problem}" for side, cmd in commands)


def run_facts(run):
    """The run's identity and environment, as (key, value) pairs."""
    facts = [("machine", run.machine), ("run", run.label),
             ("commit", run.commit), ("date", run.date)]
    facts += [(k, run.header[k]) for k in ENV_KEYS if k in run.header]
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


def _verdict_counts(rows, verdict=lambda r: r.verdict):
    counts = {}
    for row in rows:
        counts[verdict(row)] = counts.get(verdict(row), 0) + 1
    return counts


def counts_line(counts, total, what="problems"):
    order = ("regression", "unstable", "suspect", "improvement", "new", "same")
    parts = [f"{counts.get(v, 0)} {v}" for v in order if v in counts or
             v in ("regression", "improvement")]
    return f"**{counts.get('regression', 0)} regression(s)**: " + \
        ", ".join(parts) + f", over {total} {what}"


def _ms(summary):
    return f"{summary.median_ms:.3g} [{summary.iqr_ms:.2g}] ({summary.n})"


ORDER = {"regression": 0, "unstable": 1, "improvement": 2, "same": 3}


def comparison_table(rows):
    """Markdown table of stats.Comparison rows, the regressions first."""
    lines = ["| verdict | batch | problem | impl (base -> new) | base median ms"
             " [IQR] (n) | new median ms [IQR] (n) | base rate | new rate"
             " | ratio new/base | p(slower) | note |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in sorted(rows, key=lambda r: (ORDER[r.verdict], r.ratio)):
        impl = row.new_impl if row.base_impl == row.new_impl else \
            f"{row.base_impl} -> {row.new_impl}"
        lines.append(
            f"| {row.verdict} | {row.batch} | `{row.problem}` | {impl}"
            f" | {_ms(row.base)} | {_ms(row.new)} | {row.base_rate:.2f} {row.unit}"
            f" | {row.new_rate:.2f} {row.unit} | {_fmt(row.ratio)}"
            f" | {_fmt(row.p_slower, '.2g')} | {row.note} |")
    return "\n".join(lines)


def geomean_table(rows):
    lines = ["| batch | lib | geomean ratio new/base |", "| --- | --- | ---: |"]
    for (batch, lib), g in sorted(geomean_by_batch(rows).items()):
        lines.append(f"| {batch} | {lib} | {_fmt(g)} |")
    return "\n".join(lines)


def folded(table_lines, what):
    """The rows of a Markdown table whose verdict is not "same", and the
    others folded into a <details> block."""
    head, body = table_lines[:2], table_lines[2:]
    changed = [l for l in body if not l.startswith("| same |")]
    same = [l for l in body if l.startswith("| same |")]
    out = head + changed if changed else [f"No {what} changed."]
    if same:
        out += ["", f"<details><summary>{len(same)} unchanged</summary>", "",
                *head, *same, "", "</details>"]
    return out


def environment_banner(note):
    return [f"> **Environments differ** ({note}): the times are not comparable;"
            " exit status 3.", ""] if note else []


def rule_line(thresholds):
    return (f"Statistic: the {STATISTIC} (IQR and sample count beside it). "
            f"A regression: slower by more than {thresholds.min_effect:.0%}, "
            f"Mann-Whitney U p < {thresholds.alpha}, and each side's IQR "
            "(relative to its median) below the change, else \"unstable\".")


def markdown_comparison(title, facts, rows, thresholds, env_note="",
                        html_link=None):
    """The Markdown summary of a comparison (two runs or A/B)."""
    out = [f"# {title}", ""] + environment_banner(env_note)
    if html_link:
        out += [f"Full report: [{html_link}]({html_link})", ""]
    out += ["| | base | new |", "| --- | --- | --- |"]
    out += [f"| {k} | {b} | {n} |" for k, b, n in facts]
    out += ["", counts_line(_verdict_counts(rows), len(rows)) + ".", "",
            rule_line(thresholds), "", "### Geomean per batch", "",
            geomean_table(rows), "", "### Problems", ""]
    out += folded(comparison_table(rows).splitlines(), "problem")
    return "\n".join(out) + "\n"


def trend_table(rows):
    """Markdown table of trend.TrendRow rows."""
    lines = ["| verdict | batch | problem | impl | median ms | reference ms"
             " | change | rate | why |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        v, r = row.verdict, row.result
        unit = rate_unit(r.driver)
        lines.append(f"| {v.verdict} | {r.batch} | `{row.problem}` | {r.impl}"
                     f" | {row.times[-1]:.3g} | {v.reference_ms:.3g}"
                     f" | {v.change:+.1%} | {rate(r, row.times[-1]):.2f} {unit}"
                     f" | {v.reason} |")
    return "\n".join(lines)


def markdown_trend(run, rows, notes, html_link=None):
    """The Markdown summary of a run against its history."""
    out = [f"# Performance: {run.machine}, commit {run.commit}", ""]
    out += environment_banner(notes.get("environment", ""))
    if "pinned" in notes:
        out += [f"Note: {notes['pinned']}.", ""]
    if html_link:
        out += [f"Full report: [{html_link}]({html_link})", ""]
    out += ["| | |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in run_facts(run)]
    out += ["", counts_line(_verdict_counts(rows, lambda r: r.verdict.verdict),
                            len(rows)) + ".", "",
            f"Statistic: the {STATISTIC} per run. Against the history: a step "
            "(change-point test over the whole series), the pinned run, a drift "
            "over the window, the window's noise band.", ""]
    out += folded(trend_table(rows).splitlines(), "problem")
    for batch, (tessera, onednn) in sorted(lib_sections(run).items()):
        out += ["", f"## Tessera vs oneDNN: {batch}", "",
                compare_libs.markdown_table(compare_libs.compare_rows(tessera, onednn))]
    return "\n".join(out) + "\n"


def _png(fig, plt):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def trend_plot(row, runs):
    """Base64 PNG: one problem's statistic over the runs, the noise band
    around the window, the newest level, the flagged run marked."""
    plt = pyplot()
    v = row.verdict
    fig, ax = plt.subplots(figsize=(5, 2.4))
    xs = [i for i, t in enumerate(row.times) if t is not None]
    ax.plot(xs, [row.times[i] for i in xs], marker="o", markersize=3,
            color="tab:blue", label=STATISTIC)
    ax.axhspan(v.band_ms[0], v.band_ms[1], color="tab:gray", alpha=0.25,
               label="noise band")
    for start, end, level in v.levels:
        ax.hlines(level, start, end - 1, colors="tab:orange", linewidth=1)
    bad = v.step_run if v.verdict != "same" else len(row.times) - 1
    colour = {"regression": "tab:red", "improvement": "tab:green"}.get(
        v.verdict, "black")
    ax.plot([bad], [row.times[bad] or v.level_ms], marker="X", markersize=10,
            color=colour, linestyle="none", label=f"{v.verdict} (run {bad + 1})")
    if v.start > 0:
        ax.axvline(v.start - 0.5, color="black", linestyle=":", linewidth=0.8)
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([str(i + 1) for i in range(len(runs))], fontsize=6)
    ax.set_xlabel("run", fontsize=7)
    ax.set_ylabel("median ms", fontsize=7)
    ax.tick_params(labelsize=6)
    ax.legend(fontsize=5, loc="best")
    return _png(fig, plt)


def ab_plot(problem):
    """Base64 PNG: every sample of both sides by round (last pass), each
    side's median and IQR band."""
    from .stats import quantile
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5, 2.4))
    for offset, (label, colour) in enumerate((("base", "tab:blue"), ("new", "tab:red"))):
        rounds = problem.passes[-1][label]
        xs, ys = [], []
        for r, samples in enumerate(rounds):
            xs += [r + 0.15 * (2 * offset - 1)] * len(samples)
            ys += samples
        ax.plot(xs, ys, marker="o", markersize=2.5, linestyle="none",
                color=colour, label=f"{label} samples")
        q1, med, q3 = (quantile(ys, q) for q in (0.25, 0.5, 0.75))
        ax.axhspan(q1, q3, color=colour, alpha=0.15)
        ax.axhline(med, color=colour, linewidth=1, label=f"{label} median")
    ax.set_xticks(range(len(problem.passes[-1]["base"])))
    ax.set_xticklabels([str(r + 1) for r in range(len(problem.passes[-1]["base"]))])
    ax.set_xlabel("round" + (" (second pass)" if len(problem.passes) > 1 else ""),
                  fontsize=7)
    ax.set_ylabel("ms per run", fontsize=7)
    ax.tick_params(labelsize=6)
    ax.legend(fontsize=5, loc="best")
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
    ax.set_yticklabels([problem_label(p) for p in problems], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("GFLOPS (min time)")
    ax.set_title(f"Tessera vs oneDNN: {batch}")
    ax.legend(fontsize=7)
    return _png(fig, plt)


def _md_table_to_html(markdown, links=None, commands=None):
    """A Markdown table of this module as an HTML table. links: {row
    index: (anchor id, repro)}: that row's problem cell (the one in
    backquotes) becomes a readable label linked to the anchor, the full
    repro on hover; every problem cell gets the hover."""
    e = html.escape
    lines = [l for l in markdown.splitlines() if l.startswith("|")]
    cells = [[c.strip() for c in l.strip("|").split("|")] for l in lines]
    head, body = cells[0], cells[2:]
    out = ["<table><tr>" + "".join(f"<th>{e(c)}</th>" for c in head) + "</tr>"]
    for i, row in enumerate(body):
        cls = f' class="{row[0]}"' if row and row[0] in VERDICT_CLASSES else ""
        tds = []
        for c in row:
            if c.startswith("`") and c.endswith("`"):
                repro = c.strip("`")
                label = e(problem_label(repro))
                if links and i in links:
                    label = f'<a href="#{links[i]}">{label}</a>'
                tds.append(f'<td title="{e(repro_command(repro, commands))}">'
                           f'{label}</td>')
            else:
                tds.append(f"<td>{e(c)}</td>")
        out.append(f"<tr{cls}>" + "".join(tds) + "</tr>")
    return "\n".join(out + ["</table>"])


VERDICT_CLASSES = ("regression", "improvement", "unstable", "suspect")
STYLE = """body{font-family:sans-serif;margin:2em;max-width:1300px}
table{border-collapse:collapse;font-size:0.85em;margin:1em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
tr.regression{background:#fdd}tr.improvement{background:#dfd}
tr.unstable,tr.suspect{background:#ffd}.banner{background:#fc8;padding:0.5em;font-weight:bold}
.plot{display:inline-block;vertical-align:top;margin:0.5em;max-width:460px}
.plot pre{white-space:pre-wrap;font-size:0.75em;background:#eee;padding:4px}
img{max-width:100%}"""


def _page(title, body):
    e = html.escape
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{e(title)}"
            f"</title><style>{STYLE}</style></head><body><h1>{e(title)}</h1>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _plot_block(anchor, problem, verdict, png, extra="", commands=None):
    e = html.escape
    return (f'<div class="plot" id="{anchor}"><b>{e(problem_label(problem))}'
            f'</b> ({e(verdict)}){extra}<br><img alt="{e(problem)}" '
            f'src="data:image/png;base64,{png}"><pre>{e(repro_command(problem, commands))}'
            "</pre></div>")


def _banner(note):
    return [f'<p class="banner">Environments differ ({html.escape(note)}): the '
            "times are not comparable (exit status 3).</p>"] if note else []


def _changed_links(sorted_rows, verdict):
    return {i: f"plot-{i}" for i, r in enumerate(sorted_rows)
            if verdict(r) in ("regression", "improvement")}


def html_comparison(title, facts, rows, thresholds, env_note="", problems=None,
                    progress=None, commands=None):
    """The HTML page of a comparison: facts of both sides, verdicts, and
    for A/B (problems: {repro: ab.Problem}) a samples plot per changed
    problem. commands: each side's command prefix for the repro lines (see
    repro_command)."""
    e = html.escape
    body = _banner(env_note)
    body.append("<table><tr><th></th><th>base</th><th>new</th></tr>" + "".join(
        f"<tr><th>{e(k)}</th><td>{e(str(b))}</td><td>{e(str(n))}</td></tr>"
        for k, b, n in facts) + "</table>")
    body += [f"<p>{e(counts_line(_verdict_counts(rows), len(rows)).replace('**', ''))}."
             f"</p><p>{e(rule_line(thresholds))}</p>",
             "<h2>Geomean per batch</h2>", _md_table_to_html(geomean_table(rows))]
    ordered = sorted(rows, key=lambda r: (ORDER[r.verdict], r.ratio))
    links = _changed_links(ordered, lambda r: r.verdict)
    body += ["<h2>Problems</h2>",
             _md_table_to_html(comparison_table(rows), links, commands)]
    if links and problems:
        body.append("<h2>Changed problems: samples by round</h2>")
        for n, (i, anchor) in enumerate(sorted(links.items())):
            if progress:
                progress(f"plotting {n + 1}/{len(links)}")
            r = ordered[i]
            body.append(_plot_block(anchor, r.problem, r.verdict,
                                    ab_plot(problems[r.problem]),
                                    f", ratio new/base {_fmt(r.ratio)}", commands))
    return _page(title, body)


def html_trend(run, runs, rows, notes, progress=None):
    """The HTML page of a run against its history."""
    e = html.escape
    body = _banner(notes.get("environment", ""))
    if "pinned" in notes:
        body.append(f"<p>Note: {e(notes['pinned'])}.</p>")
    body.append("<table>" + "".join(f"<tr><th>{e(k)}</th><td>{e(str(v))}</td></tr>"
                                    for k, v in run_facts(run)) + "</table>")
    body.append("<p>Runs: " + ", ".join(
        f"{i + 1}: {e(r[3])} ({e(r[4][:10])})" for i, r in enumerate(runs)) + "</p>")
    counts = _verdict_counts(rows, lambda r: r.verdict.verdict)
    body += [f"<p>{e(counts_line(counts, len(rows)).replace('**', ''))}. Statistic:"
             f" the {e(STATISTIC)} per run.</p>"]
    links = _changed_links(rows, lambda r: r.verdict.verdict)
    body += ["<h2>Problems</h2>", _md_table_to_html(trend_table(rows), links)]
    if links:
        body.append("<h2>Changed problems over the runs</h2>")
        for n, (i, anchor) in enumerate(sorted(links.items())):
            if progress:
                progress(f"plotting trend {n + 1}/{len(links)}")
            r = rows[i]
            body.append(_plot_block(anchor, r.problem, r.verdict.verdict, trend_plot(r, runs),
                                    f", {e(r.verdict.reason)}"))
    for batch, (tessera, onednn) in sorted(lib_sections(run).items()):
        if progress:
            progress(f"plotting Tessera vs oneDNN: {batch}")
        body += [f"<h2>Tessera vs oneDNN: {e(batch)}</h2>",
                 f'<img alt="Tessera vs oneDNN {e(batch)}" src="data:image/png;base64,'
                 f'{libs_plot(batch, tessera, onednn)}">',
                 _md_table_to_html(compare_libs.markdown_table(
                     compare_libs.compare_rows(tessera, onednn)))]
    return _page(f"Performance: {run.machine}, commit {run.commit}", body)
