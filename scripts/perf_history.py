#!/usr/bin/env python3
"""Nightly performance tracking of benchdnn runs.

    perf_history.py import RUN.txt [RUN.txt ...] --db FILE [--machine NAME]
                    [--run LABEL] [--batch NAME]
        Stores a run (the files are its shards) in the SQLite history FILE.
        Importing a file again adds nothing; a cut-off or corrupt file is
        rejected and the database is left as it was.
    perf_history.py compare BASE NEW [options]
    perf_history.py compare NEW --baseline history --db FILE [--machine NAME]
        Per-problem ratio new/base, geomean per batch and a verdict per
        problem (Mann-Whitney U on the samples plus a minimum slowdown).
        BASE and NEW are run files, or comma-separated shard files of one
        run; "history" takes the machine's latest earlier run from the db.
        Exit status 1 when a problem regressed.
    perf_history.py report --db FILE --out DIR [--machine NAME] [--run LABEL]
        Writes DIR/report.md (for CI job summaries) and DIR/report.html
        (self-contained, with matplotlib plots) for a stored run (default:
        the latest) against the machine's run before it.

Run files are benchdnn --mode=P output with the run header and a template
ending in %samples%, as ci/nightly.sh produces them:
    --perf-template=perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%,%samples%
Exit status: 0 fine, 1 regression, 2 bad usage or input.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tessera_perf import report, stats  # noqa: E402
from tessera_perf.history import History, HistoryError  # noqa: E402
from tessera_perf.parse import RunFormatError, read_run  # noqa: E402

PROG = "perf_history.py"
EXIT_REGRESSION = 1
EXIT_USAGE = 2


# Debian 12's system Python refuses pip installs (externally managed).
INSTALL_HINT = ("install it with: apt-get install python3-matplotlib "
                "python3-pytest (Debian/Ubuntu), or in a virtual environment: "
                "python3 -m venv .venv && .venv/bin/pip install -r "
                "scripts/requirements.txt")


def progress(message):
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _thresholds(args):
    return stats.Thresholds(alpha=args.alpha, min_effect=args.min_effect,
                            min_effect_no_samples=args.min_effect_no_samples)


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


def _find_baseline(args, new):
    history = History(args.db)
    try:
        row = history.previous_run(new.machine, new.date, exclude_label=new.label)
        return history.load_run(row[0]) if row else None
    finally:
        history.close()


def cmd_compare(args):
    if args.baseline == "history":
        if len(args.runs) != 1 or not args.db:
            return fail("compare NEW --baseline history needs one run and --db")
        new = read_run(args.runs[0].split(","), machine=args.machine,
                       label=args.run, progress=progress)
        base = _find_baseline(args, new)
        if base is None:
            print(f"no earlier run of {new.machine} in {args.db}: nothing to compare")
            return 0
    else:
        if len(args.runs) != 2:
            return fail("compare needs BASE and NEW (or NEW --baseline history)")
        base = read_run(args.runs[0].split(","), progress=progress)
        new = read_run(args.runs[1].split(","), progress=progress)
    thresholds = _thresholds(args)
    rows = stats.compare_results(base.results, new.results, thresholds)
    text = report.markdown_report(new, base, rows, thresholds)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    regressions = sum(r.verdict == "regression" for r in rows)
    if regressions:
        progress(f"{regressions} regression(s)")
        return EXIT_REGRESSION
    return 0


def cmd_report(args):
    report.pyplot()  # fail before any work when matplotlib is missing
    history = History(args.db)
    try:
        runs = history.runs(args.machine)
        if not runs:
            return fail(f"no runs in {args.db}" +
                        (f" for machine {args.machine}" if args.machine else ""))
        if args.run:
            row = next((r for r in runs if r[2] == args.run), None)
            if row is None:
                return fail(f"no run '{args.run}' in {args.db}")
        else:
            row = runs[-1]
        run = history.load_run(row[0])
        prev = history.previous_run(run.machine, run.date, exclude_label=run.label)
        base = history.load_run(prev[0]) if prev else None
        thresholds = _thresholds(args)
        rows = stats.compare_results(base.results, run.results, thresholds) if base else []
        os.makedirs(args.out, exist_ok=True)
        page = report.html_report(history, run, base, rows, thresholds, progress)
        md_path = os.path.join(args.out, "report.md")
        html_path = os.path.join(args.out, "report.html")
        with open(md_path, "w", encoding="utf-8") as f:
            f.write(report.markdown_report(run, base, rows, thresholds) + "\n")
        with open(html_path, "w", encoding="utf-8") as f:
            f.write(page)
    finally:
        history.close()
    print(f"wrote {md_path} and {html_path}")
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

    def add_thresholds(sp):
        d = stats.Thresholds()
        sp.add_argument("--alpha", type=float, default=d.alpha,
                        help=f"rank test significance (default {d.alpha})")
        sp.add_argument("--min-effect", type=float, default=d.min_effect,
                        help=f"smallest slowdown that counts (default {d.min_effect})")
        sp.add_argument("--min-effect-no-samples", type=float,
                        default=d.min_effect_no_samples,
                        help="the same for runs without samples (default "
                        f"{d.min_effect_no_samples})")

    cmp = sub.add_parser("compare", help="compare two runs, exit 1 on a regression")
    cmp.add_argument("runs", nargs="+", metavar="RUN",
                     help="BASE NEW, or NEW with --baseline history")
    cmp.add_argument("--baseline", choices=["history"])
    cmp.add_argument("--db")
    cmp.add_argument("--machine")
    cmp.add_argument("--run", help="NEW's run label, when it is in the db already")
    cmp.add_argument("--markdown", metavar="FILE", help="also write the table here")
    add_thresholds(cmp)
    cmp.set_defaults(func=cmd_compare)

    rep = sub.add_parser("report", help="write report.md and report.html")
    rep.add_argument("--db", required=True)
    rep.add_argument("--out", required=True, metavar="DIR")
    rep.add_argument("--machine")
    rep.add_argument("--run", help="run label (default: the latest run)")
    add_thresholds(rep)
    rep.set_defaults(func=cmd_report)
    return p


def main(argv):
    args = parser().parse_args(argv[1:])
    for name in ("alpha", "min_effect", "min_effect_no_samples"):
        value = getattr(args, name, None)
        if value is not None and not 0 <= value < 1:
            return fail(f"--{name.replace('_', '-')} must be in [0, 1)")
    try:
        return args.func(args)
    except report.MissingPackage as e:
        return fail(f"{e}\n{INSTALL_HINT}")
    except (RunFormatError, HistoryError) as e:
        return fail(str(e))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
