"""The ``expert`` bot: what the strategy books teach, as named, tunable parameters.

Every legal move gets a score from the seat's view (through :class:`~.tracking.Knowledge`) and
the bot plays the best.  The scores fall in bands, so that the order of a turn follows the
books: answer or ask first; go out when the side wants to; otherwise meld what is worth
melding (first meld as soon as it is cheap; naturals onto the side's melds; new melds of
three naturals; wild cards only to finish a canasta, or to empty the hand when an opponent
is about to go out); then discard the card that costs least, where the cost is what the
card is worth to the hand (pairs, wild cards) plus the chance that the next player takes
the pile with it times what the pile is worth.  That chance comes from counting every card
seen: a rank the next player's side has melded is unsafe when the pile is open, a rank
whose copies are all in sight is dead and safe, a rank the next player has discarded or
declined is safer, a black three is a stop card, and a wild card freezes a big pile.

How the default parameters were chosen
--------------------------------------
They start at the books' advice (Hoyle, pagat.com, the Bicycle booklet): take every pile
worth more than a stock card, never spend a wild card to take a small pile, keep natural
pairs, freeze a pile of eight or more when nothing safe is left, discard black threes,
answer ``yes`` with a small hand or a lead, go out as soon as the side can.  Then each was
tried by self-play on the classic game: expert with one parameter changed against the
defaults, on seeded duplicate deals (each deck played once per side, the bots swapped),
with the duel that :mod:`canasta.bots.arena` has since replaced.  Figures are the changed bot's mean points per
hand less the default's, with a 95% interval, over 300 deals (600 hands, seed 7)::

    keep_natural_pairs=False   -95  (-139 to  -51)   spending wild cards on pairs loses
    risk_weight=0.0            -93  (-128 to  -58)   ignoring discard safety loses
    wild_to_canasta=1          -47  ( -73 to  -20)   up to two wild cards to finish a canasta
    delay_out_lead=300         -34  ( -53 to  -15)   staying in when ahead loses: go out early
    pair_wild_hand=10          -33  ( -60 to   -6)   the first default; 14 fires only after a pile
    dump_hand=5                -17  ( -39 to   +5)
    pile_wild_cost=6.0          -8  ( -32 to  +17)
    first_meld_max_wilds=1      -6  ( -24 to  +13)
    ask_partner_cards=3         -6  ( -12 to   -0)
    freeze_pile=99 (never)      -6  ( -21 to   +9)
    pair_wild_hand=99           -3  ( -11 to   +4)
    answer_yes_points=0         -2  (  -9 to   +6)
    extra_canastas=1           -41  ( -58 to  -23)   (seed 8) a second canasta first loses
    answer_yes_lead=10**6       -2  (  -5 to   +1)   (seed 8)

Earlier rounds (150 to 200 deals, seeds 5 and 6) found no difference outside the noise
(intervals of about 30 points either way) for ``first_meld_keep``, ``evidence_factor``,
``minimum_scale``, ``pair_keep``, ``single_keep``, ``black_three_cost``, ``freeze_cost``,
``value_weight``, ``prepare_out_hand`` and ``pile_wild_cost`` of 0.5 or 1.5; ``late_stock`` and
``dump_stock`` never fired (expert hands end by going out long before the stock runs low).
Against ``basic`` the defaults score +177 points per hand more than ``basic`` (95% interval
+144 to +209, classic, 400 duplicate deals, seeds 11 and 12); on the other presets, over
100 deals each: two-player +336, two-player-draw-one +624, three-player +372, five-player
+167, six-player +104, six-player-two-teams +59 (interval -19 to +137).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Final

from ..cards import (
    BLACK_THREE,
    CANASTA_SIZE,
    IS_WILD,
    JOKER_KIND,
    KIND,
    MAX_WILDS,
    RED_THREE,
    TWO,
    VALUE,
    WILD_MELD,
)
from ..goingout import can_go_out
from ..moves import ASK, DISCARD, DRAW, MELD, YES, Move, Phase
from ..rules import Rules
from ..views import View
from .tracking import Knowledge

# Score bands: higher bands are played first within a turn.
ANSWER_BAND: Final = 50_000.0
ASK_BAND: Final = 40_000.0
OUT_BAND: Final = 30_000.0
MELD_BAND: Final = 10_000.0
DISCARD_BAND: Final = 5_000.0
REFUSE: Final = -10_000.0

Note = tuple[object, ...]
"""Why a move got its score: a tag and a few facts (for hints)."""


@dataclass(frozen=True)
class ExpertParams:
    """The expert's strategy, one named number or switch per piece of book advice."""

    # Taking the pile (scores in cards: a stock card is worth ``draw_value``).
    draw_value: float = 1.0
    pile_wild_cost: float = 3.0  # what a wild card spent to take the pile costs, in pile cards
    pile_card_bonus: float = 0.5  # extra for a pile card of a rank the side melds or holds
    pile_red_three: float = 3.0  # a red three in the pile, in cards (it is worth 100)
    # Melding.
    first_meld_max_wilds: int = 2  # the most wild cards a first meld may use
    first_meld_keep: int = 2  # cards the first meld must leave in hand (beyond the rules' two)
    meld_triples: bool = True  # lay down three naturals of a new rank at once
    keep_natural_pairs: bool = True  # do not spend a wild card to meld a natural pair ...
    pair_wild_hand: int = 14  # ... unless the hand holds at least this many cards
    wild_to_canasta: int = 2  # spend up to this many wild cards to finish a canasta this turn
    dump_hand: int = 3  # when an opponent who may go out holds this many cards or fewer ...
    dump_stock: int = 4  # ... or the stock has this few cards, meld all you can
    prepare_out_hand: int = 0  # with the canastas to go out and this few cards, meld all you can
    # Discarding (costs in points).
    pile_card_points: float = 15.0  # what each pile card is worth to the side that takes it
    risk_weight: float = 1.0  # weight of (chance the next player takes the pile) x (pile's worth)
    evidence_factor: float = 0.35  # that chance when the player has discarded or passed the rank
    minimum_scale: float = 40.0  # a side with no meld takes the pile with chance x scale / minimum
    pair_keep: float = 40.0  # value of holding a natural pair
    triple_keep: float = 60.0  # value of holding three or more naturals of a rank
    single_keep: float = 8.0  # value of holding a single natural
    value_weight: float = -0.3  # per point of the card (negative: shed high cards first)
    wild_keep: float = 1000.0  # a wild card is not discarded ...
    freeze_pile: int = 8  # ... unless the open pile holds this many cards, to freeze it,
    freeze_cost: float = 90.0  # at this cost (a joker costs 30 more)
    black_three_cost: float = -15.0  # black threes are good stop cards
    # Going out and asking.
    late_stock: int = 6  # with this few stock cards left, go out when you can
    extra_canastas: int = 0  # canastas beyond those needed before going out
    delay_out_lead: int = 10**6  # stay in when the side leads by this much and nobody threatens
    ask_partner_cards: int = 6  # ask when the partner holds this many cards or more
    answer_yes_points: int = 60  # say yes when your hand is worth this little
    answer_yes_lead: int = 400  # ... or the side leads by this much

    def __reduce__(self) -> tuple[type[ExpertParams], tuple[object, ...]]:
        return ExpertParams, tuple(getattr(self, f.name) for f in fields(self))  # pickles when compiled too


