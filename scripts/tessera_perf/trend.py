"""Verdicts over a problem's whole history, so that a regression stays red
until it is fixed or accepted and a slow drift adds up to one:

- a change-point test (as asv does): the optimal split of the series of
  per-run statistics (log of the median time) into constant segments,
  each new segment costing a penalty proportional to the noise, which is
  estimated robustly from successive differences;
- the newest level (its segment's mean) against the best earlier level,
  against the pinned known-good run, and the newest run against the
  window of recent runs and its noise band;
- a drift test over the window (Mann-Kendall, Theil-Sen slope): a steady
  slowdown that adds up to the minimum effect within the window.

The series starts again at an accepted run and where the environment
changed (see environment.py)."""
import math
from dataclasses import dataclass, field

from .stats import Thresholds, median

SIGMA_FLOOR = 0.005  # runs are never taken as steadier than 0.5%
PENALTY = 8.0  # cost of a change point, in sigma^2 * log(number of runs)
BAND_SIGMAS = 3.0  # half-width of the noise band
DEFAULT_WINDOW = 7


SHORT_SERIES = 10  # below this many runs the noise estimate is not robust
MIN_RUNS = 5  # runs before any verdict
MIN_LEVEL_RUNS = 3  # runs an earlier level must hold to be a reference
MIN_NEW_LEVEL_RUNS = 2  # runs a new level must hold to be a step, not a spike


def noise_sigma(logs):
    """The noise of a log series: the MAD of successive differences
    (centred, so a steady drift does not count as noise), scaled to a
    normal standard deviation of one value. A short series also takes
    their standard deviation, when larger: a MAD of a few values can be
    near zero by chance."""
    diffs = [b - a for a, b in zip(logs, logs[1:])]
    if len(diffs) < 2:
        return SIGMA_FLOOR
    m = median(diffs)
    sigma = median([abs(d - m) for d in diffs]) / 0.6745 / math.sqrt(2)
    if len(logs) < SHORT_SERIES:
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        sigma = max(sigma, sd / math.sqrt(2))
    return max(sigma, SIGMA_FLOOR)


def mann_kendall_increasing(values):
    """One-sided Mann-Kendall p-value that the series increases (normal
    approximation, continuity corrected)."""
    n = len(values)
    s = sum((values[j] > values[i]) - (values[j] < values[i])
            for i in range(n) for j in range(i + 1, n))
    var = n * (n - 1) * (2 * n + 5) / 18
    if var <= 0:
        return 1.0
    return 0.5 * math.erfc((s - 1) / math.sqrt(var) / math.sqrt(2))


def theil_sen_slope(values):
    """The median of pairwise slopes."""
    slopes = [(values[j] - values[i]) / (j - i)
              for i in range(len(values)) for j in range(i + 1, len(values))]
    return median(slopes) if slopes else 0.0


