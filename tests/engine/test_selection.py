"""canasta.selection: from the cards a player selected and an action to the moves they can mean, or why none can.

Reasons speak of the cards selected and the cards held; with nothing selected, of what would be needed
(never of a card nobody selected).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from canasta import GameState, from_position
from canasta.cards import IS_WILD, KIND, MELD_RANK_CHARS, NUM_NATURAL, RED_THREE, card_text, parse_cards
from canasta.judge import unavailable_reason
from canasta.legal import resolve
from canasta.moves import ACTIONS, DISCARD, DRAW, MELD, PILE
from canasta.rules import PRESETS
from canasta.selection import SELECT_TO_MELD, Choice, choices

KINGS = MELD_RANK_CHARS.index("K")


def after_draw(hand: list[str], melds: list[dict[str, list[str]]] | None = None, **more: Any) -> GameState:
    """Seat 0 of a classic table holding ``hand`` (after drawing 6C), to meld."""
    position: dict[str, Any] = {"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C", "8S"], "pile": ["4D"],
                                "hands": [hand, ["4C", "3S"], ["4H", "3C"], ["4S", "6H"]],
                                "melds": melds or [{}, {}], **more}
    state = from_position(position)
    state.play("draw")
    return state


def meld(state: GameState, cards: str, onto: int | None = None) -> Choice:
    return choices(state, 0, parse_cards(cards.split()), MELD, onto)


CARD = re.compile(r"\b(?:[AKQJT98765432][SHDC]|JK)\b")


# -- the three symptoms -------------------------------------------------------------------------


def test_a_lone_five_selected_while_another_is_held_says_so() -> None:
    """5S 5C held, 5C 2S JK selected: the reason is about the one 5 selected and the other held."""
    state = after_draw(["5S", "5C", "2S", "JK", "KD", "TS", "9C", "8H"])
    found = meld(state, "5C 2S JK")
    assert found.moves == () and found.reason is not None
    assert "you have one of" not in found.reason
    assert "5C" in found.reason and "you selected one" in found.reason and "hold another" in found.reason
    assert found.reason == "a new meld of 5s needs at least two natural 5s: you selected one (5C) and hold another"
    # Holding no other 5, it says so; holding three more, how many.
    assert meld(after_draw(["5C", "2S", "JK", "KD", "9C"]), "5C 2S JK").reason == (
        "a new meld of 5s needs at least two natural 5s: you selected one (5C) and hold no other")
    assert "hold 3 more" in str(meld(after_draw(["5C", "5S", "5H", "5D", "2S", "KD"]), "5C 2S").reason)


def test_a_king_and_a_ten_selected_speak_of_the_king_and_the_ten() -> None:
    state = after_draw(["KD", "TS", "TH", "9C", "8H", "7D", "5S"])
    found = meld(state, "KD TS")
    assert found.moves == () and found.reason is not None
    assert "one king (KD; you hold no other)" in found.reason and "one 10 (TS; you hold another)" in found.reason
    assert CARD.findall(found.reason) == ["KD", "TS"]


def test_nine_nines_and_a_joker_with_kings_on_the_table_offer_both_melds() -> None:
    state = after_draw(["9S", "9H", "9D", "JK", "5S", "7H"], melds=[{"K": ["KS", "KD", "KC"]}, {}],
                       melded=[True, False, False, False])
    found = meld(state, "9S 9H 9D JK")
    assert found.reason is None
    assert found.texts == ["meld 9S 9H 9D JK", "meld K: JK, 9S 9H 9D"]  # the fewest groups first
    for move in found.moves:
        assert state.is_legal(move)
    # Clicking the kings: the joker goes on them; the 9s are a new meld.
    assert meld(state, "9S 9H 9D JK", onto=KINGS).texts == ["meld K: JK, 9S 9H 9D"]
    assert meld(state, "JK", onto=KINGS).texts == ["meld K: JK"]


# -- a disabled button with nothing selected ---------------------------------------------------


def test_a_disabled_meld_button_names_no_card_when_none_is_selected() -> None:
    """A pair of 7s and single cards, no meld possible: the reason says what a meld needs, not "2 7s"."""
    state = after_draw(["7H", "7D", "KD", "TS", "9C", "5S", "4H"])
    assert MELD not in {spec[0] for spec in state.legal_moves().specs}
    why = unavailable_reason(state, 0, MELD)
    assert why == "you hold no three cards of one rank, nor two of a rank and a wild card"
    assert choices(state, 0, [], MELD).reason == why
    # The other side has aces, this hand one ace: nothing about aces either.
    state = after_draw(["AH", "7D", "KD", "TS", "9C", "5S", "4H"], melds=[{}, {"A": ["AS", "AD", "AC"]}])
    why = unavailable_reason(state, 0, MELD)
    assert "ace" not in why and not CARD.search(why), why


def test_a_first_meld_too_small_says_the_minimum_without_naming_cards() -> None:
    state = after_draw(["5S", "5C", "5H", "9C", "8H", "KD", "TS"])  # 15 points of 5s, 50 needed
    why = unavailable_reason(state, 0, MELD)
    assert why == "your side's first meld must be worth at least 50, and the melds in your hand do not reach it"
    # Selected, the same cards are counted.
    assert meld(state, "5S 5C 5H").reason == (
        "your side's first meld must be worth at least 50 (these cards are worth 15): meld 5S 5H 5C")


def test_unavailable_reasons_over_random_play_name_no_card() -> None:
    rng = random.Random("unavailable names no card")
    for preset in sorted(PRESETS):
        state = GameState.deal(preset, dealer=0, rng=rng)
        for _ in range(60):
            if state.is_over:
                break
            words = {spec[0] for spec in state.legal_moves().specs}
            for action in ACTIONS:
                if action not in words:
                    why = unavailable_reason(state, state.to_act, action)
                    assert not CARD.search(why) and not why.startswith("no "), (preset, action, why)
            state.play(rng.choice(list(state.legal_moves())))


# -- the actions ---------------------------------------------------------------------------------


def test_phase_reasons_come_before_anything_about_the_cards() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["4D"],
                           "hands": [["KD", "TS", "9C"], ["4C"], ["4H"], ["4S"]]})
    assert meld(state, "KD").reason == "draw from the stock or take the pile first"
    assert choices(state, 0, parse_cards(["KD", "TS"]), DISCARD).reason == "draw from the stock or take the pile first"
    assert choices(state, 1, parse_cards(["4C"]), DISCARD).reason == "it is not your turn"
    assert choices(state, 0, [], DRAW).texts == ["draw"]
    assert choices(state, 0, parse_cards(["KD"]), DRAW).reason == "draw takes no cards"


def test_discard_needs_one_card_and_says_which_were_selected() -> None:
    state = after_draw(["KD", "TS", "9C", "5S"])
    assert choices(state, 0, parse_cards(["KD"]), DISCARD).texts == ["discard KD"]
    assert choices(state, 0, [], DISCARD).reason == "select one card to discard"
    assert choices(state, 0, parse_cards(["KD", "TS"]), DISCARD).reason == (
        "select only one card to discard: you selected 2 (KD TS)")
    assert choices(state, 0, parse_cards(["AS"]), DISCARD).reason == "you do not hold AS"
    assert choices(state, 0, parse_cards(["KD", "KD"]), MELD).reason == "you hold only one KD, not 2"


def test_meld_of_no_card_asks_for_a_selection_when_a_meld_is_possible() -> None:
    state = after_draw(["KD", "KS", "KH", "AS", "AH", "AD", "9C"])
    assert choices(state, 0, [], MELD) == Choice((), SELECT_TO_MELD)


def test_wild_cards_alone_with_no_meld_to_join() -> None:
    state = after_draw(["2S", "JK", "KD", "9C", "5S"])
    assert meld(state, "2S JK").reason == ("the wild cards you selected (2S JK) have no meld to join: select "
                                           "natural cards of one rank with them, or add them to a meld of your side's")


def test_a_red_three_selected_is_named() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["4D"],
                           "hands": [["KD", "9C"], ["4C"], ["4H"], ["4S"]]})
    state.play("draw")
    state.hand_counts[0][parse_cards(["3H"])[0]] += 1  # a red three cannot stay in a hand; only to see the sentence
    assert meld(state, "3H KD").reason == "you selected 3H: red threes are never melded; they are laid out"


def test_adding_to_a_meld_on_the_table() -> None:
    state = after_draw(["9S", "9H", "QD", "JK", "2C", "KH", "7H", "5S"], melds=[{"K": ["KS", "KD", "KC"]}, {}],
                       melded=[True, False, False, False])
    assert meld(state, "KH JK", onto=KINGS).texts == ["meld KH JK"]
    # Without a meld named, the wild cards may go either way; on the kings, both go there.
    assert meld(state, "9S 9H 2C JK").texts == ["meld 9S 9H 2C JK", "meld K: 2C, 9S 9H JK", "meld K: JK, 9S 9H 2C"]
    assert meld(state, "9S 9H 2C JK", onto=KINGS).reason == (
        "a meld needs at least three cards: 2 9s are not enough: meld K: 2C JK, 9S 9H")
    queens = MELD_RANK_CHARS.index("Q")
    assert meld(state, "JK", onto=queens).reason == "your side has no meld of queens to add to"
    assert meld(state, "9S 9H", onto=KINGS).reason == (
        "none of the cards you selected (9S 9H) goes on your meld of kings: only kings and wild cards do")
    assert choices(state, 0, parse_cards(["JK"]), DISCARD, onto=KINGS).reason == (
        "only a meld adds cards to a meld on the table")


def test_the_pile_with_nothing_selected_offers_every_way_to_take_it() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["5C", "9S"],
                           "hands": [["9H", "9D", "2D", "AS", "AH", "AD", "5S", "6C", "7C", "8C", "TC"],
                                     ["4C"], ["4H"], ["4S"]]})
    ways = [m for m in state.legal_moves() if m.action == PILE]
    assert len(ways) > 1 and list(choices(state, 0, [], PILE).moves) == ways
    assert choices(state, 0, parse_cards(["9H", "9D", "AS", "AH", "AD"]), PILE).texts == ["pile 9H 9D, AS AH AD"]
    blocked = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["5C", "2S"],
                             "hands": [["9H", "9D"], ["4C"], ["4H"], ["4S"]]})
    assert choices(blocked, 0, parse_cards(["9H", "9D"]), PILE).reason == "a wild card on top of the pile blocks it"
    # A single natural of another rank: about that card, whatever the top card.
    assert "you selected one (AS)" in str(choices(state, 0, parse_cards(["9H", "9D", "AS"]), PILE).reason)


# -- random selections -----------------------------------------------------------------------------


def random_selections(preset: str, rng: random.Random, hands: int = 6) -> list[tuple[GameState, list[int], str]]:
    """Positions of random play in ``preset`` with random selections from the hand of the seat to act."""
    found: list[tuple[GameState, list[int], str]] = []
    for hand in range(hands):
        state = GameState.deal(preset, dealer=hand % PRESETS[preset].players, rng=rng)
        for _ in range(rng.randrange(0, 60)):
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if state.is_over:
            continue
        held = state.hand(state.to_act)
        legal = [m for m in state.legal_moves() if m.action in (MELD, PILE, DISCARD)]
        for _ in range(6):
            if legal and rng.random() < 0.5:  # the cards of a legal move (which may mean others too)
                move = rng.choice(legal)
                cards = list(move.cards)
                if move.action != DISCARD and rng.random() < 0.5:  # and the wild cards held besides
                    wilds = [c for c in held if IS_WILD[c]]
                    for c in cards:
                        if c in wilds:
                            wilds.remove(c)
                    cards += wilds
                found.append((state, cards, move.action))
                continue
            cards = rng.sample(held, min(len(held), rng.randrange(0, 6)))
            found.append((state, cards, rng.choice([MELD, MELD, PILE, DISCARD])))
    return found


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_answer_is_legal_uses_the_selection_and_agrees_with_resolve(preset: str) -> None:
    rng = random.Random(f"selection:{preset}")
    for state, cards, action in random_selections(preset, rng):
        seat = state.to_act
        found = choices(state, seat, cards, action)
        assert (found.reason is None) == bool(found.moves), (found, action, cards)
        for move in found.moves:
            assert state.is_legal(move) and move.action == action
            if cards or action != PILE:
                assert sorted(move.cards) == sorted(cards)
        if cards and action in (MELD, PILE):
            # The same moves as the engine's groupings (the order aside): the selection adds only reasons.
            assert sorted(found.texts) == sorted(str(m) for m in resolve(state, seat, cards, action)[0])
        if found.reason is not None:
            # A reason names no card but those selected (and the pile's top card, public anyway).
            named = set(CARD.findall(found.reason))
            assert named <= {card_text(c) for c in cards} | {card_text(c) for c in state.pile[-1:]}, found.reason


def test_ranks_too_short_are_found_before_any_grouping() -> None:
    """Selections with a lone natural card of a rank the side has no meld of: the sentence is about that card."""
    rng = random.Random("too short")
    seen = 0
    for state, cards, action in random_selections("classic", rng, hands=20):
        if action not in (MELD, PILE) or state.phase != ("draw" if action == PILE else "play"):
            continue
        side = state.to_act % state.sides
        lone = [c for c in cards if KIND[c] < NUM_NATURAL and state.melds[side][KIND[c]] is None
                and sum(KIND[d] == KIND[c] for d in cards) == 1
                and not (action == PILE and state.pile and KIND[state.pile[-1]] == KIND[c])]
        if not lone or (action == PILE and (not state.pile or KIND[state.pile[-1]] >= NUM_NATURAL)):
            continue
        found = choices(state, state.to_act, cards, action)
        if any(KIND[c] == RED_THREE for c in cards):
            continue  # a red three is named first
        assert found.reason is not None and "you selected one" in found.reason, found
        assert all(card_text(c) in found.reason for c in lone), found.reason
        seen += 1
    assert seen >= 10
