"""legal.moves_using: a selection of cards resolved by the engine into the moves it could mean."""

from __future__ import annotations

import random

import pytest

from canasta import GameState, from_position
from canasta.cards import JOKER_KIND, KIND, TWO, parse_cards
from canasta.judge import kind_groups
from canasta.legal import moves_using, resolve
from canasta.moves import DISCARD, MELD, PILE
from canasta.rules import PRESETS


def _same(a: object, b: object) -> bool:
    from canasta.moves import Move
    assert isinstance(a, Move) and isinstance(b, Move)
    return a.action == b.action and kind_groups(a.groups) == kind_groups(b.groups) and a.card == b.card


def test_first_meld_with_a_joker_across_two_ranks() -> None:
    s = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                       "hands": [["JS", "JH", "JD", "8D", "8C", "JK", "5S", "6S"], ["4C"], ["4H"], ["4S"]],
                       "stock": ["6C"], "pile": ["9S"]})
    s.play("draw")
    moves = [str(m) for m in moves_using(s, 0, parse_cards("JS JH JD 8D 8C JK".split()), MELD)]
    assert moves == ["meld JS JH JD, 8D 8C JK"]
    # Not the seat to act, a card not held, a red three: nothing.
    assert moves_using(s, 1, parse_cards(["4C"]), DISCARD) == []
    assert moves_using(s, 0, parse_cards("QS QH QD".split()), MELD) == []


def test_several_meanings_are_all_listed() -> None:
    s = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                       "hands": [["KS", "KH", "QS", "QH", "QD", "2C", "5S", "6S", "7S"], ["4C"], ["4H"], ["4S"]],
                       "stock": ["6C"], "pile": ["9S"], "melds": [{"K": ["KD", "KC", "KS"]}, {}]})
    s.play("draw")
    moves = sorted(str(m) for m in moves_using(s, 0, parse_cards("KS KH QS QH QD 2C".split()), MELD))
    assert moves == ["meld KS KH 2C, QS QH QD", "meld KS KH, QS QH QD 2C"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_legal_melds_and_pile_moves_resolve(preset: str) -> None:
    rng = random.Random(f"resolve:{preset}")
    checked = 0
    for hand in range(12):
        state = GameState.deal(preset, dealer=hand % PRESETS[preset].players, rng=rng)
        steps = 0
        while not state.is_over and steps < 400:
            steps += 1
            legal = list(state.legal_moves())
            seat = state.to_act
            for move in rng.sample(legal, min(4, len(legal))):
                if move.action not in (MELD, PILE, DISCARD):
                    continue
                answers = moves_using(state, seat, list(move.cards), move.action)
                assert any(_same(move, a) for a in answers), (preset, str(move), [str(a) for a in answers])
                assert str(move) in [str(a) for a in answers]  # in the same canonical text
                for answer in answers:
                    assert state.is_legal(answer)
                    assert sorted(answer.cards) == sorted(move.cards)
                checked += move.action != DISCARD
            state.play(rng.choice(legal))
    assert checked >= 200


@pytest.mark.parametrize("preset", ["classic", "two-player", "six-player"])
def test_every_missing_action_has_the_engines_reason(preset: str) -> None:
    from canasta.judge import unavailable_reason
    from canasta.moves import ACTIONS

    rng = random.Random(f"reasons:{preset}")
    for _ in range(6):
        state = GameState.deal(preset, dealer=0, rng=rng)
        while not state.is_over:
            words = {spec[0] for spec in state.legal_moves().specs}
            for action in ACTIONS:
                if action not in words:
                    why = unavailable_reason(state, state.to_act, action)
                    assert why and not why.startswith("no "), (action, why)
                    # The reason names no card the seat cannot see: at most its own cards.
                    own = {c for c in range(len(state.hand_counts[state.to_act])) if state.hand_counts[state.to_act][c]}
                    from canasta.cards import card_text
                    hidden = {card_text(c) for c in range(len(state.hand_counts[0]))} - {card_text(c) for c in own}
                    hidden -= {card_text(c) for c in state.pile}
                    assert not any(f" {t}" in f" {why}".replace(",", " ").replace(":", " ") for t in hidden
                                   if len(t) == 2 and t not in ("JK",)), why
            state.play(rng.choice(list(state.legal_moves())))


@pytest.mark.parametrize("preset", ["classic", "two-player", "three-player"])
def test_the_shortcut_for_a_rank_too_short_gives_the_same_answer(preset: str) -> None:
    """Selections of every wild card in hand with a few naturals, some of a rank held once: resolving them
    with the shortcut gives the answer of trying every grouping, word for word."""
    rng = random.Random(f"shortcut:{preset}")
    compared = 0
    for hand in range(40):
        state = GameState.deal(preset, dealer=hand % PRESETS[preset].players, rng=rng)
        for _ in range(rng.randrange(0, 30)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if state.is_over:
            continue
        seat = state.to_act
        held = list(state.hand(seat))
        wilds = [c for c in held if KIND[c] in (TWO, JOKER_KIND)]
        naturals = [c for c in held if c not in wilds]
        for _ in range(4):
            cards = wilds[:rng.randrange(0, 4)] + rng.sample(naturals, min(len(naturals), rng.randrange(1, 6)))
            for action in (MELD, PILE):
                fast, slow = resolve(state, seat, cards, action), resolve(state, seat, cards, action, shortcut=False)
                assert [str(m) for m in fast[0]] == [str(m) for m in slow[0]] and fast[1] == slow[1]
                compared += 1
    assert compared >= 200