DEFAULT_PARAMS: Final = ExpertParams()
"""The classic game's parameters (four players in two partnerships, drawing one card)."""

TUNED_PARAMS: Final[dict[tuple[int, int, int], ExpertParams]] = {
    (2, 2, 2): ExpertParams(draw_value=4.0),
    (2, 2, 1): ExpertParams(meld_triples=False, draw_value=2.0, delay_out_lead=300),
    (3, 3, 1): ExpertParams(meld_triples=False, triple_keep=30.0, risk_weight=4.0, delay_out_lead=300,
                            pair_wild_hand=15),
}
"""Each game's parameters, by (players, sides, cards drawn from the stock), where tuning found better.

Found by ``benchmarks/tune_expert.py`` (every parameter a step either way against the incumbent,
400 duplicate deals a step, a step kept only when its 95% interval is above zero on those deals and
on fresh ones) and measured against the classic defaults on fresh deals; the runs are in
``docs/tuning.md``.

- two players drawing two (``two-player``): a stock draw brings two cards, so a pile must be worth
  more to be taken: ``draw_value`` 4 (the classic 1) scores +376 points a hand (95% interval +350 to
  +403, 800 deals) over the expert that played there before (classic defaults without discard risk).
- two players drawing one (``two-player-draw-one``): hold three naturals of a new rank rather than
  meld them, take a pile only when it is worth two stock cards more than it costs, and stay in when
  far ahead: +1,420 points a hand (+1,341 to +1,499, 800 deals) over the classic defaults (hands
  there run long and score high).
- three players, each alone (``three-player``): hold three naturals of a new rank rather than meld
  them, value a held triple as a pair, weigh what a discard
  gives away four times as much (two opponents, no partner), stay in when far ahead, and spend a
  wild card on a natural pair only with 15 cards in hand: +496 points a hand (+448 to +545, 800
  deals) over the classic defaults.
"""


