"""Regression statistics: the Mann-Whitney U test (exact for small tie-free
samples, else the normal approximation with tie correction), and the
per-problem verdict on two sample sets by one statistic (the median of
per-run times, with its IQR and sample count)."""
import math
from dataclasses import dataclass

import perf_table

EXACT_MAX_SIZE = 20  # exact U distribution when both samples are this small


def median(values):
    s = sorted(values)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _ranks(values):
    """Average ranks (1-based) and the tie group sizes."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    ties = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


def _exact_upper_tail(u, n1, n2):
    """P(U >= u) under the null, U counting pairs x > y, no ties: counts
    the arrangements per U value by the recurrence c(m, n, u) =
    c(m - 1, n, u - n) + c(m, n - 1, u)."""
    # counts[n][v]: arrangements of the current m x-values and n y-values.
    counts = [[1] for _ in range(n2 + 1)]  # m = 0: U = 0 only
    for m in range(1, n1 + 1):
        new = [[1]]  # n = 0: U = 0 only
        for n in range(1, n2 + 1):
            size = m * n + 1
            row = [0] * size
            for v, c in enumerate(counts[n]):  # the largest is an x: +n
                row[v + n] += c
            for v, c in enumerate(new[n - 1]):  # the largest is a y: +0
                row[v] += c
            new.append(row)
        counts = new
    dist = counts[n2]
    total = sum(dist)
    start = math.ceil(u - 1e-9)
    return sum(dist[start:]) / total


def mann_whitney_greater(x, y):
    """One-sided Mann-Whitney U test that x tends to be larger than y.
    Returns (U of x, p-value)."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        return float("nan"), 1.0
    ranks, ties = _ranks(list(x) + list(y))
    u = sum(ranks[:n1]) - n1 * (n1 + 1) / 2
    if all(t == 1 for t in ties) and n1 <= EXACT_MAX_SIZE and n2 <= EXACT_MAX_SIZE:
        return u, _exact_upper_tail(u, n1, n2)
    n = n1 + n2
    tie_term = sum(t ** 3 - t for t in ties) / (n * (n - 1))
    var = n1 * n2 / 12 * ((n + 1) - tie_term)
    if var <= 0:
        return u, 1.0  # every value equal: no evidence either way
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(var)  # continuity correction
    return u, 0.5 * math.erfc(z / math.sqrt(2))


geomean = perf_table.geomean

# The one statistic every table, plot and verdict uses.
STATISTIC = "median of per-run times"


def quantile(values, q):
    """The q-quantile with linear interpolation between order statistics."""
    s = sorted(values)
    if not s:
        return float("nan")
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def iqr(values):
    return quantile(values, 0.75) - quantile(values, 0.25)


@dataclass
class Summary:
    """A sample set of per-run times (ms) by the statistic."""
    median_ms: float
    iqr_ms: float
    n: int

    @property
    def spread(self):
        """IQR relative to the median."""
        return self.iqr_ms / self.median_ms if self.median_ms > 0 else float("inf")


def summarize(samples, fallback_ms=None):
    """Summary of the samples; one value (fallback_ms) without samples."""
    if samples:
        return Summary(median(samples), iqr(samples), len(samples))
    value = fallback_ms if fallback_ms is not None else float("nan")
    return Summary(value, 0.0, 1 if fallback_ms is not None else 0)


@dataclass
class Thresholds:
    alpha: float = 0.01  # significance of the rank test
    min_effect: float = 0.05  # smallest slowdown (5%) that counts
    # Without samples only the effect size decides, so ask for more.
    min_effect_no_samples: float = 0.10


@dataclass
class Judgement:
    base: Summary
    new: Summary
    ratio: float  # base / new median time: performance new/base, below 1 slower
    p_slower: float  # rank test p-value that new is slower (None without samples)
    p_faster: float
    verdict: str  # "regression", "improvement", "unstable", "same"


