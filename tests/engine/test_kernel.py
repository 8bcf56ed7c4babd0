"""The engine kernel's public seams: judge, setup, live legal moves, phases, chance, scoring, errors."""

from __future__ import annotations

import json
import random
import re

import pytest

import canasta
from canasta import judge
from canasta.bots import make_bot
from canasta.cards import CANASTA_SIZE, KIND, MAX_WILDS, RED_THREE, RED_THREE_CODES, parse_card, parse_cards
from canasta.errors import CanastaError, CardError, SeatError, UnknownBotError
from canasta.legal import generate, materialize
from canasta.moves import Drew, Move, Phase
from canasta.position import from_position, to_position
from canasta.scorekeeper import Itemised
from canasta.scoring import canasta_kind, side_score
from canasta.state import GameState, TurnSoFar
from canasta.views import make_view

WILD_CANASTA = {
    "rules": {"preset": "classic", "wild_card_melds": True, "wild_canasta_bonus": 1500},
    "dealer": 3, "turn": 0, "scores": [0, 0],
    "hands": [["2S", "7H", "7D", "7C"], ["4C"], ["4H"], ["5S"]],
    "stock": ["8C", "8D"], "pile": ["TC", "4D"],
    "melds": [{"W": ["2S", "2H", "2D", "2C", "JK", "JK"]}, {}], "red_threes": [[], []],
    "melded": [True, False, True, False],
}


def playout_states(hands: int, seed: int, rules: str = "classic") -> list[GameState]:
    """Copies of every state met in ``hands`` random hands."""
    rng = random.Random(seed)
    seen = []
    for i in range(hands):
        state = GameState.deal(rules, dealer=i % 4 if rules == "classic" else 0, rng=rng)
        while not state.is_over:
            seen.append(state.copy())
            specs = generate(state)
            state.push(materialize(state, specs[rng.randrange(len(specs))]))
    return seen


# -- live legal moves (F10) ---------------------------------------------------------------

def test_legal_moves_are_live_after_a_move() -> None:
    state = GameState.deal("classic", rng=random.Random(1))
    lm = state.legal_moves()
    assert "draw" in lm and Move.parse("draw") in list(lm)
    state.play("draw")
    assert "draw" not in lm
    assert Move.parse("draw") not in list(lm)
    assert "draw" not in [str(m) for m in lm]
    assert [str(m) for m in lm] == [str(m) for m in state.legal_moves()]
    assert len(lm) == lm.count() == len(state.legal_moves())


# -- the judge ----------------------------------------------------------------------------

def test_check_is_the_judges_reason() -> None:
    for state in playout_states(6, 3):
        for move in list(state.legal_moves())[:6]:
            assert judge.reason(state, move) is None
        for text in ("draw", "ask", "yes", "discard JK", "meld KS KH KD", "pile"):
            move = Move.parse(text)
            why = judge.reason(state, move)
            assert state.is_legal(move) == (why is None)
            if why is not None:
                with pytest.raises(canasta.IllegalMoveError, match=re.escape(f"{why}: {move}")):
                    state.check(move)


def test_is_blocked_by_wild_cards_and_threes() -> None:
    blocked = {c for c in range(53) if judge.is_blocked(c)}
    assert blocked == set(parse_cards(["2S", "2H", "2D", "2C", "JK", "3S", "3C", "3H", "3D"]))
    assert judge.blocked_reason(parse_card("3C")) == "a black three on top of the pile blocks it"
    assert judge.blocked_reason(parse_card("KC")) is None


def test_frozen_pile_reason_names_the_rule() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                           "hands": [["9H", "9D", "2C", "5S"], ["4C"], ["4H"], ["4S"]], "stock": ["6C"],
                           "pile": ["JK", "9S"], "melds": [{"K": ["KS", "KD", "KC"]}, {}]})
    assert judge.pile_reason(state, 0, {5: [1, 1, 0]}) == (
        "the pile is frozen: you need two natural 9s from your hand to take it")
    assert judge.pile_reason(state, 0, {5: [2, 0, 0]}) is None
    assert judge.forced_pile_reason(state) is None  # the stock is not empty


def test_discard_reason_after_a_partners_yes() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                           "hands": [["KH", "9D", "9C", "9S"], ["4C"], ["4H"], ["4S"]], "stock": ["6C", "7C"],
                           "pile": ["5D"], "melds": [{"K": ["KS", "KD", "KC", "KS", "KD", "2D", "JK"]}, {}]})
    state.play("draw")
    state.play("ask")
    state.play("yes")
    assert judge.discard_reason(state, 0) == (
        "your partner said yes: you must go out this turn, so discard only your last card")
    assert not any(m.action == "discard" for m in state.legal_moves())


# -- setup: the one way to place cards ----------------------------------------------------

def test_setup_and_positions_agree() -> None:
    for state in playout_states(3, 11)[::17]:
        if state.phase != Phase.DRAW:
            continue
        again = from_position(to_position(state))
        assert to_position(again) == to_position(state)
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_setup_mid_turn() -> None:
    state = GameState.setup("classic", dealer=3, turn=0,
                            hands=[parse_cards(["AH", "AD", "AC", "5S", "6S"]), [5], [9], [13]],
                            stock=parse_cards(["6C", "7C"]), pile=parse_cards(["4D"]),
                            turn_so_far=TurnSoFar(phase=Phase.PLAY, drew=Drew.STOCK))
    assert state.phase is Phase.PLAY and state.drew is Drew.STOCK
    assert "meld AH AD AC" in state.legal_moves()
    assert state.stock[-1] == parse_card("6C")  # the stock is given top card first


