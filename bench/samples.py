"""Statistics of samples shared by the bench scripts (standard library only)."""


def ks(a, b):
    """Two-sample Kolmogorov-Smirnov distance: the largest gap between the empirical distribution
    functions of `a` and `b` (ties counted on both sides at once)."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    for x in sorted(set(a) | set(b)):
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    return d
