#!/usr/bin/env python3
"""Independent reference for crates/tools/src/ratings: Bradley-Terry maximum likelihood in plain Python.

usage: python3 tests/ratings/bt_reference.py FIELD.txt > FIELD.expected

FIELD.txt holds lines `BLACK WHITE BLACK_WINS WHITE_WINS` (`#` starts a comment). The
output gives every engine's rating (logistic Elo, mean 0) and 95% error, and the
likelihood of superiority of every ordered pair. tests/tools/ratings.rs compares the
Rust code with the frozen output (and with a fresh run of this script when python3 is
present).

The method differs from the Rust code on purpose, so that the two check each other:
- the ratings come from cyclic coordinate ascent (each rating in turn, by bisection on the
  derivative), not from Newton's method; without a prior they are also computed by
  Zermelo's (Hunter's MM) iteration on the strengths gamma = 10^(r/400), and the two agree;
- the engines outside the largest strongly connected group of the "beat" graph (found by
  a transitive closure, not Kosaraju's algorithm) play one virtual game, half won and half
  lost, against a virtual opponent at the field's mean rating (the objective written out
  with the mean as a function of every rating, not on a constrained subspace);
- the covariance comes from fixing the first engine at 0, inverting the remaining block of
  the information matrix by Gauss-Jordan elimination, and projecting onto mean 0, instead
  of the (P H P + J/n)^-1 - J/n identity with a Cholesky factorization.
"""

import math
import sys

C = math.log(10) / 400
Z95 = 1.959963984540054


def read_field(path):
    names, wins = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            black, white, bw, ww = line[0], line[1], int(line[2]), int(line[3])
            for name in (black, white):
                if name not in names:
                    names.append(name)
            wins[(black, white)] = wins.get((black, white), 0) + bw
            wins[(white, black)] = wins.get((white, black), 0) + ww
    n = len(names)
    w = [[wins.get((names[i], names[j]), 0) for j in range(n)] for i in range(n)]
    return names, w


def prior_engines(w):
    """Engines outside the largest strongly connected group (>= 2 engines; ties: more
    games, then first appearance) of the graph i -> j when i beat j."""
    n = len(w)
    reach = [[i == j or w[i][j] > 0 for j in range(n)] for i in range(n)]
    for k in range(n):
        for i in range(n):
            if reach[i][k]:
                for j in range(n):
                    if reach[k][j]:
                        reach[i][j] = True
    groups = []
    for i in range(n):
        group = frozenset(j for j in range(n) if reach[i][j] and reach[j][i])
        if group not in groups:
            groups.append(group)
    if len(groups) == 1:
        return set()
    games = lambda g: sum(w[i][j] + w[j][i] for i in g for j in range(n))
    candidates = [g for g in groups if len(g) >= 2]
    if not candidates:
        return set(range(n))
    main = max(candidates, key=lambda g: (len(g), games(g), -min(g)))
    return set(range(n)) - main


def zermelo(w):
    """Zermelo's (Hunter's MM) iteration on the strengths gamma = 10^(r/400), for a field
    whose maximum-likelihood ratings are finite (no prior)."""
    n = len(w)
    gamma = [1.0] * n
    for _ in range(1_000_000):
        new = []
        for i in range(n):
            denominator = sum((w[i][j] + w[j][i]) / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(sum(w[i]) / denominator)
        scale = math.exp(sum(math.log(g) for g in new) / n)
        new = [g / scale for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma)) / C
        gamma = new
        if change < 1e-11:
            return [math.log(g) / C for g in gamma]
    raise SystemExit("Zermelo's iteration did not converge")


def log_sigmoid(x):
    return -math.log1p(math.exp(-x)) if x > 0 else x - math.log1p(math.exp(x))


