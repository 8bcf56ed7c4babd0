"""Move text: parsing, canonical printing, errors and fuzzing (NOTATION.md, "Moves")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Group, Move, MoveSyntaxError, parse_card
from canasta.cards import MELD_RANK_CHARS, NATURAL_RANKS, card_text
from canasta.moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("draw", "draw"),
        ("DRAW", "draw"),
        ("  draw  ", "draw"),
        ("ask", "ask"),
        ("Yes", "yes"),
        ("no", "no"),
        ("pile", "pile"),
        ("pile 9S 9H", "pile 9S 9H"),
        ("pile 9h 9s", "pile 9S 9H"),
        ("pile 9S 2D", "pile 9S 2D"),
        ("pile 2d 9s", "pile 9S 2D"),
        ("pile 9S 9H, KS KD KC", "pile 9S 9H, KS KD KC"),
        ("meld KS KD 2C", "meld KS KD 2C"),
        ("meld 2c kd ks, QS QH QC", "meld KS KD 2C, QS QH QC"),
        ("meld 7H 7D 2C, QS QH QC", "meld 7H 7D 2C, QS QH QC"),
        ("meld QS QH QC, 7H 7D 2C", "meld QS QH QC, 7H 7D 2C"),
        ("meld K: JK", "meld K: JK"),
        ("meld k: jk 2c", "meld K: 2C JK"),
        ("meld 10: 2h", "meld T: 2H"),
        ("meld 10s 10h 10d", "meld TS TH TD"),
        ("meld JK 5S 2C 5H 2D", "meld 5S 5H 2D 2C JK"),
        ("meld 3S 3C 3S", "meld 3S 3S 3C"),
        ("meld 3c 3s 3s 3c", "meld 3S 3S 3C 3C"),
        ("meld KS,KD", "meld KS, KD"),
        ("meld  AS   AH  ,  4C 4D 4S ", "meld AS AH, 4S 4D 4C"),
        ("discard 4C", "discard 4C"),
        ("discard 10d", "discard TD"),
        ("discard jk", "discard JK"),
        ("discard 3h", "discard 3H"),
        ("meld K: KS", "meld KS"),
    ],
)
def test_parse_format_round_trip(text: str, canonical: str) -> None:
    move = Move.parse(text)
    assert str(move) == canonical
    again = Move.parse(str(move))
    assert again == move
    assert str(again) == canonical


def test_repr_parses_back() -> None:
    move = Move.parse("meld 2c kd ks")
    assert repr(move) == "Move.parse('meld KS KD 2C')"
    assert eval(repr(move), {"Move": Move}) == move
    group = Group.parse("k: jk 2c")
    assert repr(group) == "Group.parse('K: 2C JK')"


def test_canonical_order_naturals_high_to_low_then_twos_then_joker() -> None:
    move = Move.parse("meld JK 2C 8D 2S 8S 8H")
    assert str(move) == "meld 8S 8H 8D 2S 2C JK"
    assert [card_text(c) for c in move.groups[0].cards] == ["8S", "8H", "8D", "2S", "2C", "JK"]


def test_groups_keep_the_order_given() -> None:
    move = Move.parse("meld 4S 4H 4D, AS AH AC, 9S 9H 2C")
    assert [NATURAL_RANKS[g.rank] for g in move.groups] == ["4", "A", "9"]


def test_wild_only_group_names_its_rank() -> None:
    move = Move.parse("meld K: 2C JK")
    (group,) = move.groups
    assert group.rank == NATURAL_RANKS.index("K")
    assert group.naturals == 0 and group.wilds == 2
    assert str(group) == "K: 2C JK"
    assert str(move) == "meld K: 2C JK"


def test_wild_only_group_without_a_rank_is_a_group_of_wild_cards() -> None:
    # docs/rules.md: a group of wild cards with no rank (or "W:") is a meld of wild cards; the rules
    # refuse it unless the table plays wild_card_melds (see test_rules_engine)
    move = Move.parse("meld jk 2c")
    (group,) = move.groups
    assert group.rank == MELD_RANK_CHARS.index("W")
    assert str(move) == "meld 2C JK"
    assert Move.parse("meld W: 2C JK") == move
    assert Move.parse(str(move)) == move


def test_group_counts_naturals_and_wilds() -> None:
    group = Group.parse("5S 5H 2D 2C JK")
    assert group.rank == NATURAL_RANKS.index("5")
    assert (group.naturals, group.wilds) == (2, 3)


def test_move_fields() -> None:
    assert Move.parse("draw") == Move(DRAW)
    assert Move.parse("pile") == Move(PILE)
    assert Move.parse("ask") == Move(ASK)
    assert Move.parse("yes") == Move(YES)
    assert Move.parse("no") == Move(NO)
    discard = Move.parse("discard 4c")
    assert discard.action == DISCARD and discard.card == parse_card("4C") and discard.groups == ()
    assert discard.cards == (parse_card("4C"),)
    meld = Move.parse("meld KS KD 2C, QS QH QC")
    assert meld.action == MELD and meld.card is None
    assert [card_text(c) for c in meld.cards] == ["KS", "KD", "2C", "QS", "QH", "QC"]


def test_moves_are_hashable_values() -> None:
    assert {Move.parse("meld ks kd kc"), Move.parse("meld KC KD KS")} == {Move.parse("meld KS KD KC")}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty move"),
        ("   ", "empty move"),
        ("fly", "unknown move"),
        ("drawx", "unknown move"),
        ("take 9S 9H", "unknown move"),
        ("meld KS XX", "unknown card"),
        ("meld KS K", "unknown card"),
        ("discard 1X", "unknown card"),
        ("pile 9S 9Z", "unknown card"),
        ("meld KS QS", "one rank"),
        ("meld KS KD, QS JS QH", "one rank"),
        ("draw x", "takes nothing"),
        ("ask now", "takes nothing"),
        ("yes please", "takes nothing"),
        ("discard", "exactly one card"),
        ("discard AS AS", "exactly one card"),
        ("meld", "at least one group"),
        ("meld KS,", "empty group"),
        ("meld , KS KD KC", "empty group"),
        ("meld K:", "empty group"),
        ("meld X: 2C", "not a rank"),
        ("meld KQ: 2C", "not a rank"),
        ("meld Q: KS KD", "not of rank Q"),
        ("meld 3S KS KD", "black three"),
        ("meld 3H 3S 3C", "red threes"),
    ],
)
def test_syntax_errors(text: str, words: str) -> None:
    with pytest.raises(MoveSyntaxError, match=words):
        Move.parse(text)


def test_non_text_is_a_syntax_error() -> None:
    with pytest.raises(MoveSyntaxError):
        Move.parse(None)  # type: ignore[arg-type]
    with pytest.raises(MoveSyntaxError):
        Move.parse(7)  # type: ignore[arg-type]


def test_syntax_error_is_a_value_error_and_names_the_line() -> None:
    with pytest.raises(ValueError, match="meld KS ZZ"):
        Move.parse("meld KS ZZ")


# -- fuzzing -----------------------------------------------------------------------------------

SUITS = "SHDC"
NATURAL_RANK_TEXT = [*NATURAL_RANKS, "10"]


@st.composite
def card_texts(draw: st.DrawFn, rank: str) -> str:
    """One card of ``rank`` in any accepted spelling."""
    if rank == "T" and draw(st.booleans()):
        rank = "10"
    text = rank + draw(st.sampled_from(SUITS))
    return text.lower() if draw(st.booleans()) else text


@st.composite
def wild_texts(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(["JK", "2S", "2H", "2D", "2C"]))
    return text.lower() if draw(st.booleans()) else text


@st.composite
def group_texts(draw: st.DrawFn) -> tuple[str, int, list[str]]:
    """A valid group: its text, its rank index and its cards (canonical codes)."""
    rank = draw(st.sampled_from([*NATURAL_RANKS, "3b"]))
    if rank == "3b":
        naturals = [("3" + draw(st.sampled_from("SC"))) for _ in range(draw(st.integers(1, 4)))]
        wilds: list[str] = []
        index = 11
    else:
        naturals = [draw(card_texts(rank)) for _ in range(draw(st.integers(0, 5)))]
        wilds = [draw(wild_texts()) for _ in range(draw(st.integers(0 if naturals else 1, 4)))]
        index = NATURAL_RANKS.index(rank)
    cards = draw(st.permutations(naturals + wilds))
    text = " ".join(cards)
    if not naturals or draw(st.booleans()):
        head = "3" if rank == "3b" else ("10" if rank == "T" and draw(st.booleans()) else rank)
        text = f"{head.lower() if draw(st.booleans()) else head}: {text}"
    return text, index, cards


@st.composite
def move_texts(draw: st.DrawFn) -> tuple[str, Move]:
    """Random valid move text with the move it must parse to."""
    action = draw(st.sampled_from([DRAW, PILE, MELD, DISCARD, ASK, YES, NO]))
    if action == DISCARD:
        text = draw(st.one_of(card_texts(draw(st.sampled_from(NATURAL_RANKS + "3"))), wild_texts()))
        return f"discard {text}", Move(DISCARD, card=parse_card(text))
    if action in (PILE, MELD):
        groups = draw(st.lists(group_texts(), min_size=1 if action == MELD else 0, max_size=4))
        expected = Move(action, tuple(Group(i, tuple(sorted(parse_card(c) for c in cards)))
                                      for _, i, cards in groups))
        sep = draw(st.sampled_from([", ", ",", " , "]))
        return (f"{action} {sep.join(t for t, _, _ in groups)}").strip(), expected
    return (action.upper() if draw(st.booleans()) else action), Move(action)


@settings(max_examples=400, deadline=None)
@given(move_texts())
def test_random_valid_moves_round_trip(example: tuple[str, Move]) -> None:
    text, expected = example
    move = Move.parse(text)
    assert move == expected
    canonical = str(move)
    again = Move.parse(canonical)
    assert again == move
    assert str(again) == canonical
    # canonical text is upper case, uses T for ten and ", " between groups
    assert "10" not in canonical
    for group in move.groups:
        assert list(group.cards) == sorted(group.cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*range(44), *range(48, 53)]), min_size=1, max_size=9).filter(
    lambda cs: len({c // 4 for c in cs if c < 44}) <= 1))
def test_groups_built_from_cards_print_and_parse_back(codes: list[int]) -> None:
    naturals = [c for c in codes if c < 44]
    rank = naturals[0] // 4 if naturals else 3
    group = Group.of(codes, None if naturals else rank)
    move = Move(MELD, (group,))
    assert Move.parse(str(move)) == move


TOKENS = st.sampled_from([
    "draw", "pile", "meld", "discard", "ask", "yes", "no", "KS", "kd", "10h", "2C", "JK", "jk", "3H", "3s",
    "K:", "10:", "3:", ":", ",", " ", "  ", "AS", "9S", "X", "1", "0", "\t", "\n", "ß", "İ", "\x00",
])


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(TOKENS, max_size=12).map(" ".join), st.lists(TOKENS, max_size=12)
                 .map("".join)))
def test_arbitrary_text_parses_or_raises_move_syntax_error(text: str) -> None:
    try:
        move = Move.parse(text)
    except MoveSyntaxError:
        return
    assert isinstance(move, Move)
    assert Move.parse(str(move)) == move
