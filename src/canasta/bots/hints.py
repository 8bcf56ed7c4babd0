"""Hints: the strongest computer player that answers within 300 ms, and one sentence that says why.

The move comes from :data:`HINT_BOT`, the search with a time budget that answers within
300 ms on the machines measured (``python benchmarks/hints.py`` prints the latency); where it
cannot decide, or finds nothing clearly better, the expert's choice stands.  The reason is the
expert's reading of that move (see :mod:`canasta.bots.expert`): what the pile is worth, which
discards are safe and why, when to meld wild cards, when to go out; when the search overrides
the expert, what it found is added ("in 40 simulated deals this scored 35 points more than
discarding 7C").  Like every bot, a hint sees only the seat's view.  ``CANASTA_HINT_BOT`` names
another player for hints (the tests of the front ends use ``expert``: fast and fixed).

>>> import random
>>> from canasta.state import GameState
>>> state = GameState.deal("classic", rng=random.Random(2))
>>> state.play("draw")
Move.parse('draw')
>>> move, why = hint(state.view(state.turn), list(state.legal_moves()), bot="search:16")
>>> move in state.legal_moves() and why.endswith(".")
True

:func:`hint_sentence` is what every front end shows (the page, the terminal and ``--plain``): the
move and its reason in one plain sentence, cards as on the table.

>>> hint_sentence(Move.parse("discard 7D"), "Discard 7D: nobody can use a 7, and you hold only one 7.")
'Discard 7♦: nobody can use a 7, and you hold only one 7.'
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from ..cards import KIND, NUM_NATURAL, RED_THREE, kind_name
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Move
from ..text.labels import card_label, cards_label
from ..views import View
from . import make_bot
from .expert import ExpertBot, Note
from .tracking import Knowledge

HINT_BOT = "search:200ms"
"""Where hints come from: answers within 300 ms.  ``python benchmarks/hints.py`` on the project's
2-core machine, shared (load average 1.6): median 202 ms, 95th percentile 213 ms, slowest 275 ms
over 200 classic positions, the expert overridden in 22 (at a load of 5.7: 202, 220 and 331 ms)."""
HINT_BOT_ENV = "CANASTA_HINT_BOT"
"""The environment variable that names another player for hints (``expert``, ``search:16``)."""


def hint_bot() -> str:
    """The player hints come from: ``$CANASTA_HINT_BOT`` when it names one, else :data:`HINT_BOT`."""
    name = os.environ.get(HINT_BOT_ENV, "").strip()
    if name:
        try:
            make_bot(name, random.Random(0))
            return name
        except ValueError:
            pass
    return HINT_BOT


def hint(view: View, moves: Sequence[Move], bot: str | None = None,
         rng: random.Random | None = None) -> tuple[Move, str]:
    """The move ``bot`` (default :func:`hint_bot`) would make from ``view``, and a sentence a player can read.

    The expert's choice stands where the bot cannot decide; a fixed rollout budget
    (``search:16``) and ``rng`` give the same hint every time.
    """
    if not moves:
        raise ValueError("there is no legal move to hint at")
    name = bot if bot is not None else hint_bot()
    ranked = ExpertBot(random.Random(0)).ranked(view, moves)
    notes = {m: note for m, _, note in ranked}
    first = ranked[0][0]
    if name == "expert":
        return first, explain(view, moves, first, notes[first])
    player = make_bot(name, rng if rng is not None else random.Random(0))
    try:
        move = player.choose(view, moves)
    except ValueError:  # no deal of the hidden cards fits the view (should not happen): the expert's choice
        move = first
    move = next((m for m in moves if m == move), first)
    reason = explain(view, moves, move, notes.get(move, ("?",)), best=move == first)
    found = _found(getattr(player, "last", None), move, first)
    return move, reason[:-1] + found if found else reason


def _found(last: object, move: Move, first: Move) -> str:
    """What the search found, as the end of the sentence: its gain over the expert's choice, or ''."""
    if not isinstance(last, list) or not last:
        return ""
    means = {m: (mean, rounds) for m, mean, rounds in last}
    if move not in means or first not in means:
        return ""
    mean, rounds = means[move]
    if move == first:
        return f"; {rounds} simulated deals of the hidden cards found nothing clearly better."
    gain = mean - means[first][0]
    return f"; in {rounds} simulated deals of the hidden cards it scored {gain:.0f} points more than {doing(first)}."


_WORDS: dict[str, tuple[str, str]] = {
    DISCARD: ("Discard", "discarding"), MELD: ("Meld", "melding"), PILE: ("Take the pile", "taking the pile"),
    DRAW: ("Draw from the stock", "drawing from the stock"),
    ASK: ("Ask your partner whether you may go out", "asking your partner"),
    YES: ("Answer yes", "saying yes"), NO: ("Answer no", "saying no"),
}
"""Each action as a hint tells it (``Discard``) and as a gerund (``discarding``), before its cards."""


