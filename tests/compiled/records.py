"""What a build plays from fixed seeds, as digests: ``python -m tests.compiled.records [PART ...]``.

Run once per build (tests/compiled/test_same_games.py): the interpreted and the compiled engine must
print the same JSON.  Each part digests every move, result and observation it produces.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from canasta.buildinfo import build
from canasta.rules import PRESETS, Rules
from canasta.state import GameState


def _digest(parts: list[Any]) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _record(state: GameState) -> list[Any]:
    result = state.result
    return [state.history_text(), None if result is None else result.to_json(), state.match_scores()]


def random_hands() -> dict[str, Any]:
    """Uniform-random hands of every preset (the benchmark's playouts), state copies included."""
    from canasta.testing.bench import play_out

    out: dict[str, Any] = {}
    for preset in PRESETS:
        rules = Rules.parse(preset)
        rng = random.Random(7)
        records: list[Any] = []
        decisions = 0
        for i in range(6):
            state = GameState.deal(rules, dealer=i % rules.players, rng=rng)
            if i % 2:
                state = state.copy()
            decisions += play_out(state, rng)
            records.append(_record(state))
        out[preset] = [decisions, _digest(records)]
    return out


def bots() -> dict[str, Any]:
    """Whole hands between the bots (the searching one by a number of rollouts, not a time)."""
    from canasta.bots import make_bot

    out: dict[str, Any] = {}
    for names, preset in ((("basic", "random"), "classic"), (("expert", "basic"), "classic"),
                          (("search:12", "expert"), "classic"), (("expert", "expert"), "three-player"),
                          (("expert", "basic"), "five-player")):
        rules = Rules.parse(preset)
        rng = random.Random(11)
        players = [make_bot(names[seat % 2], random.Random(100 + seat)) for seat in range(rules.players)]
        records = []
        for i in range(2):
            state = GameState.deal(rules, dealer=i % rules.players, rng=rng)
            while not state.is_over:
                seat = state.to_act
                state.push(players[seat].choose(state.view(seat), list(state.legal_moves())))
            records.append(_record(state))
        out[f"{' v '.join(names)} ({preset})"] = _digest(records)
    return out


def arena() -> dict[str, Any]:
    """A short duplicate arena, as ``canasta arena --json`` reports it (but the timings)."""
    from canasta.bots.arena import run_arena

    report = run_arena("expert", "search:6", Rules.parse("classic"), seed=3, deals=2)
    pool = run_arena("basic", "random", Rules.parse("classic"), seed=4, deals=4, workers=2)  # a process pool
    report["two workers"] = pool["decisions"]
    return {k: v for k, v in report.items() if k not in ("seconds", "decisions_per_s", "decision_ms")}


def research() -> dict[str, Any]:
    """The action layer and the observations: masks, actions and tensors along random play."""
    from canasta.rl.actions import TurnActions
    from canasta.rl.observation import Encoder

    out: dict[str, Any] = {}
    for preset in ("classic", "two-player"):
        rng = random.Random(5)
        encoder = Encoder(preset)
        digest = hashlib.sha256()
        steps = 0
        for _ in range(3):
            state = GameState.deal(preset, dealer=0, rng=rng)
            turn = TurnActions(state)
            while not state.is_over:
                seat = state.to_act
                digest.update(encoder.encode_state(state, seat, turn.mode, turn.plan).tobytes())
                digest.update(bytes(turn.shared_mask()))
                allowed = turn.legal_actions()
                turn.apply(allowed[int(rng.random() * len(allowed))])
                steps += 1
        out[preset] = [steps, digest.hexdigest()[:24]]
    return out


def environments() -> dict[str, Any]:
    """The PettingZoo and Gymnasium environments (interpreted adapters over the compiled core) and OpenSpiel."""
    import numpy as np

    out: dict[str, Any] = {}
    try:
        from canasta.rl import pettingzoo
    except ImportError:
        out["pettingzoo"] = "not installed"
    else:
        env = pettingzoo.raw_env()
        env.reset(seed=3)
        rng = random.Random(3)
        digest = hashlib.sha256()
        for _ in range(1500):
            obs, reward, term, trunc, _ = env.last()
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes() + repr(reward).encode())
            if term or trunc:
                env.reset()
                continue
            allowed = obs["action_mask"].nonzero()[0]
            env.step(int(allowed[int(rng.random() * len(allowed))]))
        out["pettingzoo"] = digest.hexdigest()[:24]
    try:
        from canasta.rl.gymnasium import CanastaEnv
    except ImportError:
        out["gymnasium"] = "not installed"
    else:
        genv = CanastaEnv(opponents="basic")
        gobs, _ = genv.reset(seed=4)
        rng = random.Random(4)
        digest = hashlib.sha256()
        for _ in range(600):
            allowed = gobs["action_mask"].nonzero()[0]
            gobs, greward, term, trunc, _ = genv.step(int(allowed[int(rng.random() * len(allowed))]))
            digest.update(gobs["observation"].tobytes() + np.float64(greward).tobytes())
            if term or trunc:
                gobs, _ = genv.reset()
        out["gymnasium"] = digest.hexdigest()[:24]
    try:
        import pyspiel

        import canasta.rl.openspiel  # noqa: F401  (registers the game)
    except ImportError:
        out["openspiel"] = "not installed"
    else:
        game = pyspiel.load_game("canasta")
        spiel = game.new_initial_state()
        rng = random.Random(5)
        history = []
        while not spiel.is_terminal():
            if spiel.is_chance_node():
                outcomes = spiel.chance_outcomes()
                action = outcomes[int(rng.random() * len(outcomes))][0]
            else:
                legal = spiel.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            history.append(action)
            spiel.apply_action(action)
        again = game.deserialize_state(spiel.serialize())
        out["openspiel"] = [len(history), _digest([history, spiel.returns(), str(again) == str(spiel)])]
    return out


def resampling() -> dict[str, Any]:
    """States dealt anew from a seat's view (what the searching bot samples)."""
    from canasta.resample import Resampler

    rng = random.Random(9)
    state = GameState.deal("classic", rng=rng)
    records = []
    for _ in range(30):
        if state.is_over:
            break
        moves = list(state.legal_moves())
        state.push(moves[rng.randrange(len(moves))])
        sample = Resampler(state.view(state.to_act)).sample(rng)
        records.append([sample.hand_counts, sample.stock, sample.pile])
    return {"samples": _digest(records)}


PARTS: dict[str, Callable[[], dict[str, Any]]] = {
    "random_hands": random_hands, "bots": bots, "arena": arena, "research": research,
    "environments": environments, "resampling": resampling,
}


def main(argv: list[str]) -> None:
    names = argv or list(PARTS)
    print(json.dumps({"build": build()} | {name: PARTS[name]() for name in names}))


if __name__ == "__main__":
    main(sys.argv[1:])
