"""Train the ``neural`` player by imitation: data from a teacher's games, then a masked softmax fitted to it.

Every seat of ``--hands`` hands (seeded) is played by the teacher (``--teacher``, the
expert by default); at each decision its move is split into the actions that stage it
(:func:`canasta.rl.actions.actions_for_spec`), and each action with more than one allowed
choice is kept with the seat's input (its observation with the staged plan, and
:func:`canasta.rl.neural.history_features`).  A :class:`~canasta.rl.policy.MaskedMLP` is
then fitted by maximum likelihood (its REINFORCE step with an advantage of one is the
gradient of the log-likelihood) for ``--epochs`` passes in minibatches; after each epoch
the accuracy on held-out hands of the teacher is printed, and every ``--eval-every`` epochs
its points a hand against ``expert`` over ``--eval-deals`` duplicate deals.  The table of
the curve is printed at the end (Markdown, for docs/neural.md).

Expert iteration: labels from the search cost time (``search:64``: about 2.4 s a hand), so they are
collected apart, in files that a long run can add to (``--collect FILE --teacher
search:64``), and trained on later with ``--extra FILE...`` (weighted by
``--extra-weight``), from scratch or from weights already trained (``--init``).

    python -m canasta.rl.train_neural --out src/canasta/rl/neural-classic.npz --seed 1

>>> data = collect(hands=1, seed=3)
>>> data.xs.shape[1] == 480 and len(data.xs) == len(data.actions) == len(data.masks) > 50
True
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bots import Bot, make_bot
from ..bots.arena import run_arena
from ..bots.expert import ExpertBot
from ..errors import UnknownBotError
from ..legal import materialize
from ..rules import Rules
from ..state import GameState
from .actions import ASK_ACTION, DRAW_ACTION, NUM_ACTIONS, PILE_ACTION, YES_ACTION, TurnActions, actions_for_spec
from .neural import NeuralBot, history_features
from .observation import Encoder
from .policy import MaskedMLP


@dataclass
class Data:
    """Inputs (already through :meth:`MaskedMLP.features`), masks and the expert's actions, one row per choice."""

    xs: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    actions: npt.NDArray[np.int64]
    hands: npt.NDArray[np.int32]


def collect(hands: int, seed: int, preset: str = "classic", player: Bot | None = None,
            teacher: Callable[[random.Random], Bot] = ExpertBot) -> Data:
    """The teacher's choices (the expert's by default), action by action, in ``hands`` hands of its self-play.

    With a ``player``, that bot's moves are played at every seat and the teacher's are only
    recorded (DAgger: the teacher labels the positions the learner reaches).  A teacher such
    as ``search:64`` (rollouts, so reproducible) labels positions for expert iteration.
    """
    rules = Rules.parse(preset)
    encoder = Encoder(rules)
    rng = random.Random(seed)
    xs: list[npt.NDArray[np.float32]] = []
    masks: list[bytes] = []
    actions: list[int] = []
    hand_ids: list[int] = []
    for hand in range(hands):
        state = GameState.deal(rules, dealer=hand % rules.players, rng=random.Random(rng.randrange(2**31)),
                               sitting_out=2 * (hand % 3) if rules.sit_out else None)
        bots = [teacher(random.Random(rng.randrange(2**31))) for _ in range(rules.players)]
        steps = 0
        while not state.is_over and steps < 5000:
            seat = state.to_act
            view = state.view(seat)
            moves = list(state.legal_moves())
            move = moves[0] if len(moves) == 1 else bots[seat].choose(view, moves)
            played = move if player is None or len(moves) == 1 else player.choose(view, moves)
            turn = TurnActions(state.copy() if played != move else state)
            spec = next(s for s in turn.specs() if materialize(state, s) == move)
            history = history_features(view) if len(moves) > 1 else None
            for action in actions_for_spec(spec):
                mask = bytes(turn.shared_mask())
                if history is not None and sum(mask) > 1:
                    obs = encoder.encode(view, turn.mode, turn.plan) if turn.staging else encoder.encode(view)
                    xs.append(MaskedMLP.features(np.concatenate([obs, history])))
                    masks.append(mask)
                    actions.append(action)
                    hand_ids.append(hand)
                turn.apply(action)  # the last one plays the move on the state
            if played != move:
                state.push(played)
            steps += 1
    return Data(np.array(xs, np.float32), np.frombuffer(b"".join(masks), np.int8).reshape(-1, NUM_ACTIONS).copy(),
                np.array(actions, np.int64), np.array(hand_ids, np.int32))


