"""What the one-page rule sheet says, built from a :class:`Rules` object (no PDF library here).

Every number comes from the rules, from :mod:`canasta.scoring`'s bonuses, from
:data:`canasta.cards.KIND_VALUE` or from :mod:`canasta.text.rulebook`'s tables, so the sheet
can never disagree with the engine.  The classic and two-player sheets carry both games
side by side in one table (seed 002); the text below it holds for both.

>>> from canasta.rules import Rules
>>> [s.title for s in rule_sheet_sections(Rules())][:3]
['Players, deal and turn', 'Card values', 'Melds']
>>> [cell for row in first_meld_table(Rules()).rows for cell in row][-2:]
['3,000 and up', '120']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import BLACK_THREE, CANASTA_SIZE, JOKER_KIND, KIND_VALUE, NATURAL_RANKS, TWO
from ..errors import RulesError
from ..rules import Rules
from ..scoring import GOING_OUT, GOING_OUT_CONCEALED, MIXED_CANASTA, NATURAL_CANASTA, SideScore
from ..text.options import in_force
from ..text.rulebook import (
    MAX_WILD,
    command,
    has_partners,
    minimum_rows,
    options_changed,
    red_three_brief,
    side_seats,
)

PAPERS: dict[str, tuple[float, float]] = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
"""Paper sizes in points (1/72 inch), portrait."""
COMPANIONS = {"classic": "two-player", "two-player": "classic"}
"""Presets whose sheet also shows the other game in the table at the top (seed 002: 2 players or 4)."""
TABLE_FIELDS = ("preset", "players", "sides", "hand_size", "draw", "canastas_to_go_out")
"""What may differ between the games of one sheet: the table at the top gives it for each."""
MIN_MELD = 3
MIN_NATURAL = 2


@dataclass(frozen=True)
class Para:
    """A paragraph; ``**bold**`` marks words."""

    text: str
    small: bool = False
    plain: bool = False  # no **bold** marks: the text is printed as it is (command lines hold "--")


@dataclass(frozen=True)
class Bullets:
    """A list of short points."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    """Rows of cells; the first row is a header when ``header``; ``widths`` are fractions of the width."""

    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]
    header: bool = True
    mark: int | None = None  # a column to shade: the game this sheet is for


Block = Para | Bullets | Grid


@dataclass(frozen=True)
class Section:
    """A titled part of the sheet."""

    title: str
    blocks: tuple[Block, ...]


# -- the games of one sheet ------------------------------------------------------------------


def companion(rules: Rules) -> Rules | None:
    """The other game shown beside this one (two-player beside classic), with the same options, or None."""
    name = COMPANIONS.get(rules.preset)
    if name is None:
        return None
    try:
        other = Rules.from_preset(name, **options_changed(rules))
    except RulesError:
        return None
    same = dataclasses.replace(other, **{f: getattr(rules, f) for f in TABLE_FIELDS})
    return other if same == rules else None


def games(rules: Rules) -> list[Rules]:
    """The games a sheet covers, fewest players first."""
    other = companion(rules)
    return sorted([rules] if other is None else [rules, other], key=lambda r: r.players)


def _agreed(games_: Sequence[Rules], fact: Callable[[Rules], str]) -> str:
    """A fact of the sheet's games: ``1 canasta`` when they agree, else ``2 canastas (2 players) or 1 ...``."""
    values = {fact(r) for r in games_}
    if len(values) == 1:
        return values.pop()
    return " or ".join(f"{fact(r)} ({r.players} players)" for r in games_)


# -- facts -----------------------------------------------------------------------------------


