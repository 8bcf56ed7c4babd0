"""One test per clause and edge of RULES.md 1-15, each a position plus a few move lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from canasta import GameState, IllegalMoveError, Move, Rules, cards_text, from_position, full_deck
from canasta.position import deal_from, to_position

# -- helpers -----------------------------------------------------------------------------------


def table(
    hands: Sequence[Sequence[str]],
    *,
    turn: int = 0,
    stock: Sequence[str] = ("6D", "7C", "8H", "TD", "JC"),
    pile: Sequence[str] = ("TH",),
    melds: Sequence[dict[str, list[str]]] | None = None,
    red_threes: Sequence[list[str]] | None = None,
    melded: Sequence[bool] | None = None,
    scores: Sequence[int] | None = None,
    rules: Any = "classic",
    frozen: bool = False,
) -> GameState:
    """A state at the start of ``turn`` from the given cards."""
    r = Rules.parse(rules)
    position: dict[str, Any] = {
        "rules": rules,
        "dealer": (turn - 1) % r.players,
        "turn": turn,
        "scores": list(scores) if scores is not None else [0] * r.sides,
        "hands": [list(h) for h in hands],
        "stock": list(stock),
        "pile": list(pile),
        "melds": list(melds) if melds is not None else [{} for _ in range(r.sides)],
        "red_threes": list(red_threes) if red_threes is not None else [[] for _ in range(r.sides)],
        "frozen": frozen,
    }
    if melded is not None:
        position["melded"] = list(melded)
    state = from_position(position)
    check_consistent(state)
    return state


def snapshot(state: GameState) -> tuple[Any, ...]:
    return (to_position(state), state.phase, state.to_act, len(state.history), state.drew, state.asked,
            state.answer, state.result)


def check_consistent(state: GameState) -> None:
    """Every canonical legal move passes the rules' check."""
    for move in state.legal_moves():
        assert state.is_legal(move), move


def refuse(state: GameState, move: str, words: str) -> None:
    """The move is illegal for a reason naming ``words``, and trying it changes nothing."""
    before = snapshot(state)
    assert not state.is_legal(move)
    assert move not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match=words) as info:
        state.play(move)
    assert str(info.value).endswith(f": {Move.parse(move)}")
    assert snapshot(state) == before


def play(state: GameState, *moves: str) -> None:
    for move in moves:
        assert state.is_legal(move), f"{move}: {state.legal_moves()!r}"
        state.play(move)
        check_consistent(state)


def meld_text(state: GameState, side: int) -> dict[str, list[str]]:
    """A side's melds as rank -> sorted card codes."""
    return {rank: sorted(cards) for rank, cards in to_position(state)["melds"][side].items()}


def hand(state: GameState, seat: int) -> list[str]:
    return cards_text(state.hand(seat))


def sizes(state: GameState) -> list[int]:
    return [len(state.hand(s)) for s in range(state.players)]


ACES = {"A": ["AS", "AH", "AD"]}
K_CANASTA = {"K": ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]}
OTHERS = [["5H", "6H"], ["6C", "7C"], ["8C", "9C"]]


def deck_with(top: list[str]) -> list[str]:
    rest = cards_text(full_deck(2))
    for card in top:
        rest.remove(card)
    return top + rest


# -- 1. deal and upcard ------------------------------------------------------------------------


def test_deal_wild_upcard_is_covered_and_the_pile_frozen_for_the_first_player() -> None:
    top = [c for c in cards_text(full_deck(2)) if c[0] in "AKQJT" and c != "JK"] + ["8S", "8S", "8H", "8H"]
    # seat 1 plays first and is dealt cards 0, 4, 8, ...: 9S 9H 2C KD QS QD JS JD TS TD 8S
    top[0], top[4], top[8] = "9S", "9H", "2C"
    deck = deck_with([*top, "JK", "9D"])
    state = deal_from({"dealer": 0, "deck": deck})
    assert cards_text(state.pile) == ["JK", "9D"]
    assert state.pile_frozen()
    assert state.turn == 1
    refuse(state, "pile 9S 2C", "frozen")
    assert hand(state, 1) == ["KD", "QS", "QD", "JS", "JD", "TS", "TD", "9S", "9H", "8S", "2C"]
    refuse(state, "pile 9S 9H", "at least 50")  # 30 with the top card
    play(state, "pile 9S 9H, QS QD 2C")
    assert hand(state, 1) == ["KD", "JS", "JD", "TS", "TD", "8S", "JK"]


def test_deal_black_three_upcard_blocks_only_the_first_player() -> None:
    state = table(
        [["KS", "QS", "9H"], ["KH", "KD", "4C"], ["6C", "7C"], ["8C", "9C"]],
        pile=["3S"], melds=[ACES, {"5": ["5S", "5H", "5D"]}],
    )
    refuse(state, "pile", "black three")
    play(state, "draw", "discard KS")
    assert cards_text(state.pile) == ["3S", "KS"]
    play(state, "pile KH KD")
    assert meld_text(state, 1)["K"] == ["KD", "KH", "KS"]
    assert hand(state, 1) == ["4C", "3S"]
    assert state.pile == []


# -- 2. red threes -----------------------------------------------------------------------------


def test_red_three_drawn_is_laid_out_and_replaced_at_once() -> None:
    state = table([["KS", "QS", "9H"], *OTHERS], stock=["3H", "5D", "6D"], melds=[ACES, {}])
    play(state, "draw")
    assert hand(state, 0) == ["KS", "QS", "9H", "5D"]
    assert cards_text(state.red_threes[0]) == ["3H"]
    assert cards_text(reversed(state.stock)) == ["6D"]
    assert state.phase == "play"


