"""The regression verdict: the rank test and the minimum effect size."""
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from tessera_perf import stats  # noqa: E402
from tessera_perf.parse import Result  # noqa: E402


def test_exact_mann_whitney_small_samples():
    # x above every y: U = 6, and 1 of the C(5,2) = 10 arrangements has it.
    assert stats.mann_whitney_greater([3, 4, 5], [1, 2]) == (6.0, pytest.approx(0.1))
    assert stats.mann_whitney_greater([1, 2], [3, 4, 5]) == (0.0, pytest.approx(1.0))
    # U = 5 of 9 pairs, the distribution is symmetric about 4.5.
    assert stats.mann_whitney_greater([1, 4, 6], [2, 3, 5]) == (5.0, pytest.approx(0.5))


def test_normal_approximation_with_ties():
    # x = 2,2,3,3 against y = 1,1,2,2: ranks 1.5 (1s), 4.5 (2s), 7.5 (3s);
    # x's rank sum 24, U = 24 - 10 = 14. Ties 2, 4, 2: sum(t^3 - t) = 72,
    # var = 16/12 * (9 - 72/56) = 10.2857; z = (14 - 8 - 0.5)/sqrt(var)
    # = 1.7150, p = 0.0432.
    u, p = stats.mann_whitney_greater([2, 2, 3, 3], [1, 1, 2, 2])
    assert u == 14.0
    assert p == pytest.approx(0.0432, abs=5e-4)
    # All values equal: no evidence either way.
    assert stats.mann_whitney_greater([1.0] * 5, [1.0] * 5)[1] == 1.0


def test_large_samples_agree_with_the_exact_test():
    rnd = random.Random(7)
    x = [rnd.random() for _ in range(20)]
    y = [rnd.random() + 0.2 for _ in range(20)]
    _, exact = stats.mann_whitney_greater(x, y)
    old = stats.EXACT_MAX_SIZE
    stats.EXACT_MAX_SIZE = 0
    try:
        _, approx = stats.mann_whitney_greater(x, y)
    finally:
        stats.EXACT_MAX_SIZE = old
    assert approx == pytest.approx(exact, abs=0.01)


def result(samples, problem="--conv a", batch="b"):
    return Result(batch=batch, driver="conv", problem=problem, lib="tessera",
                  impl="gemm:f32", dt="f32", attrs="", name="", gops=1.0,
                  min_ms=min(samples), avg_ms=sum(samples) / len(samples),
                  samples=list(samples))


def tight(center, n=20, seed=1):
    rnd = random.Random(seed)
    return [center * (1 + rnd.uniform(-0.005, 0.005)) for _ in range(n)]


def verdict(base_samples, new_samples, **kw):
    (row,) = stats.compare_results([result(base_samples)], [result(new_samples)],
                                   stats.Thresholds(**kw))
    return row


def test_real_ten_percent_slowdown_is_flagged():
    row = verdict(tight(10.0), tight(11.0, seed=2))
    assert row.verdict == "regression"
    assert row.ratio == pytest.approx(10 / 11, rel=0.01)
    assert row.p_slower < 1e-6


def test_noise_of_the_same_size_is_unstable_not_a_regression():
    # Medians 10% apart, but the samples spread over +-20% and overlap.
    base = [8.0, 12.0, 9.0, 11.5, 10.0, 8.5, 12.5]
    new = [9.0, 13.0, 11.0, 8.4, 12.2, 10.4, 11.6]
    row = verdict(base, new)
    assert stats.median(new) / stats.median(base) == pytest.approx(1.1, abs=0.02)
    assert row.p_slower > 0.01 and row.verdict == "unstable"
    # Its IQR (relative) is larger than the 10% change.
    assert row.base.spread > 0.1 and row.new.n == 7


def test_a_clear_change_with_a_wide_spread_is_unstable():
    # 23% slower, rank test clear, but new's IQR is 24% of its median.
    base = tight(10.0, n=12)
    new = [10.2, 14.0, 10.5, 14.5, 11.0, 13.5, 10.4, 13.0, 11.5, 14.2, 10.8, 13.6]
    row = verdict(base, new)
    assert row.p_slower < 1e-3 and row.new.spread > 1 / row.ratio - 1
    assert row.verdict == "unstable"


def test_quantiles_and_iqr():
    assert stats.quantile([1, 2, 3, 4, 5], 0.25) == 2
    assert stats.iqr([1, 2, 3, 4, 5]) == 2
    assert stats.quantile([1.0, 2.0], 0.5) == 1.5
    s = stats.summarize([4.0, 1.0, 3.0, 2.0, 5.0])
    assert (s.median_ms, s.iqr_ms, s.n) == (3.0, 2.0, 5)


def test_rate_is_gbps_for_memory_bound_drivers():
    r = result([2.0, 2.0])
    assert stats.rate(r, 2.0) == pytest.approx(500.0)  # 1 GOP in 2 ms
    r.driver, r.gbytes = "eltwise", 0.5
    assert stats.rate_unit("eltwise") == "GB/s" and stats.rate_unit("ip") == "GFLOPS"
    assert stats.rate(r, 2.0) == pytest.approx(250.0)


def test_consistent_but_tiny_slowdown_is_below_the_effect_size():
    row = verdict(tight(10.0), tight(10.2, seed=2))  # 2%: significant, small
    assert row.p_slower < 0.01 and row.verdict == "same"
    assert verdict(tight(10.0), tight(10.2, seed=2), min_effect=0.01).verdict == "regression"


def test_improvement_and_no_samples():
    assert verdict(tight(11.0), tight(10.0, seed=3)).verdict == "improvement"
    # One sample each: the effect size alone decides, with its own threshold.
    assert verdict([10.0], [10.8]).verdict == "same"
    assert verdict([10.0], [11.5]).verdict == "regression"


def test_geomean_per_batch_and_unmatched_problems():
    base = [result(tight(10.0), "--conv a"), result(tight(10.0), "--conv b"),
            result(tight(10.0), "--conv gone")]
    new = [result(tight(5.0), "--conv a"), result(tight(20.0), "--conv b"),
           result(tight(10.0), "--conv new", batch="other")]
    rows = stats.compare_results(base, new)
    assert [r.problem for r in rows] == ["--conv a", "--conv b"]
    assert stats.geomean_by_batch(rows)[("b", "tessera")] == pytest.approx(1.0, rel=0.01)
