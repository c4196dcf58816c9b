#!/usr/bin/env python3
"""Independent reference for crates/tools/src/stats: intervals and SPRT in plain Python.

usage: python3 tests/stats/interval_reference.py CASES.txt > CASES.expected

CASES.txt holds lines (`#` starts a comment):
  score W L                 single games: W wins, L losses
  pairs C0 C1 C2 C3 C4      pentanomial pair counts (0, 0.5, 1, 1.5, 2 points)
  sprt ELO0 ELO1 C0 .. C4   the SPRT's LLR on pair counts
  sprtgames ELO0 ELO1 W L   the SPRT's LLR on single games
The output repeats each case followed by its figures: for score and pairs the Elo, the
lower and upper bound (95%) and whether the counts were adjusted (1) or not (0); for the
SPRT the log-likelihood ratio. tests/tools/stats_reference.rs compares the Rust code with the
frozen output (and with a fresh run of this script when python3 is present).

The definitions are those of docs/match.md, computed another way so that the two check
each other:
- Wilson's interval is not taken from its closed form: its bounds are the two scores p
  with (phat - p)^2 = z^2 p (1 - p) / n, found by bisection on each side of phat;
- the exact bound of a sweep (n of n) is found by bisection on the binomial tail
  P(X >= n) = p^n = 0.025 with the tail summed from math.comb, not as 0.025^(1/n);
- the moments are sums over the samples as E[x^2] - E[x]^2, in exact fractions;
- the SPRT's LLR is the difference of the two normal log-likelihoods of the mean,
  log N(m; s1, v/n) - log N(m; s0, v/n), not the factored form.
"""

import math
import sys
from fractions import Fraction

Z95 = 1.959963984540054


def elo(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected(e):
    return 1.0 / (1.0 + 10.0 ** (-e / 400.0))


def bisect(f, lo, hi):
    """The root of f on [lo, hi], f(lo) and f(hi) of opposite signs."""
    flo = f(lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        if (f(mid) > 0) == (flo > 0):
            lo, flo = mid, f(mid)
        else:
            hi = mid
    return (lo + hi) / 2


def wilson(phat, n):
    """Wilson's bounds for a proportion phat of n (both may be fractional)."""
    g = lambda p: (phat - p) ** 2 - Z95 ** 2 * p * (1 - p) / n
    lower = 0.0 if phat == 0 else bisect(g, 0.0, phat)
    upper = 1.0 if phat == 1 else bisect(g, phat, 1.0)
    return lower, upper


def sweep_lower(n):
    """The exact (Clopper-Pearson) 95% lower bound of n successes in n trials."""
    tail = lambda p: sum(math.comb(int(n), k) * p ** k * (1 - p) ** (n - k) for k in range(int(n), int(n) + 1)) - 0.025
    return bisect(tail, 0.0, 1.0)


def moments(counts):
    """(n, mean, variance) of counts on 0, 1/(k-1), .., 1, as exact fractions."""
    step = Fraction(1, len(counts) - 1)
    n = sum(counts)
    mean = sum(c * i * step for i, c in enumerate(counts)) / n
    square = sum(c * (i * step) ** 2 for i, c in enumerate(counts)) / n
    return n, mean, square - mean * mean


def floored(counts):
    """The moments with the floor: half a pseudo-sample at each end."""
    counts = [Fraction(c) for c in counts]
    pseudo = counts[:]
    pseudo[0] += Fraction(1, 2)
    pseudo[-1] += Fraction(1, 2)
    if sum(1 for c in counts if c > 0) <= 1:
        return moments(pseudo) + (1,)
    n, mean, var = moments(counts)
    return n, mean, max(var, moments(pseudo)[2]), 0


def widen(counts, lower, upper):
    n = sum(counts)
    if counts[-1] == n:
        lower = min(lower, sweep_lower(n))
    elif counts[0] == n:
        upper = max(upper, 1 - sweep_lower(n))
    return lower, upper


def score_interval(w, l):
    adjusted = int(w == 0 or l == 0)
    k, n = (w + 0.5, w + l + 1.0) if adjusted else (float(w), float(w + l))
    lower, upper = widen([l, w], *wilson(k / n, n))
    return elo(k / n), elo(lower), elo(upper), adjusted


def pair_interval(counts):
    n, mean, var, adjusted = floored(counts)
    n, mean, var = float(n), float(mean), float(var)
    effective = n * mean * (1 - mean) / var
    lower, upper = widen(counts, *wilson(mean, effective))
    return elo(mean), elo(lower), elo(upper), adjusted


def llr(elo0, elo1, counts):
    n, mean, var, _ = floored(counts)
    n, mean, var = float(n), float(mean), float(var)
    s0, s1 = expected(elo0), expected(elo1)
    se2 = var / n
    log_normal = lambda s: -((mean - s) ** 2) / (2 * se2)
    return log_normal(s1) - log_normal(s0)


def main():
    with open(sys.argv[1]) as cases:
        for line in cases:
            words = line.split("#")[0].split()
            if not words:
                continue
            kind, numbers = words[0], [float(x) for x in words[1:]]
            if kind == "score":
                figures = score_interval(int(numbers[0]), int(numbers[1]))
            elif kind == "pairs":
                figures = pair_interval([int(x) for x in numbers])
            elif kind == "sprt":
                figures = (llr(numbers[0], numbers[1], [int(x) for x in numbers[2:]]),)
            elif kind == "sprtgames":
                figures = (llr(numbers[0], numbers[1], [int(numbers[3]), int(numbers[2])]),)
            else:
                sys.exit(f"unknown case {kind}")
            print(" ".join(words), *[f"{x:.9f}" if isinstance(x, float) else str(x) for x in figures])


if __name__ == "__main__":
    main()
