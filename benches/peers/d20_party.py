#!/usr/bin/env python3
"""d20 reference group fight of issue 39, written the way a designer would: a plain Python loop.

The fight is `d20_party` of `benches/src/lib.rs` under the default options: four level-3 human
Fighters (Str 15, Dex 13, Con 14, long sword, chain mail, medium shield) against four Goblins
(short sword, leather, small shield, HP 4). The figures below are what
`oddsmith run` prints for these fighters (the report's "derived" column):

  hero:   HP 3 x (d4 + 9) (class Fighter: 3(8+d4), Con +1 a level), Defense 18, speed 7,
          one attack a round at +4 for 1d8+1 (minimum damage 2)
  goblin: HP 4, Defense 10, speed 6, one attack at +0 for 1d6 (minimum damage 1)

Each round the faster side (the heroes) acts as one group, then the goblins. Everyone able
when its group starts attacks once; the target is the foe with the fewest hit points among
those able when the group started and still up (else one of those, already down: the blow is
wasted). A d20 of 1 is a fumble: the attacker takes the foe's minimum damage once for every foe
able when the group started («Rolling Attacks §2»). A 20 always hits and deals the weapon's
maximum (`crit_rule = "max"`); otherwise roll + bonus >= Defense hits for the weapon's dice.
A creature is out at 0 HP or less. After each group, a side with nobody able has lost (both
sides out at once: a draw); 1000 rounds is a draw.

Standard library only.  Usage:  python3 d20_party.py [TRIALS] [SEED] [GOBLINS]
(GOBLINS 4 by default: `d20_party`; 6 is `d20_party6`, the issue's reference.)
"""
import random
import sys
import time

# (to_hit, damage dice count, sides, plus, defense, min damage)
HERO = (4, 1, 8, 1, 18, 2)
GOBLIN = (0, 1, 6, 0, 10, 1)
HEROES = 4
GOBLINS = int(sys.argv[3]) if len(sys.argv) > 3 else 4
MAX_ROUNDS = 1000


def hero_hp(rng):
    return sum(rng.randint(1, 4) + 9 for _ in range(3))


def group(rng, attackers, foes, me, foe):
    """One side's group: every attacker able at the start strikes once. Lists of HP, in place."""
    to_hit, n, sides, plus, _, _ = me
    defense, foe_min = foe[4], foe[5]
    able_atk = [i for i, hp in enumerate(attackers) if hp > 0]
    snap = [j for j, hp in enumerate(foes) if hp > 0]
    for i in able_atk:
        up = [j for j in snap if foes[j] > 0]
        pool = up if up else snap
        if not pool:
            return
        j = min(pool, key=lambda k: (foes[k], k))
        roll = rng.randint(1, 20)
        if roll == 1:
            attackers[i] -= foe_min * len(snap)
        elif roll == 20:
            foes[j] -= n * sides + plus
        elif roll + to_hit >= defense:
            foes[j] -= sum(rng.randint(1, sides) for _ in range(n)) + plus


def fight(rng):
    """Returns (winner: 0 heroes, 1 goblins, 2 draw; rounds)."""
    heroes = [hero_hp(rng) for _ in range(HEROES)]
    goblins = [4] * GOBLINS
    for rnd in range(1, MAX_ROUNDS + 1):
        for side in (0, 1):
            if side == 0:
                group(rng, heroes, goblins, HERO, GOBLIN)
            else:
                group(rng, goblins, heroes, GOBLIN, HERO)
            h_out = all(hp <= 0 for hp in heroes)
            g_out = all(hp <= 0 for hp in goblins)
            if h_out and g_out:
                return 2, rnd
            if g_out:
                return 0, rnd
            if h_out:
                return 1, rnd
    return 2, MAX_ROUNDS


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    wins = [0, 0, 0]
    rsum = rsq = 0
    t0 = time.perf_counter()
    for _ in range(trials):
        w, r = fight(rng)
        wins[w] += 1
        rsum += r
        rsq += r * r
    dt = time.perf_counter() - t0
    p = wins[0] / trials
    mean = rsum / trials
    sd = (rsq / trials - mean * mean) ** 0.5
    print(f"trials {trials} seed {seed}")
    print(f"P(A wins) {p:.6f} (se {(p * (1 - p) / trials) ** 0.5:.6f}), "
          f"P(B wins) {wins[1] / trials:.6f}, P(draw) {wins[2] / trials:.6f}")
    print(f"mean rounds {mean:.6f} (sd {sd:.4f}, se {sd / trials ** 0.5:.6f})")
    print(f"seconds {dt:.3f}, fights/s {trials / dt:,.0f}")


if __name__ == "__main__":
    main()
