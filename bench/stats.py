"""Student's t intervals of the benchmarks' rounds, in one place.

The 97.5 % quantiles of t are tabled (degrees of freedom 1 to 30, then the
normal's 1.96): the benchmarks need nothing else from SciPy, which their
environment does not carry."""

import math
import statistics

T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df):
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom."""
    return T975[df - 1] if 1 <= df <= len(T975) else 1.96


def mean_interval(values):
    """``(mean, low, high)``: the mean and its 95 % t-interval (NaN bounds for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def geometric_interval(logs):
    """``(ratio, low, high)`` from the logs of paired ratios: their geometric
    mean and its 95 % t-interval (NaN bounds for one pair)."""
    mean, low, high = mean_interval(logs)
    return math.exp(mean), math.exp(low), math.exp(high)
