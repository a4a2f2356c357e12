#!/usr/bin/env python3
"""Draft 0.4 reference duel D1, written the way a designer would: a plain Python loop.

The duel is the Draft digest's reference loop (§6 "Default duel loop", §7.7 R0) with the
options `scenarios/draft/reference-duels.toml` sets: the defaults plus
striking_order = "skill_first". For D1 both fighters are equal (skill 6, long sword, leather,
STR 6, CON 6), so the skill tie goes to a coin toss, drawn again every round.

Each round: a coin decides who strikes first; the first striker attacks and the other parries
with his weapon, then the other attacks and the first parries (policy "balanced": one attack,
one parry each, two free actions, no third action). Attack and parry are d10 + skill - wound
penalties; the parry wins ties. Damage = margin + strength bonus + weapon damage - armour. The
damage against CON gives the wound; wounds stack with overflow ("keep"), a Critical wound or
death ends the duel at once. 100 rounds without a result is a draw.

Standard library only.  Usage:  python3 draft_d1.py [TRIALS] [SEED]
"""
import random
import sys
import time

# --- D1: both fighters the same --------------------------------------------------------------
SKILL = 6          # long sword skill (attack and parry)
WEAPON_DAMAGE = 5  # long sword: 2 x impact 2, +1 sharp
STR_BONUS = 0      # STR 6
CON = 6
ARMOUR = 2         # leather: protection 2, movement 0
MOVEMENT = 0

# --- default options ---------------------------------------------------------------------------
MAX_ROUNDS = 100
LIGHT_CAP, SEVERE_CAP, CRITICAL_CAP = 3, 2, 1
LIGHT_PEN, SEVERE_PEN = 1, 2


def wound_level(damage, con):
    """0 none, 1 light, 2 severe, 3 critical, 4 death (exact halves)."""
    if damage <= 1:
        return 0
    if 2 * damage <= con:
        return 1
    if damage <= con:
        return 2
    if damage <= 2 * con:
        return 3
    return 4


def add_wound(f, level):
    """Adds a wound to fighter f = [light, severe]; returns True if he is out (critical/death)."""
    if level == 0:
        return False
    if level == 1:
        if f[0] < LIGHT_CAP:
            f[0] += 1
            return False
        level = 2  # a 4th light becomes a severe
    if level == 2:
        if f[1] < SEVERE_CAP:
            f[1] += 1
            return False
        level = 3  # a 3rd severe becomes a critical
    return True  # critical or death: the duel is over


def penalty(f):
    return f[0] * LIGHT_PEN + f[1] * SEVERE_PEN


def attack(attacker, defender):
    """One attack and its parry; returns True if the defender is out."""
    att = SKILL + MOVEMENT - penalty(attacker) + random.randint(1, 10)
    par = SKILL + MOVEMENT - penalty(defender) + random.randint(1, 10)
    if att <= par:
        return False
    damage = att - par + STR_BONUS + WEAPON_DAMAGE - ARMOUR
    return add_wound(defender, wound_level(damage, CON))


def duel():
    """One duel. Returns (winner, rounds): winner 'A', 'B' or 'draw'."""
    a = [0, 0]
    b = [0, 0]
    for rnd in range(1, MAX_ROUNDS + 1):
        if random.randint(1, 2) == 1:      # equal skill: a coin, every round
            if attack(a, b):
                return "A", rnd
            if attack(b, a):
                return "B", rnd
        else:
            if attack(b, a):
                return "B", rnd
            if attack(a, b):
                return "A", rnd
    return "draw", MAX_ROUNDS


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    random.seed(seed)
    a_wins = draws = 0
    total_rounds = 0
    total_rounds_sq = 0
    start = time.perf_counter()
    for _ in range(trials):
        winner, rounds = duel()
        if winner == "A":
            a_wins += 1
        elif winner == "draw":
            draws += 1
        total_rounds += rounds
        total_rounds_sq += rounds * rounds
    elapsed = time.perf_counter() - start
    p_a = a_wins / trials
    mean = total_rounds / trials
    sd = (total_rounds_sq / trials - mean * mean) ** 0.5
    print(f"trials        {trials}")
    print(f"P(A wins)     {p_a:.6f}  (se {(p_a * (1 - p_a) / trials) ** 0.5:.6f})")
    print(f"P(draw)       {draws / trials:.6f}")
    print(f"mean rounds   {mean:.6f}  (sd {sd:.4f}, se {sd / trials ** 0.5:.6f})")
    print(f"seconds       {elapsed:.3f}")
    print(f"duels/s       {trials / elapsed:,.0f}")


if __name__ == "__main__":
    main()
