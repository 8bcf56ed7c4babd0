"""Distil the search into :class:`~canasta.rl.qvalue.QNet`: collect its per-candidate means, then fit them.

Collecting (``--collect FILE``): ``--hands`` hands of the expert's self-play (seeded); at every
decision where the search (``--labeller``, rollouts so reproducible) weighs more than one
candidate, the seat's input, each candidate's features and its mean gain over the expert's
choice (the rollouts paired round by round) are kept.  Files can be collected apart, one per
process or per session, and joined for training.

Training (``--out FILE --data FILE...``): the network is fitted to the gains in minibatches of
decisions (Adam); after each epoch the mean squared error on held-out decisions (``--held``
of the files' decisions, the last ones) and how often the network's best candidate is the
search's; every ``--eval-every`` epochs the :class:`~canasta.rl.qvalue.QBot` plays
``--eval-deals`` duplicate deals against ``expert``.

    python -m canasta.rl.train_q --collect q-1.npz --labeller search:128:c8 --hands 20 --seed 1
    python -m canasta.rl.train_q --out q.npz --data q-*.npz --epochs 20 --seed 1

>>> data = collect_values(hands=1, seed=3, labeller="search:8")
>>> data.states.shape[1] == 480 and len(data.moves) == len(data.decision) == len(data.gains) > len(data.states) > 5
True
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.arena import run_arena
from ..bots.search import SearchBot
from ..errors import UnknownBotError
from ..rules import Rules
from ..state import GameState
from .neural import StateInput
from .qvalue import MOVE_FEATURES, QBot, QNet, move_features

Ints = npt.NDArray[np.int64]


@dataclass
class QData:
    """Decisions (their inputs) and candidate rows: features, decision, the expert's row, gain in points."""

    states: npt.NDArray[np.float32]
    moves: npt.NDArray[np.float32]
    decision: Ints
    base: Ints
    gains: npt.NDArray[np.float32]

    def spans(self, decisions: Ints) -> tuple[Ints, Ints]:
        """Where the candidate rows of these decisions start and end (rows are kept together, the expert's first)."""
        return np.searchsorted(self.decision, decisions), np.searchsorted(self.decision, decisions, side="right")

    def subset(self, decisions: Ints) -> QData:
        """These decisions alone, renumbered."""
        starts, ends = self.spans(decisions)
        rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)]).astype(np.int64)
        position = np.full(len(self.decision), -1, np.int64)
        position[rows] = np.arange(len(rows))
        return QData(self.states[decisions], self.moves[rows], np.repeat(np.arange(len(decisions)), ends - starts),
                     position[self.base[rows]], self.gains[rows])


def collect_values(hands: int, seed: int, labeller: str = "search:128:c8", preset: str = "classic",
                   player: str | None = None) -> QData:
    """The labeller's per-candidate gains over the expert's choice in ``hands`` hands of expert self-play.

    ``player`` (a bot name, such as ``q:FILE``): hands of its self-play instead, labelled by the search at
    every position it reaches (expert iteration: the positions the learner plays into)."""
    rules = Rules.parse(preset)
    rng = random.Random(seed)
    inputs = StateInput()
    states: list[npt.NDArray[np.float32]] = []
    moves: list[npt.NDArray[np.float32]] = []
    decision: list[int] = []
    base: list[int] = []
    gains: list[float] = []
    for hand in range(hands):
        state = GameState.deal(rules, dealer=hand % rules.players, rng=random.Random(rng.randrange(2**31)),
                               sitting_out=2 * (hand % 3) if rules.sit_out else None)
        searcher = make_bot(labeller, random.Random(rng.randrange(2**31)))
        if not isinstance(searcher, SearchBot):
            raise UnknownBotError(f"the labeller is a search, like search:128: {labeller!r}")
        playing = make_bot(player, random.Random(rng.randrange(2**31)), files=True) if player is not None else None
        steps = 0
        while not state.is_over and steps < 5000:
            view = state.view(state.to_act)
            legal = list(state.legal_moves())
            move = legal[0]
            if len(legal) > 1:
                move = searcher.choose(view, legal)
                if searcher.last:  # it weighed several candidates: keep their gains, play the expert's
                    kept = [m for m, _, _ in searcher.last]
                    scores = [s for s, _ in searcher.expert.score(view, kept)]
                    first = len(moves)
                    for i, (candidate, mean, _) in enumerate(searcher.last):
                        moves.append(move_features(view, candidate, scores[0] - scores[i], i))
                        decision.append(len(states))
                        base.append(first)
                        gains.append(mean - searcher.last[0][1])
                    states.append(inputs.of(view))
                    move = kept[0]
                if playing is not None:
                    move = playing.choose(view, legal)
            state.push(move)
            steps += 1
    width = inputs.size(rules)
    return QData(np.array(states, np.float32).reshape(-1, width),
                 np.array(moves, np.float32).reshape(-1, MOVE_FEATURES),
                 np.array(decision, np.int64), np.array(base, np.int64), np.array(gains, np.float32))


