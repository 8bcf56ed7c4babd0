"""Random play against the peer engine, jhtschultz/canasta-openspiel, in one run.

    python benchmarks/peer.py --peer /tmp/peer [--compiled PATH] [--seconds 20] [--runs 3] [--json]

The peer is an OpenSpiel game written in Python (``canasta.canasta_game.CanastaGame``, registered
as ``python_canasta``); ``--peer`` is a checkout of it (``git archive`` of its repository), never
downloaded here.  Its package is also called ``canasta``, so every measurement is a subprocess of
this file with its own ``PYTHONPATH``: the peer's tree, our ``src`` (interpreted) or our compiled
tree (``build/compiled/lib`` by default); the child checks which ``canasta`` it imported.  The
three alternate (peer, interpreted, compiled, then the reverse order, ...), so all see the same
machine load, and the table gives the medians of ``--runs`` runs and the ratios ours/peer.

How decisions are counted, each side playing uniformly random legal moves for ``--seconds``:

- **ours**: exactly ``canasta bench`` (``canasta.testing.bench``): deal a hand, then each
  decision is one move a player applies (draw, take the pile, one meld move, discard, ask,
  yes/no), i.e. one entry of ``GameState.history``.  A meld move may lay several groups at once.
- **the peer**: its own README loop.  Chance nodes (the deal, one card per chance action) are
  resolved by sampling ``chance_outcomes()`` and are not decisions; every other ``apply_action``
  (a uniformly random one of ``legal_actions()``) is one raw *action*.  The peer's actions are
  finer-grained than our moves in two ways: after drawing, a player must explicitly end the meld
  phase with "skip meld" (action 2001) before discarding, where our discard does that; and each
  meld action lays a single group (ours may lay several).  So the table gives both its raw
  actions and its *moves* (raw actions less "skip meld"), which correspond one to one with ours
  but for multi-group melds (rare in random play); ratios against the moves are the fair ones.
  The peer plays games to 5000 points, hand after hand; a hand is counted when it ends.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled" / "lib"
SKIP_MELD = 2001  # the peer's ACTION_SKIP_MELD


def peer_rate(seconds: float, seed: int) -> dict[str, Any]:
    """Random play of the peer's OpenSpiel game (run with the peer's tree on PYTHONPATH)."""
    import pyspiel  # noqa: F401  (the peer's module registers itself with it)
    from canasta.canasta_game import CanastaGame

    rng = random.Random(seed)
    actions = moves = hands = chance = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        state = CanastaGame().new_initial_state()
        hand = state._hand_number
        while not state.is_terminal() and (actions & 255 or time.perf_counter() < end):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                chance += 1
                continue
            legal = state.legal_actions()  # empty when the stock ran out: the peer then scores the hand
            if legal:
                action = legal[int(rng.random() * len(legal))]
                state.apply_action(action)
                actions += 1
                moves += action != SKIP_MELD
            if state._hand_number != hand or state.is_terminal():
                hands += 1
                hand = state._hand_number
    elapsed = time.perf_counter() - start
    return {"side": "peer", "seconds": round(elapsed, 3), "hands": hands, "actions": actions, "moves": moves,
            "chance": chance, "actions_per_s": round(actions / elapsed), "moves_per_s": round(moves / elapsed),
            "hands_per_s": round(hands / elapsed, 2)}


def our_rate(seconds: float, seed: int) -> dict[str, Any]:
    """``canasta bench``'s random play, timed: deal, then play_out, hand after hand."""
    from canasta.buildinfo import build
    from canasta.rules import Rules
    from canasta.state import GameState
    from canasta.testing.bench import play_out

    rules = Rules.parse("classic")
    rng = random.Random(seed)
    decisions = hands = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        decisions += play_out(GameState.deal(rules, dealer=hands % rules.players, rng=rng), rng)
        hands += 1
    elapsed = time.perf_counter() - start
    return {"side": build(), "seconds": round(elapsed, 3), "hands": hands, "decisions": decisions,
            "decisions_per_s": round(decisions / elapsed), "hands_per_s": round(hands / elapsed, 2)}


