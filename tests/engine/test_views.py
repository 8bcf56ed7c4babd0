"""A seat's view holds only what that seat may know (STYLE.md, "Secrets leave only through a seat's view")."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

import canasta.bots
from canasta import GameState, Move, Rules, View, cards_text, from_position
from canasta.bots import BOTS, make_bot
from canasta.legal import materialize
from canasta.match import Match
from canasta.testing.soak import check_view
from canasta.tui.plain import play_in_terminal
from canasta.views import public_view

POSITION: dict[str, Any] = {
    "rules": "classic",
    "dealer": 3,
    "turn": 0,
    "scores": [0, 0],
    "hands": [["9S", "9H", "KS", "QS"], ["JH", "JD", "8H"], ["5C", "5D"], ["8C", "8D"]],
    "stock": ["QC", "QD", "7S", "7D"],
    "pile": ["6H", "TC", "9D"],
    "melds": [{"A": ["AS", "AH", "AD"]}, {}],
    "red_threes": [[], []],
}
SECRET_OF = {1: ["JH", "JD", "8H"], 2: ["5C", "5D"], 3: ["8C", "8D"]}
STOCK = ["QC", "QD", "7S", "7D"]


def state() -> GameState:
    return from_position(POSITION)


def test_view_shows_own_hand_and_only_sizes_of_the_rest() -> None:
    view = state().view(0)
    assert view.seat == 0 and view.side == 0
    assert cards_text(view.hand) == ["KS", "QS", "9S", "9H"]
    assert view.hand_sizes == (4, 3, 2, 2)
    assert view.stock_size == 4
    assert cards_text(view.pile) == ["6H", "TC", "9D"]
    assert view.top is not None and cards_text([view.top]) == ["9D"]
    assert view.turn == 0 and view.to_act == 0 and view.phase == "draw"
    assert view.minimums == (50, 50)
    assert view.melds[0] and not view.melds[1]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_view_json_carries_no_stock_and_no_other_hand(seat: int) -> None:
    data = state().view(seat).to_json()
    assert "stock" not in data and "hands" not in data
    text = json.dumps(data)
    for card in STOCK:
        assert f'"{card}"' not in text
    for other, cards in SECRET_OF.items():
        if other != seat:
            for card in cards:
                assert f'"{card}"' not in text, (seat, card)
    assert data["hand"] == cards_text(state().hand(seat))
    assert data["stock_size"] == 4


def test_view_of_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ValueError):
        state().view(4)


def test_cards_taken_with_the_pile_are_known_to_the_other_seats() -> None:
    s = state()
    s.play("pile 9S 9H")
    for seat in (1, 2, 3):
        assert sorted(cards_text(s.view(seat).known[0])) == ["6H", "TC"]
        assert s.view(seat).to_json()["known"][0] == ["TC", "6H"]
    assert s.view(0).known[0] == ()  # a seat's own hand is in its view already
    s.play("discard TC")
    assert cards_text(s.view(1).known[0]) == ["6H"]


def test_known_cards_disappear_when_melded() -> None:
    position = dict(POSITION, hands=[["9S", "9H", "6S", "6D", "QS"], ["JH", "JD", "8H"], ["5C", "5D"], ["8C", "8D"]])
    s = from_position(position)
    s.play("pile 9S 9H")
    assert "6H" in cards_text(s.view(2).known[0])
    s.play("meld 6S 6H 6D")
    assert cards_text(s.view(2).known[0]) == ["TC"]


def test_known_cards_of_other_players_never_exceed_their_hands() -> None:
    rng = random.Random(11)
    for _ in range(5):
        s = GameState.deal("classic", dealer=0, rng=rng)
        while not s.is_over:
            for seat in range(4):
                check_view(s, seat)
            specs = s.legal_moves().specs
            s.push(materialize(s, specs[rng.randrange(len(specs))]))


def test_view_history_is_public_moves_by_seat() -> None:
    s = state()
    s.play("draw")
    s.play("discard QS")
    view = s.view(2)
    assert view.history == ((0, "draw"), (0, "discard QS"))
    assert view.drew is None and view.to_act == 1


def test_view_after_the_hand_holds_the_result_but_no_hand() -> None:
    position = dict(POSITION, stock=[], pile=["2C", "9D"])
    s = from_position(position)
    s.play("draw")
    data = s.view(1).to_json()
    assert data["phase"] == "over" and data["result"] is not None
    assert "hands" not in data and "stock" not in data


class SpyBot:
    """Records what it is given and plays like the basic bot."""

    name = "spy"
    seen: ClassVar[list[Any]] = []

    def __init__(self, rng: random.Random) -> None:
        self.inner = make_bot("basic", rng)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        SpyBot.seen.append((view, list(moves)))
        return self.inner.choose(view, moves)


def test_bots_receive_views_never_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(canasta.bots.BOTS, "spy", SpyBot)
    SpyBot.seen = []
    lines: list[str] = []
    code = play_in_terminal(Rules.from_preset("classic", target=500), ["spy"] * 4, seed=3,
                            read=lambda prompt: "", write=lines.append)
    assert code == 0
    assert SpyBot.seen
    for view, moves in SpyBot.seen:
        assert isinstance(view, View)
        assert not isinstance(view, GameState)
        assert view.to_act == view.seat
        assert moves
        assert "stock" not in view.to_json()
    assert any(line.endswith(" the match.") for line in lines)


@pytest.mark.parametrize("name", sorted(n for n in BOTS if n != "search"))  # search: too slow here, see below
def test_every_bot_chooses_a_listed_move_from_a_view(name: str) -> None:
    rng = random.Random(4)
    bot = make_bot(name, random.Random(1))
    for _ in range(3):
        s = GameState.deal("classic", dealer=0, rng=rng)
        steps = 0
        while not s.is_over and steps < 400:
            moves = list(s.legal_moves())
            move = bot.choose(s.view(s.to_act), moves)
            assert move in moves
            s.play(move)
            steps += 1


def test_unknown_bot_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer player"):
        make_bot("grandmaster")


def test_match_views_carry_no_more_than_the_seat_may_know() -> None:
    match = Match(Rules.from_preset("classic", target=500), seed=2)
    view = match.state.view(1)
    assert list(view.hand) == match.state.hand(1)
    assert "deck" not in view.to_json()


@pytest.mark.skipif("search" not in BOTS, reason="no search bot")
def test_search_bot_answers_its_partners_question() -> None:
    state = GameState.deal("classic", dealer=0, rng=random.Random(4))
    basic = make_bot("basic", random.Random(0))
    while state.phase != "answer":
        state.play(basic.choose(state.view(state.to_act), list(state.legal_moves())))
    moves = list(state.legal_moves())
    bot = make_bot("search:30", random.Random(0))
    assert bot.choose(state.view(state.to_act), moves) in moves


def test_views_hold_every_field_and_public_views_no_seat_or_hand() -> None:
    """Views are made in one step (views._new): each holds exactly its class's fields, like ``__init__`` sets."""
    from dataclasses import fields

    from canasta.views import PublicView, make_view, public_view

    s = state()
    s.play("pile 9S 9H")
    public = public_view(s)

    def held(view: object) -> set[str]:  # interpreted: its __dict__; compiled by mypyc: no __dict__, its fields
        return set(vars(view)) if hasattr(view, "__dict__") else {f.name for f in fields(view) if hasattr(view, f.name)}

    assert type(public) is PublicView and held(public) == {f.name for f in fields(PublicView)}
    assert not hasattr(public, "seat") and not hasattr(public, "hand")
    for seat in range(4):
        view = make_view(s, seat)
        assert held(view) == {f.name for f in fields(View)}
        assert view == View(**{f.name: getattr(view, f.name) for f in fields(View)})
        assert public.known[0] and view.known[0] == (() if seat == 0 else public.known[0])