def save_values(data: QData, path: str) -> None:
    """Write collected decisions to a compressed ``.npz`` file (inputs as float16)."""
    np.savez_compressed(path, states=data.states.astype(np.float16), moves=data.moves, decision=data.decision,
                        base=data.base, gains=data.gains)


def load_values(paths: Sequence[str]) -> QData:
    """The decisions of files written by :func:`save_values`, joined."""
    parts = []
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as f:
                parts.append(QData(f["states"].astype(np.float32), f["moves"], f["decision"], f["base"], f["gains"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path} is not saved value data ({exc})") from None
    return join_values(parts)


def join_values(parts: Sequence[QData]) -> QData:
    """One :class:`QData` of several (decision and row numbers shifted)."""
    decisions = rows = 0
    out = []
    for d in parts:
        out.append(QData(d.states, d.moves, d.decision + decisions, d.base + rows, d.gains))
        decisions += len(d.states)
        rows += len(d.moves)
    return QData(np.concatenate([d.states for d in out]), np.concatenate([d.moves for d in out]),
                 np.concatenate([d.decision for d in out]), np.concatenate([d.base for d in out]),
                 np.concatenate([d.gains for d in out]))


def check(net: QNet, data: QData) -> tuple[float, float]:
    """Mean squared error of the gains (points², other rows than the expert's); how often its best is the search's."""
    errors: list[float] = []
    agree = 0
    starts, ends = data.spans(np.arange(len(data.states)))
    for d, (a, b) in enumerate(zip(starts, ends)):
        values = net.values(data.states[d], data.moves[a:b])
        predicted = values - values[0]
        errors.extend(((predicted[1:] - data.gains[a + 1:b]) ** 2).tolist())
        agree += int(np.argmax(predicted) == np.argmax(data.gains[a:b]))
    return float(np.mean(errors)) if errors else 0.0, agree / max(1, len(data.states))


def versus_expert(net: QNet, deals: int, seed: int, margin: float) -> tuple[float, float, float]:
    """:class:`QBot` against ``expert`` on ``deals`` duplicate deals: points a hand and its 95% interval."""
    weights = net.weights()
    report = run_arena(lambda rng: QBot(weights, rng, margin), "expert", Rules(), seed, deals=deals)
    mean = float(report["point_diff_mean"])
    low, high = report["point_diff_ci95"] or (mean, mean)
    return mean, float(low), float(high)


Duel = tuple[float, float, float]
"""Points a hand against the expert and its 95% interval."""
Curve = list[tuple[int, float, float, Duel | None]]
"""Per epoch: held-out error (points²), agreement with the search's best, the duel against the expert if played."""


def train(data: QData, held: QData, epochs: int, hidden: int, seed: int, lr: float = 1e-3, batch: int = 64,
          eval_every: int = 0, eval_deals: int = 0, margin: float = 0.0, log: bool = True,
          net: QNet | None = None) -> tuple[QNet, Curve]:
    """Fit the network to ``data``; its learning curve (:data:`Curve`)."""
    if net is None:
        net = QNet(int(data.states.shape[1]), hidden, seed)
    order_rng = np.random.default_rng(seed)
    curve: Curve = [(0, *check(net, held), None)]
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = order_rng.permutation(len(data.states))
        rate = lr * (1.0 - 0.9 * (epoch - 1) / max(1, epochs - 1))
        for i in range(0, len(order), batch):
            part = data.subset(np.sort(order[i:i + batch]))
            net.fit(part.states, part.moves, part.decision, part.base, part.gains, rate)
        duel = None
        if eval_every and eval_deals and (epoch % eval_every == 0 or epoch == epochs):
            duel = versus_expert(net, eval_deals, seed + 7, margin)
        curve.append((epoch, *check(net, held), duel))
        if log:
            print(f"epoch {epoch}: held-out error {curve[-1][1]:.0f}, agreement {curve[-1][2]:.3f} "
                  f"{points_text(duel)} [{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
    return net, curve


def points_text(duel: Duel | None) -> str:
    """``+28 (+18 to +38)``, or nothing."""
    return "" if duel is None else f"{duel[0]:+.0f} ({duel[1]:+.0f} to {duel[2]:+.0f})"


def plot(curve: Curve, path: str, title: str) -> None:
    """A PNG of the curve: points a hand against the expert (with intervals) and the held-out error, per epoch."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, points_axis = plt.subplots(figsize=(7, 4), dpi=100)
    duels = [(epoch, duel) for epoch, _, _, duel in curve if duel is not None]
    if duels:
        epochs = [e for e, _ in duels]
        means = [d[0] for _, d in duels]
        below = [d[0] - d[1] for _, d in duels]
        above = [d[2] - d[0] for _, d in duels]
        points_axis.errorbar(epochs, means, yerr=[below, above], fmt="o-", color="tab:blue", capsize=4,
                             label="points a hand vs expert (95% interval)")
    points_axis.axhline(0, color="grey", linewidth=1, linestyle="--")
    points_axis.set_xlabel("epoch")
    points_axis.set_ylabel("points a hand vs expert", color="tab:blue")
    error_axis = points_axis.twinx()
    error_axis.plot([c[0] for c in curve], [c[1] for c in curve], "s:", color="tab:orange",
                    label="held-out error")
    error_axis.set_ylabel("held-out squared error (points²)", color="tab:orange")
    points_axis.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.rl.train_q", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--collect", metavar="FILE", help="collect --hands hands of the labeller's gains into FILE")
    parser.add_argument("--labeller", default="search:128:c8", help="the search whose rollouts are learned")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--out", metavar="FILE", help="train, and write the network here (.npz)")
    parser.add_argument("--data", nargs="+", default=[], metavar="FILE", help="collected files to train on")
    parser.add_argument("--held", type=float, default=0.05, help="share of the decisions held out (the last ones)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--margin", type=float, default=0.0,
                        help="points a candidate must gain to be played (saved with the network)")
    parser.add_argument("--eval-every", type=int, default=5, help="epochs between duels against expert (0: none)")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--plot", metavar="PNG", help="draw the learning curve here (needs matplotlib)")
    args = parser.parse_args(argv)
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        parser.error("--plot needs matplotlib: pip install 'canasta[examples]'")
    start = time.perf_counter()
    if args.collect:
        try:
            collected = collect_values(args.hands, args.seed, args.labeller)
        except UnknownBotError as exc:
            parser.error(str(exc))
        save_values(collected, args.collect)
        print(f"{len(collected.states)} decisions, {len(collected.moves)} candidates of {args.labeller} from "
              f"{args.hands} hands in {args.collect} [{time.perf_counter() - start:.0f} s]", file=sys.stderr)
        return
    if not args.out or not args.data:
        parser.error("give --collect FILE, or --out FILE with --data FILE...")
    try:
        data = load_values(args.data)
    except ValueError as exc:
        parser.error(str(exc))
    count = len(data.states)
    held_count = max(1, int(count * args.held))
    if count - held_count < 1:
        parser.error(f"{count} decisions are too few to train on")
    train_part = data.subset(np.arange(count - held_count, dtype=np.int64))
    held_part = data.subset(np.arange(count - held_count, count, dtype=np.int64))
    print(f"{count - held_count} decisions to train on, {held_count} held out", file=sys.stderr, flush=True)
    net, curve = train(train_part, held_part, args.epochs, args.hidden, args.seed, args.lr,
                       eval_every=args.eval_every, eval_deals=args.eval_deals, margin=args.margin)
    net.save(args.out, args.margin)
    print("| epoch | held-out error (points²) | best candidate as the search's | points/hand vs expert |")
    print("| ---: | ---: | ---: | --- |")
    for epoch, error, agree, duel in curve:
        print(f"| {epoch} | {error:.0f} | {agree:.3f} | {points_text(duel)} |")
    if args.plot:
        plot(curve, args.plot, f"train_q: {count - held_count} decisions, {args.hidden} hidden, margin {args.margin:g}")


if __name__ == "__main__":
    main()
