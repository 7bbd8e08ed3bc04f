#!/usr/bin/env python3
"""sprt_reference.py: the generalised SPRT's log-likelihood ratio, computed
apart from the runner's C (bench/runner/stats.c), to check it against
(tests/test_match.c, sprt_llr_matches_an_independent_program).

It follows fishtest's LLRcalc.py (official-stockfish/fishtest,
server/fishtest/stats/LLRcalc.py, LLR_logistic): the results (3 counts:
losses, draws, wins; or 5: pairs scoring 0, 1/2, 1, 3/2, 2) with every zero
count replaced by 1e-3; their empirical distribution over the scores
i / (k - 1); under each hypothesis the distribution of largest likelihood
whose expected score is s0 = L(elo0) or s1 = L(elo1) (L the logistic Elo
curve), found as p_i / (1 + x (a_i - s)) with x the root of the secular
equation sum p_i (a_i - s) / (1 + x (a_i - s)) = 0; and the LLR is
N sum p_i (log p1_i - log p0_i). Python's standard library only (the root
by bisection, as scipy is not at hand), and nothing shared with the C.

Input: one result set a line, "ELO0 ELO1 N0 N1 N2 [N3 N4]"; output: its LLR,
one a line, to 9 decimals. Blank lines and lines starting with # are passed
over.
"""
import math
import sys


def logistic(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def distribution(counts):
    counts = [c if c != 0 else 1e-3 for c in counts]
    total = sum(counts)
    k = len(counts)
    return total, [(i / (k - 1), c / total) for i, c in enumerate(counts)]


def secular_root(pdf):
    """x with sum p a / (1 + x a) = 0, the a of both signs, 1 + x a > 0."""
    lo = -1.0 / max(a for a, _ in pdf)
    hi = -1.0 / min(a for a, _ in pdf)

    def f(x):
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    # f falls from +inf at lo to -inf at hi: bisect until the floats meet.
    for _ in range(2000):
        mid = (lo + hi) / 2.0
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def most_likely_with_mean(pdf, s):
    shifted = [(a - s, p) for a, p in pdf]
    x = secular_root(shifted)
    out = [(a, p / (1.0 + x * (a - s))) for a, p in pdf]
    mean = sum(a * p for a, p in out)
    assert abs(sum(p for _, p in out) - 1.0) < 1e-6 and abs(mean - s) < 1e-6, (out, s)  # as LLRcalc.py checks
    return out


def llr(elo0, elo1, counts):
    n, pdf = distribution(counts)
    p0 = most_likely_with_mean(pdf, logistic(elo0))
    p1 = most_likely_with_mean(pdf, logistic(elo1))
    return n * sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def main():
    for line in sys.stdin:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        elo0, elo1 = float(words[0]), float(words[1])
        counts = [int(w) for w in words[2:]]
        if len(counts) not in (3, 5):
            sys.exit("sprt_reference.py: 3 or 5 counts, not %d: %s" % (len(counts), line.strip()))
        print("%.9f" % llr(elo0, elo1, counts))


if __name__ == "__main__":
    main()
