"""Paired duplicate measurement: several bots against one opponent on the same deals, and their differences.

Each deal is one ``canasta.bots.arena.play_deal`` deal (played once per side), so bots measured
here on the same seeds meet the same cards: the per-deal difference between two of them has a
much narrower interval than either figure alone.  Every 25 deals it prints one line per bot and per pair.

With ``--log FILE`` every deal's result is appended to FILE (one JSON line per deal and bot) as
soon as it is played, and a run started again with the same log plays only the deals it lacks:
a long measurement cut short keeps what it measured.  Runs of different bots may share a log
(one process each); a second run of a bot already playing into it is refused, since both would
play the same deals.  ``--workers K`` plays deals in K processes.  ``--report`` only prints the
figures of the log.

    PYTHONPATH=build/compiled/lib nice -n 10 python benchmarks/paired.py \\
        --bots search:64,search:64:uniform --against expert --deals 300 --seed 1 --log paired.jsonl
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import math
import os
import re
import statistics
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TextIO

from canasta.bots.arena import play_deal
from canasta.bots.rating import percentile
from canasta.rules import Rules


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def one_deal(bot: str, against: str, preset: str, seed: int, deal: int) -> dict[str, Any]:
    """One deal of ``bot`` against ``against``: its mean difference a hand, its decisions and their times."""
    rules = Rules.parse(preset)
    hands = play_deal(bot, against, rules, seed, deal)
    times = [t for h in hands for t in h.times[0]]
    return {"deal": deal, "bot": bot, "diff": sum(h.diff for h in hands) / len(hands),
            "searched": sum(h.searched[0] for h in hands), "samples": sum(h.searched[1] for h in hands),
            "times": [round(t, 5) for t in times]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True, help="comma-separated bots")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--log", type=Path, help="append each deal's result here; a rerun plays only what it lacks")
    parser.add_argument("--report", action="store_true", help="print the figures of --log and stop")
    args = parser.parse_args()
    bots = args.bots.split(",")
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if args.log is not None and args.log.exists():
        for line in args.log.read_text().splitlines():
            row = json.loads(line)
            done[row["bot"], row["deal"]] = row
    if args.report:
        report(done, bots, args.against, args.deals)
        return
    if args.log is not None:
        if not hold_lock(args.log, bots):
            parser.error(f"another run is playing {', '.join(bots)} into {args.log}")
    todo = [(bot, deal) for deal in range(args.deals) for bot in bots if (bot, deal) not in done]
    start = time.perf_counter()
    print(f"{len(todo)} games to play, {len(done)} in the log; load average {os.getloadavg()[0]:.1f}", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        waiting: set[Future[dict[str, Any]]] = set()
        queue = list(reversed(todo))
        complete = len({d for _, d in done})
        while queue or waiting:
            while queue and len(waiting) < 2 * args.workers:
                bot, deal = queue.pop()
                waiting.add(pool.submit(one_deal, bot, args.against, args.preset, args.seed, deal))
            finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for job in finished:
                row = job.result()
                done[row["bot"], row["deal"]] = row
                if args.log is not None:
                    with args.log.open("a") as log:
                        log.write(json.dumps(row) + "\n")
            now = len({d for d in range(args.deals) if all((b, d) in done for b in bots)})
            if now // 25 > complete // 25 or (now == args.deals and complete < now):
                print(f"after {now} deals, {time.perf_counter() - start:.0f} s "
                      f"(load average {os.getloadavg()[0]:.1f}):", flush=True)
                report(done, bots, args.against, args.deals)
            complete = now


def hold_lock(log: Path, bots: list[str]) -> bool:
    """Lock playing these bots into this log until the process ends; False if another run holds such a lock.

    Runs of other bots may share a log, but two runs of one bot would play the same deals twice.
    The locks are files in the temporary directory, named by the log's path and the bot.
    """
    key = hashlib.sha1(str(log.resolve()).encode()).hexdigest()[:16]
    for bot in sorted(bots):
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", bot)
        handle = (Path(tempfile.gettempdir()) / f"paired-{key}-{name}.lock").open("w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        _LOCKS.append(handle)  # kept open: the lock lasts as long as the process
    return True


_LOCKS: list[TextIO] = []


def report(done: dict[tuple[str, int], dict[str, Any]], bots: list[str], against: str, deals: int) -> None:
    """Each bot's points a hand against ``against``, each pair's paired difference, and decision times."""
    common = [d for d in range(deals) if all((b, d) in done for b in bots)]
    if not common:
        print("  no deal played by every bot yet", flush=True)
        return
    for bot in bots:
        m, lo, hi = interval([done[bot, d]["diff"] for d in common])
        times = sorted(t for d in common for t in done[bot, d]["times"])
        searched = sum(done[bot, d]["searched"] for d in common)
        samples = sum(done[bot, d]["samples"] for d in common)
        slow = [t for t in times if t >= 0.002]
        timing = (f"; a decision: median {statistics.median(times) * 1000:.2f} ms, "
                  f"p95 {percentile(times, 95) * 1000:.0f} ms; "
                  f"{searched} searched, {samples / searched:.0f} rounds each, "
                  f"median {statistics.median(slow) * 1000:.0f} ms") if searched and slow else ""
        print(f"  {bot} vs {against}: {m:+.1f} points/hand (95% interval {lo:+.1f} to {hi:+.1f}; "
              f"{len(common)} deals{timing})")
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            m, lo, hi = interval([done[a, d]["diff"] - done[b, d]["diff"] for d in common])
            print(f"  {a} - {b}: {m:+.1f} points/hand (95% interval {lo:+.1f} to {hi:+.1f}; paired)", flush=True)


if __name__ == "__main__":
    main()