def test_red_three_taken_with_the_pile_is_laid_out_without_replacement() -> None:
    state = table([["9S", "9H", "KS", "QS"], *OTHERS], pile=["6H", "3D", "9D"], melds=[ACES, {}])
    assert state.pile_frozen()
    play(state, "pile 9S 9H")
    assert meld_text(state, 0)["9"] == ["9D", "9H", "9S"]
    assert hand(state, 0) == ["KS", "QS", "6H"]
    assert cards_text(state.red_threes[0]) == ["3D"]
    assert len(state.stock) == 5
    assert state.pile == [] and not state.pile_frozen()


def test_last_stock_card_red_three_ends_the_hand_at_once() -> None:
    state = table([["KS", "QS"], *OTHERS], stock=["3D"], melds=[ACES, {}])
    play(state, "draw")
    assert state.phase == "over" and state.is_over
    assert cards_text(state.red_threes[0]) == ["3D"]
    assert hand(state, 0) == ["KS", "QS"]
    refuse(state, "discard KS", "over")
    refuse(state, "meld KS", "over")
    assert list(state.legal_moves()) == []
    result = state.result
    assert result is not None and result.went_out is None
    side = result.sides[0]
    assert (side.red_three_points, side.melded, side.in_hand, side.going_out) == (100, 60, 20 + 10, 0)
    assert side.total == 100 + 60 - 30


def test_red_three_replacement_that_is_the_last_card_lets_play_go_on() -> None:
    state = table([["KS", "QS"], *OTHERS], stock=["3H", "5D"], melds=[ACES, {}])
    play(state, "draw")
    assert state.phase == "play" and state.stock == []
    assert hand(state, 0) == ["KS", "QS", "5D"]
    play(state, "discard 5D")
    assert state.turn == 1


# -- 3. melds ----------------------------------------------------------------------------------