def _said(move: Move, form: int) -> str:
    """A move in words, ``form`` 0 as told (``Meld K♠ K♦ K♣``), 1 as a gerund (``melding K♠ K♦ K♣``)."""
    if move.action not in _WORDS:
        return str(move)
    words = _WORDS[move.action][form]
    if move.action == DISCARD and move.card is not None:
        return f"{words} {card_label(move.card)}"
    if move.action == MELD:
        return f"{words} {_groups_words(move)}"
    if move.action == PILE and move.groups and form == 0:
        return f"{words} with {_groups_words(move)}"
    return words


def doing(move: Move) -> str:
    """A move as an action in words: ``discarding 7♣``, ``taking the pile``.

    >>> doing(Move.parse("discard 7C")), doing(Move.parse("meld KS KD KC"))
    ('discarding 7♣', 'melding K♠ K♦ K♣')
    """
    return _said(move, 1)


def _groups_words(move: Move) -> str:
    """A move's groups with cards as on the table, wild cards alone said with their meld: ``K♠ K♦ K♣, JK on
    the 9s``."""
    return ", ".join(cards_label(g.cards) if any(KIND[c] == g.rank for c in g.cards)
                     else f"{cards_label(g.cards)} on the {kind_name(g.rank)}" for g in move.groups)


def move_words(move: Move) -> str:
    """What a hint tells you to do, cards as on the table: ``Meld Q♥ Q♣ JK``, ``Take the pile with 9♠ 9♥``.

    >>> move_words(Move.parse("pile 9S 9H")), move_words(Move.parse("yes"))
    ('Take the pile with 9♠ 9♥', 'Answer yes')
    """
    return _said(move, 0)


def hint_sentence(move: Move, reason: str) -> str:
    """The hint in one plain sentence: the move in words, then why (the reason's head, before its first
    colon, names the move in brief and gives way to the move in words)."""
    _, colon, why = reason.partition(": ")
    return f"{move_words(move)}: {(why if colon else reason).rstrip('.')}."


def explain(view: View, moves: Sequence[Move], move: Move, note: Note, best: bool = True) -> str:
    """One sentence for ``move`` from the expert's note on it (``best``: the expert's own choice)."""
    tag = note[0]
    text = _sentence(view, moves, move, note, str(tag), best)
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _rank(kind: int, plural: bool = True) -> str:
    return kind_name(kind, plural)


def _sentence(view: View, moves: Sequence[Move], move: Move, note: Note, tag: str, best: bool = True) -> str:
    t = Knowledge(view)
    if tag == "answer":
        yes, points, lead = bool(note[1]), int(str(note[2])), int(str(note[3]))
        if move.action == "yes":
            if points <= 60:
                return f"say yes: your own hand holds only {points} points"
            if lead > 0:
                return f"say yes: your side leads this hand by about {lead} points, so end it"
            return "say yes: the hand is nearly over or the opponents are about to go out"
        if not yes:
            return f"say no: you would be caught with {points} points in your hand"
        return "say no: your side has more to gain by playing on"
    if tag == "ask":
        partner = t.partner(t.seat)
        cards = view.hand_sizes[partner] if partner is not None else 0
        return f"ask your partner: you can go out, but your partner holds {cards} cards"
    if tag == "draw":
        if any(m.action == PILE for m in moves):
            size = len(view.pile)
            plural = "s" if size != 1 else ""
            return f"draw from the stock: the pile of {size} card{plural} is not worth what it costs you to take"
        return "draw from the stock: you cannot take the pile"
    if tag == "end":
        return "draw: the stock is empty, so the hand ends"
    if tag == "out-pile":
        return f"take the pile: its {len(view.pile)} cards let you go out"
    if tag == "pile":
        return _pile_sentence(view, t, move)
    if tag == "out-meld":
        made, left = int(str(note[1])), int(str(note[2]))
        parts = "meld: these cards take you out"
        if made:
            parts += ", finishing a canasta"
        if left == 1:
            parts += ", then discard your last card"
        return parts
    if tag == "out-discard":
        return "discard: it is your last card, and you go out"
    if tag == "first":
        wilds, cards = int(str(note[1])), int(str(note[2]))
        side = view.seat % view.rules.sides
        extra = f" with {wilds} wild card{'s' if wilds != 1 else ''}" if wilds else " without a wild card"
        return (f"meld: your side's first meld, {cards} cards that reach the minimum of {view.minimums[side]}{extra}; "
                f"the pile is then no longer frozen against you")
    if tag == "add":
        r, size = int(str(note[1])), int(str(note[2]))
        more = "it makes a canasta" if size == 7 else f"the meld grows to {size} cards"
        return f"add: {more} (your side's {_rank(r)})"
    if tag == "finish":
        r = int(str(note[1]))
        return f"meld: with your other cards this wild card finishes a canasta of {_rank(r)} this turn"
    if tag == "triple":
        r = int(str(note[1]))
        return f"meld: your three {_rank(r)} are safe on the table and start a new meld"
    if tag == "pair-wild":
        r = int(str(note[1]))
        return (f"meld: a pair of {_rank(r)} with a wild card is worth laying down, as your hand is big or the "
                "hand may end soon")
    if tag == "dump-wild":
        return "meld: an opponent may go out soon, and this wild card would cost you in your hand"
    if tag == "wild-meld":
        return "meld: it builds your meld of wild cards, and a canasta of wild cards is worth a lot"
    if tag == "stop":
        return "discard: a black three blocks the next player from taking the pile"
    if tag == "freeze":
        return (f"discard: a wild card freezes the pile of {len(view.pile)} cards, "
                f"and every other discard could give it to the next player")
    if tag == "wild":
        return "discard: nothing but a wild card can go"
    if tag == "discard":
        return _discard_sentence(view, t, move, note, best)
    return f"{move}: the computer player's choice"


