"""Expert iteration in one resumable command: the search labels, a value network learns, the network plays,
the search labels where it goes, and again.

    python -m canasta.rl.iterate --dir runs/q --seed 1 --rounds 4 --shards 100 --workers 2
    python -m canasta.rl.iterate --dir runs/q --resume            # after an interruption, or for more --rounds

Each round ``r`` of the run in ``--dir``:

1. **labels**: ``--shards`` files of ``--hands`` hands each (``labels/r{r}-{k}.npz``): at every decision
   where the search (``--labeller``) weighs several candidates, each candidate's mean gain over the
   expert's choice (:func:`canasta.rl.train_q.collect_values`).  Round 0's hands are expert self-play;
   later rounds' are played by the last round's network (``q:FILE``), so the labels cover the
   positions the learner reaches.  A file is written under a temporary name and renamed when whole,
   and files already there are kept: an interrupted run loses at most the files being written.  The
   files are made by ``--workers`` processes, or Ray tasks (``--backend ray``, a local Ray with that
   many CPUs, or the cluster at ``--address``).
2. **the network**: :class:`~canasta.rl.qvalue.QNet` fitted to every round's labels so far (and
   ``--extra`` files collected before), the last 5% of decisions held out, from the last round's
   weights; written to ``round-{r}.npz`` (a player: ``q:DIR/round-{r}.npz``).
3. **its strength**: points a hand against the expert over ``--eval-deals`` duplicate deals (seed
   ``--eval-seed``, never a training seed), with the 95% interval.

``progress.json`` holds the settings and each finished step; ``curve.md`` the table of the rounds.
A run resumes from the first step not finished (``--resume``; the settings are the run's own, only
``--rounds`` and ``--workers`` may change).  Labels of round ``r``, shard ``k`` are seeded by
``(--seed, r, k)`` alone, so a resumed run makes the same files as an uninterrupted one.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from .qvalue import QNet
from .selfplay import start_ray
from .train_q import collect_values, load_values, save_values, train, versus_expert

SETTINGS = ("seed", "shards", "hands", "labeller", "epochs", "hidden", "lr", "margin", "eval_deals", "eval_seed",
            "extra")
"""What a run is made of (kept in progress.json; a resumed run uses its own)."""


def shard_seed(seed: int, round_: int, shard: int) -> int:
    """The seed of one label file: a function of the run's seed and the file's place alone."""
    return (seed * 1_000_003 + round_ * 10_007 + shard) % 2**31


def write_shard(path: str, hands: int, seed: int, labeller: str, player: str | None) -> int:
    """Label ``hands`` hands into ``path`` (written whole or not at all); the decisions kept."""
    data = collect_values(hands, seed, labeller, player=player)
    temporary = f"{path}.part.npz"
    save_values(data, temporary)
    os.replace(temporary, path)
    return len(data.states)


class Run:
    """A run's folder: its settings, progress and files."""

    def __init__(self, folder: Path, settings: dict[str, Any], log: Callable[[str], None]) -> None:
        self.folder = folder
        self.settings = settings
        self.log = log
        self.progress: dict[str, Any] = {"settings": settings, "rounds": []}
        known = folder / "progress.json"
        if known.exists():
            try:
                self.progress = json.loads(known.read_text())
                if not isinstance(self.progress.get("rounds"), list) or set(SETTINGS) - set(self.progress["settings"]):
                    raise ValueError("settings or rounds missing")
            except (ValueError, AttributeError, TypeError) as exc:
                raise ValueError(f"{known} is not a run's progress file ({exc})") from None

    def save(self) -> None:
        """Write progress.json (whole or not at all) and curve.md."""
        temporary = self.folder / "progress.json.part"
        temporary.write_text(json.dumps(self.progress, indent=1))
        os.replace(temporary, self.folder / "progress.json")
        (self.folder / "curve.md").write_text(curve_table(self.progress["rounds"]))

    def round_entry(self, round_: int) -> dict[str, Any]:
        rounds: list[dict[str, Any]] = self.progress["rounds"]
        while len(rounds) <= round_:
            rounds.append({})
        return rounds[round_]

    def network(self, round_: int) -> Path:
        return self.folder / f"round-{round_}.npz"

    def labels(self, round_: int) -> list[Path]:
        return [self.folder / "labels" / f"r{round_}-{k}.npz" for k in range(self.settings["shards"])]

    def collect(self, round_: int, workers: int, backend: str, address: str | None) -> None:
        """Write the round's missing label files."""
        s = self.settings
        player = f"q:{self.network(round_ - 1)}" if round_ > 0 else None
        todo = [(str(path), s["hands"], shard_seed(s["seed"], round_, k), s["labeller"], player)
                for k, path in enumerate(self.labels(round_)) if not path.exists()]
        if not todo:
            return
        (self.folder / "labels").mkdir(exist_ok=True)
        start = time.perf_counter()
        self.log(f"round {round_}: labelling {len(todo)} files of {s['hands']} hands "
                 f"({s['labeller']}, hands played by {player or 'the expert'})")
        done = 0
        if backend == "ray":
            ray = start_ray(workers, address)
            task = ray.remote(write_shard)
            pending = [task.remote(*job) for job in todo]
            while pending:
                ready, pending = ray.wait(pending)
                done += len(ready)
                ray.get(ready)
                self.log(f"  {done}/{len(todo)} files [{time.perf_counter() - start:.0f} s]")
        elif workers > 1:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for _ in pool.map(write_shard, *zip(*todo)):
                    done += 1
                    self.log(f"  {done}/{len(todo)} files [{time.perf_counter() - start:.0f} s]")
        else:
            for job in todo:
                write_shard(*job)
                done += 1
                self.log(f"  {done}/{len(todo)} files [{time.perf_counter() - start:.0f} s]")

    def fit(self, round_: int) -> None:
        """Fit the round's network to every label file so far (and the extra ones), from the last round's."""
        s = self.settings
        paths = [str(p) for r in range(round_ + 1) for p in self.labels(r)]
        paths += sorted(p for pattern in s["extra"] for p in glob.glob(pattern))
        data = load_values(paths)
        count = len(data.states)
        held_count = max(1, count // 20)
        if count - held_count < 1:
            raise ValueError(f"{count} decisions are too few to train on: label more hands")
        fitted = data.subset(np.arange(count - held_count, dtype=np.int64))
        held = data.subset(np.arange(count - held_count, count, dtype=np.int64))
        start = QNet.open(str(self.network(round_ - 1))) if round_ > 0 else None
        self.log(f"round {round_}: fitting {count - held_count} decisions ({held_count} held out), "
                 f"{s['epochs']} epochs")
        net, curve = train(fitted, held, s["epochs"], s["hidden"], s["seed"] + round_, s["lr"], net=start,
                           margin=s["margin"], log=False)
        temporary = self.folder / f"round-{round_}.part.npz"
        net.save(str(temporary), s["margin"])
        os.replace(temporary, self.network(round_))
        entry = self.round_entry(round_)
        entry.update(decisions=count, error=round(curve[-1][1], 1), agreement=round(curve[-1][2], 4))
        self.save()

    def evaluate(self, round_: int) -> None:
        s = self.settings
        net = QNet.open(str(self.network(round_)))
        mean, low, high = versus_expert(net, s["eval_deals"], s["eval_seed"], s["margin"])
        self.round_entry(round_)["points"] = [round(mean, 1), round(low, 1), round(high, 1)]
        self.save()
        self.log(f"round {round_}: {mean:+.0f} ({low:+.0f} to {high:+.0f}) a hand against the expert "
                 f"over {s['eval_deals']} deals")

    def go(self, rounds: int, workers: int, backend: str, address: str | None) -> None:
        """Every step not yet done, round by round."""
        for round_ in range(rounds):
            entry = self.round_entry(round_)
            if "points" in entry and self.network(round_).exists():
                continue
            self.collect(round_, workers, backend, address)
            if "decisions" not in entry or not self.network(round_).exists():
                self.fit(round_)
            self.evaluate(round_)


def curve_table(rounds: Sequence[dict[str, Any]]) -> str:
    """The rounds as a Markdown table: decisions learned from, held-out error, points against the expert."""
    lines = ["| round | decisions | held-out error (points²) | best as the search's | points/hand vs expert |",
             "| ---: | ---: | ---: | ---: | --- |"]
    for number, entry in enumerate(rounds):
        points = entry.get("points")
        said = f"{points[0]:+.0f} ({points[1]:+.0f} to {points[2]:+.0f})" if points else ""
        lines.append(f"| {number} | {entry.get('decisions', '')} | {entry.get('error', '')} | "
                     f"{entry.get('agreement', '')} | {said} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m canasta.rl.iterate", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="the run's folder (made if missing)")
    parser.add_argument("--resume", action="store_true", help="go on with the run in --dir, with its settings")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--address", help="a Ray cluster's address (--backend ray)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shards", type=int, default=100, help="label files a round")
    parser.add_argument("--hands", type=int, default=5, help="hands a label file")
    parser.add_argument("--labeller", default="search:128:c8")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--margin", type=float, default=30.0)
    parser.add_argument("--eval-deals", type=int, default=500)
    parser.add_argument("--eval-seed", type=int, default=90_001, help="the duel's deals (never a training seed)")
    parser.add_argument("--extra", nargs="*", default=[], metavar="GLOB",
                        help="label files collected before (train_q --collect) to learn from as well")
    args = parser.parse_args(argv)
    if min(args.rounds, args.workers, args.shards, args.hands, args.epochs, args.hidden, args.eval_deals) < 1:
        parser.error("rounds, workers, shards, hands, epochs, hidden and eval-deals are at least 1")
    folder = Path(args.dir)
    known = folder / "progress.json"
    if known.exists() and not args.resume:
        parser.error(f"{folder} holds a run already: add --resume to go on with it (or choose another --dir)")
    if args.resume and not known.exists():
        parser.error(f"{folder} holds no run to resume")
    folder.mkdir(parents=True, exist_ok=True)
    settings = {name: getattr(args, name) for name in SETTINGS}

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    try:
        run = Run(folder, settings, log)
        if args.resume:
            run.settings = run.progress["settings"]
        run.go(args.rounds, args.workers, args.backend, args.address)
    except (OSError, ValueError) as exc:
        print(f"canasta.rl.iterate: {exc}", file=sys.stderr)
        return 1
    print(curve_table(run.progress["rounds"]), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