def test_setup_lays_out_the_turns_red_threes() -> None:
    state = GameState.setup("classic", dealer=3, turn=0, hands=[parse_cards(["3H", "5S"]), [5], [9], [13]],
                            stock=parse_cards(["6C", "7C"]))
    assert state.red_threes[0] == [parse_card("3H")]
    assert state.hand(0) == parse_cards(["6C", "5S"])


# -- vocabulary ---------------------------------------------------------------------------

def test_phases_and_drew_are_their_strings() -> None:
    state = GameState.deal("classic", rng=random.Random(2))
    draw: str = "draw"
    assert state.phase is Phase.DRAW and state.phase == draw and json.dumps(state.phase) == '"draw"'
    state.play("draw")
    view = make_view(state, state.turn)
    data = json.loads(json.dumps(view.to_json()))
    assert data["phase"] == "play" and data["drew"] == "stock"
    assert view.phase is Phase.PLAY and view.drew is Drew.STOCK
    assert repr(Phase.PLAY) == "Phase.PLAY" and str(Drew.PILE) == "pile"


def test_repr_is_readable() -> None:
    state = GameState.deal("classic", rng=random.Random(1))
    assert repr(state) == "<GameState classic: seat 1 to draw, stock 62, pile 2, hands 11 11 11 11>"


def test_errors_a_user_can_meet_are_canasta_errors() -> None:
    with pytest.raises(UnknownBotError, match="grandmaster"):
        make_bot("grandmaster")
    with pytest.raises(UnknownBotError):
        make_bot("search:fast")
    with pytest.raises(SeatError):
        make_view(GameState.deal("classic", rng=random.Random(1)), 7)
    assert issubclass(UnknownBotError, CanastaError) and issubclass(SeatError, ValueError)


def test_match_is_exported() -> None:
    assert canasta.Match is canasta.match.Match
    assert canasta.Match(seed=3).state.turn == 1


def test_constants_live_in_cards() -> None:
    assert (CANASTA_SIZE, MAX_WILDS) == (7, 3)
    assert all(KIND[c] == RED_THREE for c in RED_THREE_CODES) and len(RED_THREE_CODES) == 2


# -- scoring ------------------------------------------------------------------------------

def test_canasta_kind_is_one_definition() -> None:
    assert canasta_kind(7, 0) == "natural"
    assert canasta_kind(4, 3) == "mixed"
    assert canasta_kind(0, 7) == "wild"
    assert canasta_kind(3, 3) is None


def test_a_wild_canasta_is_scored_and_itemised() -> None:
    state = from_position(WILD_CANASTA)
    for move in ("draw", "meld 2S, 7H 7D 7C", "discard 8C"):
        state.play(move)
    assert state.result is not None
    score = state.result.sides[0]
    assert (score.wild_canastas, score.wild_bonus, score.wild_penalty) == (1, 1500, 0)
    assert score.canasta_bonus == 1500 and score.bonuses == 1600
    items = score.to_json()["items"]
    assert items["wild_bonus"] == 1500 and items["wild_penalty"] == 0


def test_the_scorekeeper_adds_up_as_the_engine_does() -> None:
    rules = canasta.Rules.parse({"preset": "classic", "wild_card_melds": True})
    entry = Itemised(natural=1, mixed=1, wild=1, red_threes=2, out="concealed", melded=400, in_hand=0)
    assert entry.score(rules) == side_score(rules, natural=1, mixed=1, wild=1, red_threes=2, has_melded=True,
                                            out="concealed", melded=400)
    unfinished = Itemised(unfinished_wild=True, melded=60)
    score = unfinished.score(rules)
    assert score.wild_penalty == rules.unfinished_wild_meld_penalty
    assert score.canasta_bonus == -score.wild_penalty


# -- chance as a seam (F11) ---------------------------------------------------------------

def test_dealable_is_the_stock_and_deal_card_fixes_the_next_draw() -> None:
    state = GameState.deal("classic", rng=random.Random(4))
    counts = state.dealable()
    assert sum(counts) == len(state.stock)
    assert all(counts[c] == state.stock.count(c) for c in range(53))
    wanted = next(c for c in range(53) if counts[c] and KIND[c] != RED_THREE and c != state.stock[-1])
    assert state.needs_deal(Move.parse("draw"))
    state.deal_card(wanted)
    assert not state.needs_deal(Move.parse("draw"))
    assert sum(state.dealable()) == len(state.stock) - 1
    seat = state.turn
    before = state.hand_counts[seat][wanted]
    state.play("draw")
    assert state.hand_counts[seat][wanted] == before + 1
    with pytest.raises(CardError):
        state.deal_card(parse_card("3H") if not state.dealable()[parse_card("3H")] else 999)


def test_needs_deal_says_whether_a_move_takes_an_unfixed_stock_card() -> None:
    rng = random.Random(8)
    checked = 0
    for rules in ("classic", "two-player"):
        for state in playout_states(4, 21, rules):
            for _ in range(rng.randrange(3)):  # fix a few of the next cards, as chance would
                counts = state.dealable()
                if any(counts):
                    state.deal_card(rng.choice([c for c in range(53) if counts[c]]))
            fixed = len(state.stock) - sum(state.dealable())
            for move in list(state.legal_moves())[:4]:
                trial = state.copy()
                trial.push(move)
                taken = len(state.stock) - len(trial.stock)
                assert state.needs_deal(move) == (taken > fixed), (str(move), fixed, taken)
                checked += 1
    assert checked > 500