def params_for(rules: Rules) -> ExpertParams:
    """The expert's default parameters for a game: tuned where a preset plays differently."""
    return TUNED_PARAMS.get((rules.players, rules.sides, rules.draw), DEFAULT_PARAMS)


class ExpertBot:
    """Book strategy: pile value, safe discards by counting cards, canastas before going out.

    Without ``params`` it plays :func:`params_for` the game's rules, with ``changes`` (option
    names and values, as ``expert:OPTION=VALUE`` gives them) made to them; with ``params``,
    exactly those.
    """

    name = "expert"
    slow = False

    def __init__(self, rng: random.Random, params: ExpertParams | None = None,
                 changes: dict[str, object] | None = None) -> None:
        self.rng = rng
        self.params = params if params is not None else DEFAULT_PARAMS
        self.tuned = params is None  # the defaults follow the game (params_for)
        self.changes: dict[str, object] = dict(changes) if changes else {}
        self._rules: Rules | None = None  # the game params_of last answered for, and its answer
        self._for_rules = self.params

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return ExpertBot, (self.rng,), self.__getstate__()

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The best-scored move."""
        if len(moves) == 1:
            return moves[0]
        scored = self.score(view, moves)
        best = max(range(len(moves)), key=lambda i: scored[i][0])
        return moves[best]

    def ranked(self, view: View, moves: Sequence[Move]) -> list[tuple[Move, float, Note]]:
        """Every move with its score and note, best first."""
        scored = self.score(view, moves)
        order = sorted(range(len(moves)), key=lambda i: -scored[i][0])
        return [(moves[i], scored[i][0], scored[i][1]) for i in order]

    def score(self, view: View, moves: Sequence[Move]) -> list[tuple[float, Note]]:
        """A score and a note for each move."""
        return _Scorer(view, self.params_of(view.rules)).score(moves)

    def params_of(self, rules: Rules) -> ExpertParams:
        """The parameters it plays in a game of these rules."""
        if not self.tuned:
            return self.params
        if rules is not self._rules:
            base = params_for(rules)
            self._for_rules = replace(base, **self.changes) if self.changes else base  # type: ignore[arg-type]
            self._rules = rules
        return self._for_rules


class _Scorer:
    """Scores the moves of one decision."""

    def __init__(self, view: View, params: ExpertParams) -> None:
        self.view = view
        self.p = params
        self.t = Knowledge(view)
        self._pile_worth: float | None = None

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return _Scorer, (self.view, self.p), self.__getstate__()

    # -- the decision -------------------------------------------------------------------

    def score(self, moves: Sequence[Move]) -> list[tuple[float, Note]]:
        view = self.view
        if view.phase == Phase.ANSWER:
            yes = self.answer_yes()
            return [(ANSWER_BAND if (m.action == YES) == yes[0] else 0.0, ("answer", *yes)) for m in moves]
        if view.phase == Phase.DRAW:
            return [self.draw_move(m) for m in moves]
        want_out = self.can_go_out() and self.wants_out()
        out = [self.out_move(m) for m in moves] if want_out else [None] * len(moves)
        if want_out and not any(o is not None for o in out):
            want_out = False  # no move leads out (should not happen): play on
        result: list[tuple[float, Note]] = []
        for m, o in zip(moves, out):
            if o is not None:
                result.append(o)
            elif m.action == ASK:
                result.append((REFUSE, ("no-ask",)))
            elif m.action == DISCARD:
                result.append(self.discard_move(m))
            else:
                result.append(self.meld_move(m))
        if want_out and self.should_ask():
            result = [(ASK_BAND, ("ask",)) if m.action == ASK else r for m, r in zip(moves, result)]
        return result

    # -- facts --------------------------------------------------------------------------

    def threatened(self) -> bool:
        """May an opponent go out soon (few cards, and the canastas to go out)?"""
        t, view = self.t, self.view
        need = t.rules.canastas_to_go_out
        for o in t.opponents():
            if view.hand_sizes[o] <= self.p.dump_hand and t.canastas[o % t.sides] >= need:
                return True
        return False

    def late(self) -> bool:
        """Is the hand nearly over (the stock almost gone)?"""
        return self.view.stock_size <= self.p.late_stock

    def dumping(self) -> bool:
        """Should the seat meld everything it can (the hand may end before its next turn)?"""
        t, view, p = self.t, self.view, self.p
        if t.canastas[t.side] >= t.rules.canastas_to_go_out and len(view.hand) <= p.prepare_out_hand:
            return True
        return self.threatened() or view.stock_size <= p.dump_stock

    def can_go_out(self) -> bool:
        t = self.t
        if self.view.answer is False:
            return False
        r = t.rules
        return can_go_out(t.hand, t.meld_naturals[t.side], t.meld_wilds[t.side], t.canastas[t.side],
                          r.canastas_to_go_out,
                          r.wilds_at_most_naturals, r.wild_card_melds)

    def wants_out(self) -> bool:
        """Go out now?  Early when threatened or late; later when the side could build more."""
        view, t, p = self.view, self.t, self.p
        if view.answer is True or self.threatened() or self.late():
            return True
        need = t.rules.canastas_to_go_out
        have = t.canastas[t.side]
        if need <= have < need + p.extra_canastas:
            return False
        return t.lead() < p.delay_out_lead

    def should_ask(self) -> bool:
        view, t = self.view, self.t
        partner = t.partner(t.seat)
        if partner is None or view.answer is not None:
            return False
        return view.hand_sizes[partner] >= self.p.ask_partner_cards and not self.threatened()

    def answer_yes(self) -> tuple[bool, int, int]:
        """Say yes to the partner's 'may I go out?'  Returns (yes, hand points, lead)."""
        t, p = self.t, self.p
        lead = t.lead()
        yes = (t.hand_points <= p.answer_yes_points or lead >= p.answer_yes_lead or self.threatened()
               or self.late())
        return yes, t.hand_points, lead

    # -- drawing ------------------------------------------------------------------------

    def draw_move(self, m: Move) -> tuple[float, Note]:
        view, t, p = self.view, self.t, self.p
        if m.action == DRAW:
            if view.stock_size == 0:
                return (-p.draw_value, ("end",))  # drawing from an empty stock ends the hand
            return (0.0, ("draw",))
        pile = view.pile
        top = pile[-1]
        rest = pile[:-1]
        reds = sum(1 for c in rest if KIND[c] == RED_THREE)
        after = len(view.hand) - len(m.cards) + len(rest) - reds
        if after <= 1 and self.wants_out():
            return (OUT_BAND + len(pile), ("out-pile", len(pile)))
        melds = t.meld_naturals[t.side]
        worth = 1.0  # the top card, melded at once
        for c in rest:
            k = KIND[c]
            if k == RED_THREE:
                worth += p.pile_red_three
            elif IS_WILD[c]:
                worth += 2.0
            elif k == BLACK_THREE:
                worth += 0.2
            else:
                worth += 1.0 + (p.pile_card_bonus if t.hand[k] or melds[k] else 0.0)
        wilds = sum(1 for c in m.cards if IS_WILD[c])
        groups = sum(1 for g in m.groups if g.rank != KIND[top])
        cost = wilds * p.pile_wild_cost + 0.3 * groups
        value = worth - cost - p.draw_value
        return (value, ("pile", len(pile), wilds, value))

    # -- going out ----------------------------------------------------------------------

    def out_move(self, m: Move) -> tuple[float, Note] | None:
        """The score of a move on the way out, or None when it does not lead out."""
        t = self.t
        h = len(self.view.hand)
        if m.action == DISCARD:
            return (OUT_BAND + 1000.0, ("out-discard",)) if h == 1 else None
        if m.action != MELD:
            return None
        hand = t.hand[:]
        side = t.side
        mnat = t.meld_naturals[side][:]
        mwild = t.meld_wilds[side][:]
        canastas = t.canastas[side]
        made = 0
        for g in m.groups:
            before = mnat[g.rank] + mwild[g.rank]
            for c in g.cards:
                hand[KIND[c]] -= 1
                if IS_WILD[c]:
                    mwild[g.rank] += 1
                else:
                    mnat[g.rank] += 1
            if g.rank != BLACK_THREE and before < CANASTA_SIZE <= mnat[g.rank] + mwild[g.rank]:
                made += 1
        left = sum(hand)
        r = t.rules
        if left and not can_go_out(hand, mnat, mwild, canastas + made, r.canastas_to_go_out,
                                   r.wilds_at_most_naturals, r.wild_card_melds):
            return None
        points = sum(VALUE[c] for c in m.cards)
        return (OUT_BAND + 10.0 * len(m.cards) + points / 10.0 + 100.0 * made, ("out-meld", made, left))

    # -- melding ------------------------------------------------------------------------

    def meld_move(self, m: Move) -> tuple[float, Note]:
        view, t, p = self.view, self.t, self.p
        h = len(view.hand)
        left = h - len(m.cards)
        if left < 2:
            return (REFUSE, ("keep-two",))
        side = t.side
        if not t.has_melded(side):
            wilds = sum(1 for c in m.cards if IS_WILD[c])
            if wilds > p.first_meld_max_wilds or left < 2 + p.first_meld_keep:
                return (REFUSE, ("first-wait", wilds, left))
            return (MELD_BAND + 900.0 - 30.0 * wilds - len(m.cards), ("first", wilds, len(m.cards)))
        if len(m.groups) != 1:
            return (REFUSE + 1.0, ("many",))
        g = m.groups[0]
        r = g.rank
        mnat, mwild = t.meld_naturals[side], t.meld_wilds[side]
        size = mnat[r] + mwild[r]
        wilds = g.wilds
        dump = self.dumping()
        if r == BLACK_THREE:
            return (REFUSE, ("black",))
        if r == WILD_MELD:
            held = t.hand[TWO] + t.hand[JOKER_KIND]
            if size + held >= CANASTA_SIZE or dump:
                return (MELD_BAND + 500.0, ("wild-meld", size + wilds))
            return (REFUSE, ("keep-wild",))
        exists = size > 0
        if exists and wilds == 0:
            return (MELD_BAND + 900.0 + size, ("add", r, size + 1))
        if exists:
            if size >= CANASTA_SIZE:
                if dump and mwild[r]:
                    return (MELD_BAND + 300.0, ("dump-wild", r))
                return (REFUSE, ("keep-wild",))
            held = t.hand[TWO] + t.hand[JOKER_KIND]
            short = CANASTA_SIZE - size - t.hand[r]
            room = MAX_WILDS - mwild[r]
            if 0 < short <= min(held, room, p.wild_to_canasta):
                joker = 1.0 if KIND[g.cards[0]] == JOKER_KIND else 0.0
                return (MELD_BAND + 700.0 + size - joker, ("finish", r, short))
            if dump:
                return (MELD_BAND + 300.0, ("dump-wild", r))
            return (REFUSE, ("keep-wild",))
        if wilds == 0:
            if p.meld_triples or dump:
                return (MELD_BAND + 800.0, ("triple", r))
            return (REFUSE, ("keep-triple", r))
        if dump or not p.keep_natural_pairs or h >= p.pair_wild_hand:
            return (MELD_BAND + 600.0 - wilds, ("pair-wild", r))
        return (REFUSE, ("keep-pair", r))

    # -- discarding ---------------------------------------------------------------------

    def discard_move(self, m: Move) -> tuple[float, Note]:
        assert m.card is not None
        cost, note = self.discard_cost(m.card)
        return (DISCARD_BAND - max(-4000.0, min(4000.0, cost)), note)

    def pile_worth(self, card: int) -> float:
        """What the pile, with ``card`` on top, is worth to whoever takes it."""
        p = self.p
        if self._pile_worth is None:
            self._pile_worth = sum((100.0 if KIND[c] == RED_THREE else VALUE[c]) + p.pile_card_points
                                   for c in self.view.pile)
        return self._pile_worth + VALUE[card] + p.pile_card_points

    def take_chance(self, seat: int, kind: int) -> float:
        """Chance that ``seat`` takes the pile with a natural of ``kind`` on top."""
        t, view, rules = self.t, self.view, self.t.rules
        side = seat % t.sides
        frozen = t.frozen_for(side)
        pair = t.chance_holds(seat, kind, 2)
        if frozen or rules.two_naturals_to_take:
            chance = pair
        else:
            size = t.meld_naturals[side][kind] + t.meld_wilds[side][kind]
            if t.meld_naturals[side][kind] and not (rules.no_pile_for_finished_canasta and size >= CANASTA_SIZE):
                chance = 1.0
            else:
                one_wild = t.chance_holds(seat, kind, 1) * t.chance_wild(seat)
                chance = 1.0 - (1.0 - pair) * (1.0 - one_wild)
        if not t.has_melded(side):
            chance *= min(1.0, self.p.minimum_scale / max(1, view.minimums[side]))
        if chance < 1.0 and (kind in t.discarded[seat] or kind in t.passed[seat]):
            chance *= self.p.evidence_factor
        if view.hand_sizes[seat] == 1 and not view.pile:
            chance = 0.0
        return chance

    def discard_cost(self, card: int) -> tuple[float, Note]:
        view, t, p = self.view, self.t, self.p
        k = KIND[card]
        nxt = t.next_seat(t.seat)
        if IS_WILD[card]:
            if not view.pile_frozen and len(view.pile) >= p.freeze_pile:
                return (p.freeze_cost + (30.0 if k == JOKER_KIND else 0.0), ("freeze", len(view.pile)))
            return (p.wild_keep, ("wild",))
        if k == BLACK_THREE:
            return (p.black_three_cost, ("stop",))
        n = t.hand[k]
        keep = p.triple_keep if n >= 3 else p.pair_keep if n == 2 else p.single_keep
        keep += p.value_weight * VALUE[card]
        chance = self.take_chance(nxt, k)
        if nxt % t.sides == t.side:
            chance = -0.5 * chance  # the next player is a partner (five players): a gift
        risk = p.risk_weight * chance * self.pile_worth(card)
        return (keep + risk, ("discard", k, n, chance, t.unseen[k]))


__all__ = ["ExpertBot", "ExpertParams", "Note", "params_for"]