def plural(n: int, noun: str) -> str:
    """``1 canasta``, ``2 canastas``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def seating(rules: Rules) -> str:
    """Who plays with whom: ``2 sides of 2, partners facing``."""
    sizes = [len(seats) for seats in side_seats(rules)]
    if rules.players == rules.sides:
        return "each alone"
    if rules.sit_out:
        return (f"{rules.sides} sides of {' and '.join(str(s) for s in sizes)}; "
                f"{plural(rules.sit_out, 'player')} of the larger sits out each hand, in turn")
    if len(set(sizes)) == 1:
        return f"{rules.sides} sides of {sizes[0]}, " + ("partners facing" if sizes[0] == 2 else "seated alternately")
    return f"{rules.sides} sides of {' and '.join(str(s) for s in sizes)}, seated alternately"


def asking(rules: Rules) -> str:
    """Whether a player asks before going out."""
    if not has_partners(rules):
        return "your own call"
    return "may ask partner (binding)" if rules.ask_partner else "nobody asks"


def red_three_short(rules: Rules) -> str:
    """``100 each; all four 800`` (``both 400`` with one deck), from ``Rules.red_three_points``."""
    return red_three_brief(rules)


def decks_text(rules: Rules) -> str:
    """``2 decks and 4 jokers``, ``1 deck and 2 jokers``."""
    return f"{plural(rules.decks, 'deck')} and {plural(2 * rules.decks, 'joker')}"


def card_value_table() -> Grid:
    """Card values, highest first, from ``cards.KIND_VALUE``; red threes are a bonus."""
    names = {TWO: "2", JOKER_KIND: "Joker", BLACK_THREE: "black 3"}
    names |= {k: ("10" if ch == "T" else ch) for k, ch in enumerate(NATURAL_RANKS)}
    by_value: dict[int, list[str]] = {}
    for kind in (JOKER_KIND, TWO, *range(len(NATURAL_RANKS)), BLACK_THREE):
        by_value.setdefault(KIND_VALUE[kind], []).append(names[kind])
    rows = [(", ".join(kinds), f"{value:,}") for value, kinds in sorted(by_value.items(), reverse=True)]
    return Grid((("Card", "Points"), *rows), (0.72, 0.28))


def first_meld_table(rules: Rules) -> Grid:
    """The first-meld minimum for each range of a side's total (``rulebook.minimum_rows``)."""
    rows = [(span.replace(" to ", " – ").replace(" and more", " and up"), f"{minimum:,}")
            for span, minimum in minimum_rows(rules)]
    return Grid((("Your side's total", "Minimum"), *rows), (0.62, 0.38))


def game_table(rules: Rules) -> Grid:
    """The facts that depend on the number of players, one column per game of the sheet."""
    covered = games(rules)
    facts: list[tuple[str, Callable[[Rules], str]]] = [
        ("Sides", seating),
        ("Deal", lambda r: f"{r.hand_size} cards each"),
        ("Each turn", lambda r: f"draw {r.draw}, discard 1"),
        ("To go out", lambda r: plural(r.canastas_to_go_out, "canasta") + (" (your side)" if has_partners(r) else "")),
        ("Going out", asking),
        ("Target", lambda r: f"{r.target:,}"),
    ]
    header = ("", *(f"{r.players} players" for r in covered))
    rows = [(label, *(fact(r) for r in covered)) for label, fact in facts]
    widths = (0.25, 0.75) if len(covered) == 1 else (0.25, 0.34, 0.41)
    return Grid((header, *rows), widths, mark=covered.index(rules) + 1 if len(covered) > 1 else None)


def example_score(rules: Rules) -> SideScore:
    """Seed 000's worked example (1,315): canastas of kings and 9s, three aces, two red threes, going out."""
    k, nine, ace, queen, six = (NATURAL_RANKS.index(c) for c in "K9AQ6")
    v = KIND_VALUE
    return SideScore(
        natural_canastas=1, mixed_canastas=1, canasta_bonus=NATURAL_CANASTA + MIXED_CANASTA,
        red_threes=2, red_three_points=rules.red_three_points(2), going_out=GOING_OUT,
        melded=7 * v[k] + (5 * v[nine] + v[TWO] + v[JOKER_KIND]) + 3 * v[ace],
        in_hand=v[queen] + v[six] + v[TWO],
    )


