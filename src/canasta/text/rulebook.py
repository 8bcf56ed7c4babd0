"""The complete rules of one game in plain English, written out from its :class:`Rules`.

``rules_text(rules)`` is what ``canasta rules PRESET [--set OPTION=VALUE ...]`` prints and
what ``docs/presets/*.md`` begin with.  Every sentence is built from the fields of the
``Rules`` object, so changing an option changes the page.  The wording follows
``shared/spec/RULES.md`` (clauses 1 to 15, "Presets", "Options"), the seed documents
000 to 004 in ``shared/seeds/`` (000 above all), and the engine's own choices written
down in ``docs/rules.md``; cards are named as in ``shared/spec/NOTATION.md``, and seats and sides
are counted from 1, as people count them (NOTATION.md and the JSON records count from 0).  The page
itself names no file: an installed copy has none of these documents, so it points to commands only.

``rules_text(rules, table=True)`` is the same page for a player at a table (the browser table's rules
page): cards as the table shows them (``A♠``, ``10♦``), the table's settings in words, and no command.

>>> text = rules_text(Rules.from_preset("classic", draw=2))
>>> "draw two cards from the top of the stock" in " ".join(text.split())
True
>>> rules_text(Rules.from_preset("classic", target=1000), table=True).splitlines()[0]
'# The rules at this table: classic Canasta'
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Iterable, Sequence

from ..cards import BLACK_THREE, CANASTA_SIZE, JOKER_KIND, KIND_CHARS, KIND_VALUE, MAX_WILDS, NUM_KINDS, RED_THREE, TWO
from ..rules import OPTION_NAMES, PRESETS, Rules
from ..scoring import GOING_OUT, GOING_OUT_CONCEALED, MIXED_CANASTA, NATURAL_CANASTA
from .options import OPTIONS, WILD_MELD_OPTIONS

WIDTH = 79
MAX_WILD = MAX_WILDS

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

# What each field of Rules means, for "Differences from classic"; the options' words are text.options'.
LABELS = {
    "players": "players",
    "sides": "sides",
    "sit_out": "players of the larger side who sit out each hand",
    **{name: option.meaning for name, option in OPTIONS.items()},
    "minimums": "first-meld minimums",
}
WILD_MELD_FIELDS = WILD_MELD_OPTIONS


# -- words --------------------------------------------------------------------------------


def number(n: int) -> str:
    """A count in words up to ten, in figures above (``1,000``).

    >>> number(2), number(11), number(7500)
    ('two', '11', '7,500')
    """
    return _WORDS[n] if 0 <= n < len(_WORDS) else f"{n:,}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` things in words: ``one card``, ``two cards``."""
    return f"{number(n)} {noun if n == 1 else plural or noun + 's'}"


