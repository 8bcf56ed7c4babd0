"""Tune the expert's parameters for one game by duplicate self-play (coordinate search).

Each round tries every parameter of :class:`canasta.bots.expert.ExpertParams` one step away
from the incumbent (a number halved and doubled, a count one less and one more, a switch
flipped), each against the incumbent on the same duplicate deals (``canasta arena``; the
bots play exactly the parameters given: the classic defaults with the changes printed).
The best step whose 95% interval is above zero is played again
on fresh deals, and kept only if it wins there too (so a lucky step is not kept).  The
search stops when no step is kept; the result is then measured against the starting
parameters on deals of its own.  It prints every step tried, so its log is its record.

    PYTHONPATH=build/compiled/lib python benchmarks/tune_expert.py --preset two-player \\
        --start risk_weight=0 --deals 400 --seed 100
"""

from __future__ import annotations

import argparse
import functools
import time
from dataclasses import fields, replace

from canasta.bots.arena import run_arena
from canasta.bots.expert import ExpertBot, ExpertParams
from canasta.bots.levels import expert_changes
from canasta.rules import Rules

SKIP = {"wild_keep", "pile_red_three", "first_meld_keep", "dump_stock", "prepare_out_hand", "late_stock"}
"""Parameters left alone: a wild card is never discarded for its own sake, and the others changed
no game in the first runs (two-player and three-player, 400 deals a step)."""
PARTNERS = {"ask_partner_cards", "answer_yes_points", "answer_yes_lead"}
"""Parameters of asking a partner, tried only in games with partners."""


def spec(changes: dict[str, object]) -> str:
    """The changes from the classic defaults, as ``OPTION=VALUE+...`` (``defaults`` for none)."""
    return "+".join(f"{k}={str(v).lower()}" for k, v in sorted(changes.items())) or "defaults"


def bot(text: str) -> functools.partial[ExpertBot]:
    """The expert playing exactly the classic defaults with the changes of :func:`spec`."""
    changes = expert_changes("expert:" + text) if text != "defaults" else {}
    return functools.partial(ExpertBot, params=replace(ExpertParams(), **changes))  # type: ignore[arg-type]


def steps(name: str, value: object) -> list[object]:
    """The values one step from ``value``."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        if value >= 1000:
            return [300]
        if value >= 10:
            return [value // 2, value * 2]
        return [v for v in (value - 1, value + 1) if v >= 0]
    assert isinstance(value, float)
    if value == 0.0:
        return [0.5, 1.0]
    return [round(value * 0.5, 4), round(value * 2.0, 4)]


def duel(a: str, b: str, rules: Rules, seed: int, deals: int) -> tuple[float, float, float]:
    """A's points a hand over B, with the 95% interval."""
    report = run_arena(bot(a), bot(b), rules, seed=seed, deals=deals)
    low, high = report["point_diff_ci95"]
    return float(report["point_diff_mean"]), float(low), float(high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", required=True)
    parser.add_argument("--start", default="", help="OPTION=VALUE+... to start from (default: the classic defaults)")
    parser.add_argument("--deals", type=int, default=400, help="deals a step (default 400)")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--only", default="", help="comma-separated parameters to try (default: all)")
    args = parser.parse_args()
    rules = Rules.parse(args.preset)
    defaults = ExpertParams()
    changes = expert_changes("expert:" + args.start) if args.start else {}
    start = dict(changes)
    names = [n for n in args.only.split(",") if n] or [
        f.name for f in fields(ExpertParams)
        if f.name not in SKIP and (rules.players > rules.sides or f.name not in PARTNERS)]
    seed = args.seed
    began = time.perf_counter()
    for round_ in range(args.rounds):
        incumbent = spec(changes)
        print(f"round {round_ + 1}: incumbent {incumbent}, seed {seed}", flush=True)
        tried: list[tuple[float, float, str, object]] = []
        for name in names:
            current = changes.get(name, getattr(defaults, name))
            for value in steps(name, current):
                trial = dict(changes)
                if value == getattr(defaults, name):
                    trial.pop(name, None)
                else:
                    trial[name] = value
                mean, low, high = duel(spec(trial), incumbent, rules, seed, args.deals)
                print(f"  {name}={value}: {mean:+.0f} ({low:+.0f} to {high:+.0f})", flush=True)
                tried.append((low, mean, name, value))
        seed += 1
        kept = False
        for _, _, name, value in sorted((t for t in tried if t[0] > 0.0), reverse=True, key=lambda t: t[1]):
            trial = dict(changes)
            trial[name] = value
            again, low2, high2 = duel(spec(trial), incumbent, rules, seed, args.deals)
            seed += 1
            print(f"  again on fresh deals, {name}={value}: {again:+.0f} ({low2:+.0f} to {high2:+.0f})", flush=True)
            if low2 > 0.0:
                if value == getattr(defaults, name):
                    changes.pop(name, None)
                else:
                    changes[name] = value
                kept = True
                break
        if not kept:
            break
    final = spec(changes)
    print(f"tuned: {final} ({time.perf_counter() - began:.0f} s)", flush=True)
    mean, low, high = duel(final, spec(start), rules, seed + 1000, 2 * args.deals)
    print(f"against the start {spec(start)}, {2 * args.deals} fresh deals: {mean:+.0f} ({low:+.0f} to {high:+.0f})",
          flush=True)


if __name__ == "__main__":
    main()
