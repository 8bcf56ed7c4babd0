"""The table as styled text, from one seat's view: pure functions, no Textual.

Every function returns lines of ``(text, style)`` spans, styles being Rich style strings, so
the layout can be tested without a terminal.  Cards carry suit symbols (``K♠``, ``10♥``,
``JK``); red suits are red and wild cards magenta.

>>> from canasta.cards import parse_cards
>>> plain(hand_lines(tuple(parse_cards(["KS", "KD", "9C", "2H", "JK"])), width=40)[0])
'K♠ K♦   9♣   2♥   JK'
>>> card_label(parse_cards(["TH"])[0]), pretty_move("pile 9S 9H, K: JK")
('10♥', 'pile 9♠ 9♥, K: JK')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import IS_WILD, KIND, MELD_RANK_CHARS, NUM_NATURAL, RED_THREE, card_text
from ..moves import Phase
from ..text.labels import (
    blocked_label,
    canasta_label,
    card_label,
    cards_label,
    hand_groups,
    points,
    pretty_move,
    rank_label,
)
from ..views import PublicView, View

Span = tuple[str, str]
"""A piece of text and its Rich style ("" for none)."""
Line = list[Span]

RED_SUIT = "bold #ff5f5f"
"""Hearts and diamonds: a light red (256 colours: 203), apart from the wild cards' gold."""
WILD = "bold #ffd700"
"""Wild cards: gold (256 colours: 220), never red, so a 2♠ does not look like a heart."""
FRESH = "on #005f5f"
"""The background of the cards just drawn or taken from the pile."""


def card_style(code: int) -> str:
    """Red suits light red, wild cards gold, black suits in the terminal's colour (NO_COLOR: all plain bold)."""
    if IS_WILD[code]:
        return WILD
    return RED_SUIT if card_text(code)[1] in "HD" else "bold"


def card_span(code: int, extra: str = "") -> Span:
    """One card as a styled span."""
    return card_label(code), f"{card_style(code)} {extra}".strip()


def cards_line(codes: Sequence[int]) -> Line:
    """Cards separated by spaces."""
    line: Line = []
    for i, code in enumerate(codes):
        if i:
            line.append((" ", ""))
        line.append(card_span(code))
    return line


def plain(line: Line) -> str:
    """The text of a line without its styles."""
    return "".join(text for text, _ in line)


def width_of(line: Line) -> int:
    """Cells a line takes (suit symbols are one cell wide)."""
    return len(plain(line))