def join(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _seats(seats: Sequence[int]) -> str:
    """Seats as people count them, from 1: ``seats 1 and 3`` (NOTATION.md and the records count from 0)."""
    return ("seat " if len(seats) == 1 else "seats ") + join([str(s + 1) for s in seats])


def _value(value: object) -> str:
    """An option's value as ``--set`` takes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(f"{_value(minimum)} from {_value(start)}" for start, minimum in value)
    return str(value)


# -- layout -------------------------------------------------------------------------------


def _wrap(text: str, first: str = "", rest: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def _para(*sentences: str) -> str:
    return _wrap(" ".join(s for s in sentences if s))


def _bullets(items: Iterable[str]) -> str:
    return "\n".join(_wrap(item, "- ", "  ") for item in items)


def _section(title: str, *blocks: str) -> str:
    return "\n\n".join([f"## {title}", *(b for b in blocks if b)])


# -- facts derived from the rules -----------------------------------------------------------


def side_seats(rules: Rules) -> list[list[int]]:
    """The seats of each side (NOTATION.md: seat ``s`` plays for side ``s % sides``)."""
    return [list(range(side, rules.players, rules.sides)) for side in range(rules.sides)]


def has_partners(rules: Rules) -> bool:
    """True when some side has more than one player in a hand."""
    return any(len(seats) - (rules.sit_out if i == 0 else 0) > 1 for i, seats in enumerate(side_seats(rules)))


def options_changed(rules: Rules) -> dict[str, object]:
    """The options set on top of the preset, as ``--set`` takes them."""
    base = PRESETS.get(rules.preset, PRESETS["classic"])
    return {name: getattr(rules, name) for name in OPTION_NAMES if getattr(rules, name) != getattr(base, name)}


def command(rules: Rules) -> str:
    """The command line that prints this page."""
    sets = "".join(f" --set {name}={_value(v).replace(',', '')}" for name, v in options_changed(rules).items())
    return f"canasta rules {rules.preset}{sets}"


def minimum_rows(rules: Rules) -> list[tuple[str, int]]:
    """The first-meld minimum table: (match total, minimum), from ``rules.minimum``."""
    starts = sorted({0} | {start for start, _ in rules.minimums if start > 0})
    rows: list[tuple[int, int]] = []
    for start in starts:
        if not rows or rules.minimum(start) != rows[-1][1]:
            rows.append((start, rules.minimum(start)))
    table = [("below 0", rules.minimum(-1))]
    for i, (start, minimum) in enumerate(rows):
        span = f"{start:,} and more" if i + 1 == len(rows) else f"{start:,} to {rows[i + 1][0] - 5:,}"
        table.append((span, minimum))
    return table


def _red_three_counts(rules: Rules) -> list[tuple[str, int]]:
    """The numbers of red threes not worth 100 each, in words, and what they are worth together."""
    count, each = rules.red_three_count, rules.red_three_points(1)
    return [("both" if n == count == 2 else f"{'all ' if n == count else ''}{number(n)}", rules.red_three_points(n))
            for n in range(2, count + 1) if rules.red_three_points(n) != each * n]


def red_three_values(rules: Rules) -> str:
    """What a side's red threes are worth, for the number of decks: ``100 each, except that ...``.

    >>> red_three_values(Rules.from_preset("classic", decks=1))
    '100 each, except that both together, the only two of the one deck, are worth 400'
    """
    special = [(f"{words} together, the only two of the one deck," if words == "both" else words)
               + f" {'is' if words == 'one' else 'are'} worth {points:,}" for words, points in _red_three_counts(rules)]
    tail = f", except that {join(special)}" if special else ""
    return f"{rules.red_three_points(1):,} each{tail}"


def red_three_brief(rules: Rules) -> str:
    """The same, as a sheet's table cell: ``100 each; all four 800``, ``100 each; both 400``."""
    return "; ".join([f"{rules.red_three_points(1):,} each",
                      *(f"{words} {points:,}" for words, points in _red_three_counts(rules))])


def card_value_rows(table: bool = False) -> list[str]:
    """Card values, highest first (``cards.KIND_VALUE``); red threes are bonuses, not values.

    ``table``: tens written 10, as on the table's cards (T in the notation).
    """
    names = {TWO: "2", JOKER_KIND: "joker", BLACK_THREE: "black 3"}
    if table:
        names[KIND_CHARS.index("T")] = "10"
    by_value: dict[int, list[str]] = {}
    for kind in (JOKER_KIND, *range(NUM_KINDS)):
        if kind == RED_THREE:
            continue
        name = names.get(kind, KIND_CHARS[kind])
        if name not in by_value.setdefault(KIND_VALUE[kind], []):
            by_value[KIND_VALUE[kind]].append(name)
    return [f"{join(kinds)}: {value}" for value, kinds in sorted(by_value.items(), reverse=True)]


def _canastas_needed(rules: Rules) -> str:
    return counted(rules.canastas_to_go_out, "canasta")


# -- sections -------------------------------------------------------------------------------


def _partner(rules: Rules, seat: int) -> list[int]:
    """The seat of ``seat``'s partner (as a list for :func:`_seats`); every seat of a side of two or more has one."""
    partner = rules.partner_of(seat)
    return [] if partner is None else [partner]


GAME_NAMES = {
    "classic": "classic Canasta", "two-player-draw-one": "two-player Canasta, drawing one card",
    "six-player-two-teams": "six-player Canasta in two sides of three",
}


def game_name(preset: str) -> str:
    """A preset as a player names the game: ``classic Canasta``, ``two-player Canasta``."""
    return GAME_NAMES.get(preset, f"{preset} Canasta")


def _setting(name: str, value: object) -> str:
    """An option's value as a player reads it: ``Points to win the match: 1,000``."""
    option = OPTIONS.get(name)
    if option is None:
        return f"{LABELS.get(name, name.replace('_', ' ')).capitalize()}: {_value(value)}"
    return f"{option.label}: {option.words(value)}"


def _table_title(rules: Rules) -> str:
    changed = options_changed(rules)
    blocks = [f"# The rules at this table: {game_name(rules.preset)}", _para(
        "These are the complete rules of the game at this table, as the table and its computer players play "
        "it. Seats and sides are counted from 1, clockwise.")]
    if changed:
        blocks += [_para(f"This table changes {'this setting' if len(changed) == 1 else 'these settings'} of "
                         f"{game_name(rules.preset)}:"),
                   _bullets(_setting(name, value) for name, value in changed.items())]
    return "\n\n".join(blocks)


def _title(rules: Rules, table: bool = False) -> str:
    if table:
        return _table_title(rules)
    changed = options_changed(rules)
    extra = f", with {', '.join(f'{k}={_value(v)}' for k, v in changed.items())}" if changed else ""
    return "\n\n".join([
        f"# Canasta: {rules.preset}{extra}",
        _para(f"These are the complete rules of the game that `{command(rules)}` names, as the canasta "
              "engine plays it. Seats and sides are counted from 1, as at the table (the game records "
              "count them from 0); `canasta rules --options` lists every option a game may change."),
    ])


def _players(rules: Rules) -> str:
    sides = side_seats(rules)
    n, s = rules.players, rules.sides
    seating = f"Seats are numbered {'1 and 2' if n == 2 else f'1 to {n}'} clockwise"
    if n == s:
        return _section("Players and sides", _para(
            f"{_cap(counted(n, 'player'))}, each playing alone: every player is a side of one, and "
            f"there are no partners.", f"{seating}.",
            "Play goes clockwise: the player on the dealer's left plays first, and the deal passes "
            "to the left after each hand."))
    sizes = [len(seats) for seats in sides]
    if len(set(sizes)) == 1:
        shape = f"{counted(s, 'side')} of {number(sizes[0])}"
    else:
        shape = f"{counted(s, 'side')}: " + join([f"side {i + 1} of {number(k)}" for i, k in enumerate(sizes)])
    members = join([f"side {i + 1} is {_seats(seats)}" for i, seats in enumerate(sides)], "and")
    blocks = [_para(
        f"{_cap(counted(n, 'player'))} in {shape}.",
        f"{seating}, and the sides alternate round the table: {members}.",
        "Partners share their melds, their bonuses and their score.")]
    if rules.sit_out:
        seated = rules.seated
        out = sides[0]
        blocks.append(_para(
            f"In each hand {counted(rules.sit_out, 'player')} of side 1 sits out, in turn in seat order ("
            + join([f"{_seats([seat])} in the {_ORDINALS[i]} hand" for i, seat in enumerate(out)])
            + f", then again from {_seats(out[:1])}), so "
            f"{number(seated)} players are dealt in. The player who sits out holds no cards and has no "
            "turn, but still shares the side's score.",
            "Your partner is the next seat clockwise on your side that plays the hand.",
            "Play goes clockwise, skipping the seat that sits out: the first seat clockwise from the "
            "dealer that plays the hand plays first, and the deal passes to the left after each hand."))
    else:
        if all(size == 2 for size in sizes):
            pairs = join([f"{_seats(seats)} are partners" if i == 0 else f"so are {_seats(seats)}"
                          for i, seats in enumerate(sides)], "and")
        else:
            pairs = "; ".join(join([f"{_seats([seat])}'s {'partner ' if i == 0 else ''}is "
                                    f"{_seats(_partner(rules, seat))}" for i, seat in enumerate(seats)])
                              for seats in sides)
        blocks.append(_para(
            f"Where a rule speaks of your partner, it is the next seat clockwise on your side: {pairs}.",
            "Play goes clockwise: the player on the dealer's left plays first, and the deal passes "
            "to the left after each hand."))
    return _section("Players and sides", *blocks)


def _cards(rules: Rules, table: bool = False) -> str:
    d = rules.decks
    decks = "One deck" if d == 1 else f"{_cap(number(d))} decks"
    red, black = ("3\u2665, 3\u2666", "3\u2660, 3\u2663") if table else ("3H, 3D", "3S, 3C")
    written = ("A card shows its rank and suit, as on the table: A\u2660, 10\u2666, 3\u2665, and Joker for a joker."
               if table else "Cards are written rank then suit: AS, TD, 3H, and JK for a joker.")
    return _section("The cards", _para(
        f"{decks} of 52 cards and {counted(2 * d, 'joker')}, {rules.deck_size:,} cards in all, "
        "shuffled together.",
        "Jokers and 2s are wild. The natural cards are the 4s up to the aces.",
        f"Threes are neither: the {number(rules.red_three_count)} red threes ({red}) are bonus cards, "
        f"and the {number(2 * d)} black threes ({black}) stop the pile.",
        written))


def _deal(rules: Rules) -> str:
    stock = rules.deck_size - rules.seated * rules.hand_size - 1
    who = "each player who plays the hand" if rules.sit_out else "each player"
    covered = "a wild card, a red three or a black three" if rules.black_three_upcard == "cover" else \
        "a wild card or a red three"
    if rules.black_three_upcard == "cover":
        black = "A covered black three freezes the pile like the wild cards and red threes under it."
    else:
        black = ("A black three as the upcard is not covered: it stays on top as the first discard, and "
                 "the first player may not take the pile.")
        if rules.black_three_freezes:
            black += " Like every black three in the pile at this table, it also freezes the pile."
    return _section("The deal", _para(
        f"The dealer deals {counted(rules.hand_size, 'card')} to {who}, one at a time and clockwise, "
        "starting on the dealer's left. The next card is the upcard: it is turned face up to start the "
        f"discard pile. The other {stock:,} cards are the stock, face down."), _para(
        f"While the upcard is {covered}, the next card of the stock is turned onto it, as often as "
        "needed. The covered cards stay in the pile, so the pile is frozen.", black))


def _red_threes(rules: Rules) -> str:
    if rules.red_threes_at_deal:
        dealt = ("Right after the deal, before the first turn, every player in turn from the dealer's "
                 "left lays out the red threes they were dealt and replaces each from the stock.")
    else:
        dealt = ("A red three you are dealt stays in your hand until your first turn. At the start of "
                 "that turn, before you do anything, you lay it out face up for your side and replace it "
                 "with the top card of the stock.")
    drawn = "A red three drawn from the stock, a replacement included, is laid out at once and replaced."
    if rules.draw > 1:
        drawn += f" Each of the {number(rules.draw)} cards you draw is treated this way."
    items = [
        dealt,
        drawn,
        "A red three you take with the pile is laid out without a replacement.",
        "If the stock is empty when a red three needs a replacement, it is laid out without one and "
        "play goes on.",
        "If the last card of the stock is a red three, it is laid out and the hand ends at once: that "
        "player neither melds nor discards, and nobody has gone out.",
    ]
    if not rules.red_threes_at_deal:
        items.append("A red three still in a hand when the hand ends (its holder never had a turn) is "
                     "laid out for its side then.")
    return _section("Red threes", _para(
        f"The red threes a side lays out are worth {red_three_values(rules)}.",
        "They count against the side instead, by the same amounts, when the side has made no meld by "
        "the end of the hand.",
        "A red three is never melded, never kept in a hand and never counts toward a first meld."),
        _bullets(items))


def _melds(rules: Rules, table: bool = False) -> str:
    joker = "joker" if table else "JK"
    if rules.wilds_at_most_naturals:
        limit = (f"at most {number(MAX_WILD)} wild cards, and never more wild cards than natural ones "
                 f"(5-5-2-2 is a meld; 5-5-2-2-{joker} and 5-2-2 are not)")
    else:
        limit = f"at most {number(MAX_WILD)} wild cards (5-5-2-2-{joker} is a meld; 5-2-2 and 5-5-2-2-2-2 are not)"
    if rules.wild_card_melds:
        wild = ("At this table a side may also have one meld of wild cards only: three or more 2s and "
                f"jokers, with no limit of {number(MAX_WILD)}. Once a side has one, it may not put wild cards "
                "into its other melds; wild cards already there stay. Its cards count at their values, also "
                "toward the first-meld minimum.")
    else:
        wild = "Wild cards never form a meld of their own: each stands for a card of the rank it is melded with."
    share = "Partners share their side's melds, and either of them may add to them." if has_partners(rules) else ""
    return _section("Melds", _para(
        f"A meld is three or more cards of one rank from 4 up to A, with at least two natural cards and "
        f"{limit}.", wild), _para(
        "A side has at most one meld of each rank; more cards of that rank join it. A side may meld a "
        "rank that another side has melded, but it never adds cards to another side's melds.", share,
        "One move may lay several melds, new ones and additions, which are judged together."), _para(
        "Black threes are melded only by a player who is going out: three or four of them, with no wild "
        "cards. Red threes are never melded."))


def _canastas(rules: Rules) -> str:
    natural = f"{number(CANASTA_SIZE - MAX_WILD)} natural cards"
    if rules.wild_card_melds:
        size = (f"A canasta is a meld of {number(CANASTA_SIZE)} or more cards. A meld of wild cards only "
                f"becomes a canasta of wild cards at {number(CANASTA_SIZE)}, scores "
                f"{rules.wild_canasta_bonus:,} and counts as a canasta for going out; any other canasta holds "
                f"at least {natural}.")
    else:
        size = f"A canasta is a meld of {number(CANASTA_SIZE)} or more cards, so it holds at least {natural}."
    return _section("Canastas", _para(
        size,
        f"A natural canasta, with no wild card, scores {NATURAL_CANASTA}; a mixed canasta, with one to "
        f"{number(MAX_WILD)} wild cards, scores {MIXED_CANASTA}.",
        "Natural cards may still be added to a canasta. A wild card added to a natural canasta makes it "
        f"mixed, and no meld of a rank ever holds more than {number(MAX_WILD)} wild cards. Whether a "
        "canasta is natural or mixed is settled by its cards when the hand ends. A meld of black threes "
        "is never a canasta."))


def _first_meld(rules: Rules) -> str:
    again = ("neither partner needs a minimum again that hand" if has_partners(rules)
             else "it needs no minimum again that hand")
    return _section("The first meld", _para(
        "A side's first meld of each hand must be worth at least a minimum that depends on the side's "
        "match total at the start of the hand:"),
        _bullets(f"{span}: {minimum:,}" for span, minimum in minimum_rows(rules)),
        _para(
            "Only card values count, never bonuses: red threes and canastas do not help. Several melds "
            "may be laid in one move to reach the minimum, and that one move must reach it. When the "
            "first meld is made with the pile, its top card counts and the rest of the pile does not.",
            f"Once a side has melded, {again}. The one exception to the minimum is a meld that goes "
            "out at once after drawing from the stock (see Going out concealed)."))


def _turn(rules: Rules) -> str:
    extra = " If the stock holds fewer cards, you draw what is left." if rules.draw > 1 else ""
    return _section("The turn", _para(
        f"On your turn, first draw {counted(rules.draw, 'card')} from the top of the stock, or take the "
        "whole discard pile instead (see Taking the pile). Then meld as you like. Then discard one card "
        f"face up onto the pile, which ends your turn.{extra}",
        "You discard from your hand, never from a meld. The one turn with no discard is the turn you go "
        "out by melding every card."))


def _frozen_when(rules: Rules) -> str:
    if rules.pile_always_frozen:
        return "At this table the pile is always frozen, for everyone."
    freezers = ["a wild card", "a red three"] + (["a black three"] if rules.black_three_freezes else [])
    cover = ", or once a black three upcard has been covered" if rules.black_three_upcard == "cover" else ""
    return ("The pile is frozen against a side that has not melded yet, and against everyone while it "
            f"holds {join(freezers, 'or')}{cover}. It stays frozen until someone takes it.")


def _unfrozen(rules: Rules) -> str:
    if rules.pile_always_frozen:
        return ""
    if rules.two_naturals_to_take:
        take = ("When the pile is not frozen for your side, you still need two natural cards of the top "
                "card's rank from your hand to take it: one natural card and a wild card are not enough, "
                "and the top card cannot go onto your side's meld by itself. Wild cards may join the "
                "two natural cards.")
    else:
        take = ("When the pile is not frozen for your side, you may take it by melding the top card with "
                "a natural pair of its rank from your hand, or with one natural card and one wild card, or "
                "by adding it to your side's meld of its rank.")
    if rules.no_pile_for_finished_canasta:
        take += (" You may not take it just to add its top card to a finished canasta of your side: for "
                 "that rank you need two natural cards from your hand.")
    return _para(take)


def _pile(rules: Rules) -> str:
    return _section("Taking the pile", _para(
        "To take the discard pile you meld its top card at once, and you always take the whole pile: the "
        "rest of it joins your hand after the move, except red threes, which are laid out without "
        "replacement. If your side has not melded, the top card and the cards melded with it, with any "
        "other melds from your hand in the same move, must reach the first-meld minimum.",
        "Nobody may take the pile while its top card is a wild card or a black three. A black three "
        "blocks only the next player, since another card then covers it. With one card in your hand you "
        "may not take a pile of one card."), _unfrozen(rules), _para(
        _frozen_when(rules),
        "A frozen pile can be taken only with two or more natural cards of the top card's rank from your "
        "hand: no wild card may help, and the top card cannot go onto your side's meld by itself. If your "
        "side already has a meld of that rank, the pair and the top card join it."))


def _empty_stock(rules: Rules) -> str:
    if rules.pile_always_frozen or rules.two_naturals_to_take:
        forced = ("At this table the top card alone never takes the pile, so nobody is ever forced to "
                  "take it.")
    else:
        unless = ", unless that meld is a finished canasta" if rules.no_pile_for_finished_canasta else ""
        forced = ("You must take the pile when its top card can go onto your side's meld of its rank and "
                  f"the pile is not frozen for your side{unless}.")
    return _section("The empty stock", _para(
        "When the stock is empty, play goes on.", forced,
        "Otherwise you may take the pile in any legal way, or draw from the empty stock, which ends the "
        "hand at once; nobody then scores for going out. If you go out instead, you score for going out "
        "as usual."))


def _going_out(rules: Rules) -> str:
    if not has_partners(rules):
        asking = "You decide alone when to go out."
    elif not rules.ask_partner:
        asking = "At this table nobody asks a partner before going out."
    else:
        asking = "Before going out you may ask your partner (see Asking your partner)."
    return _section("Going out", _para(
        "You go out by melding or discarding your last card, which ends the hand at once.",
        f"You may go out only when your side has at least {_canastas_needed(rules)}; "
        f"{'it' if rules.canastas_to_go_out == 1 else 'the last of them'} may be finished on that same turn.",
        "Until then you must keep a card after discarding, so neither a meld nor taking the pile may "
        "leave you fewer than two cards, and you may not discard your last card.", asking))


def _asking(rules: Rules) -> str:
    if not (rules.ask_partner and has_partners(rules)):
        return ""
    plays = " that plays the hand" if rules.sit_out else ""
    return _section("Asking your partner", _para(
        "After drawing from the stock, and before melding anything that turn, you may ask \"Partner, may "
        "I go out?\", but only when you could go out this turn: your hand can be laid out, all of it or "
        f"all but one card to discard, and your side would then hold the {_canastas_needed(rules)} it "
        "needs.",
        f"Your partner, the next seat clockwise on your side{plays}, answers yes or no, and the answer "
        "binds: after yes you must go out this turn, after no you may not.",
        "You ask at most once a turn. You need not ask at all, and you may not ask before drawing or "
        "after taking the pile."))


def _concealed(rules: Rules) -> str:
    if rules.concealed_bonus:
        score = (f"It scores {GOING_OUT_CONCEALED} for going out instead of {GOING_OUT}.")
    else:
        score = (f"At this table there is no bonus for it: going out scores {GOING_OUT} whichever way "
                 "you do it.")
    return _section("Going out concealed", _para(
        "You go out concealed when you had not melded or added to a meld earlier in the hand and you go "
        "out in one turn, with a canasta among the cards you melded that turn.", score,
        "After drawing from the stock, a single meld that lays out all your cards, or all but one that "
        "you then discard, needs no first-meld minimum when you had not melded earlier in the hand. After "
        "taking the pile, the minimum applies to the pile move as usual."))


def _scoring(rules: Rules, table: bool = False) -> str:
    bonuses = [f"natural canasta: {NATURAL_CANASTA}", f"mixed canasta: {MIXED_CANASTA}"]
    if rules.wild_card_melds:
        bonuses.append(f"canasta of wild cards: {rules.wild_canasta_bonus:,}")
    bonuses.append(f"red threes: {red_three_values(rules)}")
    if rules.concealed_bonus:
        bonuses += [f"going out: {GOING_OUT}", f"going out concealed: {GOING_OUT_CONCEALED}"]
    else:
        bonuses.append(f"going out: {GOING_OUT}, concealed or not")
    if rules.wild_card_melds:
        penalty = rules.unfinished_wild_meld_penalty
        bonuses.append(f"a meld of wild cards still short of {number(CANASTA_SIZE)} when the hand ends: "
                       + (f"minus {penalty:,}" if penalty else "no penalty"))
    return _section("Scoring", _para(
        "At the end of each hand every side scores its bonuses and the values of the cards it melded, "
        "minus the values of all cards left in its players' hands, even cards that would make a meld. "
        "Hand totals and match totals may be below zero."),
        _para("Card values:"), _bullets(card_value_rows(table)),
        _para("Bonuses:"), _bullets(bonuses))


def _match(rules: Rules) -> str:
    if rules.sides == 2:
        several = "If both sides do, the higher total wins; if the totals are equal, another hand is played."
    else:
        several = ("If more than one side does, the highest total wins; if that highest total is shared, "
                   "another hand is played.")
    return _section("The end of the match", _para(
        f"The match ends when a side's total reaches {rules.target:,} at the end of a hand.", several,
        "There is no bonus for winning the match."))


def _differences(rules: Rules, table: bool = False) -> str:
    classic = PRESETS["classic"]
    preset = PRESETS.get(rules.preset, classic)
    items = []
    for field in dataclasses.fields(Rules):
        name = field.name
        value, was = getattr(rules, name), getattr(classic, name)
        if name == "preset" or value == was:
            continue
        from_preset = value == getattr(preset, name)
        if table:
            origin = f"as {game_name(rules.preset)} has it" if from_preset else "chosen for this table"
            said = _setting(name, value).partition(": ")
            note = " (it matters only with melds of wild cards)" if (
                name in WILD_MELD_FIELDS and not rules.wild_card_melds) else ""
            was_words = _setting(name, was).partition(": ")[2]
            items.append(f"{said[0]}: {said[2]} instead of {was_words}, {origin}{note}")
            continue
        origin = f"set by the preset {rules.preset}" if from_preset else "set with --set"
        note = " (no effect while wild_card_melds is false)" if (
            name in WILD_MELD_FIELDS and not rules.wild_card_melds) else ""
        label = LABELS.get(name, name.replace("_", " "))
        label = "" if label == name.replace("_", " ") else f" ({label})"
        items.append(f"`{name}`{label}: {_value(value)} instead of {_value(was)}, {origin}{note}")
    if red_three_values(rules) != red_three_values(classic):  # a consequence of the decks, not an option
        from_preset = rules.decks == preset.decks
        if table:
            origin = f"as {game_name(rules.preset)} has it" if from_preset else "chosen for this table"
            items.append(f"Red threes ({number(rules.red_three_count)} with {counted(rules.decks, 'deck')}): "
                         f"{red_three_brief(rules)} instead of {red_three_brief(classic)}, {origin}")
        else:
            origin = f"set by the preset {rules.preset}" if from_preset else "set with --set"
            items.append(f"red threes ({number(rules.red_three_count)} with {counted(rules.decks, 'deck')}): "
                         f"{red_three_brief(rules)} instead of {red_three_brief(classic)}, {origin} (`decks`)")
    if not items:
        return _section("Differences from classic", _para("None: this is the classic game."))
    return _section("Differences from classic", _bullets(items))


SECTIONS = (_title, _players, _cards, _deal, _red_threes, _melds, _canastas, _first_meld, _turn, _pile,
            _empty_stock, _going_out, _asking, _concealed, _scoring, _match, _differences)
FOR_TABLE = {_title, _cards, _melds, _scoring, _differences}
"""The sections whose words change for a player at a table (``table=True``)."""


def rules_text(rules: Rules, table: bool = False) -> str:
    """The complete rules of the game ``rules`` describes, in plain English (Markdown).

    ``table``: for a player at a table: cards as the table shows them, its settings in words, no command.
    """
    parts = (section(rules, table) if section in FOR_TABLE else section(rules)
             for section in SECTIONS)
    return "\n\n".join(part for part in parts if part) + "\n"
