#!/usr/bin/env python3
"""Draft 0.4 reference duel D1, vectorised with numpy.

The same duel as draft_d1.py (the Draft digest's reference loop, §6 / §7.7 R0, defaults plus
striking_order = "skill_first"; see that file for the rules), but every live duel of a batch is
advanced one round at a time as arrays: a coin per duel for who strikes first, then the first
strike (attack d10 against parry d10) for all of them, then the second strike for the duels still
going; finished duels are dropped from the arrays after each round.

Needs numpy (Debian: apt-get install python3-numpy).
Usage:  python3 draft_d1_numpy.py [TRIALS] [SEED] [BATCH]
"""
import sys
import time

import numpy as np

SKILL = 6
WEAPON_DAMAGE = 5
STR_BONUS = 0
CON = 6
ARMOUR = 2
MOVEMENT = 0

MAX_ROUNDS = 100
LIGHT_CAP, SEVERE_CAP = 3, 2
LIGHT_PEN, SEVERE_PEN = 1, 2

# wound level by damage, 0 none, 1 light, 2 severe, 3 critical, 4 death (exact halves)
MAX_DAMAGE = 64
WOUND = np.array(
    [0 if d <= 1 else 1 if 2 * d <= CON else 2 if d <= CON else 3 if d <= 2 * CON else 4
     for d in range(MAX_DAMAGE + 1)],
    dtype=np.int8,
)


def strike(rng, att_l, att_s, def_l, def_s):
    """One attack and parry per duel. Returns the defender's new (light, severe) and `out`."""
    n = att_l.shape[0]
    att = (SKILL + MOVEMENT) - (LIGHT_PEN * att_l + SEVERE_PEN * att_s) + rng.integers(1, 11, n, dtype=np.int16)
    par = (SKILL + MOVEMENT) - (LIGHT_PEN * def_l + SEVERE_PEN * def_s) + rng.integers(1, 11, n, dtype=np.int16)
    damage = np.where(att > par, att - par + (STR_BONUS + WEAPON_DAMAGE - ARMOUR), 0)
    level = WOUND[np.clip(damage, 0, MAX_DAMAGE)]
    # overflow "keep": a 4th light becomes a severe, a 3rd severe a critical
    light = level == 1
    light_fits = light & (def_l < LIGHT_CAP)
    severe = (level == 2) | (light & ~light_fits)
    severe_fits = severe & (def_s < SEVERE_CAP)
    out = (level >= 3) | (severe & ~severe_fits)
    return def_l + light_fits, def_s + severe_fits, out


def run_batch(rng, n):
    """n duels; returns (A wins, draws, sum of rounds, sum of rounds squared)."""
    la = np.zeros(n, np.int16)
    sa = np.zeros(n, np.int16)
    lb = np.zeros(n, np.int16)
    sb = np.zeros(n, np.int16)
    a_wins = 0
    rounds_sum = 0
    rounds_sq = 0
    for rnd in range(1, MAX_ROUNDS + 1):
        if la.shape[0] == 0:
            break
        a_first = rng.integers(0, 2, la.shape[0], dtype=np.int8) == 0
        # first strike: the coin's winner attacks
        xl = np.where(a_first, la, lb)
        xs = np.where(a_first, sa, sb)
        yl = np.where(a_first, lb, la)
        ys = np.where(a_first, sb, sa)
        yl, ys, out1 = strike(rng, xl, xs, yl, ys)
        # second strike: the other one attacks back, unless he is out
        # (rolled for every duel; those already decided by the first strike ignore it)
        xl, xs, out2 = strike(rng, yl, ys, xl, xs)
        out2 &= ~out1
        done = out1 | out2
        # winner is A when A struck first and out1, or B struck first and out2
        a_won = (a_first & out1) | (~a_first & out2)
        k = int(done.sum())
        a_wins += int(a_won.sum())
        rounds_sum += k * rnd
        rounds_sq += k * rnd * rnd
        keep = ~done
        a_first = a_first[keep]
        xl, xs, yl, ys = xl[keep], xs[keep], yl[keep], ys[keep]
        la = np.where(a_first, xl, yl)
        sa = np.where(a_first, xs, ys)
        lb = np.where(a_first, yl, xl)
        sb = np.where(a_first, ys, xs)
    draws = la.shape[0]
    rounds_sum += draws * MAX_ROUNDS
    rounds_sq += draws * MAX_ROUNDS * MAX_ROUNDS
    return a_wins, draws, rounds_sum, rounds_sq


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    batch = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    rng = np.random.default_rng(seed)
    a_wins = draws = rounds_sum = rounds_sq = 0
    start = time.perf_counter()
    left = trials
    while left > 0:
        n = min(batch, left)
        w, d, r, r2 = run_batch(rng, n)
        a_wins += w
        draws += d
        rounds_sum += r
        rounds_sq += r2
        left -= n
    elapsed = time.perf_counter() - start
    p_a = a_wins / trials
    mean = rounds_sum / trials
    sd = (rounds_sq / trials - mean * mean) ** 0.5
    print(f"trials        {trials}")
    print(f"P(A wins)     {p_a:.6f}  (se {(p_a * (1 - p_a) / trials) ** 0.5:.6f})")
    print(f"P(draw)       {draws / trials:.6f}")
    print(f"mean rounds   {mean:.6f}  (sd {sd:.4f}, se {sd / trials ** 0.5:.6f})")
    print(f"seconds       {elapsed:.3f}")
    print(f"duels/s       {trials / elapsed:,.0f}")


if __name__ == "__main__":
    main()