def objective_derivative(w, prior, r, i):
    """d/dr_i of log L(r) + sum over prior engines x of
    (log s(c (r_x - m)) + log s(c (m - r_x))) / 2, with m the mean of r (which moves with r_i)."""
    n = len(w)
    sig = lambda x: 1.0 / (1.0 + math.exp(-x))
    # w_ij - (w_ij + w_ji) p written as w_ij (1 - p) - w_ji p, with 1 - p = s(-x): near
    # p = 1 (one pair, many games, all won) the first form leaves rounding noise larger
    # than the derivative close to the root, and the bisection never settles.
    d = sum(C * (w[i][j] * sig(-C * (r[i] - r[j])) - w[j][i] * sig(C * (r[i] - r[j]))) for j in range(n) if j != i)
    m = sum(r) / n
    slope = {x: C * (0.5 - sig(C * (r[x] - m))) for x in prior}
    return d + slope.get(i, 0.0) - sum(slope.values()) / n


def coordinate_ascent(w, prior):
    """Maximizes the (concave, translation-invariant) objective one rating at a time, each
    by bisection on its derivative, until a whole sweep moves nothing."""
    n = len(w)
    r = [0.0] * n
    for _ in range(100_000):
        moved = 0.0
        for i in range(n):
            lo, hi = r[i] - 4000.0, r[i] + 4000.0
            for _ in range(80):
                mid = (lo + hi) / 2
                trial = r[:i] + [mid] + r[i + 1:]
                if objective_derivative(w, prior, trial, i) > 0:
                    lo = mid
                else:
                    hi = mid
            moved = max(moved, abs((lo + hi) / 2 - r[i]))
            r[i] = (lo + hi) / 2
        if moved < 1e-10:
            mean = sum(r) / n
            return [x - mean for x in r]
    raise SystemExit("coordinate ascent did not converge")


def ratings(w, prior):
    r = coordinate_ascent(w, prior)
    if not prior:
        # Two methods for the plain maximum-likelihood case: they must agree.
        z = zermelo(w)
        assert max(abs(a - b) for a, b in zip(r, z)) < 1e-6, (r, z)
    return r


def invert(a):
    """Gauss-Jordan elimination with partial pivoting."""
    n = len(a)
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [row[n:] for row in m]


def covariance(w, r, prior):
    n = len(w)
    sig = lambda x: 1.0 / (1.0 + math.exp(-x))
    # Information of the likelihood: a weighted Laplacian.
    h = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                p = sig(C * (r[i] - r[j]))
                v = C * C * (w[i][j] + w[j][i]) * p * (1 - p)
                h[i][j] -= v
                h[i][i] += v
    # The prior against the field's mean m = mean(r): the Hessian of
    # sum_x P(r_x - m) is (I - J/n) D (I - J/n).
    d = [C * C * sig(C * r[i]) * (1 - sig(C * r[i])) if i in prior else 0.0 for i in range(n)]
    proj = [[(1.0 if i == j else 0.0) - 1.0 / n for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            h[i][j] += sum(proj[i][k] * d[k] * proj[k][j] for k in range(n))
    reduced = invert([row[1:] for row in h[1:]])
    c0 = [[0.0] * n for _ in range(n)]
    for i in range(1, n):
        for j in range(1, n):
            c0[i][j] = reduced[i - 1][j - 1]
    pc = [[sum(proj[i][k] * c0[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return [[sum(pc[i][k] * proj[k][j] for k in range(n)) for j in range(n)] for i in range(n)]


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.strip().splitlines()[2])
    names, w = read_field(sys.argv[1])
    prior = prior_engines(w)
    r = ratings(w, prior)
    cov = covariance(w, r, prior)
    print(f"# python3 tests/ratings/bt_reference.py {sys.argv[1].split('/')[-1]}")
    print("# rating NAME ELO ERROR95 PRIOR; los A B P(A stronger than B)")
    for i, name in enumerate(names):
        print(f"rating {name} {r[i]:.6f} {Z95 * math.sqrt(cov[i][i]):.6f} {int(i in prior)}")
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j:
                sd = math.sqrt(cov[i][i] + cov[j][j] - 2 * cov[i][j])
                los = 0.5 * (1 + math.erf((r[i] - r[j]) / sd / math.sqrt(2)))
                print(f"los {names[i]} {names[j]} {los:.9f}")


if __name__ == "__main__":
    main()
