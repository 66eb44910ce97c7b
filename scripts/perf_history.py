#!/usr/bin/env python3
"""Nightly performance tracking of benchdnn runs.

    perf_history.py import RUN.txt [RUN.txt ...] --db FILE [--machine NAME]
                    [--run LABEL] [--batch NAME]
        Stores a run (the files are its shards) in the SQLite history FILE.
        Importing a file again adds nothing; a cut-off or corrupt file is
        rejected and the database is left as it was.
    perf_history.py compare BASE NEW [--markdown FILE] [options]
        Two runs (files, or comma-separated shards of one run): per problem
        the median of per-run times of both, their IQR and sample counts,
        the ratio and a verdict (regression, unstable, improvement, same).
    perf_history.py compare --baseline history --db FILE [--machine NAME]
                    [--run LABEL] [--markdown FILE]
        A stored run (default: the latest) against the machine's history:
        change-point test over the whole series, the pinned run, the window
        of recent runs, drift.
    perf_history.py report --db FILE --out DIR [--machine NAME] [--run LABEL]
                    [--html-link URL]
        The same as compare --baseline history, written to DIR/report.md
        (for CI job summaries: only what changed, the rest folded) and
        DIR/report.html (self-contained, a plot per changed problem).
    perf_history.py pin RUN --db FILE [--machine NAME]
        Pins the run labelled RUN as the known-good run.
    perf_history.py accept PROBLEM|RUN --db FILE [--machine NAME] [--run LABEL]
        Accepts a problem's performance (its repro) as of the run LABEL
        (default: the latest), or every problem as of the run RUN: its
        history restarts there, so its regression turns green.

Run files are benchdnn --mode=P output with the run header and a template
ending in %samples%, as ci/nightly.sh produces them.
Exit status: 0 fine, 1 regression, 2 bad usage or input, 3 the runs'
environments (ISA, threads, compiler, build options, CPU) differ.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tessera_perf import cli, report, stats, trend  # noqa: E402
from tessera_perf.environment import describe, differences  # noqa: E402
from tessera_perf.history import History, HistoryError  # noqa: E402
from tessera_perf.parse import RunFormatError, read_run  # noqa: E402

PROG = "perf_history.py"
EXIT_REGRESSION = cli.EXIT_REGRESSION
EXIT_USAGE = cli.EXIT_USAGE
EXIT_ENVIRONMENT = cli.EXIT_ENVIRONMENT
INSTALL_HINT = cli.INSTALL_HINT
progress = cli.progress_printer(PROG)


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def cmd_import(args):
    run = read_run(args.files, machine=args.machine, label=args.run,
                   batch=args.batch, progress=progress)
    history = History(args.db)
    try:
        run_id, added = history.import_run(run, progress=progress)
    finally:
        history.close()
    if added == 0:
        print(f"already imported: run '{run.label}' of {run.machine} (id {run_id})")
    else:
        print(f"imported {added} results into run '{run.label}' of "
              f"{run.machine} (id {run_id}, commit {run.commit})")
    return 0


def _write(path, text):
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def cmd_compare_runs(args):
    if len(args.runs) != 2:
        return fail("compare needs BASE and NEW (or --baseline history)")
    base = read_run(args.runs[0].split(","), progress=progress)
    new = read_run(args.runs[1].split(","), progress=progress)
    thresholds = cli.thresholds_from(args)
    rows = stats.compare_results(base.results, new.results, thresholds)
    env_note = describe(differences(base.header, new.header))
    facts = [("run", base.label, new.label), ("commit", base.commit, new.commit)]
    facts += [(k, base.header.get(k, ""), new.header.get(k, ""))
              for k in ("isa", "threads", "compiler", "build_options", "cpu")]
    text = report.markdown_comparison(
        f"Performance: {new.commit} against {base.commit}", facts, rows,
        thresholds, env_note)
    _write(args.markdown, text)
    print(text)
    regressions = sum(r.verdict == "regression" for r in rows)
    if env_note:
        progress(f"environments differ: {env_note}")
    elif regressions:
        progress(f"{regressions} regression(s)")
    return cli.exit_status(regressions, env_note)


def _history_run(history, args):
    """(run id row) of --run, or the latest; None when the db has none."""
    runs = history.runs(args.machine)
    if not runs:
        return None
    if args.run:
        return next((r for r in runs if r[2] == args.run), None)
    return runs[-1]


def _trend(args, write_html):
    history = History(args.db)
    try:
        row = _history_run(history, args)
        if row is None:
            return fail(f"no run {args.run or ''} in {args.db}".replace("  ", " ") +
                        (f" for machine {args.machine}" if args.machine else ""))
        run = history.load_run(row[0])
        runs, rows, notes = trend.history_rows(
            history, run.machine, row[0], cli.thresholds_from(args), args.window)
        md = report.markdown_trend(run, rows, notes, args.html_link)
        page = report.html_trend(run, runs, rows, notes, progress) if write_html \
            else None
    finally:
        history.close()
    regressions = sum(r.verdict.verdict == "regression" for r in rows)
    if "environment" in notes:
        progress(f"environment changed: {notes['environment']}")
    elif regressions:
        progress(f"{regressions} regression(s)")
    return md, page, cli.exit_status(regressions, notes.get("environment"))


def cmd_compare(args):
    if args.baseline != "history":
        return cmd_compare_runs(args)
    if args.runs or not args.db:
        return fail("compare --baseline history takes --db (and --run), no files")
    out = _trend(args, False)
    if isinstance(out, int):
        return out
    md, _page, status = out
    _write(args.markdown, md)
    print(md)
    return status


def cmd_report(args):
    report.pyplot()  # fail before any work when matplotlib is missing
    out = _trend(args, True)
    if isinstance(out, int):
        return out
    md, page, status = out
    os.makedirs(args.out, exist_ok=True)
    md_path = os.path.join(args.out, "report.md")
    html_path = os.path.join(args.out, "report.html")
    _write(md_path, md)
    _write(html_path, page)
    print(f"wrote {md_path} and {html_path}")
    return status


def _find_label(history, machine, label):
    row = next((r for r in history.runs(machine) if r[2] == label), None)
    if row is None:
        raise HistoryError(f"no run '{label}'" + (f" of {machine}" if machine else ""))
    return row


def cmd_pin(args):
    history = History(args.db)
    try:
        row = _find_label(history, args.machine, args.label)
        history.pin(row[1], row[0])
    finally:
        history.close()
    print(f"pinned run '{row[2]}' (commit {row[3]}) of {row[1]} as known-good")
    return 0


def cmd_accept(args):
    history = History(args.db)
    try:
        runs = history.runs(args.machine)
        as_run = next((r for r in runs if r[2] == args.what), None)
        if as_run:
            history.accept(as_run[1], "*", as_run[0])
            print(f"accepted every problem as of run '{as_run[2]}'")
            return 0
        row = _find_label(history, args.machine, args.run) if args.run else \
            (runs[-1] if runs else None)
        if row is None:
            raise HistoryError(f"no runs in {args.db}")
        _, series = history.series(row[1])
        if args.what not in series:
            raise HistoryError(f"'{args.what}' is neither a run label nor a "
                               "problem (repro) of the history")
        history.accept(row[1], args.what, row[0])
    finally:
        history.close()
    print(f"accepted '{args.what}' as of run '{row[2]}'")
    return 0


def parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n", 2)[2])
    sub = p.add_subparsers(dest="command", required=True)

    imp = sub.add_parser("import", help="store a run in the history")
    imp.add_argument("files", nargs="+", metavar="RUN.txt")
    imp.add_argument("--db", required=True)
    imp.add_argument("--machine", help="default: the run header's host")
    imp.add_argument("--run", help="run label, shared by the shards of one run "
                     "(default: COMMIT@DATE)")
    imp.add_argument("--batch", help="batch name (default: the '# batch=' "
                     "header line, else the file name)")
    imp.set_defaults(func=cmd_import)

    def add_history(sp, db_required):
        sp.add_argument("--db", required=db_required)
        sp.add_argument("--machine")
        sp.add_argument("--run", help="the run's label (default: the latest run)")
        sp.add_argument("--window", type=int, default=trend.DEFAULT_WINDOW,
                        help=f"recent runs compared (default {trend.DEFAULT_WINDOW})")
        sp.add_argument("--html-link", help="link to the HTML report in the Markdown")
        cli.add_threshold_options(sp)

    cmp = sub.add_parser("compare", help="compare two runs, or a run with its "
                         "history")
    cmp.add_argument("runs", nargs="*", metavar="RUN", help="BASE NEW")
    cmp.add_argument("--baseline", choices=["history"])
    cmp.add_argument("--markdown", metavar="FILE", help="also write the table here")
    add_history(cmp, False)
    cmp.set_defaults(func=cmd_compare)

    rep = sub.add_parser("report", help="write report.md and report.html")
    rep.add_argument("--out", required=True, metavar="DIR")
    add_history(rep, True)
    rep.set_defaults(func=cmd_report)

    pin = sub.add_parser("pin", help="pin a run as the known-good one")
    pin.add_argument("label", metavar="RUN")
    pin.add_argument("--db", required=True)
    pin.add_argument("--machine")
    pin.set_defaults(func=cmd_pin)

    acc = sub.add_parser("accept", help="accept a problem's (or a run's) "
                         "performance")
    acc.add_argument("what", metavar="PROBLEM|RUN")
    acc.add_argument("--db", required=True)
    acc.add_argument("--machine")
    acc.add_argument("--run", help="as of this run (default: the latest)")
    acc.set_defaults(func=cmd_accept)
    return p


def main(argv):
    args = parser().parse_args(argv[1:])
    error = cli.threshold_error(args)
    if error:
        return fail(error)
    try:
        return args.func(args)
    except report.MissingPackage as e:
        return fail(f"{e}\n{INSTALL_HINT}")
    except (RunFormatError, HistoryError) as e:
        return fail(str(e))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