def rows(lines: Sequence[Line], width: int) -> int:
    """Terminal rows the lines take when wrapped at ``width``."""
    return sum(max(1, -(-width_of(line) // max(1, width))) for line in lines)


rank_name = rank_label
"""A meld rank as people write it: ``K``, ``10``, ``3``, ``W`` (wild cards)."""


# -- the hand -------------------------------------------------------------------------------


def hand_lines(hand: Sequence[int], cursor: int | None = None, selected: frozenset[int] = frozenset(),
               width: int = 78, fresh: frozenset[int] = frozenset()) -> list[Line]:
    """The sorted hand grouped by rank, wrapped at ``width`` without splitting a group if it can.

    ``fresh``: the places of the cards just drawn or taken, marked until the player's next move.
    """
    lines: list[Line] = [[]]
    for group in hand_groups(hand):
        spans: Line = []
        for j, i in enumerate(group):
            label = card_label(hand[i])
            extra = "reverse" if i == cursor else FRESH if i in fresh else ""
            if i in selected:
                extra += " underline on dark_goldenrod"
            if j:
                spans.append((" ", ""))
            spans.append((label, f"{card_style(hand[i])} {extra}".strip()))
        gap: Line = [("   ", "")] if lines[-1] else []
        if lines[-1] and width_of(lines[-1]) + width_of(gap) + width_of(spans) > width:
            lines.append([])
            gap = []
        lines[-1].extend(gap + spans)
    return lines


# -- melds, sides, pile, players ----------------------------------------------------------------


_CANASTA_STYLE = {"natural": "bold white on red", "mixed": "bold white on grey30", "wild": "bold white on magenta"}


def meld_spans(rank: int, cards: Sequence[int], full: bool, kind: str | None = None) -> Line:
    """One meld: ``K: K♠ K♥ 2♣`` in full, or ``K×3·1w`` compact; a canasta is marked with its ``kind``."""
    wilds = sum(1 for c in cards if IS_WILD[c])
    if full:
        line: Line = [(f"{rank_name(rank)}: ", "bold"), *cards_line(sorted(cards))]
    else:
        line = [(f"{rank_name(rank)}×{len(cards)}", "bold")]
        if wilds and rank != len(MELD_RANK_CHARS) - 1:
            line.append((f"·{wilds}w", "magenta"))
    if kind is not None:
        line.append((" ", ""))
        line.append((canasta_label(kind) if full else kind, _CANASTA_STYLE[kind]))
    return line


def _flow(items: Sequence[Line], width: int, sep: str = "   ") -> list[Line]:
    lines: list[Line] = [[]]
    for item in items:
        if lines[-1] and width_of(lines[-1]) + len(sep) + width_of(item) > width:
            lines.append([])
        if lines[-1]:
            lines[-1].append((sep, ""))
        lines[-1].extend(item)
    return lines


def melds_lines(melds: Mapping[int, Sequence[int]], width: int, max_lines: int = 2,
                canastas: Mapping[int, str] | None = None) -> list[Line]:
    """A side's melds, high ranks first: every card when it fits in ``max_lines``, else compact.

    ``canastas``: the kind of each canasta, as the view says (``PublicView.canastas``).
    """
    ranks = sorted(melds)
    if not ranks:
        return []
    kinds = canastas or {}
    for full in (True, False):
        lines = _flow([meld_spans(r, melds[r], full, kinds.get(r)) for r in ranks], width)
        if len(lines) <= max_lines or not full:
            return lines
    raise AssertionError("unreachable")  # pragma: no cover


def side_seats(view: PublicView, side: int) -> list[int]:
    """The seats of a side."""
    return [s for s in range(view.rules.players) if s % view.rules.sides == side]


def side_name(names: Sequence[str], view: PublicView, side: int) -> str:
    """``You & Basic 3``: the names of a side's players."""
    return " & ".join(names[s] for s in side_seats(view, side))


def side_lines(view: PublicView, names: Sequence[str], width: int, mine: int | None, meld_lines: int = 2,
               scores: Sequence[int] | None = None) -> list[Line]:
    """Every side (the viewer's own last): names, score, first-meld minimum, red threes, melds.

    A side's melds show every card when that takes at most ``meld_lines`` lines, else compact.
    ``scores``: the match's scores to show instead of the view's (those of the hand's start),
    once the hand is over.
    """
    order = sorted(range(view.rules.sides), key=lambda s: (s == mine, s))
    out: list[Line] = []
    for side in order:
        melds = view.melds[side]
        head: Line = [(side_name(names, view, side) + (" (your side)" if side == mine else ""),
                       "bold cyan" if side == mine else "bold")]
        head.append((f"  {points((scores or view.scores)[side])}", "bold"))
        head.append((f"  first meld {view.minimums[side]}" + (" ✓" if melds else ""), "dim" if melds else ""))
        if view.red_threes[side]:
            head.append(("  red 3s ", ""))
            head.extend(cards_line(view.red_threes[side]))
        out.append(head)
        lines = melds_lines(melds, width - 2, meld_lines, view.canastas[side])
        out.extend([("  ", ""), *line] for line in lines)
        if not lines:
            out.append([("  no melds yet", "dim")])
    return out


def pile_line(view: PublicView, mine: int | None) -> Line:
    """The pile (top card, size, frozen or blocked, wild cards under it) and the stock."""
    line: Line = [("Pile ", "bold")]
    top = view.top
    if top is None:
        line.append(("empty", "dim"))
    else:
        line.append(card_span(top))
        line.append((f" · {len(view.pile)} card{'s' if len(view.pile) != 1 else ''}", ""))
        if view.pile_frozen:
            line.append((" · FROZEN", "bold cyan"))
        if view.pile_blocked:
            line.append((f" · blocked: {blocked_label(top)}", "bold yellow"))
        if mine is not None and not view.pile_frozen and not view.melds[mine]:
            line.append((" · frozen for your side until it melds", "cyan"))
        under = [c for c in view.pile[:-1] if IS_WILD[c] or KIND[c] == RED_THREE]
        if under:
            shown = under[-4:]
            line.append((" · under it ", ""))
            line.extend(cards_line(shown))
            if len(under) > len(shown):
                line.append((f" +{len(under) - len(shown)}", ""))
    line.append((f"   Stock {view.stock_size}", "bold"))
    return line


def player_spans(view: View, names: Sequence[str], seat: int) -> Line:
    """One seat in the players line: turn marker, name, card count, dealer, cards known from the pile."""
    acting = view.phase is not Phase.OVER and view.to_act == seat
    line: Line = [("▶ " if acting else "  ", "bold green"), (names[seat], "bold green" if acting else "bold")]
    if view.sitting_out == seat:
        line.append((" (sitting out)", "dim"))
        return line
    size = view.hand_sizes[seat]
    line.append((f" {size} card{'s' if size != 1 else ''}", ""))
    if view.dealer == seat:
        line.append((" (dealer)", "dim"))
    if view.hands_left:  # the hand is over: every hand is shown, as at a real table
        if view.hands_left[seat]:
            line.append((" left ", "dim"))
            line.extend(cards_line(view.hands_left[seat]))
    elif seat != view.seat and view.known[seat]:
        line.append((" holds ", "dim"))
        line.extend(cards_line(view.known[seat]))
    return line


def players_lines(view: View, names: Sequence[str], width: int) -> list[Line]:
    """Every seat with its hand size, whose turn it is and who dealt."""
    return _flow([player_spans(view, names, s) for s in range(view.rules.players)], width, " ")


describe_groups = cards_label
"""Plain text of cards for messages: ``K♠ K♦ 2♣``."""


def is_natural_rank(rank: int) -> bool:
    """True for the ranks 4 to A."""
    return rank < NUM_NATURAL


__all__ = [
    "Line",
    "Span",
    "card_label",
    "card_span",
    "card_style",
    "cards_line",
    "describe_groups",
    "hand_groups",
    "hand_lines",
    "is_natural_rank",
    "meld_spans",
    "melds_lines",
    "pile_line",
    "plain",
    "player_spans",
    "players_lines",
    "points",
    "pretty_move",
    "rank_name",
    "rows",
    "side_lines",
    "side_name",
    "side_seats",
    "width_of",
]