def test_meld_of_two_naturals_and_three_wild_cards_is_legal() -> None:
    state = table([["5S", "5H", "2D", "2C", "JK", "KS", "QS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw", "meld 5S 5H 2D 2C JK")
    assert meld_text(state, 0)["5"] == ["2C", "2D", "5H", "5S", "JK"]
    assert len(state.hand(0)) == 3


def test_meld_needs_two_natural_cards() -> None:
    state = table([["5S", "2D", "2C", "KS", "QS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw")
    refuse(state, "meld 5S 2D 2C", "two natural")


def test_meld_holds_at_most_three_wild_cards() -> None:
    state = table([["5S", "5H", "5D", "2D", "2C", "JK", "JK", "KS", "QS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw")
    refuse(state, "meld 5S 5H 5D 2D 2C JK JK", "at most three wild")
    play(state, "meld 5S 5H 5D 2D 2C JK")


def test_meld_needs_three_cards() -> None:
    state = table([["KS", "KD", "QS", "JS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw")
    refuse(state, "meld KS KD", "three cards")


def test_wild_cards_never_form_a_meld_of_their_own() -> None:
    state = table([["2C", "JK", "2D", "QS", "JS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw")
    refuse(state, "meld K: 2C JK 2D", "no meld of kings")
    refuse(state, "meld 2C JK 2D", "must name the meld")


def test_a_side_has_one_meld_per_rank_and_more_cards_join_it() -> None:
    state = table([["KH", "KH", "KS", "QS", "JS"], *OTHERS], melds=[{"K": ["KS", "KD", "KC"]}, {}])
    play(state, "draw", "meld KH KH KS")
    assert meld_text(state, 0) == {"K": ["KC", "KD", "KH", "KH", "KS", "KS"]}
    assert state.meld_count[0] == 1


def test_two_groups_of_one_rank_in_one_move_make_one_meld() -> None:
    state = table([["QS", "QH", "QD", "JS", "JH"], *OTHERS], melds=[ACES, {}])
    play(state, "draw", "meld QS QH, QD")
    assert meld_text(state, 0)["Q"] == ["QD", "QH", "QS"]


def test_never_add_to_another_sides_meld() -> None:
    state = table([["QS", "2C", "JS", "TS"], *OTHERS], melds=[ACES, {"Q": ["QH", "QD", "QC"]}])
    play(state, "draw")
    refuse(state, "meld QS", "other side")
    refuse(state, "meld Q: 2C", "no meld of queens")


def test_a_side_may_start_a_meld_of_a_rank_the_other_side_holds() -> None:
    state = table([["QS", "QH", "QD", "JS", "TS"], *OTHERS], melds=[ACES, {"Q": ["QH", "QD", "QC"]}])
    play(state, "draw", "meld QS QH QD")
    assert meld_text(state, 0)["Q"] == ["QD", "QH", "QS"]
    assert meld_text(state, 1)["Q"] == ["QC", "QD", "QH"]


# -- 4. canastas -------------------------------------------------------------------------------


def test_canastas_score_500_natural_and_300_mixed() -> None:
    melds = [{"K": ["KS", "KD", "KC", "KH", "KH", "KD"], "9": ["9S", "9H", "9D", "9C", "2C", "2D"]}, {}]
    state = table([["KS", "9S"], ["4H", "5H"], ["6C", "7C"], ["8C", "JK"]], stock=["4C", "5S"], melds=melds)
    play(state, "draw", "meld KS, 9S", "discard 4C")
    result = state.result
    assert result is not None and result.went_out == 0 and not result.concealed
    side = result.sides[0]
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (1, 1, 800)
    assert side.going_out == 100
    assert side.melded == 70 + 90
    assert side.in_hand == 10
    assert side.total == 800 + 100 + 160 - 10
    other = result.sides[1]
    assert (other.canasta_bonus, other.melded, other.in_hand, other.total) == (0, 0, 70, -70)
    assert result.totals == (1050, -70)


def test_wild_card_added_to_a_natural_canasta_makes_it_mixed() -> None:
    state = table([["2C", "QS", "QH"], *OTHERS], stock=["QD", "5S"], melds=[K_CANASTA, {}])
    play(state, "draw", "meld K: 2C", "meld QS QH QD")
    result = state.result
    assert result is not None and result.went_out == 0
    side = result.sides[0]
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (0, 1, 300)
    assert len(meld_text(state, 0)["K"]) == 8


def test_natural_card_added_to_a_natural_canasta_keeps_it_natural() -> None:
    state = table([["KC", "QS", "QH"], *OTHERS], stock=["QD", "5S"], melds=[K_CANASTA, {}])
    play(state, "draw", "meld KC", "meld QS QH QD")
    result = state.result
    assert result is not None
    assert (result.sides[0].natural_canastas, result.sides[0].canasta_bonus) == (1, 500)


def test_no_meld_ever_holds_a_fourth_wild_card() -> None:
    mixed = {"K": ["KS", "KD", "KC", "KH", "2C", "2D", "JK"]}
    state = table([["2S", "KH", "QS", "JS"], *OTHERS], melds=[mixed, {}])
    play(state, "draw")
    refuse(state, "meld K: 2S", "at most three wild")
    play(state, "meld KH")
    assert len(meld_text(state, 0)["K"]) == 8


# -- 5. threes ---------------------------------------------------------------------------------


def test_black_threes_are_melded_only_when_going_out() -> None:
    state = table([["3S", "3S", "3C", "QS", "JS"], *OTHERS], melds=[K_CANASTA, {}])
    play(state, "draw")
    refuse(state, "meld 3S 3S 3C", "only when going out")


def test_black_threes_melded_going_out_score_5_each() -> None:
    state = table([["3S", "3S", "3C"], *OTHERS], stock=["4C", "5S"], melds=[K_CANASTA, {}])
    play(state, "draw", "meld 3S 3S 3C", "discard 4C")
    result = state.result
    assert result is not None and result.went_out == 0
    assert meld_text(state, 0)["3"] == ["3C", "3S", "3S"]
    assert result.sides[0].melded == 70 + 15


def test_black_threes_in_hand_at_the_end_cost_5_each() -> None:
    state = table([["QS", "QH"], ["3S", "3C", "4H"], ["3S", "JK"], ["8C", "9C"]], stock=["QD", "5S"],
                  melds=[K_CANASTA, {}])
    play(state, "draw", "meld QS QH QD")
    result = state.result
    assert result is not None
    assert result.sides[0].in_hand == 5 + 50
    assert result.sides[1].in_hand == 5 + 5 + 5 + 10 + 10


def test_black_threes_are_melded_without_wild_cards() -> None:
    state = table([["3S", "3C", "2C"], *OTHERS], stock=["4C"], melds=[K_CANASTA, {}])
    play(state, "draw")
    refuse(state, "meld 3S 3C 2C", "without wild cards")


def test_black_threes_meld_three_or_four_of_them() -> None:
    state = table([["3S", "3C", "4C"], *OTHERS], stock=["4D"], melds=[K_CANASTA, {}])
    play(state, "draw")
    refuse(state, "meld 3S 3C", "3 or 4")


def test_red_threes_are_never_melded() -> None:
    state = table([["3H", "3D", "QS", "JS"], *OTHERS], stock=["4C", "5C", "6C"], melds=[ACES, {}])
    assert sorted(cards_text(state.red_threes[0])) == ["3D", "3H"]
    play(state, "draw")
    refuse(state, "meld 3H 3D 3H", "3H")


# -- 6. first meld -----------------------------------------------------------------------------


def test_first_meld_below_the_minimum_is_refused() -> None:
    state = table([["KS", "KH", "KD", "7S", "7H", "7D", "7C", "4C"], *OTHERS], stock=["5D"])
    play(state, "draw")
    refuse(state, "meld KS KH KD", "at least 50")
    refuse(state, "meld 7S 7H 7D 7C", "worth 20")


def test_first_meld_may_be_several_melds_reaching_the_minimum_exactly() -> None:
    state = table([["KS", "KH", "KD", "7S", "7H", "7D", "7C", "4C"], *OTHERS], stock=["5D"])
    play(state, "draw", "meld KS KH KD, 7S 7H 7D 7C")
    assert set(meld_text(state, 0)) == {"K", "7"}


@pytest.mark.parametrize(
    ("score", "short", "enough"),
    [
        (-5, None, "meld 4S 4H 4D"),
        (1495, "meld KS KH KD, 4S 4H 4D", "meld KS KH KD, 5S 5H 5D, 4S 4H 4D"),
        (1500, "meld AS AH AD, 4S 4H 4D", "meld AS AH AD, KS KH KD"),
        (3000, "meld AS AH AD, KS KH KD, 4S 4H 4D", "meld AS AH AD, KS KH KD, QS QH QD"),
    ],
)
def test_first_meld_minimum_follows_the_match_total(score: int, short: str | None, enough: str) -> None:
    cards = ["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD", "5S", "5H", "5D", "4S", "4H", "4D", "2C"]
    state = table([cards, *OTHERS], scores=[score, 0], stock=["9D"])
    play(state, "draw")
    if short is not None:
        refuse(state, short, f"at least {state.minimum(0)}")
    play(state, enough)


def test_first_meld_minimum_below_zero_is_15() -> None:
    state = table([["4S", "4H", "4D", "9S", "TS"], *OTHERS], scores=[-5, 0], stock=["9D"])
    assert state.minimum(0) == 15
    play(state, "draw", "meld 4S 4H 4D")


def test_first_meld_with_the_pile_counts_the_top_card() -> None:
    state = table([["AS", "AH", "4C", "6C"], *OTHERS], pile=["5D", "AC"])
    play(state, "pile AS AH")  # 40 from the hand and 20 for the top card
    assert meld_text(state, 0) == {"A": ["AC", "AH", "AS"]}
    assert hand(state, 0) == ["6C", "5D", "4C"]


def test_first_meld_with_the_pile_does_not_count_the_rest_of_the_pile() -> None:
    state = table([["KS", "KH", "4C", "6C"], *OTHERS], pile=["AD", "AC", "KC"])
    refuse(state, "pile KS KH", "at least 50")


def test_first_meld_canasta_bonus_does_not_count() -> None:
    state = table([["4S", "4S", "4H", "4H", "4D", "4D", "4C", "6C", "7D"], *OTHERS], stock=["9D"])
    play(state, "draw")
    refuse(state, "meld 4S 4S 4H 4H 4D 4D 4C", "worth 35")


def test_no_minimum_once_the_side_has_melded() -> None:
    state = table([["4S", "4H", "4D", "9S", "TS"], *OTHERS], melds=[ACES, {}], melded=[False, False, True, False])
    play(state, "draw", "meld 4S 4H 4D")


# -- 7. the turn -------------------------------------------------------------------------------


def test_turn_is_draw_then_meld_then_discard_then_the_next_seat_clockwise() -> None:
    state = table([["QS", "QH", "QD", "9S", "TS"], *OTHERS], melds=[ACES, {}],
                  stock=["5D", "6D", "7D", "8D", "9D", "TD"])
    assert (state.turn, state.phase) == (0, "draw")
    play(state, "draw")
    assert (state.turn, state.phase, sizes(state)) == (0, "play", [6, 2, 2, 2])
    play(state, "meld QS QH QD")
    assert (state.turn, state.phase, sizes(state)) == (0, "play", [3, 2, 2, 2])
    play(state, "discard 9S")
    assert (state.turn, state.phase, sizes(state)) == (1, "draw", [2, 2, 2, 2])
    assert cards_text(state.pile) == ["TH", "9S"]
    for seat in (1, 2, 3):
        play(state, "draw", f"discard {hand(state, seat)[0]}")
    assert (state.turn, state.phase) == (0, "draw")


def test_nothing_but_draw_or_pile_before_drawing() -> None:
    state = table([["QS", "QH", "QD", "9S", "TS"], *OTHERS], melds=[ACES, {}])
    refuse(state, "discard 9S", "draw from the stock or take the pile first")
    refuse(state, "meld QS QH QD", "draw from the stock or take the pile first")
    refuse(state, "ask", "after drawing")
    refuse(state, "yes", "nobody has asked")


def test_draw_only_once_and_no_pile_after_drawing() -> None:
    state = table([["9S", "9H", "TS"], *OTHERS], melds=[ACES, {}], pile=["9D"])
    play(state, "draw")
    refuse(state, "draw", "already drawn")
    refuse(state, "pile 9S 9H", "already drawn")


def test_cards_not_held_are_refused() -> None:
    state = table([["QS", "QH", "9S", "TS"], *OTHERS], melds=[ACES, {}])
    play(state, "draw")
    refuse(state, "discard KS", "do not hold KS")
    refuse(state, "meld QS QH QH", "only one QH, not 2")


def test_going_out_by_melding_every_card_needs_no_discard() -> None:
    state = table([["QS", "QH"], *OTHERS], stock=["QD", "5S"], melds=[K_CANASTA, {}])
    play(state, "draw", "meld QS QH QD")
    assert state.is_over and state.phase == "over"
    assert state.result is not None and state.result.went_out == 0
    assert cards_text(state.pile) == ["TH"]
    assert sizes(state)[0] == 0


@pytest.mark.parametrize(("preset", "drawn"), [("two-player", 2), ("two-player-draw-one", 1)])
def test_draw_takes_the_rules_number_of_cards(preset: str, drawn: int) -> None:
    state = table([["KS", "QS"], ["4H", "5H"]], rules=preset, stock=["5D", "6D", "7D"], melds=[{}, {}])
    play(state, "draw")
    assert len(state.hand(0)) == 2 + drawn
    assert len(state.stock) == 3 - drawn


# -- 8. taking the pile ------------------------------------------------------------------------


def test_unfrozen_pile_taken_with_a_natural_pair() -> None:
    state = table([["9S", "9H", "KS"], *OTHERS], pile=["6H", "TC", "9D"], melds=[ACES, {}])
    play(state, "pile 9S 9H")
    assert meld_text(state, 0)["9"] == ["9D", "9H", "9S"]
    assert hand(state, 0) == ["KS", "TC", "6H"]
    assert state.pile == [] and state.phase == "play" and state.drew == "pile"


def test_unfrozen_pile_taken_with_a_natural_and_a_wild_card() -> None:
    state = table([["9S", "2C", "KS", "QS"], *OTHERS], pile=["6H", "TC", "9D"], melds=[ACES, {}])
    play(state, "pile 9S 2C")
    assert meld_text(state, 0)["9"] == ["2C", "9D", "9S"]
    assert hand(state, 0) == ["KS", "QS", "TC", "6H"]


def test_unfrozen_pile_top_card_goes_onto_the_sides_meld() -> None:
    melds = [{"9": ["9S", "9H", "9C"]}, {}]
    state = table([["KS", "QS"], *OTHERS], pile=["6H", "TC", "9D"], melds=melds)
    play(state, "pile")
    assert meld_text(state, 0)["9"] == ["9C", "9D", "9H", "9S"]
    assert hand(state, 0) == ["KS", "QS", "TC", "6H"]


def test_frozen_pile_requires_natural_pair() -> None:
    state = table([["9S", "9H", "2D", "KS"], *OTHERS], pile=["6H", "2C", "9D"], melds=[ACES, {}])
    assert state.pile_frozen()
    refuse(state, "pile 9S 2D", "frozen")
    refuse(state, "pile 9S 9H 2D", "wild cards cannot help")
    play(state, "pile 9S 9H")
    assert meld_text(state, 0)["9"] == ["9D", "9H", "9S"]


def test_frozen_pile_top_card_cannot_go_onto_the_sides_meld() -> None:
    melds = [{"9": ["9S", "9H", "9C"]}, {}]
    state = table([["9S", "KS", "QS"], *OTHERS], pile=["6H", "2C", "9D"], melds=melds)
    refuse(state, "pile", "frozen")
    refuse(state, "pile 9S", "frozen")


def test_frozen_pile_natural_pair_joins_the_sides_meld() -> None:
    melds = [{"9": ["9S", "9C", "2S"]}, {}]
    state = table([["9H", "9H", "KS"], *OTHERS], pile=["6H", "JK", "9D"], melds=melds)
    play(state, "pile 9H 9H")
    assert meld_text(state, 0) == {"9": ["2S", "9C", "9D", "9H", "9H", "9S"]}
    assert state.meld_count[0] == 1
    assert hand(state, 0) == ["KS", "6H", "JK"]


def test_pile_is_frozen_against_a_side_with_no_meld() -> None:
    state = table([["9S", "2C", "AS", "AH", "AD"], *OTHERS], pile=["6H", "TC", "9D"],
                  melds=[{}, {"5": ["5S", "5H", "5D"]}])
    assert not state.pile_frozen()
    refuse(state, "pile 9S 2C, AS AH AD", "frozen")
    # the other side, which has melded, could take it with one natural and a wild card
    other = table([["KS", "QS"], ["9S", "2C", "4C"], ["6C", "7C"], ["8C", "9C"]], turn=1, pile=["6H", "TC", "9D"],
                  melds=[{}, {"5": ["5S", "5H", "5D"]}])
    play(other, "pile 9S 2C")


@pytest.mark.parametrize("top", ["2C", "JK"])
def test_wild_card_on_top_blocks_the_pile(top: str) -> None:
    state = table([["9S", "9H", "KS", "2D"], *OTHERS], pile=["9D", top], melds=[{"9": ["9S", "9C", "9D"]}, {}])
    refuse(state, "pile", "wild card on top")
    refuse(state, "pile 9S 9H", "wild card on top")
    assert [str(m) for m in state.legal_moves()] == ["draw"]


def test_one_card_hand_may_not_take_a_one_card_pile() -> None:
    melds = [{**K_CANASTA, "9": ["9S", "9H", "9C"]}, {}]
    state = table([["4C"], *OTHERS], pile=["9D"], melds=melds)
    refuse(state, "pile", "one card")
    bigger = table([["4C"], *OTHERS], pile=["5D", "9D"], melds=melds)
    play(bigger, "pile")
    assert hand(bigger, 0) == ["5D", "4C"]


def test_the_whole_pile_is_taken_and_the_freeze_ends() -> None:
    state = table([["9S", "9H", "KS", "QS"], *OTHERS], pile=["6H", "2C", "TC", "9D"], melds=[ACES, {}])
    assert state.pile_frozen()
    play(state, "pile 9S 9H")
    assert hand(state, 0) == ["KS", "QS", "TC", "6H", "2C"]
    assert state.pile == [] and not state.pile_frozen()
    play(state, "discard TC")
    assert cards_text(state.pile) == ["TC"] and not state.pile_frozen()


def test_taking_the_pile_must_meld_its_top_card() -> None:
    state = table([["KS", "KH", "KD", "9S"], *OTHERS], pile=["6H", "9D"], melds=[ACES, {}])
    refuse(state, "pile KS KH KD", "must meld its top card")
    refuse(state, "pile 9S", "three cards")


def test_taking_the_pile_with_further_melds_in_the_same_move() -> None:
    state = table([["9S", "9H", "KS", "KH", "KD", "QS"], *OTHERS], pile=["6H", "9D"], melds=[ACES, {}])
    play(state, "pile 9S 9H, KS KH KD")
    assert set(meld_text(state, 0)) == {"A", "9", "K"}
    assert hand(state, 0) == ["QS", "6H"]


# -- 9. empty stock ----------------------------------------------------------------------------


def test_empty_stock_player_must_take_a_pile_that_fits_the_sides_meld() -> None:
    melds = [{"9": ["9S", "9H", "9C"]}, {}]
    state = table([["KS", "QS"], *OTHERS], stock=[], pile=["4C", "9D"], melds=melds)
    refuse(state, "draw", "must take the pile")
    assert [str(m) for m in state.legal_moves()] == ["pile"]
    play(state, "pile")


def test_empty_stock_draw_with_frozen_pile_ends_the_hand_without_going_out_bonus() -> None:
    melds = [{**K_CANASTA, "9": ["9S", "9H", "9C"]}, {}]
    state = table([["QS", "JS"], *OTHERS], stock=[], pile=["2C", "9D"], melds=melds)
    play(state, "draw")
    assert state.is_over
    result = state.result
    assert result is not None and result.went_out is None and not result.concealed
    assert [s.going_out for s in result.sides] == [0, 0]
    assert result.sides[0].canasta_bonus == 500


def test_empty_stock_pile_that_fits_no_meld_is_not_forced() -> None:
    state = table([["9S", "9H", "QS"], *OTHERS], stock=[], pile=["4C", "9D"], melds=[ACES, {}])
    assert state.is_legal("pile 9S 9H")
    play(state, "draw")
    assert state.is_over and state.result is not None and state.result.went_out is None


# -- 10. going out -----------------------------------------------------------------------------


def test_going_out_requires_a_canasta() -> None:
    melds = [{"K": ["KS", "KD", "KC"]}, {}]
    state = table([["QS", "QH", "QD"], *OTHERS], stock=["4C", "5C"], melds=melds)
    play(state, "draw")
    refuse(state, "meld QS QH QD", "before your side has a canasta")
    refuse(state, "meld QS QH QD, K: 2C", "do not hold 2C")
    wide = table([["QS", "QH", "QD", "JS"], *OTHERS], stock=["4C", "5C"], melds=melds)
    play(wide, "draw", "meld QS QH QD")
    assert len(wide.hand(0)) == 2


def test_going_out_with_a_canasta_finished_in_the_same_move() -> None:
    melds = [{"K": ["KS", "KS", "KH", "KD", "KD", "KC"]}, {}]
    state = table([["KH", "QS", "QH"], *OTHERS], stock=["QD", "5C"], melds=melds)
    play(state, "draw")
    refuse(state, "meld QS QH QD", "canasta")
    play(state, "meld KH, QS QH QD")
    assert state.is_over and state.result is not None and state.result.went_out == 0
    assert state.result.sides[0].canasta_bonus == 500


def test_taking_the_pile_may_not_leave_fewer_than_two_cards_without_a_canasta() -> None:
    state = table([["9S", "9H"], *OTHERS], pile=["4C", "9D"], melds=[ACES, {}])
    refuse(state, "pile 9S 9H", "keep at least two cards")


def test_discarding_the_last_card_goes_out_with_a_canasta() -> None:
    state = table([["QS", "QH", "4C"], *OTHERS], stock=["QD", "5C"], melds=[K_CANASTA, {}])
    play(state, "draw", "meld QS QH QD", "discard 4C")
    result = state.result
    assert result is not None and result.went_out == 0 and result.sides[0].going_out == 100
    assert cards_text(state.pile) == ["TH", "4C"]


# -- 11. asking --------------------------------------------------------------------------------


def asking_table() -> GameState:
    state = table([["QS", "QH", "4C"], *OTHERS], stock=["QD", "5C"], melds=[K_CANASTA, {}])
    play(state, "draw")
    return state


def test_ask_after_drawing_waits_for_the_partners_answer() -> None:
    state = asking_table()
    play(state, "ask")
    assert (state.phase, state.turn, state.to_act) == ("answer", 0, 2)
    assert [str(m) for m in state.legal_moves()] == ["yes", "no"]
    refuse(state, "meld QS QH QD", "partner must first answer")
    refuse(state, "discard 4C", "partner must first answer")
    assert state.view(2).to_act == 2


def test_partners_yes_binds_the_player_to_go_out() -> None:
    state = asking_table()
    play(state, "ask", "yes")
    assert (state.phase, state.to_act, state.answer) == ("play", 0, True)
    refuse(state, "discard 4C", "must go out")
    refuse(state, "ask", "already asked")
    play(state, "meld QS QH QD", "discard 4C")
    assert state.result is not None and state.result.went_out == 0


def test_partners_no_forbids_going_out_this_turn() -> None:
    state = asking_table()
    play(state, "ask", "no")
    assert state.answer is False
    refuse(state, "meld QS QH QD", "said no")
    play(state, "discard 4C")
    assert state.turn == 1 and not state.is_over


def test_asking_is_refused_unless_just_drawn_and_able_to_go_out() -> None:
    state = asking_table()
    play(state, "meld QS QH QD")
    refuse(state, "ask", "before you meld")
    cannot = table([["QS", "JH", "4C"], *OTHERS], stock=["QD", "5C"], melds=[K_CANASTA, {}])
    play(cannot, "draw")
    refuse(cannot, "ask", "could not go out")
    after_pile = table([["QS", "QH", "4C"], *OTHERS], pile=["5D", "QD"], melds=[K_CANASTA, {}])
    play(after_pile, "pile QS QH")
    refuse(after_pile, "ask", "taking the pile")


def test_yes_or_no_without_a_question_is_refused() -> None:
    state = asking_table()
    refuse(state, "yes", "nobody has asked")
    refuse(state, "no", "nobody has asked")


def test_a_player_alone_has_no_partner_to_ask() -> None:
    melds = [{"K": K_CANASTA["K"], "A": ["AS", "AH", "AD", "AC", "AS", "AH", "AD"]}, {}]
    state = table([["QS", "QH", "4C"], ["4H", "5H"]], rules="two-player-draw-one", stock=["QD", "5C"], melds=melds)
    play(state, "draw")
    refuse(state, "ask", "no partner")


def test_ask_partner_option_off_nobody_asks() -> None:
    state = table([["QS", "QH", "4C"], *OTHERS], stock=["QD", "5C"], melds=[K_CANASTA, {}],
                  rules={"preset": "classic", "ask_partner": False})
    play(state, "draw")
    refuse(state, "ask", "nobody asks")


# -- 12. going out concealed -------------------------------------------------------------------

FOURS = ["4S", "4S", "4H", "4H", "4D", "4D", "4C"]


@pytest.mark.parametrize("score", [0, 3000])
def test_going_out_concealed_after_drawing_needs_no_minimum_and_scores_200(score: int) -> None:
    state = table([FOURS, ["KH", "QH"], ["6C", "7C"], ["8C", "9C"]], stock=["9D", "5C"], scores=[score, 0])
    play(state, "draw", "meld 4S 4S 4H 4H 4D 4D 4C", "discard 9D")
    result = state.result
    assert result is not None and result.went_out == 0 and result.concealed
    side = result.sides[0]
    assert (side.going_out, side.canasta_bonus, side.melded, side.in_hand) == (200, 500, 35, 10)
    assert side.total == 200 + 500 + 35 - 10
    assert state.match_scores() == [score + 725, -20 - 20]


def test_concealed_meld_that_does_not_go_out_still_needs_the_minimum() -> None:
    state = table([[*FOURS, "6C"], *OTHERS], stock=["9D", "5C"])
    play(state, "draw")
    refuse(state, "meld 4S 4S 4H 4H 4D 4D 4C", "at least 50")


def test_going_out_is_not_concealed_when_the_player_had_melded() -> None:
    state = table([FOURS, *OTHERS], stock=["9D", "5C"], melds=[ACES, {}], melded=[True, False, False, False])
    play(state, "draw", "meld 4S 4S 4H 4H 4D 4D 4C", "discard 9D")
    result = state.result
    assert result is not None and result.went_out == 0 and not result.concealed
    assert result.sides[0].going_out == 100


def test_going_out_concealed_while_the_partner_has_melded_scores_200() -> None:
    state = table([FOURS, *OTHERS], stock=["9D", "5C"], melds=[ACES, {}], melded=[False, False, True, False])
    play(state, "draw", "meld 4S 4S 4H 4H 4D 4D 4C", "discard 9D")
    result = state.result
    assert result is not None and result.concealed and result.sides[0].going_out == 200


def test_going_out_concealed_after_taking_the_pile_needs_the_minimum() -> None:
    state = table([["4S", "4S", "4H", "4H", "4D", "4D", "9C"], *OTHERS], pile=["4C"])
    refuse(state, "pile 4S 4S 4H 4H 4D 4D", "at least 50")


def test_going_out_concealed_after_taking_the_pile_with_the_minimum() -> None:
    cards = ["AS", "AS", "AH", "AH", "AD", "AD", "9C"]
    state = table([cards, *OTHERS], pile=["AC"])
    play(state, "pile AS AS AH AH AD AD", "discard 9C")
    result = state.result
    assert result is not None and result.concealed and result.sides[0].going_out == 200


def test_concealed_bonus_option_off_scores_100() -> None:
    state = table([FOURS, *OTHERS], stock=["9D", "5C"], rules={"preset": "classic", "concealed_bonus": False})
    play(state, "draw", "meld 4S 4S 4H 4H 4D 4D 4C", "discard 9D")
    result = state.result
    assert result is not None and result.went_out == 0 and not result.concealed
    assert result.sides[0].going_out == 100


# -- 13. card values and red threes ------------------------------------------------------------


def test_card_values_in_melds_and_hands() -> None:
    melds = [{**K_CANASTA, "A": ["AS", "AH", "2C"], "7": ["7S", "7H", "JK"]}, {}]
    state = table([["QS", "QH"], ["AC", "2D", "JK", "3S"], ["TC", "8C", "6C", "5C"], ["4C", "9C"]],
                  stock=["QD", "5S"], melds=melds)
    play(state, "draw", "meld QS QH QD")
    result = state.result
    assert result is not None
    assert result.sides[0].melded == 70 + (20 + 20 + 20) + (5 + 5 + 50) + 30
    assert result.sides[0].in_hand == 10 + 10 + 5 + 5
    assert result.sides[1].in_hand == 20 + 20 + 50 + 5 + 5 + 10


def test_red_threes_score_100_each_and_800_for_all_four() -> None:
    reds = [["3H", "3H", "3D", "3D"], []]
    state = table([["KS", "QS"], *OTHERS], stock=[], pile=[], melds=[ACES, {"5": ["5S", "5C", "5D"]}],
                  red_threes=reds)
    play(state, "draw")
    result = state.result
    assert result is not None
    assert (result.sides[0].red_threes, result.sides[0].red_three_points) == (4, 800)
    three = table([["KS", "QS"], *OTHERS], stock=[], pile=[], melds=[ACES, {}],
                  red_threes=[["3H", "3H", "3D"], []])
    play(three, "draw")
    assert three.result is not None and three.result.sides[0].red_three_points == 300


def test_red_threes_count_against_a_side_with_no_meld() -> None:
    state = table([["KS", "QS"], *OTHERS], stock=[], pile=[], melds=[{}, ACES], red_threes=[["3H", "3D"], ["3H"]])
    play(state, "draw")
    result = state.result
    assert result is not None
    assert result.sides[0].red_three_points == -200
    assert result.sides[1].red_three_points == 100
    assert result.sides[0].total == -200 - 20 - 10


def test_red_three_left_in_a_hand_at_the_end_counts_for_its_side() -> None:
    state = table([["QS", "QH"], ["3D", "5H"], ["6C", "7C"], ["8C", "9C"]], stock=["QD", "5S"],
                  melds=[K_CANASTA, {"9": ["9S", "9H", "9D"]}])
    play(state, "draw", "meld QS QH QD")
    result = state.result
    assert result is not None
    assert cards_text(state.red_threes[1]) == ["3D"]
    assert (result.sides[1].red_threes, result.sides[1].red_three_points) == (1, 100)
    assert result.sides[1].in_hand == 5 + 10 + 10


# -- 14. the side's score ----------------------------------------------------------------------


def test_side_score_is_bonuses_plus_melded_cards_minus_both_partners_hands() -> None:
    melds = [{"K": ["KS", "KD", "KC"]}, {"9": ["9S", "9H", "9D", "9C", "9S", "9H", "2C"]}]
    state = table([["AS", "AH"], ["QS", "QH"], ["JK", "JK"], ["QD", "QC"]], stock=["5S", "QD"], melds=melds,
                  red_threes=[["3H"], ["3D"]])
    play(state, "draw", "discard 5S")
    play(state, "draw", "meld QS QH QD")  # seat 1 goes out with its side's mixed canasta of 9s
    result = state.result
    assert result is not None and result.went_out == 1
    ours, theirs = result.sides
    assert (ours.bonuses, ours.melded, ours.in_hand) == (100, 30, 20 + 20 + 50 + 50)
    assert ours.cards == 30 - 140
    assert ours.total == 100 + 30 - 140 == -10
    assert (theirs.canasta_bonus, theirs.red_three_points, theirs.going_out) == (300, 100, 100)
    assert theirs.melded == 60 + 20 + 30
    assert theirs.in_hand == 20
    assert theirs.total == 500 + 110 - 20


# -- 15. the match -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "winner"),
    [([4000, 0], None), ([4275, 0], 0), ([4950, 4990], 0), ([4225, 5000], None), ([4000, 5100], 1),
     ([4500, 5265], None)],
)
def test_match_winner_after_the_hand(scores: list[int], winner: int | None) -> None:
    # side 0 goes out concealed for 725, side 1 scores -40 (see the concealed test above)
    state = table([FOURS, ["KH", "QH"], ["6C", "7C"], ["8C", "9C"]], stock=["9D", "5C"], scores=scores)
    assert state.winner() is None
    play(state, "draw", "meld 4S 4S 4H 4H 4D 4D 4C", "discard 9D")
    assert state.match_scores() == [scores[0] + 725, scores[1] - 40]
    assert state.winner() == winner


# -- options -----------------------------------------------------------------------------------


def test_option_two_naturals_to_take() -> None:
    state = table([["9S", "2C", "KS", "QS"], *OTHERS], pile=["6H", "9D"], melds=[ACES, {}],
                  rules={"preset": "classic", "two_naturals_to_take": True})
    refuse(state, "pile 9S 2C", "two natural")


def test_option_pile_always_frozen() -> None:
    state = table([["9S", "KS", "QS"], *OTHERS], pile=["6H", "9D"], melds=[{"9": ["9S", "9H", "9C"]}, {}],
                  rules={"preset": "classic", "pile_always_frozen": True})
    assert state.pile_frozen()
    refuse(state, "pile", "frozen")


def test_option_black_three_freezes() -> None:
    rules = {"preset": "classic", "black_three_freezes": True}
    state = table([["3S", "KS", "QS"], ["9S", "2C", "4C"], ["6C", "7C"], ["8C", "9C"]],
                  pile=["6H"], melds=[ACES, {"5": ["5S", "5H", "5D"]}], rules=rules, stock=["9D", "5C"])
    play(state, "draw", "discard 3S")
    assert state.pile_frozen()
    refuse(state, "pile 9S 2C", "black three")
    play(state, "draw", "discard 4C")
    assert state.pile_frozen()  # still frozen once covered
    plain = table([["3S", "KS", "QS"], *OTHERS], pile=["6H"], melds=[ACES, {}], stock=["9D", "5C"])
    play(plain, "draw", "discard 3S")
    assert not plain.pile_frozen()


def test_option_wilds_at_most_naturals() -> None:
    state = table([["5S", "5H", "2D", "2C", "JK", "KS"], *OTHERS], melds=[ACES, {}],
                  rules={"preset": "classic", "wilds_at_most_naturals": True})
    play(state, "draw")
    refuse(state, "meld 5S 5H 2D 2C JK", "more wild cards than natural")
    play(state, "meld 5S 5H 2D 2C")


def test_option_no_pile_for_finished_canasta() -> None:
    rules = {"preset": "classic", "no_pile_for_finished_canasta": True}
    state = table([["QS", "JS", "TS"], *OTHERS], pile=["6D", "KC"], melds=[K_CANASTA, {}], rules=rules)
    refuse(state, "pile", "finished canasta")
    default = table([["QS", "JS", "TS"], *OTHERS], pile=["6D", "KC"], melds=[K_CANASTA, {}])
    play(default, "pile")


WILD_MELDS = {"preset": "classic", "wild_card_melds": True}


def test_option_wild_card_melds_a_meld_of_wild_cards_only() -> None:
    state = table([["2S", "2H", "JK", "QS", "QH"], *OTHERS], melds=[ACES, {}], rules=WILD_MELDS)
    play(state, "draw")
    refuse(state, "meld 2S 2H", "three")
    play(state, "meld 2S 2H JK")
    assert meld_text(state, 0)["W"] == ["2H", "2S", "JK"]


def test_option_wild_card_melds_no_wild_cards_in_other_melds_after_a_wild_meld() -> None:
    melds = [{"W": ["2C", "2D", "JK"], "A": ["AS", "AH", "AD"]}, {}]
    state = table([["9S", "2S", "KS", "KH", "QS"], *OTHERS], pile=["5D", "9D"], melds=melds, rules=WILD_MELDS)
    refuse(state, "pile 9S 2S", "may not use wild cards")
    play(state, "draw")
    refuse(state, "meld KS KH 2S", "may not use wild cards")
    refuse(state, "meld A: 2S", "may not use wild cards")
    play(state, "meld 2S")
    assert len(meld_text(state, 0)["W"]) == 4


def test_option_wild_card_melds_wild_canasta_scores_its_bonus_and_lets_the_side_go_out() -> None:
    melds = [{"W": ["2C", "2D", "JK", "JK", "2C"]}, {}]
    state = table([["2S", "2H", "QS", "QH"], *OTHERS], stock=["QD", "7D"], melds=melds, rules=WILD_MELDS)
    play(state, "draw", "meld 2S 2H, QS QH QD")
    result = state.result
    assert result is not None and result.went_out == 0
    assert result.sides[0].canasta_bonus == 2000
    assert result.sides[0].melded == 5 * 20 + 2 * 50 + 30


def test_option_unfinished_wild_meld_penalty() -> None:
    rules = {**WILD_MELDS, "unfinished_wild_meld_penalty": 1000}
    melds = [{"W": ["2C", "2D", "JK"], **K_CANASTA}, {}]
    state = table([["QS", "QH"], *OTHERS], stock=["QD", "7D"], melds=melds, rules=rules)
    play(state, "draw", "meld QS QH QD")
    result = state.result
    assert result is not None
    assert result.sides[0].canasta_bonus == 500 - 1000