def save_data(data: Data, path: str) -> None:
    """Write collected choices to a compressed ``.npz`` file (inputs as float16: they are small and mostly zero)."""
    np.savez_compressed(path, xs=data.xs.astype(np.float16), masks=data.masks, actions=data.actions, hands=data.hands)


def load_data(paths: Sequence[str]) -> Data:
    """The choices of files written by :func:`save_data`, joined (hand numbers kept as they are)."""
    parts = []
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as f:
                parts.append(Data(f["xs"].astype(np.float32), f["masks"], f["actions"], f["hands"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path} is not saved training data ({exc})") from None
    return join(parts)


def join(parts: Sequence[Data]) -> Data:
    """One :class:`Data` of several."""
    return Data(np.concatenate([d.xs for d in parts]), np.concatenate([d.masks for d in parts]),
                np.concatenate([d.actions for d in parts]), np.concatenate([d.hands for d in parts]))


def accuracy(policy: MaskedMLP, data: Data) -> float:
    """How often the policy's likeliest allowed action is the one in ``data`` (the teacher's)."""
    p, _ = policy.probs(data.xs, data.masks)
    return float((p.argmax(axis=1) == data.actions).mean())


def key_choices(masks: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """The rows that decide a hand: draw or take the pile, ask to go out, answer the partner."""
    both = (masks[:, DRAW_ACTION] > 0) & (masks[:, PILE_ACTION] > 0)
    return np.asarray(both | (masks[:, ASK_ACTION] > 0) | (masks[:, YES_ACTION] > 0), np.bool_)


def versus_expert(policy: MaskedMLP, deals: int, seed: int) -> tuple[float, float, float]:
    """The policy as :class:`NeuralBot` against ``expert`` on ``deals`` duplicate deals: points a hand, 95% interval."""
    weights = policy.weights()
    report = run_arena(lambda rng: NeuralBot(weights, rng), "expert", Rules(), seed, deals=deals)
    mean = float(report["point_diff_mean"])
    low, high = report["point_diff_ci95"] or (mean, mean)
    return mean, float(low), float(high)


def train(data: Data, held: Data, epochs: int, hidden: int, seed: int, lr: float = 1e-3, batch: int = 256,
          eval_every: int = 0, eval_deals: int = 0, log: bool = True, policy: MaskedMLP | None = None,
          first_epoch: int = 1, key_weight: float = 1.0,
          weights: npt.NDArray[np.float32] | None = None) -> tuple[MaskedMLP, list[tuple[int, float, str]]]:
    """Fit a policy (new, or ``policy`` further) to ``data``; the curve: (epoch, held-out accuracy, points vs expert).

    The rows of :func:`key_choices` count ``key_weight`` times in the likelihood, each row
    also its ``weights`` (one per row, 1 by default); the learning rate falls linearly from
    ``lr`` to a tenth of it over the epochs.
    """
    if policy is None:
        policy = MaskedMLP(int(data.xs.shape[1]), NUM_ACTIONS, hidden, seed)
    order_rng = np.random.default_rng(seed)
    curve: list[tuple[int, float, str]] = [(first_epoch - 1, accuracy(policy, held), "")] if first_epoch == 1 else []
    row_weights = np.where(key_choices(data.masks), key_weight, 1.0).astype(np.float32)
    if weights is not None:
        row_weights *= weights
    start = time.perf_counter()
    for epoch in range(first_epoch, first_epoch + epochs):
        order = order_rng.permutation(len(data.actions))
        rate = lr * (1.0 - 0.9 * (epoch - first_epoch) / max(1, epochs - 1))  # down to a tenth by the last epoch
        for i in range(0, len(order), batch):  # the last batch may be smaller
            idx = order[i:i + batch]
            policy.update(data.xs[idx], data.masks[idx], data.actions[idx], row_weights[idx], rate)
        points = ""
        if eval_every and eval_deals and (epoch % eval_every == 0 or epoch == first_epoch + epochs - 1):
            mean, lo, hi = versus_expert(policy, eval_deals, seed + 7)
            points = f"{mean:+.0f} ({lo:+.0f} to {hi:+.0f})"
        curve.append((epoch, accuracy(policy, held), points))
        if log:
            print(f"epoch {epoch}: held-out accuracy {curve[-1][1]:.3f} {points} "
                  f"[{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
    return policy, curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.rl.train_neural", description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="where to write the weights (.npz)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--hands", type=int, default=1500, help="hands of the teacher's self-play to learn from")
    parser.add_argument("--teacher", default="expert",
                        help="the bot whose choices are learned (default expert; e.g. search:64 for expert iteration)")
    parser.add_argument("--collect", metavar="FILE",
                        help="only collect --hands hands of the teacher's choices into FILE (.npz), to train on later")
    parser.add_argument("--extra", nargs="+", default=[], metavar="FILE",
                        help="choices collected before (by --collect) to train on as well")
    parser.add_argument("--extra-weight", type=float, default=1.0, help="weight of each row of --extra")
    parser.add_argument("--init", metavar="FILE", help="start from these weights (.npz) rather than afresh")
    parser.add_argument("--held", type=int, default=100,
                        help="further hands of the teacher held out for the accuracy")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=2e-3, help="the first learning rate (a quarter in DAgger rounds)")
    parser.add_argument("--key-weight", type=float, default=4.0,
                        help="weight of the choices that decide a hand (draw or pile, ask, answer)")
    parser.add_argument("--eval-every", type=int, default=4, help="epochs between duels against expert (0: none)")
    parser.add_argument("--eval-deals", type=int, default=40)
    parser.add_argument("--dagger", type=int, default=0,
                        help="rounds of DAgger: hands played by the network, labelled by the teacher, then more epochs")
    parser.add_argument("--dagger-epochs", type=int, default=3)
    parser.add_argument("--dagger-hands", type=int, default=1000, help="hands the network plays in each round")
    args = parser.parse_args(argv)
    if min(args.held, args.epochs, args.hidden, args.dagger_hands, args.dagger_epochs) < 1 or args.hands < 0:
        parser.error("held, epochs, hidden, dagger-hands and dagger-epochs are at least 1, hands at least 0")
    try:
        make_bot(args.teacher)
    except UnknownBotError as exc:
        parser.error(str(exc))

    def teacher(rng: random.Random) -> Bot:
        return make_bot(args.teacher, rng)

    start = time.perf_counter()
    if args.collect:
        collected = collect(args.hands, args.seed, teacher=teacher)
        save_data(collected, args.collect)
        print(f"{len(collected.actions)} choices of {args.teacher} from {args.hands} hands in {args.collect} "
              f"[{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
        return
    if not args.out:
        parser.error("--out is needed unless --collect")
    try:
        extra = load_data(args.extra) if args.extra else None
        policy = MaskedMLP.open(args.init) if args.init else None
    except ValueError as exc:
        parser.error(str(exc))
    parts = [collect(args.hands, args.seed, teacher=teacher)] if args.hands else []
    weights = [np.ones(len(parts[0].actions), np.float32)] if parts else []
    if extra is not None:
        parts.append(extra)
        weights.append(np.full(len(extra.actions), args.extra_weight, np.float32))
    if not parts:
        parser.error("nothing to learn from: give --hands or --extra")
    data, row_weights = join(parts), np.concatenate(weights)
    held = collect(args.held, args.seed + 1_000_003, teacher=teacher)  # accuracy against the teacher's own labels
    print(f"{len(data.actions)} choices ({args.hands} hands of {args.teacher}"
          f"{f', {len(extra.actions)} from --extra' if extra is not None else ''}), {len(held.actions)} held out "
          f"[{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
    policy, curve = train(data, held, args.epochs, args.hidden, args.seed, args.lr, policy=policy,
                          eval_every=args.eval_every, eval_deals=args.eval_deals, key_weight=args.key_weight,
                          weights=row_weights)
    policy.save(args.out)  # a checkpoint after each phase
    epoch = args.epochs
    for round_ in range(1, args.dagger + 1):
        learner = NeuralBot(policy.weights(), random.Random(args.seed + round_))
        more = collect(args.dagger_hands, args.seed + 7919 * round_, player=learner, teacher=teacher)
        data = join([data, more])
        row_weights = np.concatenate([row_weights, np.ones(len(more.actions), np.float32)])
        print(f"DAgger round {round_}: {len(more.actions)} more choices, {len(data.actions)} in all "
              f"[{time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
        policy, more_curve = train(data, held, args.dagger_epochs, args.hidden, args.seed, args.lr / 4,
                                   eval_every=args.dagger_epochs, eval_deals=args.eval_deals, policy=policy,
                                   first_epoch=epoch + 1, key_weight=args.key_weight, weights=row_weights)
        curve.extend(more_curve)
        epoch += args.dagger_epochs
        policy.save(args.out)
    policy.save(args.out)
    print("| epoch | held-out accuracy | points/hand vs expert (95% interval) |")
    print("| ---: | ---: | --- |")
    for epoch, acc, points in curve:
        print(f"| {epoch} | {acc:.3f} | {points} |")


if __name__ == "__main__":
    main()
