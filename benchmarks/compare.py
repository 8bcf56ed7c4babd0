"""Two commits side by side in one run: the engine, the learning environments and the web server.

Each commit is checked out into a temporary git worktree; the benchmarks run alternately
(old, new, old, new, ...) with ``PYTHONPATH`` pointing at each tree, so both see the same
machine and the same noise.  Prints each figure's median per commit and the ratio new/old.

    python benchmarks/compare.py OLD NEW [--runs 3] [--skip-web] [--compiled] [--json]

``NEW`` may be ``.`` for the working tree as it is.  ``--compiled`` builds each tree's mypyc build
(``scripts/compiled.py``, a minute or two each) and runs the figures against both builds, the
compiled ones named ``(compiled)``.  Needs the venv of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def checkout(commit: str, where: Path) -> Path:
    """A tree of ``commit`` (``.``: this working tree)."""
    if commit == ".":
        return ROOT
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), commit], check=True)
    return where


def build(tree: Path, where: Path) -> Path:
    """The compiled build of ``tree`` (made in ``where``); the folder to put on ``PYTHONPATH``."""
    subprocess.run([sys.executable, str(tree / "scripts" / "compiled.py"), "--dir", str(where), "--quiet"],
                   cwd=tree, check=True)
    return where / "lib"


def run_json(tree: Path, argv: list[str], path: Path | None = None) -> list[Any]:
    """The JSON lines a benchmark printed (``path``: what to import canasta from, the tree's src by default)."""
    env = dict(os.environ, PYTHONPATH=str(path or tree / "src"))
    out = subprocess.run([sys.executable, *argv], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"compare: {' '.join(argv)} failed in {tree}: {out.stderr.strip().splitlines()[-1:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def figures(tree: Path, web: bool, path: Path | None = None) -> dict[str, float]:
    """One run of every benchmark in ``tree``: name -> figure (higher is better unless named *_ms)."""
    result: dict[str, float] = {}
    tag = " (compiled)" if path is not None else ""
    bench = run_json(tree, ["-m", "canasta.cli", "bench", "--hands", "2000", "--seed", "1", "--json"], path)[0]
    result[f"canasta bench decisions/s{tag}"] = bench["decisions_per_s"]
    rl = run_json(tree, [str(tree / "benchmarks" / "rl_env.py"), "--steps", "50000", "--seed", "1", "--json"], path)
    for row in rl:
        if "steps_per_s" in row:
            result[f"rl {row['interface']} steps/s{tag}"] = row["steps_per_s"]
    if web:
        load = run_json(tree, [str(tree / "benchmarks" / "web_load.py"), "--tables", "200", "--think", "0.5",
                               "--seconds", "20", "--json"], path)[0]
        result[f"web moves/s{tag}"] = load["moves_per_s"]
        result[f"web ack p99 ms{tag}"] = load["ack_ms"]["p99"]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-web", action="store_true", help="leave out the 200-table web load")
    parser.add_argument("--compiled", action="store_true", help="also run each tree's compiled (mypyc) build")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"old": checkout(args.old, Path(tmp) / "old"), "new": checkout(args.new, Path(tmp) / "new")}
        try:
            builds = {side: build(tree, Path(tmp) / f"{side}-build") for side, tree in trees.items()} \
                if args.compiled else {}
            runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
            for i in range(args.runs):
                for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
                    row = figures(trees[side], not args.skip_web)
                    if side in builds:
                        row |= figures(trees[side], not args.skip_web, builds[side])
                    runs[side].append(row)
                    print(f"run {i + 1} {side} done", file=sys.stderr)
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    table = {}
    for name in runs["old"][0]:
        old = statistics.median(r[name] for r in runs["old"])
        new = statistics.median(r[name] for r in runs["new"])
        table[name] = {"old": old, "new": new, "ratio": new / old if old else float("nan")}
    if args.json:
        print(json.dumps(table))
    else:
        print(f"{'figure':45} {'old':>12} {'new':>12} {'new/old':>8}   (median of {args.runs} alternating runs)")
        for name, row in table.items():
            print(f"{name:45} {row['old']:12,.1f} {row['new']:12,.1f} {row['ratio']:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