def test_the_view_adds_up_the_points_on_the_table_and_says_whom_the_pile_is_frozen_for() -> None:
    """Melded cards, canasta bonuses and red threes (against a side with no meld); hidden hands never count."""
    state = from_position({
        "rules": "classic", "dealer": 3, "turn": 0,
        "hands": [["9H", "9D", "5S"], ["4C", "4D"], ["4H"], ["4S", "KH"]], "stock": ["6C"], "pile": ["7C", "9S"],
        "melds": [{"8": ["8S", "8D", "8C", "8H", "8S", "8D", "8C"], "K": ["KS", "KD", "2C"]}, {}],
        "red_threes": [["3H"], ["3D"]]})
    view = public_view(state)
    # side 0: 7 eights (70) + natural canasta (500) + 2 kings and a two (40) + a red three (100)
    assert view.table_points() == (710, -100)
    assert view.to_json()["table_points"] == [710, -100]
    assert view.pile_frozen is False and view.pile_frozen_for == (False, True)
    assert state.view(1).to_json()["table_points"] == [710, -100]


def test_the_cards_left_in_each_hand_show_only_once_the_hand_is_over() -> None:
    """As at a real table, every hand is turned up when the hand ends, and never before."""
    from canasta.views import public_view

    s = state()
    for seat in range(4):
        assert s.view(seat).hands_left == ()
    assert public_view(s).hands_left == ()
    s.play("pile 9S 9H")
    assert public_view(s).hands_left == () and s.view(1).hands_left == ()
    position = dict(POSITION, stock=[], pile=["2C", "9D"])
    s = from_position(position)
    before = [tuple(s.hand(seat)) for seat in range(4)]
    assert public_view(s).hands_left == ()
    s.play("draw")
    assert s.is_over
    left = public_view(s).hands_left
    assert len(left) == 4 and left == tuple(tuple(s.hand(seat)) for seat in range(4))
    assert left[1:] == tuple(before[1:]) and s.view(2).hands_left == left