def _pile_sentence(view: View, t: Knowledge, move: Move) -> str:
    pile = view.pile
    size = len(pile)
    reds = sum(1 for c in pile if KIND[c] == RED_THREE)
    # Ranks of the side's melds that the pile and the hand could bring to seven cards.
    side = t.side
    counts = t.hand[:]
    for c in pile:
        counts[KIND[c]] += 1
    canastas = []
    for r in range(NUM_NATURAL):
        size_now = t.meld_naturals[side][r] + t.meld_wilds[side][r]
        if size_now < 7 and (size_now or any(g.rank == r for g in move.groups) or r == KIND[pile[-1]]):
            if size_now + counts[r] >= 7:
                canastas.append(r)
    text = f"take the pile: {size} card{'s' if size != 1 else ''}"
    extras = []
    if canastas:
        have = t.canastas[side]
        which = "a canasta" if have == 0 else "a second canasta" if have == 1 else "another canasta"
        extras.append(f"it gives you {which} of {_rank(canastas[0])}")
    if reds:
        extras.append(f"it holds {reds} red three{'s' if reds > 1 else ''}")
    if not t.has_melded(side):
        extras.append("it makes your side's first meld")
    if not extras:
        extras.append(f"the {card_label(pile[-1])} on top goes onto a meld at once")
    return text + " and " + " and ".join(extras)


def _discard_sentence(view: View, t: Knowledge, move: Move, note: Note, best: bool = True) -> str:
    assert move.card is not None
    k = KIND[move.card]
    held = int(str(note[2]))
    chance = float(str(note[3]))
    unseen = int(str(note[4]))
    nxt = t.next_seat(t.seat)
    rank = _rank(k, False)
    nside = nxt % t.sides
    if unseen == 0 and not any(t.known[s][k] for s in range(t.players) if s != t.seat):
        safety = f"every other {rank} is in sight, so nobody can use it"
    elif t.meld_naturals[nside][k] and not t.frozen_for(nside):
        safety = f"the next player could add it to their {_rank(k)}" + (", but every other card is riskier" if best
                                                                          else "")
    elif chance < 0.02:
        safety = f"nobody can use a {rank}"
    elif k in t.discarded[nxt] or k in t.passed[nxt]:
        safety = f"the next player has thrown away or passed up {_rank(k)}"
    elif chance < 0.15:
        safety = f"the next player is unlikely to hold a pair of {_rank(k)}"
    elif best:
        safety = "it is the least risky card to give the next player"
    else:  # not the expert's choice: the risk is what speaks against it, said as such
        safety = f"the next player may take the pile with it (a chance of about {chance:.0%})"
    if held == 1:
        holding = f"you hold only one {rank}"
    elif held == 2:
        holding = f"it breaks your pair of {_rank(k)}, but the rest of your hand is worth more"
    else:
        holding = f"you hold {held} {_rank(k)}"
    if not best and safety.startswith("the next player may take"):
        return f"discard {card_label(move.card)}: {holding}, though {safety}"
    return f"discard {card_label(move.card)}: {safety}, and {holding}"


__all__ = ["HINT_BOT", "HINT_BOT_ENV", "doing", "explain", "hint", "hint_bot", "hint_sentence", "move_words"]
