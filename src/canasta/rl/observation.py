"""Observations for learning: one float32 tensor made of named pieces, or the same as a dict.

Built from a seat's :class:`~canasta.views.View` only (never another hand or the stock),
plus the staged plan of the turn when that seat is the one staging it.  Seats and sides
are *relative*: index 0 is the observing seat (or its side), then onwards in seat order.
Counts are raw card counts; scores and minimums are in thousands of points (clipped to
±30).  For ``P`` seats and ``S`` sides the pieces are, in order:

=================  ==========  ========================================================
piece              size        meaning
=================  ==========  ========================================================
``hand``           15          own cards, a count per kind (A K Q J T 9 8 7 6 5 4 3b 3r 2 JK)
``meld_naturals``  S × 13      natural cards (or black threes) in each side's meld per rank
``meld_wilds``     S × 13      wild cards in each side's meld per rank (rank ``W``: wild melds)
``red_threes``     S           red threes laid out by each side
``canastas``       S           each side's canastas (melds of seven or more)
``pile_size``      1           cards in the discard pile
``pile_top``       16          one-hot kind of the top card (last entry: empty pile)
``pile_kinds``     15          the whole pile (every card in it was seen), a count per kind
``pile_frozen``    1           1 when the pile is frozen for everyone
``known``          (P-1) × 15  cards known to be in each other hand (taken with the pile)
``hand_sizes``     P           cards in each hand
``stock_size``     1           cards in the stock
``scores``         S           match scores before this hand (thousands)
``minimums``       S           first-meld minimums (thousands)
``phase``          4           one-hot: draw, play, answer, over
``to_act``         P           one-hot: the seat that acts (relative)
``drew``           2           this turn's draw: stock, pile
``asked``          1           1 once the player to move has asked to go out
``answer``         2           the partner's answer this turn: yes, no
``staging``        2           one-hot mode of the observer's plan in progress: meld, pile
``plan``           38          the observer's staged cards, a count per staging slot
=================  ==========  ========================================================

>>> import random
>>> from canasta.state import GameState
>>> enc = Encoder("classic")
>>> enc.size, enc.slices["hand"]
(211, slice(0, 15, None))
>>> state = GameState.deal("classic", rng=random.Random(1))
>>> obs = enc.encode(state.view(0))
>>> obs.shape, int(obs[enc.slices["hand"]].sum())
((211,), 11)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..cards import CANASTA_SIZE, JOKER_KIND, KIND, NUM_CODES, NUM_KINDS, NUM_MELD_RANKS, TWO
from ..moves import Drew, Phase
from ..rules import Rules
from ..views import View
from .actions import NUM_SLOTS

if TYPE_CHECKING:
    from ..state import GameState

PHASES: Final = tuple(Phase)
SCORE_CLIP: Final = 30.0

Array = npt.NDArray[np.float32]


class Encoder:
    """The observation layout of one set of rules; :meth:`encode` fills it from a view."""

    def __init__(self, rules: Rules | str = "classic") -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        p, s = self.rules.players, self.rules.sides
        self.players, self.sides = p, s
        pieces = [
            ("hand", NUM_KINDS), ("meld_naturals", s * NUM_MELD_RANKS), ("meld_wilds", s * NUM_MELD_RANKS),
            ("red_threes", s), ("canastas", s), ("pile_size", 1), ("pile_top", NUM_KINDS + 1),
            ("pile_kinds", NUM_KINDS), ("pile_frozen", 1), ("known", (p - 1) * NUM_KINDS),
            ("hand_sizes", p), ("stock_size", 1), ("scores", s), ("minimums", s), ("phase", len(PHASES)),
            ("to_act", p), ("drew", 2), ("asked", 1), ("answer", 2), ("staging", 2), ("plan", NUM_SLOTS),
        ]
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size in pieces:
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.shapes: dict[str, tuple[int, ...]] = {
            name: (size,) for name, size in pieces
        }
        self._cached_state: GameState | None = None
        self._cached_length, self._cached_phase, self._cached_seat = -1, "", -1  # of the cached observation
        self._cached: Array = np.zeros(self.size, dtype=np.float32)
        self._staging_start = self.slices["staging"].start
        self._sides = [[(seat % s + i) % s for i in range(s)] for seat in range(p)]
        self._seats = [[(seat + i) % p for i in range(p)] for seat in range(p)]
        self._scores: dict[tuple[tuple[int, ...], int], Array] = {}
        at = {name: piece.start for name, piece in self.slices.items()}
        self._offsets = (at["pile_size"], at["known"], at["hand_sizes"], at["stock_size"], at["scores"], at["phase"],
                         at["staging"])
        self._others = [[(seat + i) % p for i in range(1, p)] for seat in range(p)]
        self._buf = bytearray(self.size)  # the counts of :meth:`_public`, reused
        self._known_cache: dict[bytes, bytes] = {}
        self._pile_cards: tuple[int, ...] = ()
        self._pile_counts: list[int] = [0] * NUM_KINDS
        self._pile_bytes = bytes([0] + [0] * NUM_KINDS + [1] + [0] * NUM_KINDS)  # the empty pile
        self._flags: dict[tuple[str, int, str | None, bool, bool | None], bytes] = {}
        assert self.slices["plan"].stop == self.size  # the staged plan comes last
        self.low = -SCORE_CLIP
        self.high = float(max(self.rules.deck_size, 2 * SCORE_CLIP))

    def encode(self, view: View, mode: str | None = None, plan: Sequence[int] | None = None,
               out: Array | None = None) -> Array:
        """The observation tensor of ``view``; ``mode`` and ``plan``: the seat's staged plan, if any."""
        obs = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            obs.fill(0.0)
        sl = self.slices
        seat, p, s = view.seat, self.players, self.sides
        side = seat % s
        hand = [0] * NUM_KINDS
        for c in view.hand:
            hand[KIND[c]] += 1
        obs[sl["hand"]] = hand
        nat = sl["meld_naturals"].start
        wild = sl["meld_wilds"].start
        for i in range(s):
            melds = view.melds[(side + i) % s]
            base = i * NUM_MELD_RANKS
            for rank, cards in melds.items():
                w = sum(1 for c in cards if KIND[c] in (TWO, JOKER_KIND))
                obs[nat + base + rank] = len(cards) - w
                obs[wild + base + rank] = w
                if len(cards) >= CANASTA_SIZE:
                    obs[sl["canastas"].start + i] += 1
            obs[sl["red_threes"].start + i] = len(view.red_threes[(side + i) % s])
        pile = view.pile
        obs[sl["pile_size"].start] = len(pile)
        obs[sl["pile_top"].start + (KIND[pile[-1]] if pile else NUM_KINDS)] = 1
        kinds = sl["pile_kinds"].start
        for c in pile:
            obs[kinds + KIND[c]] += 1
        obs[sl["pile_frozen"].start] = view.pile_frozen
        known = sl["known"].start
        for i in range(1, p):
            for c in view.known[(seat + i) % p]:
                obs[known + (i - 1) * NUM_KINDS + KIND[c]] += 1
        obs[sl["hand_sizes"]] = [view.hand_sizes[(seat + i) % p] for i in range(p)]
        obs[sl["stock_size"].start] = view.stock_size
        obs[sl["scores"]] = [_thousands(view.scores[(side + i) % s]) for i in range(s)]
        obs[sl["minimums"]] = [_thousands(view.minimums[(side + i) % s]) for i in range(s)]
        obs[sl["phase"].start + PHASES.index(view.phase)] = 1
        if view.phase != Phase.OVER:
            obs[sl["to_act"].start + (view.to_act - seat) % p] = 1
        if view.drew == Drew.STOCK:
            obs[sl["drew"].start] = 1
        elif view.drew == Drew.PILE:
            obs[sl["drew"].start + 1] = 1
        obs[sl["asked"].start] = view.asked
        if view.answer is not None:
            obs[sl["answer"].start + (0 if view.answer else 1)] = 1
        if mode is not None and plan is not None and view.to_act == seat:
            obs[sl["staging"].start + (0 if mode == "meld" else 1)] = 1
            obs[sl["plan"]] = plan
        return obs

    def encode_state(self, state: GameState, seat: int, mode: str | None = None,
                     plan: Sequence[int] | None = None) -> Array:
        """``encode(make_view(state, seat), mode, plan)``, faster: the environments' path.

        It reads exactly the fields of :func:`canasta.views.make_view` (the seat's own hand,
        the table, the sizes of the other hands and of the stock, the cards known to be in
        them), never another hand or the stock; the tests check it against :meth:`encode`
        and, by resampling the hidden cards, that it cannot tell them apart.
        """
        phase = state.phase
        length = len(state.history)
        if (length != self._cached_length or seat != self._cached_seat or state is not self._cached_state
                or phase != self._cached_phase):
            self._cached = self._public(state, seat)
            self._cached_state, self._cached_length, self._cached_phase, self._cached_seat = state, length, phase, seat
        obs = self._cached.copy()
        if mode is not None and plan is not None and phase != Phase.OVER and state.to_act == seat:
            staged = (_MELD_STAGING if mode == "meld" else _PILE_STAGING) + bytes(plan)
            obs[self._staging_start:] = np.frombuffer(staged, dtype=np.uint8)
        return obs

    def _public(self, state: GameState, seat: int) -> Array:
        """Every piece but the staged plan, from the fields of the seat's view.

        The counts are written into a reused byte buffer (every one is below 256: at most
        four decks) that becomes the float tensor in one conversion; scores and minimums,
        the only fractions, are written afterwards.
        """
        buf = self._buf
        pile, known_at, sizes, stock, scores_at, flags_at, flags_end = self._offsets
        phase = state.phase
        p, s = self.players, self.sides
        sides = self._sides[seat]
        table = state.kind_counts[seat][:]  # hand, melds, red threes and canastas: one assignment
        mnat, mwild = state.meld_naturals, state.meld_wilds
        for i in sides:
            table += mnat[i]
        for i in sides:
            table += mwild[i]
        red3 = state.red_threes
        table += [len(red3[i]) for i in sides]
        side, canastas = sides[0], state.canastas
        table += canastas[side:]
        table += canastas[:side]
        buf[0:pile] = table
        buf[pile:pile + _PILE_BYTES] = self._pile_piece(state.pile)
        buf[pile + _PILE_BYTES] = 1 if state.pile_frozen() else 0
        known = state.known
        buf[known_at:sizes] = b"".join([_NO_KINDS if known[i] == _NO_CARDS else self._known_kinds(known[i])
                                        for i in self._others[seat]])
        hsize = state.hand_sizes
        counts = hsize[seat:]
        counts += hsize[:seat]
        counts.append(len(state.stock))
        buf[sizes:stock + 1] = counts
        to_act = (state.to_act - seat) % p if phase != Phase.OVER else -1
        flags_key = (phase, to_act, state.drew, state.asked, state.answer)
        flags = self._flags.get(flags_key)
        if flags is None:
            flags = self._flags[flags_key] = self._flag_bytes(*flags_key)
        buf[flags_at:flags_end] = flags
        assert len(buf) == self.size, "a piece of the wrong length resized the buffer"
        obs = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        scores_key = (tuple(state.scores), seat)
        scores = self._scores.get(scores_key)
        if scores is None:
            if len(self._scores) > 1000:
                self._scores.clear()
            scores = self._scores[scores_key] = np.array(
                [_thousands(state.scores[i]) for i in sides] + [_thousands(state.minimum(i)) for i in sides],
                dtype=np.float32)
        obs[scores_at:scores_at + 2 * s] = scores
        return obs

    def _flag_bytes(self, phase: str, to_act: int, drew: str | None, asked: bool, answer: bool | None) -> bytes:
        """The pieces ``phase`` to ``answer``: ``to_act`` relative, -1 when nobody acts."""
        flags = [0] * (len(PHASES) + self.players + 5)
        flags[PHASES.index(phase)] = 1
        if to_act >= 0:
            flags[len(PHASES) + to_act] = 1
        pos = len(PHASES) + self.players
        if drew is not None:
            flags[pos + (0 if drew == Drew.STOCK else 1)] = 1
        flags[pos + 2] = 1 if asked else 0
        if answer is not None:
            flags[pos + (3 if answer else 4)] = 1
        return bytes(flags)

    def _known_kinds(self, known: list[int]) -> bytes:
        """A count per kind of the cards known to be in a hand (given a count per card code)."""
        key = bytes(known)
        counts = self._known_cache.get(key)
        if counts is None:
            kinds = [0] * NUM_KINDS
            for c, n in enumerate(known):
                if n:
                    kinds[KIND[c]] += n
            if len(self._known_cache) > 4096:
                self._known_cache.clear()
            counts = self._known_cache[key] = bytes(kinds)
        return counts

    def _pile_piece(self, pile: list[int]) -> bytes:
        """The pieces ``pile_size``, ``pile_top`` and ``pile_kinds`` (extended when only a discard came)."""
        cards = tuple(pile)
        if cards != self._pile_cards:
            if cards and cards[:-1] == self._pile_cards:
                counts = self._pile_counts[:]
                counts[KIND[cards[-1]]] += 1
            else:
                counts = [0] * NUM_KINDS
                for c in cards:
                    counts[KIND[c]] += 1
            top = [0] * (NUM_KINDS + 1)
            top[KIND[cards[-1]] if cards else NUM_KINDS] = 1
            self._pile_cards, self._pile_counts = cards, counts
            self._pile_bytes = bytes([len(cards)] + top + counts)
        return self._pile_bytes

    def as_dict(self, obs: Array) -> dict[str, Array]:
        """The named pieces of an observation tensor (views into it)."""
        return {name: obs[piece] for name, piece in self.slices.items()}

    def encode_dict(self, view: View, mode: str | None = None,
                    plan: Sequence[int] | None = None) -> dict[str, Array]:
        """The observation of ``view`` as a dict of named pieces."""
        return self.as_dict(self.encode(view, mode, plan))

    def describe(self) -> list[dict[str, Any]]:
        """The layout: name, start and size of each piece."""
        return [{"name": n, "start": sl.start, "size": sl.stop - sl.start} for n, sl in self.slices.items()]


_NO_KINDS: Final = bytes(NUM_KINDS)
_MELD_STAGING, _PILE_STAGING = bytes((1, 0)), bytes((0, 1))
_NO_CARDS: Final = [0] * NUM_CODES
_PILE_BYTES: Final = 1 + (NUM_KINDS + 1) + NUM_KINDS  # pile_size, pile_top, pile_kinds


def _thousands(points: int) -> float:
    return max(-SCORE_CLIP, min(SCORE_CLIP, points / 1000.0))


__all__ = ["PHASES", "Encoder"]
