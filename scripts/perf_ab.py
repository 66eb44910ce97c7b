#!/usr/bin/env python3
"""A/B performance comparison of two benchdnn binaries in one job.

    perf_ab.py --base BIN --new BIN [--set DRIVER:BATCH ...] [--out DIR]
               [--rounds N] [--confirm-rounds N] [--fix-times N | --max-ms MS]
               [--base-env VAR=VALUE ...] [--new-env VAR=VALUE ...]
               [--ignore-env KEY ...] [--base-label TEXT] [--new-label TEXT]

Every problem of the sets runs on both binaries in turns, round by round
(A B, then B A, ...); each side's samples (every timed run) make its set.
Verdict per problem on the median of per-run times (IQR and sample count
beside it): "same" below --min-effect, "unstable" when either side's IQR
is larger than the change or the rank test does not back it, else
"regression" / "improvement"; those candidates run again, alone, and keep
their verdict only when that pass agrees (else "unstable"). Writes
DIR/ab.md (CI summary: what changed, the rest folded), DIR/ab.html (a
samples plot per changed problem) and DIR/ab.json (every sample).

Exit status: 0 no regression, 1 regression, 2 bad usage or a benchdnn
failure, 3 the sides' environments differ (run headers: ISA, threads,
compiler, build options, CPU) other than in the --ignore-env keys.
"""
import argparse
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tessera_perf import cli, report  # noqa: E402
from tessera_perf.ab import AbError, Side, run_ab  # noqa: E402
from tessera_perf.environment import ENV_KEYS, describe, differences  # noqa: E402

PROG = "perf_ab.py"
progress = cli.progress_printer(PROG)


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return cli.EXIT_USAGE


def _env_pairs(values):
    out = {}
    for v in values:
        key, sep, value = v.partition("=")
        if not sep or not key:
            raise ValueError(f"expected VAR=VALUE, got '{v}'")
        out[key] = value
    return out


def _sets(values):
    out = []
    for v in values:
        driver, sep, batch = v.partition(":")
        if not sep or not os.path.isfile(batch):
            raise ValueError(f"bad set '{v}' (DRIVER:BATCH with an existing batch file)")
        out.append((driver, batch))
    return out


def parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n", 2)[2])
    p.add_argument("--base", required=True, metavar="BIN", help="baseline benchdnn")
    p.add_argument("--new", required=True, metavar="BIN", help="new benchdnn")
    p.add_argument("--set", action="append", default=[], metavar="DRIVER:BATCH",
                   help="a set to time (repeatable; default conv:inputs/alexnet)")
    p.add_argument("--list-args", default="", metavar="OPTIONS",
                   help="benchdnn options applied when listing the sets' "
                   "problems, e.g. \"--mb=1 --match=conv1\"")
    p.add_argument("--out", default="perf-out/ab", metavar="DIR")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--confirm-rounds", type=int, help="default: --rounds")
    p.add_argument("--fix-times", type=int, default=0,
                   help="timed runs per benchdnn call (0: by --max-ms)")
    p.add_argument("--max-ms", type=int, default=300,
                   help="time budget per benchdnn call (default 300)")
    p.add_argument("--base-env", action="append", default=[], metavar="VAR=VALUE")
    p.add_argument("--new-env", action="append", default=[], metavar="VAR=VALUE")
    p.add_argument("--ignore-env", action="append", default=[], choices=ENV_KEYS,
                   help="an environment key allowed to differ (e.g. isa when "
                   "comparing ISA caps)")
    p.add_argument("--base-label", default="", help="what base was built from")
    p.add_argument("--new-label", default="", help="what new was built from")
    p.add_argument("--html-link", help="link to the HTML report in the Markdown")
    cli.add_threshold_options(p)
    return p


def write_outputs(out, base, new, headers, problems, rows, thresholds, env_note,
                  html_link):
    os.makedirs(out, exist_ok=True)
    keys = ("commit",) + ENV_KEYS
    facts = [("binary", base.binary, new.binary),
             ("built from", base.source or "-", new.source or "-"),
             ("extra environment", " ".join(f"{k}={v}" for k, v in base.env.items()) or "-",
              " ".join(f"{k}={v}" for k, v in new.env.items()) or "-")]
    facts += [(k, headers["base"].get(k, "?"), headers["new"].get(k, "?")) for k in keys]
    title = (f"A/B performance: {new.source or headers['new'].get('commit', '?')}"
             f" against {base.source or headers['base'].get('commit', '?')}")
    md = report.markdown_comparison(title, facts, rows, thresholds, env_note,
                                    html_link or "ab.html")
    with open(os.path.join(out, "ab.md"), "w", encoding="utf-8") as f:
        f.write(md)
    by_repro = {p.repro: p for p in problems}
    try:
        commands = [(side.label, " ".join([f"{k}={shlex.quote(v)}" for k, v in side.env.items()]
                                          + [shlex.quote(side.binary)]))
                    for side in (base, new)]
        page = report.html_comparison(title, facts, rows, thresholds, env_note,
                                      by_repro, progress, commands)
        with open(os.path.join(out, "ab.html"), "w", encoding="utf-8") as f:
            f.write(page)
    except report.MissingPackage as e:
        progress(f"no HTML report: {e}; {cli.INSTALL_HINT}")
    data = {"statistic": "median of per-run times (ms)", "headers": headers,
            "environment_differences": env_note,
            "problems": [{"batch": p.batch, "repro": p.repro, "passes": p.passes,
                          "verdict": row.verdict, "ratio": row.ratio,
                          "base_median_ms": row.base.median_ms,
                          "new_median_ms": row.new.median_ms,
                          "base_iqr_ms": row.base.iqr_ms, "new_iqr_ms": row.new.iqr_ms,
                          "note": row.note}
                         for p, row in zip(problems, rows)]}
    with open(os.path.join(out, "ab.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    return md


def main(argv):
    args = parser().parse_args(argv[1:])
    error = cli.threshold_error(args)
    if error:
        return fail(error)
    if args.rounds < 1 or (args.confirm_rounds is not None and args.confirm_rounds < 1):
        return fail("--rounds and --confirm-rounds must be at least 1")
    try:
        sets = _sets(args.set or ["conv:inputs/alexnet"])
        base = Side("base", args.base, _env_pairs(args.base_env), args.base_label)
        new = Side("new", args.new, _env_pairs(args.new_env), args.new_label)
    except ValueError as e:
        return fail(str(e))
    timing = [f"--fix-times-per-prb={args.fix_times}"] if args.fix_times > 0 else \
        [f"--max-ms-per-prb={args.max_ms}"]
    thresholds = cli.thresholds_from(args)
    try:
        problems, headers, rows, _first = run_ab(
            base, new, sets, args.rounds, timing, thresholds, args.confirm_rounds,
            progress, args.list_args.split())
    except AbError as e:
        return fail(str(e))
    if not problems:
        return fail("no problem in common between the two binaries")
    env_note = describe(differences(headers["base"], headers["new"],
                                    ignore=args.ignore_env))
    md = write_outputs(args.out, base, new, headers, problems, rows, thresholds,
                       env_note, args.html_link)
    print(md)
    regressions = sum(r.verdict == "regression" for r in rows)
    status = cli.exit_status(regressions, env_note)
    progress({0: "no regression", 1: f"{regressions} confirmed regression(s)",
              3: f"environments differ: {env_note}"}[status] +
             f" (report: {os.path.join(args.out, 'ab.html')})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
