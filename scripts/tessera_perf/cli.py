"""What the command-line scripts share: exit codes, progress lines,
threshold options and the install hint for missing packages."""
import sys

from . import stats
from .environment import EXIT_ENVIRONMENT

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = EXIT_ENVIRONMENT  # the runs are not comparable

# Debian 12's system Python refuses pip installs (externally managed).
INSTALL_HINT = ("install it with: apt-get install python3-matplotlib "
                "python3-pytest (Debian/Ubuntu), or in a virtual environment: "
                "python3 -m venv .venv && .venv/bin/pip install -r "
                "scripts/requirements.txt")


def progress_printer(prog):
    def progress(message):
        print(f"{prog}: {message}", file=sys.stderr, flush=True)
    return progress


def add_threshold_options(sp):
    d = stats.Thresholds()
    sp.add_argument("--alpha", type=float, default=d.alpha,
                    help=f"rank test significance (default {d.alpha})")
    sp.add_argument("--min-effect", type=float, default=d.min_effect,
                    help=f"smallest change that counts (default {d.min_effect})")
    sp.add_argument("--min-effect-no-samples", type=float,
                    default=d.min_effect_no_samples,
                    help="the same for runs without samples (default "
                    f"{d.min_effect_no_samples})")


def threshold_error(args):
    """The message for an out-of-range threshold option, or None."""
    for name in ("alpha", "min_effect", "min_effect_no_samples"):
        value = getattr(args, name, None)
        if value is not None and not 0 <= value < 1:
            return f"--{name.replace('_', '-')} must be in [0, 1)"
    return None


def thresholds_from(args):
    return stats.Thresholds(alpha=args.alpha, min_effect=args.min_effect,
                            min_effect_no_samples=args.min_effect_no_samples)


def exit_status(regressions, env_note):
    """Environments that differ win over a regression: its verdicts are
    not to be trusted."""
    if env_note:
        return EXIT_ENVIRONMENT
    return EXIT_REGRESSION if regressions else EXIT_OK