def segments(values, penalty):
    """The partition of values into runs of constant level that minimises
    the squared deviations plus `penalty` per segment (dynamic
    programming). Returns [(start, end)], end exclusive."""
    n = len(values)
    s1, s2 = [0.0], [0.0]
    for v in values:
        s1.append(s1[-1] + v)
        s2.append(s2[-1] + v * v)

    def cost(i, j):
        return s2[j] - s2[i] - (s1[j] - s1[i]) ** 2 / (j - i)

    best, cut = [0.0] + [math.inf] * n, [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(j):
            c = best[i] + cost(i, j) + penalty
            if c < best[j]:
                best[j], cut[j] = c, i
    out, j = [], n
    while j > 0:
        out.append((cut[j], j))
        j = cut[j]
    return out[::-1]


@dataclass
class TrendVerdict:
    # "regression", "improvement", "same"; "suspect": a change seen in the
    # newest run only; "new": too few runs.
    verdict: str
    reason: str  # what the verdict compares, in words
    level_ms: float  # the newest level: its segment's mean of the statistic
    reference_ms: float  # what it is compared with
    change: float  # level / reference - 1 in time (above 0: slower)
    step_run: int  # index of the run where the newest level starts
    band_ms: tuple  # noise band around the window's median (lo, hi)
    window_ms: float  # median of the window before the newest run
    start: int  # first run of the analysed series
    levels: list = field(default_factory=list)  # [(start, end, level_ms)]


def judge_series(times, start=0, pinned=None, thresholds=Thresholds(),
                 window=DEFAULT_WINDOW):
    """The verdict on the newest run of `times` (the statistic per run in
    ms, oldest first, None where the problem did not run), analysing runs
    from `start` on. `pinned`: index of the known-good run (used when at
    or after `start`). None when the newest run has no value."""
    if not times or times[-1] is None:
        return None
    points = [(i, t) for i, t in enumerate(times) if i >= start and t and t > 0]
    idx = [i for i, _ in points]
    logs = [math.log(t) for _, t in points]
    # The noise is the machine's and the problem's: the runs before an
    # acceptance or environment change tell it too.
    sigma = noise_sigma([math.log(t) for t in times if t and t > 0])
    segs = segments(logs, PENALTY * sigma ** 2 * math.log(max(len(logs), 3)))
    levels = [(idx[a], idx[b - 1] + 1, math.exp(sum(logs[a:b]) / (b - a)))
              for a, b in segs]
    level = levels[-1][2]
    before = [t for _, t in points[:-1]][-window:]
    window_ms = median(before) if before else times[-1]
    half = max(BAND_SIGMAS * sigma, 0.0)
    band = (window_ms * math.exp(-half), window_ms * math.exp(half))
    # A change counts above the minimum effect and outside the noise band.
    effect = max(thresholds.min_effect, math.exp(half) - 1)

    def verdict(v, reason, ref):
        # A step needs runs of the new level that each show it, not one
        # spike averaged with a normal run.
        sign = 1 if v == "regression" else -1
        showing = sum(sign * math.log(t / ref) > math.log1p(effect) / 2
                      for i, t in points if i >= levels[-1][0])
        if v in ("regression", "improvement") and showing < MIN_NEW_LEVEL_RUNS \
                and not reason.startswith("drift"):
            v, reason = "suspect", f"{reason} (one run shows it so far: a step " \
                "if the next run agrees)"
        return TrendVerdict(v, reason, level, ref, level / ref - 1, levels[-1][0],
                            band, window_ms, start, levels)

    if len(points) < MIN_RUNS:
        return verdict("new", f"fewer than {MIN_RUNS} runs to compare", window_ms)
    # A dip of a run or two is no level to return to.
    levels_held = [s for s in levels[:-1] if s[1] - s[0] >= MIN_LEVEL_RUNS]
    if levels_held:
        best = min(levels_held, key=lambda s: s[2])
        if level > best[2] * (1 + effect):
            return verdict("regression", f"step at run {levels[-1][0] + 1}: slower "
                           f"than the best earlier level", best[2])
    if pinned is not None and pinned >= start and times[pinned]:
        ref = times[pinned]
        if level > ref * (1 + effect):
            return verdict("regression", "slower than the pinned run", ref)
    recent = logs[-window:]
    if len(recent) == window and mann_kendall_increasing(recent) < thresholds.alpha:
        drift = math.exp(theil_sen_slope(recent) * (window - 1)) - 1
        if drift > effect:
            return verdict("regression", f"drift: {drift / (window - 1):.1%} slower"
                           f" per run over the last {window} runs",
                           math.exp(recent[0]))
    newest = times[-1]
    if before and newest > window_ms * (1 + effect) and level > window_ms * (1 + effect):
        return verdict("regression", f"above the noise band of the last "
                       f"{len(before)} runs", window_ms)
    if levels_held and level < levels_held[-1][2] / (1 + effect):
        return verdict("improvement", f"step at run {levels[-1][0] + 1}: faster "
                       "than the level before", levels_held[-1][2])
    return verdict("same", "within the noise", window_ms)


@dataclass
class TrendRow:
    problem: str
    result: object  # the newest run's parse.Result
    times: list  # the statistic per run (ms), None where it did not run
    verdict: TrendVerdict


def statistic_ms(result):
    """The statistic of a stored result: the median of its samples."""
    return median(result.samples) if result.samples else result.min_ms


def history_rows(history, machine, run_id=None, thresholds=Thresholds(),
                 window=DEFAULT_WINDOW):
    """The trend verdicts of a run (default: the machine's latest) over the
    machine's history up to it. Returns (runs, rows, notes): runs up to the
    run, [TrendRow] sorted worst first, and notes on the environment and
    the pinned run (an environment change restarts every series)."""
    from .environment import describe, differences, environment

    runs, series = history.series(machine)
    k = len(runs) - 1 if run_id is None else \
        next(i for i, r in enumerate(runs) if r[0] == run_id)
    runs = runs[:k + 1]
    headers = history.run_headers(machine)
    env = environment(headers[runs[k][0]])
    env_start = k
    while env_start > 0 and environment(headers[runs[env_start - 1][0]]) == env:
        env_start -= 1
    notes = {}
    if env_start == k and k > 0:
        notes["environment"] = describe(differences(headers[runs[k - 1][0]],
                                                    headers[runs[k][0]]))
    index = {r[0]: i for i, r in enumerate(runs)}
    pinned = index.get(history.pinned(machine))
    if pinned is not None and pinned < env_start:
        notes["pinned"] = (f"the pinned run {runs[pinned][2]} has another "
                           "environment: not used")
        pinned = None
    accepted = history.accepted(machine)
    rows = []
    for problem, results in series.items():
        results = results[:k + 1]
        if results[-1] is None:
            continue
        start = max([env_start] + [index[r] for r in
                                   accepted.get("*", []) + accepted.get(problem, [])
                                   if r in index])
        times = [statistic_ms(r) if r else None for r in results]
        v = judge_series(times, start, pinned, thresholds, window)
        rows.append(TrendRow(problem, results[-1], times, v))
    order = {"regression": 0, "suspect": 1, "improvement": 2, "new": 3, "same": 4}
    rows.sort(key=lambda r: (order[r.verdict.verdict], -r.verdict.change))
    return runs, rows, notes
