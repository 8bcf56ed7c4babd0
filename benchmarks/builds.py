"""The interpreted and the compiled build side by side in one run: engine, bots and learning environments.

The compiled build is the tree ``make`` keeps in ``build/compiled/lib`` (``python scripts/compiled.py``
makes it).  Every figure is measured in a process of its own, the builds alternating (interpreted,
compiled, compiled, interpreted, ...), so both see the same machine and the same noise; the table
gives each build's best run and the ratio compiled/interpreted.

    python benchmarks/builds.py [--runs 3] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled" / "lib"


def search_rate(hands: int, rollouts: int, seed: int) -> dict[str, Any]:
    """The searching bot plays every decision of some hands with a budget of rollouts: rollouts per second."""
    from canasta.bots.search import Budget, SearchBot
    from canasta.state import GameState

    bot = SearchBot(random.Random(seed), Budget(seconds=None, rollouts=rollouts))
    rng = random.Random(seed + 1)
    done = decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = GameState.deal("classic", rng=rng)
        while not state.is_over:
            move = bot.choose(state.view(state.to_act), list(state.legal_moves()))
            done += sum(rounds for _, _, rounds in bot.last)
            decisions += 1
            state.push(move)
    seconds = time.perf_counter() - start
    return {"rollouts": done, "decisions": decisions, "seconds": round(seconds, 3),
            "rollouts_per_s": round(done / seconds)}


def run_json(build: str, argv: list[str]) -> list[Any]:
    """The JSON lines ``python ARGV`` printed in ``build``."""
    path = COMPILED if build == "compiled" else ROOT / "src"
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"builds: {' '.join(argv)} failed ({build}): {out.stderr.strip().splitlines()[-1:]}")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return rows


def figures(build: str, quick: bool) -> dict[str, float]:
    """One run of every benchmark in ``build``: name -> figure (higher is better unless named in µs)."""
    hands, steps, search_hands = ("500", "20000", 1) if quick else ("2000", "50000", 3)
    result: dict[str, float] = {}
    bench = run_json(build, ["-m", "canasta.cli", "bench", "--hands", hands, "--seed", "1", "--copies", "20000",
                             "--json"])[0]
    assert bench["build"] == ("compiled (mypyc)" if build == "compiled" else "interpreted"), bench
    result["canasta bench: random decisions/s"] = bench["decisions_per_s"]
    result["GameState.copy() µs"] = bench["copy_us"]
    for row in run_json(build, [str(ROOT / "benchmarks" / "rl_env.py"), "--steps", steps, "--seed", "1", "--json"]):
        if "steps_per_s" in row:
            result[f"{row['interface']} steps/s"] = row["steps_per_s"]
    search = run_json(build, [__file__, "--search", str(search_hands)])[0]
    result["search bot: rollouts/s"] = search["rollouts_per_s"]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each build (default 3)")
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--search", type=int, metavar="HANDS", help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.search:
        print(json.dumps(search_rate(args.search, 24, 1)))
        return 0
    if not (COMPILED / "canasta").is_dir():
        raise SystemExit(f"builds: no compiled build in {COMPILED} (python scripts/compiled.py makes it)")
    runs: dict[str, list[dict[str, float]]] = {"interpreted": [], "compiled": []}
    for i in range(args.runs):
        for build in ("interpreted", "compiled") if i % 2 == 0 else ("compiled", "interpreted"):
            runs[build].append(figures(build, args.quick))
            print(f"run {i + 1} {build} done", file=sys.stderr)
    table = {}
    for name in runs["interpreted"][0]:
        best = min if "µs" in name else max
        old = best(r[name] for r in runs["interpreted"])
        new = best(r[name] for r in runs["compiled"])
        ratio = (old / new) if "µs" in name else (new / old)
        table[name] = {"interpreted": old, "compiled": new, "speedup": round(ratio, 2)}
    if args.json:
        print(json.dumps(table))
    else:
        print(f"| figure (best of {args.runs} alternating runs) | interpreted | compiled (mypyc) | speed-up |")
        print("|---|---:|---:|---:|")
        for name, row in table.items():
            print(f"| {name} | {row['interpreted']:,} | {row['compiled']:,} | {row['speedup']:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