def example_text(rules: Rules) -> str:
    """The worked example as a sum."""
    s = example_score(rules)
    k, nine, ace = (NATURAL_RANKS.index(c) for c in "K9A")
    v = KIND_VALUE
    parts = [NATURAL_CANASTA, MIXED_CANASTA, s.red_three_points, s.going_out, 7 * v[k],
             5 * v[nine] + v[TWO] + v[JOKER_KIND], 3 * v[ace]]
    return ("**Example:** natural canasta of 7 kings, mixed canasta of 9s (five 9s, a 2, a joker), three aces, "
            "two red threes, going out; a Q, a 6 and a 2 left in hand: "
            + " + ".join(f"{p:,}" for p in parts) + f" - {s.in_hand:,} = **{s.total:,}**.")


def options_text(rules: Rules) -> str:
    """Every option in words a table reads (``Ask partner before going out: yes``); those set on top of
    the preset in bold (``text.options`` holds the words)."""
    parts = [f"**{option.label}: {words}**" if changed else f"{option.label}: {words}"
             for option, words, changed in in_force(rules)]
    changed = " Bold: changed from the preset." if options_changed(rules) else ""
    return f"**{rules.preset}:** " + " · ".join(parts) + "." + changed


def sheet_command(rules: Rules, paper: str = "letter", sides: int | None = None) -> str:
    """The command line that prints these sheets: the preset, every ``--set``, and ``--sides`` and
    ``--paper`` where they are not the defaults."""
    extra = (f" --sides {sides}" if sides is not None and sides != rules.sides else "") \
        + (f" --paper {paper}" if paper != "letter" else "")
    return command(rules).replace("canasta rules ", "canasta sheets --preset ", 1) + extra


# -- sections ---------------------------------------------------------------------------------


def _setup(rules: Rules, covered: Sequence[Rules]) -> Section:
    covered_by = "a wild card, a red three or a black three" if rules.black_three_upcard == "cover" \
        else "a wild card or a red three"
    black = ("A black three upcard is covered the same way." if rules.black_three_upcard == "cover"
             else "A black three upcard stays on top: the first player may not take the pile.")
    draw = _agreed(covered, lambda r: plural(r.draw, "card"))
    return Section("Players, deal and turn", (
        game_table(rules),
        Para(f"{decks_text(rules)}, {rules.deck_size} cards. **Jokers and 2s are wild;** natural cards "
             "are 4 up to A; threes are neither. Deal one at a time, clockwise from the dealer's left; the deal "
             "passes left. The next card, face up, starts the discard pile; the rest is the stock. While the "
             f"upcard is {covered_by}, turn the next card onto it: the pile is frozen. {black}"),
        Para(f"**Your turn:** draw {draw} from the stock, or take the whole discard pile; meld as you like; "
             "discard 1 card (from your hand, never from a meld). Going out by melding every card needs no "
             "discard."),
    ))


def _cards(rules: Rules) -> Section:
    table = card_value_table()
    return Section("Card values", (Grid((*table.rows, ("Red 3: a bonus", red_three_short(rules))),
                                         (0.5, 0.5)),))


def _melds(rules: Rules, covered: Sequence[Rules]) -> Section:
    limit = f"at most {MAX_WILD} wild" + (", never more wild than natural" if rules.wilds_at_most_naturals else "")
    wild = ("A meld of wild cards only (2s and jokers) is allowed; a side that has one puts no more wild cards "
            "in its other melds." if rules.wild_card_melds
            else "Wild cards never meld alone: each stands for a card of its meld's rank.")
    share = "Partners share their melds; " if any(has_partners(r) for r in covered) else ""
    return Section("Melds", (Bullets((
        f"{MIN_MELD} or more cards of one rank, 4 up to A: at least {MIN_NATURAL} natural, {limit}.",
        wild,
        f"One meld of each rank per side: more cards of that rank join it. {share}never add to another "
        "side's melds.",
        "Black threes: only when going out, 3 or 4 of them, no wild cards. Red threes are never melded.",
    )),))


