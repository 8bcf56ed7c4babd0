"""The learning action space: staged compound moves, dead-end-free masks, complete and honest.

Standard library only (``canasta.rl.actions`` needs no extra).  From random positions of
several presets, a search over every masked-allowed action sequence checks that every
staging step can still be completed, that every commit is a move the engine accepts, and
that the commits reach exactly the canonical legal moves.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from canasta.legal import generate, materialize
from canasta.rl.actions import (
    ACTION_NAMES,
    COMMIT,
    NUM_ACTIONS,
    PILE_ACTION,
    STAGE_BASE,
    TurnActions,
    action_to_string,
    actions_for_spec,
    spec_plan,
    string_to_action,
)
from canasta.rules import Rules
from canasta.state import GameState


def test_importing_canasta_and_the_action_space_needs_no_numpy() -> None:
    code = ("import sys, canasta, canasta.rl, canasta.rl.actions; "
            "assert 'numpy' not in sys.modules, 'numpy imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_action_has_a_text_that_parses_back() -> None:
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS == 59
    for action in range(NUM_ACTIONS):
        assert string_to_action(action_to_string(action)) == action
        assert string_to_action(action_to_string(action).upper()) == action
    assert string_to_action("Stage 2 > k") == string_to_action("stage 2>K")
    assert string_to_action("discard 10") == string_to_action("discard T")
    with pytest.raises(ValueError, match="unknown action"):
        string_to_action("fly")
    with pytest.raises(ValueError, match="no action"):
        action_to_string(NUM_ACTIONS)


def explore(turn: TurnActions) -> tuple[set[tuple[str, tuple[int, ...]]], int]:
    """Every commit reachable by masked actions from here; asserts no staged plan is a dead end."""
    committed: set[tuple[str, tuple[int, ...]]] = set()
    seen: set[tuple[str | None, tuple[int, ...]]] = set()
    nodes = 0

    def walk(node: TurnActions) -> None:
        nonlocal nodes
        key = (node.mode, tuple(node.plan))
        if key in seen:
            return
        seen.add(key)
        nodes += 1
        allowed = node.legal_actions()
        assert allowed, f"dead end after staging {node.staged_text()!r}"
        for action in allowed:
            if action >= STAGE_BASE or action == PILE_ACTION:
                child = node.copy(node.state)  # staging leaves the state alone
                assert child.apply(action) is None
                walk(child)
            elif action == COMMIT:
                spec = node.spec_for(COMMIT)
                move = materialize(node.state, spec)
                node.state.check(move)  # raises if the engine disagrees
                assert node.mode is not None
                committed.add((node.mode, tuple(node.plan)))
            else:
                node.state.check(materialize(node.state, node.spec_for(action)))

    walk(turn)
    return committed, nodes


def check_position(state: GameState) -> int:
    turn = TurnActions(state)
    specs = generate(state)
    committed, nodes = explore(turn)
    expected = {(spec[0], spec_plan(spec)) for spec in specs if spec[0] in ("meld", "pile")}
    assert committed == expected
    for spec in specs:  # each canonical move by its own action sequence
        walker = TurnActions(state.copy())
        before = walker.state.copy()
        *staging, last = actions_for_spec(spec)
        for action in staging:
            assert walker.is_allowed(action), (action_to_string(action), spec)
            walker.apply(action)
        move = walker.apply(last)
        assert move == materialize(before, spec)
        before.check(move)
    return nodes


def random_positions(rules: Rules, seed: int, every: int) -> list[GameState]:
    """Positions met while random masked actions play a hand out (one in ``every``)."""
    rng = random.Random(seed)
    state = GameState.deal(rules, dealer=seed % rules.players, rng=rng)
    turn = TurnActions(state)
    found = []
    steps = 0
    while not state.is_over:
        if not turn.staging and steps % every == 0:
            found.append(state.copy())
        allowed = turn.legal_actions()
        assert allowed
        action = allowed[rng.randrange(len(allowed))]
        move = turn.apply(action)
        if move is not None:
            assert state.history[-1][1] == move
        steps += 1
        assert steps < 20_000
    return found


CASES = [
    ("classic", {}, 1), ("classic", {}, 2), ("classic", {}, 3),
    ("two-player", {}, 4), ("three-player", {}, 5), ("six-player-two-teams", {}, 6),
    ("classic", {"wild_card_melds": True}, 7), ("classic", {"wilds_at_most_naturals": True}, 8),
    ("two-player-draw-one", {}, 9), ("classic", {"two_naturals_to_take": True}, 10),
]


@pytest.mark.parametrize(("preset", "options", "seed"), CASES)
def test_masks_have_no_dead_end_and_reach_every_canonical_move(preset: str, options: dict[str, bool],
                                                                seed: int) -> None:
    rules = Rules.from_preset(preset, **options)
    for hand in range(3):
        positions = random_positions(rules, seed + 100 * hand, every=2)
        assert positions
        for state in positions:
            check_position(state)


def test_first_melds_and_pile_takes_are_staged_card_by_card() -> None:
    """Big first-meld hands: many staging orders, all completable."""
    rules = Rules.from_preset("classic")
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        state = GameState.deal(rules, rng=rng)
        turn = TurnActions(state)
        turn.apply(turn.legal_actions()[0])  # draw
        if any(s[0] == "meld" and len(s[1]) > 1 for s in generate(state)):  # type: ignore[arg-type]
            checked += check_position(state)
    assert checked > 0


def test_staging_is_cleared_by_any_engine_move() -> None:
    state = GameState.deal("classic", rng=random.Random(2))
    turn = TurnActions(state)
    state.play("draw")
    stage = [a for a in turn.legal_actions() if a >= STAGE_BASE]
    if stage:
        turn.apply(stage[0])
        assert turn.staging
    move = materialize(state, generate(state)[0])
    state.push(move)
    assert not turn.staging
    assert turn.staged_text() == ""


def test_an_action_the_mask_refuses_raises() -> None:
    state = GameState.deal("classic", rng=random.Random(2))
    turn = TurnActions(state)
    with pytest.raises(ValueError, match="not allowed"):
        turn.apply(COMMIT)
    with pytest.raises(ValueError, match="not allowed"):
        turn.apply(NUM_ACTIONS + 3)
    assert len(state.history) == 0


def test_a_first_meld_with_the_pile_is_built_card_by_card() -> None:
    from canasta import from_position

    state = from_position({
        "rules": "classic", "dealer": 3, "turn": 0, "scores": [0, 0],
        "hands": [["5S", "5D", "KS", "KD", "KC", "QS", "QD", "QC", "7S", "4H", "4D"], ["4C"], ["4S"], ["6S"]],
        "stock": ["6C", "6D", "7C"], "pile": ["9C", "5H"],
        "melds": [{}, {}], "red_threes": [[], []], "melded": [False, False, False, False]})
    turn = TurnActions(state)
    assert [action_to_string(a) for a in turn.legal_actions()] == ["draw", "pile"]
    for text in ["pile", "stage 5", "stage 5", "stage K", "stage K", "stage K"]:
        assert turn.apply(string_to_action(text)) is None
    # 5s with the top card and three kings make 45 of the 50 needed: no commit yet, only more.
    allowed = [action_to_string(a) for a in turn.legal_actions()]
    assert "commit" not in allowed
    assert allowed == ["stage Q"]
    assert turn.staged_text() == "pile: K K K 5 5"
    for _ in range(3):
        turn.apply(string_to_action("stage Q"))
    move = turn.apply(COMMIT)
    assert str(move) == "pile 5S 5D, KS KD KC, QS QD QC"
    assert state.phase == "play" and state.drew == "pile"
    assert not turn.staging
