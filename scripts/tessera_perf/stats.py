"""Regression statistics: the Mann-Whitney U test (exact for small tie-free
samples, else the normal approximation with tie correction), and the
per-problem comparison of a new run against a baseline."""
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


@dataclass
class Thresholds:
    alpha: float = 0.01  # significance of the rank test
    min_effect: float = 0.05  # smallest slowdown (5%) that counts
    # Without samples only the effect size decides, so ask for more.
    min_effect_no_samples: float = 0.10


@dataclass
class Comparison:
    batch: str
    problem: str
    lib: str
    name: str
    base_impl: str
    new_impl: str
    base_gflops: float
    new_gflops: float
    ratio: float  # new / base performance: below 1 is slower
    p_slower: float  # p-value that new is slower (None without samples)
    p_faster: float
    verdict: str  # "regression", "improvement", "same"


def _typical_ms(result):
    """The run time compared: the median of the samples, else the min."""
    return median(result.samples) if result.samples else result.min_ms


def compare_results(base, new, thresholds=Thresholds()):
    """Pairs new results with the baseline's by (lib, problem) and judges
    each: a regression needs the rank test to say "slower" at alpha AND a
    slowdown of at least min_effect (so tiny but consistent shifts and
    big but noisy ones both pass). Returns [Comparison] in new's order."""
    base_by_key = {(r.lib, r.problem): r for r in base}
    rows = []
    for r in new:
        b = base_by_key.get((r.lib, r.problem))
        if b is None:
            continue
        t_base, t_new = _typical_ms(b), _typical_ms(r)
        ratio = t_base / t_new if t_new > 0 and t_base > 0 else float("nan")
        p_slower = p_faster = None
        if len(b.samples) >= 2 and len(r.samples) >= 2:
            _, p_slower = mann_whitney_greater(r.samples, b.samples)
            _, p_faster = mann_whitney_greater(b.samples, r.samples)
            effect = thresholds.min_effect
            slower = p_slower < thresholds.alpha
            faster = p_faster < thresholds.alpha
        else:
            effect = thresholds.min_effect_no_samples
            slower = faster = True
        verdict = "same"
        if slower and ratio < 1 / (1 + effect):
            verdict = "regression"
        elif faster and ratio > 1 + effect:
            verdict = "improvement"
        rows.append(Comparison(batch=r.batch, problem=r.problem, lib=r.lib,
                               name=r.name, base_impl=b.impl, new_impl=r.impl,
                               base_gflops=b.gflops, new_gflops=r.gflops,
                               ratio=ratio, p_slower=p_slower,
                               p_faster=p_faster, verdict=verdict))
    return rows


def geomean_by_batch(rows):
    """{(batch, lib): geomean of the ratios}."""
    groups = {}
    for row in rows:
        groups.setdefault((row.batch, row.lib), []).append(row.ratio)
    return {k: geomean([v for v in vals if not math.isnan(v)])
            for k, vals in groups.items()}