def _canastas(rules: Rules) -> Section:
    rows: list[tuple[str, str]] = [("Natural: no wild card", f"{NATURAL_CANASTA:,}"),
                                   (f"Mixed: 1 to {MAX_WILD} wild cards", f"{MIXED_CANASTA:,}")]
    if rules.wild_card_melds:
        rows.append(("Wild cards only", f"{rules.wild_canasta_bonus:,}"))
    return Section("Canastas", (
        Para(f"A meld of **{CANASTA_SIZE} or more cards** (at least {CANASTA_SIZE - MAX_WILD} natural)."),
        Grid((("Canasta", "Bonus"), *rows), (0.7, 0.3)),
        Para("Natural cards may still be added. A wild card added to a natural canasta makes it mixed; it is "
             "counted as it stands when the hand ends."),
    ))


def _first_meld(rules: Rules) -> Section:
    return Section("First meld minimum", (
        first_meld_table(rules),
        Para("A side's total at the start of the hand sets it. **Card values only,** never bonuses, in one "
             "move: several melds may be laid together. With the pile, its top card counts, the rest does not. "
             "Once the side has melded, no minimum again that hand."),
    ))


def _pile(rules: Rules) -> Section:
    items = ["Meld its top card at once, then take **all** the rest into your hand."]
    if not rules.pile_always_frozen:
        if rules.two_naturals_to_take:
            items.append("**Not frozen:** still only with 2 natural cards of its rank from your hand "
                         "(wild cards may join them).")
        else:
            items.append("**Not frozen:** with a natural pair of its rank, or a natural and a wild card, or "
                         "onto your side's meld of that rank.")
        if rules.no_pile_for_finished_canasta:
            items[-1] += " Not just to add it to a finished canasta."
        freezers = ["a wild card", "a red three"] + (["a black three"] if rules.black_three_freezes else [])
        items.append(f"**Frozen** for a side that has not melded, and for everyone while the pile holds "
                     f"{', '.join(freezers[:-1])} or {freezers[-1]}; it stays frozen until taken.")
    else:
        items.append("At this table the pile is **always frozen**.")
    items += [
        "To take a frozen pile you need a **natural pair** of the top card's rank from your hand; no wild card, "
        "and not onto a meld (the pair and the top card join your meld of that rank).",
        "A wild card or a black three on top blocks it; a black three only for the next player.",
        "With 1 card in hand you may not take a pile of 1 card.",
    ]
    return Section("Taking the discard pile", (Bullets(tuple(items)),))


def _threes(rules: Rules) -> Section:
    when = "right after the deal" if rules.red_threes_at_deal else "at the start of your first turn"
    black = "**Black three** on top: the next player may not take the pile"
    black += "; it also freezes the pile." if rules.black_three_freezes else "."
    return Section("Red and black threes", (Bullets((
        f"**Red three** dealt: lay it out and replace it {when}. Drawn: lay it out and replace it at once. "
        "Taken with the pile: laid out, not replaced.",
        f"Worth {red_three_short(rules)}, but they count **against** a side with no meld when the hand ends.",
        "Last card of the stock a red three: lay it out; the hand ends at once.",
        black,
    )),))