def child(side: str, path: Path, seconds: float, seed: int) -> dict[str, Any]:
    """Run one measurement in a subprocess whose PYTHONPATH is ``path`` alone."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(path)}
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", side,
            "--seconds", str(seconds), "--seed", str(seed)]
    out = subprocess.run(argv, cwd="/", env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"peer: the {side} run failed: {out.stderr.strip()[-2000:]}")
    return dict(json.loads(out.stdout.splitlines()[-1]))


def run_child(side: str, seconds: float, seed: int) -> int:
    """The child's part: check which ``canasta`` was imported, measure, print one JSON line."""
    import canasta

    where = Path(os.path.abspath(canasta.__file__ or ""))  # not resolved: the compiled tree links to src
    expected = Path(os.path.abspath(os.environ["PYTHONPATH"]))
    if expected not in where.parents:
        raise SystemExit(f"peer: imported canasta from {where}, not from {expected}")
    result = peer_rate(seconds, seed) if side == "peer" else our_rate(seconds, seed)
    if side != "peer" and result["side"] != ("interpreted" if side == "interpreted" else "compiled (mypyc)"):
        raise SystemExit(f"peer: asked for the {side} build, ran {result['side']}")
    print(json.dumps(result))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="a checkout of jhtschultz/canasta-openspiel")
    parser.add_argument("--compiled", type=Path, default=COMPILED, help="our compiled tree (build/compiled/lib)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play per measurement (default 20)")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs of each side (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=["peer", "interpreted", "compiled"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return run_child(args.child, args.seconds, args.seed)
    if args.peer is None or not (args.peer / "canasta" / "canasta_game.py").is_file():
        raise SystemExit("peer: --peer must be a checkout of jhtschultz/canasta-openspiel (canasta/canasta_game.py)")
    paths = {"peer": args.peer.resolve(), "interpreted": ROOT / "src"}
    if (args.compiled / "canasta").is_dir():
        paths["compiled"] = args.compiled.resolve()
    else:
        print(f"peer: no compiled build in {args.compiled}; measuring the interpreted engine only", file=sys.stderr)
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in paths}
    for i in range(args.runs):
        for side in list(paths) if i % 2 == 0 else list(paths)[::-1]:
            runs[side].append(child(side, paths[side], args.seconds, args.seed + i))
            print(f"run {i + 1} {side}: {runs[side][-1]}", file=sys.stderr)
    median = {side: {key: statistics.median(r[key] for r in rows) for key in rows[0] if key != "side"}
              for side, rows in runs.items()}
    peer = median["peer"]
    ours = {side: m["decisions_per_s"] for side, m in median.items() if side != "peer"}
    ratios = {side: {"vs_actions": round(v / peer["actions_per_s"], 2), "vs_moves": round(v / peer["moves_per_s"], 2)}
              for side, v in ours.items()}
    if args.json:
        print(json.dumps({"median": median, "ratios": ratios, "runs": runs}))
        return 0
    print(f"| random play (median of {args.runs} alternating runs, {args.seconds:g} s each) | decisions/s | hands/s "
          "| ours/peer (moves) | ours/peer (raw actions) |")
    print("|---|---:|---:|---:|---:|")
    print(f"| peer, moves (raw actions less skip-meld) | {peer['moves_per_s']:,.0f} | {peer['hands_per_s']:,.2f} | | |")
    print(f"| peer, raw actions | {peer['actions_per_s']:,.0f} | | | |")
    for side, v in ours.items():
        r = ratios[side]
        print(f"| ours, {side} | {v:,.0f} | {median[side]['hands_per_s']:,.2f} "
              f"| {r['vs_moves']:.1f}x | {r['vs_actions']:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