def judge(base_samples, new_samples, thresholds=Thresholds(), base_ms=None,
          new_ms=None):
    """The verdict on two sample sets of per-run times: "same" below the
    minimum effect; "unstable" when either side's IQR (relative to its
    median) is larger than the effect, or the rank test does not back it;
    else "regression" or "improvement". base_ms/new_ms stand in for sets
    without samples (then the effect alone decides, with its own
    threshold)."""
    b, n = summarize(base_samples, base_ms), summarize(new_samples, new_ms)
    ratio = b.median_ms / n.median_ms if n.median_ms > 0 and b.median_ms > 0 \
        else float("nan")
    p_slower = p_faster = None
    if len(base_samples) >= 2 and len(new_samples) >= 2:
        _, p_slower = mann_whitney_greater(new_samples, base_samples)
        _, p_faster = mann_whitney_greater(base_samples, new_samples)
        min_effect = thresholds.min_effect
        backed = (p_slower if ratio < 1 else p_faster) < thresholds.alpha
    else:
        min_effect = thresholds.min_effect_no_samples
        backed = True
    verdict = "same"
    if not math.isnan(ratio):
        effect = 1 / ratio - 1 if ratio < 1 else ratio - 1
        if effect > min_effect:
            spread = max(b.spread if b.n > 1 else 0.0, n.spread if n.n > 1 else 0.0)
            if spread > effect or not backed:
                verdict = "unstable"
            else:
                verdict = "regression" if ratio < 1 else "improvement"
    return Judgement(b, n, ratio, p_slower, p_faster, verdict)


MEMORY_BOUND_DRIVERS = {"eltwise", "binary", "prelu", "sum", "concat",
                        "shuffle", "reorder", "zeropad"}


def rate_unit(driver):
    """GB/s for the memory-bound drivers, GFLOPS for the rest."""
    return "GB/s" if driver in MEMORY_BOUND_DRIVERS else "GFLOPS"


def rate(result, ms):
    """The result's figure of merit at a time of `ms`: GFLOPS or GB/s."""
    if ms is None or ms <= 0 or math.isnan(ms):
        return float("nan")
    amount = result.gbytes if rate_unit(result.driver) == "GB/s" else result.gops
    return amount / (ms / 1e3)


@dataclass
class Comparison:
    batch: str
    problem: str
    lib: str
    name: str
    driver: str
    base_impl: str
    new_impl: str
    unit: str  # "GFLOPS" or "GB/s"
    base_rate: float  # at the median time
    new_rate: float
    judgement: Judgement
    note: str = ""

    ratio = property(lambda self: self.judgement.ratio)
    p_slower = property(lambda self: self.judgement.p_slower)
    p_faster = property(lambda self: self.judgement.p_faster)
    verdict = property(lambda self: self.judgement.verdict)
    base = property(lambda self: self.judgement.base)
    new = property(lambda self: self.judgement.new)


def compare_results(base, new, thresholds=Thresholds()):
    """Pairs new results with the baseline's by (lib, problem) and judges
    each (see judge()). Returns [Comparison] in new's order."""
    base_by_key = {(r.lib, r.problem): r for r in base}
    rows = []
    for r in new:
        b = base_by_key.get((r.lib, r.problem))
        if b is None:
            continue
        j = judge(b.samples, r.samples, thresholds, b.min_ms, r.min_ms)
        rows.append(Comparison(batch=r.batch, problem=r.problem, lib=r.lib,
                               name=r.name, driver=r.driver, base_impl=b.impl,
                               new_impl=r.impl, unit=rate_unit(r.driver),
                               base_rate=rate(b, j.base.median_ms),
                               new_rate=rate(r, j.new.median_ms), judgement=j))
    return rows


def geomean_by_batch(rows):
    """{(batch, lib): geomean of the ratios}."""
    groups = {}
    for row in rows:
        groups.setdefault((row.batch, row.lib), []).append(row.ratio)
    return {k: geomean([v for v in vals if not math.isnan(v)])
            for k, vals in groups.items()}