def _going_out(rules: Rules, covered: Sequence[Rules]) -> Section:
    need = _agreed(covered, lambda r: plural(r.canastas_to_go_out, "canasta"))
    items = [f"Meld or discard your last card once your side has **{need}**; the last may be finished that "
             "turn. Until then keep a card: no meld or pile may leave you fewer than 2 cards."]
    if any(has_partners(r) and r.ask_partner for r in covered):
        items.append("\"Partner, may I go out?\": ask after drawing, before melding, when you could go out; after "
                     "yes you must go out, after no you may not.")
    if rules.concealed_bonus:
        items.append(f"**Concealed:** your whole hand in one turn, with a canasta, nothing melded before: "
                     f"{GOING_OUT_CONCEALED} instead of {GOING_OUT}. After drawing, it needs no first-meld "
                     "minimum.")
    else:
        items.append(f"Concealed or not, going out scores {GOING_OUT}. Going out concealed after drawing needs "
                     "no first-meld minimum.")
    if rules.pile_always_frozen or rules.two_naturals_to_take:
        forced = "No stock left: nobody must take the pile; "
    else:
        unless = " (unless that meld is a finished canasta)" if rules.no_pile_for_finished_canasta else ""
        forced = ("No stock left: you must take the pile when its top card goes onto your side's meld and it is "
                  f"not frozen{unless}; ")
    items.append(forced + "otherwise a draw ends the hand, and nobody scores for going out.")
    return Section("Going out", (Bullets(tuple(items)),))


def bonus_rows(rules: Rules) -> list[tuple[str, str]]:
    """The bonuses of a hand, one row each, as both sheets print them."""
    rows: list[tuple[str, str]] = [("Natural canasta", f"{NATURAL_CANASTA:,}"),
                                   ("Mixed canasta", f"{MIXED_CANASTA:,}")]
    if rules.wild_card_melds:
        rows.append(("Canasta of wild cards", f"{rules.wild_canasta_bonus:,}"))
        if rules.unfinished_wild_meld_penalty:
            rows.append(("Unfinished wild meld", f"-{rules.unfinished_wild_meld_penalty:,}"))
    rows.append(("Red threes", red_three_short(rules)))
    rows.append(("Going out", f"{GOING_OUT:,}"))
    if rules.concealed_bonus:
        rows.append(("Going out concealed", f"{GOING_OUT_CONCEALED:,}"))
    return rows


def _scoring(rules: Rules, covered: Sequence[Rules]) -> Section:
    rows = bonus_rows(rules)
    rows += [("Cards melded", "+ their points"), ("Cards left in hand", "- their points")]
    target = _agreed(covered, lambda r: f"{r.target:,}")
    several = "both" if rules.sides == 2 else "several"
    blocks: list[Block] = [
        Grid((("Each hand", "Points"), *rows), (0.55, 0.45)),
        Para("Cards left in hand count against the side even when they would meld. Hand and match totals may "
             "be below 0."),
    ]
    if rules.canastas_to_go_out <= 2:
        blocks.append(Para(example_text(rules)))
    blocks.append(Para(f"**The first side to {target}** at the end of a hand wins; if {several} reach it, the "
                       "higher total; if tied, play another hand."))
    return Section("Scoring", tuple(blocks))


def _options(rules: Rules, paper: str, sides: int | None) -> Section:
    return Section("Options in force", (Para(options_text(rules), small=True),
                                        Para(f"Printed by: {sheet_command(rules, paper, sides)}", small=True,
                                             plain=True)))


def rule_sheet_sections(rules: Rules, paper: str = "letter", sides: int | None = None) -> list[Section]:
    """The sections of the rule sheet, in reading order (``paper`` and ``sides`` name the command)."""
    covered = games(rules)
    return [
        _setup(rules, covered), _cards(rules), _melds(rules, covered), _canastas(rules), _first_meld(rules),
        _pile(rules), _threes(rules), _going_out(rules, covered), _scoring(rules, covered),
        _options(rules, paper, sides),
    ]


def rule_sheet_title(rules: Rules) -> tuple[str, str]:
    """The sheet's title and the line under it."""
    covered = games(rules)
    players = " or ".join(str(r.players) for r in covered)
    return ("Canasta: the rules at a glance",
            f"{rules.preset} · {players} players · {decks_text(rules)}, "
            f"{rules.deck_size} cards · game to {rules.target:,}")
