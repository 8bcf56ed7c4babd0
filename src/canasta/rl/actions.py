"""A fixed integer action space for learning; the engine stays the only judge of legality.

A turn's compound moves (a first meld of several groups, taking the pile with the cards
that meld its top card and further groups) are built by a sequence of small *actions* by
the same player and committed as one engine :class:`~canasta.moves.Move`.  A staged card
names its kind and, for a wild card, the meld rank it joins.  The mask allows a staging
step only when some canonical legal move (:func:`canasta.legal.generate`) still contains
the staged cards, and ``commit`` only when the staged cards are exactly such a move: an
agent that follows the mask never reaches a dead end, and every canonical move is
reachable (stage its cards in any order, then commit).

==========  ===================  ==========================================================
id          text                 meaning
==========  ===================  ==========================================================
0           ``draw``             draw from the stock
1           ``pile``             start taking the pile (then stage hand cards, then commit;
                                 ``pile`` + ``commit`` is the bare ``pile`` move)
2           ``commit``           play the staged cards as one ``meld`` or ``pile`` move
3           ``ask``              ask the partner "may I go out?"
4, 5        ``yes``, ``no``      the partner's answer
6 .. 20     ``discard K``        discard a card of kind K (``A K Q J T 9 8 7 6 5 4 3b 3r 2
                                 JK``, in the order of :data:`canasta.cards.KIND_CHARS`)
21 .. 31    ``stage K``          stage a natural card of kind K (A .. 4) onto its meld
32          ``stage 3b``         stage a black three (going out)
33 .. 45    ``stage 2>R``        stage a 2 onto the meld of rank R (``A .. 4``, ``3``, ``W``)
46 .. 58    ``stage JK>R``       stage a joker onto the meld of rank R
==========  ===================  ==========================================================

While cards are staged only more staging and ``commit`` are allowed: a discard, ``ask``
or ``draw`` cannot interrupt a staged plan, and every staged plan can be completed.

>>> import random
>>> from canasta.state import GameState
>>> state = GameState.deal("classic", rng=random.Random(3))
>>> turn = TurnActions(state)
>>> [action_to_string(a) for a in turn.legal_actions()]
['draw', 'pile']
>>> turn.apply(string_to_action("draw"))
Move.parse('draw')
>>> string_to_action("stage 2>K"), action_to_string(string_to_action("stage 2>K"))
(34, 'stage 2>K')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Final

from ..cards import KIND_CHARS, MELD_RANK_CHARS, NUM_KINDS, NUM_MELD_RANKS, NUM_NATURAL
from ..legal import Spec, generate, materialize
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Move
from ..state import GameState

DRAW_ACTION: Final = 0
PILE_ACTION: Final = 1
COMMIT: Final = 2
ASK_ACTION: Final = 3
YES_ACTION: Final = 4
NO_ACTION: Final = 5
DISCARD_BASE: Final = 6
STAGE_BASE: Final = DISCARD_BASE + NUM_KINDS  # 21
NUM_SLOTS: Final = NUM_NATURAL + 1 + 2 * NUM_MELD_RANKS  # 38 staging slots
TWO_SLOT: Final = NUM_NATURAL + 1  # slot of a 2 onto rank r: TWO_SLOT + r
JOKER_SLOT: Final = TWO_SLOT + NUM_MELD_RANKS  # slot of a joker onto rank r: JOKER_SLOT + r
NUM_ACTIONS: Final = STAGE_BASE + NUM_SLOTS  # 59

_FIXED: Final = {DRAW_ACTION: "draw", PILE_ACTION: "pile", COMMIT: "commit", ASK_ACTION: "ask",
          YES_ACTION: "yes", NO_ACTION: "no"}


def _slot_text(slot: int) -> str:
    if slot < NUM_NATURAL:
        return KIND_CHARS[slot]
    if slot == NUM_NATURAL:
        return "3b"
    if slot < JOKER_SLOT:
        return "2>" + MELD_RANK_CHARS[slot - TWO_SLOT]
    return "JK>" + MELD_RANK_CHARS[slot - JOKER_SLOT]


ACTION_NAMES: Final[tuple[str, ...]] = tuple(
    _FIXED[a] if a < DISCARD_BASE
    else f"discard {KIND_CHARS[a - DISCARD_BASE]}" if a < STAGE_BASE
    else f"stage {_slot_text(a - STAGE_BASE)}"
    for a in range(NUM_ACTIONS)
)
"""The text of every action, by id."""

_PARSE: Final = {name.lower(): a for a, name in enumerate(ACTION_NAMES)}


def action_to_string(action: int) -> str:
    """The text of an action id (``"stage 2>K"``)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no action {action} (actions are 0 to {NUM_ACTIONS - 1})")
    return ACTION_NAMES[action]


def string_to_action(text: str) -> int:
    """The id of an action's text; case and spacing are forgiven (``"Stage 2 > k"``)."""
    key = " ".join(text.strip().lower().replace(" >", ">").replace("> ", ">").split())
    key = key.replace("stage 10", "stage t").replace("discard 10", "discard t").replace(">10", ">t")
    action = _PARSE.get(key)
    if action is None:
        raise ValueError(f"unknown action {text!r} (like draw, pile, commit, discard 9, stage K, stage JK>W)")
    return action


Plan = tuple[int, ...]
"""A staged plan: a count per staging slot (``NUM_SLOTS`` long)."""

EMPTY_PLAN: Final[Plan] = (0,) * NUM_SLOTS


def spec_plan(spec: Spec) -> Plan:
    """The staging counts of a ``meld`` or ``pile`` move by kinds."""
    groups = spec[1]
    assert isinstance(groups, tuple)
    counts = [0] * NUM_SLOTS
    for rank, n, t, j in groups:
        if n:
            counts[rank if rank < NUM_NATURAL else NUM_NATURAL] += n  # black threes: slot 11
        counts[TWO_SLOT + rank] += t
        counts[JOKER_SLOT + rank] += j
    return tuple(counts)


_StagePlan = tuple[dict[int, int], Spec, int]
"""A ``meld`` or ``pile`` move's staging counts (slot -> cards, no zeros), itself, its card count."""

_STAGE_PLANS: Final[dict[Spec, _StagePlan]] = {}


def _stage_plan(spec: Spec) -> _StagePlan:
    """The staging counts of a ``meld`` or ``pile`` move (cached: the generator reuses its moves)."""
    found = _STAGE_PLANS.get(spec)
    if found is not None:
        return found
    groups = spec[1]
    assert isinstance(groups, tuple)
    counts: dict[int, int] = {}
    total = 0
    for rank, n, t, j in groups:
        for slot, k in ((rank if rank < NUM_NATURAL else NUM_NATURAL, n), (TWO_SLOT + rank, t),
                        (JOKER_SLOT + rank, j)):
            if k:
                counts[slot] = counts.get(slot, 0) + k
                total += k
    if len(_STAGE_PLANS) > 100_000:
        _STAGE_PLANS.clear()
    found = _STAGE_PLANS[spec] = (counts, spec, total)
    return found


_SIMPLE_ACTIONS: Final = {DRAW: DRAW_ACTION, PILE: PILE_ACTION, ASK: ASK_ACTION, YES: YES_ACTION, NO: NO_ACTION}


class TurnActions:
    """The action interface of one :class:`GameState`: masks, staging, and commits.

    The staged plan lives here, not in the engine; any engine move (through :meth:`apply`
    or directly on the state) clears it.
    """

    __slots__ = ("_candidates", "_length", "_mask", "_phase", "_plans", "_specs", "mode", "plan", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.mode: str | None = None  # None, MELD or PILE while a plan is staged
        self.plan: list[int] = [0] * NUM_SLOTS
        self._length = -1  # the state's history length and phase that the fields below are for
        self._phase = ""
        self._specs: list[Spec] = []
        self._plans: list[_StagePlan] | None = None  # the meld and pile moves, when needed
        self._candidates: list[_StagePlan] = []  # those of the staged mode containing the staged cards
        self._mask: bytearray | None = None

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return TurnActions, (self.state,), self.__getstate__()

    def _sync(self) -> None:
        state = self.state
        if len(state.history) != self._length or state.phase != self._phase:
            self._reset()

    def _reset(self) -> None:
        state = self.state
        self._length = len(state.history)
        self._phase = state.phase
        self._specs = generate(state)
        self._plans = None
        self._candidates = []
        self.mode = None
        self.plan = [0] * NUM_SLOTS
        self._mask = None

    def _stage_plans(self) -> list[_StagePlan]:
        plans = self._plans
        if plans is None:
            plans = self._plans = [_stage_plan(spec) for spec in self._specs if spec[0] == MELD or spec[0] == PILE]
        return plans

    def copy(self, state: GameState | None = None) -> TurnActions:
        """The same plan over ``state`` (a copy of this one's state; default: a fresh copy)."""
        self._sync()
        new = TurnActions(self.state.copy() if state is None else state)
        new._length = self._length
        new._phase = self._phase
        new._specs = self._specs
        new._plans = self._plans
        new._candidates = self._candidates
        new.mode = self.mode
        new.plan = self.plan[:]
        new._mask = self._mask
        return new

    @property
    def staging(self) -> bool:
        """True while a ``meld`` or ``pile`` is being staged."""
        self._sync()
        return self.mode is not None

    def specs(self) -> list[Spec]:
        """The canonical legal moves by kinds (``canasta.legal.generate``) of the state now."""
        self._sync()
        return self._specs

    def mask(self) -> list[int]:
        """1 for each allowed action id, 0 otherwise (a fresh list of ``NUM_ACTIONS``)."""
        return list(self.shared_mask())

    def shared_mask(self) -> bytearray:
        """The mask as bytes, not a copy: the same object until the mask changes (do not modify it)."""
        self._sync()
        mask = self._mask
        if mask is None:
            mask = self._mask = self._compute_mask()
        return mask

    def legal_actions(self) -> list[int]:
        """The allowed action ids, ascending."""
        return list(compress(_ALL_ACTIONS, self.shared_mask()))

    def _compute_mask(self) -> bytearray:
        mask = bytearray(NUM_ACTIONS)
        if self.mode is None:
            for spec in self._specs:
                action = spec[0]
                if action == MELD:  # each card of it may be staged first
                    groups = spec[1]
                    assert isinstance(groups, tuple)
                    for rank, n, t, j in groups:
                        if n:
                            mask[STAGE_BASE + (rank if rank < NUM_NATURAL else NUM_NATURAL)] = 1
                        if t:
                            mask[STAGE_BASE + TWO_SLOT + rank] = 1
                        if j:
                            mask[STAGE_BASE + JOKER_SLOT + rank] = 1
                elif action == DISCARD:
                    kind = spec[1]
                    assert isinstance(kind, int)
                    mask[DISCARD_BASE + kind] = 1
                else:
                    mask[_SIMPLE_ACTIONS[action]] = 1
            return mask
        staged = self.plan
        staged_total = sum(staged)
        for counts, _spec, total in self._candidates:
            if total == staged_total:
                mask[COMMIT] = 1  # contains the staged cards and no more: exactly them
            else:
                for slot, n in counts.items():
                    if n > staged[slot]:
                        mask[STAGE_BASE + slot] = 1
        return mask

    def is_allowed(self, action: int) -> bool:
        """True when the mask allows ``action`` now."""
        return 0 <= action < NUM_ACTIONS and self.shared_mask()[action] == 1

    def apply(self, action: int) -> Move | None:
        """Take one allowed action; returns the engine move it committed, or None while staging.

        Raises :class:`ValueError` naming the action when the mask does not allow it.
        """
        if not (0 <= action < NUM_ACTIONS and self.shared_mask()[action]):
            raise ValueError(f"action {action} ({ACTION_NAMES[action] if 0 <= action < NUM_ACTIONS else '?'}) "
                             f"is not allowed now")
        if action >= STAGE_BASE:
            slot = action - STAGE_BASE
            if self.mode is None:
                self._start(MELD)
            plan = self.plan
            plan[slot] += 1
            need = plan[slot]
            self._candidates = [c for c in self._candidates if c[0].get(slot, 0) >= need]
            self._mask = None
            return None
        if action == PILE_ACTION:
            self._start(PILE)
            return None
        state = self.state
        move = materialize(state, self.spec_for(action))
        state.push(move)
        self._reset()
        return move

    def _start(self, mode: str) -> None:
        self.mode = mode
        self._candidates = [c for c in self._stage_plans() if c[1][0] == mode]
        self._mask = None

    def spec_for(self, action: int) -> Spec:
        """The engine move (by kinds) that an allowed non-staging action plays."""
        if action == COMMIT:
            self._sync()
            total = sum(self.plan)
            for _counts, spec, size in self._candidates:
                if size == total:
                    return spec
            raise ValueError("the staged cards are not a legal move")
        if DISCARD_BASE <= action < STAGE_BASE:
            return _DISCARD_SPECS[action - DISCARD_BASE]
        return _ACTION_SPECS[action]

    def staged_text(self) -> str:
        """The staged plan in words (``"meld: K K 2>K"``), or ``""``."""
        self._sync()
        if self.mode is None:
            return ""
        parts = [_slot_text(s) for s in range(NUM_SLOTS) for _ in range(self.plan[s])]
        return f"{self.mode}: " + " ".join(parts)


_ALL_ACTIONS: Final = range(NUM_ACTIONS)
_DISCARD_SPECS: Final[tuple[Spec, ...]] = tuple((DISCARD, kind) for kind in range(NUM_KINDS))
_ACTION_SPECS: Final[dict[int, Spec]] = {DRAW_ACTION: (DRAW, None), ASK_ACTION: (ASK, None), YES_ACTION: (YES, None),
                                  NO_ACTION: (NO, None)}


def actions_for_spec(spec: Spec) -> list[int]:
    """One action sequence that plays a canonical move by kinds (staging in slot order)."""
    action = spec[0]
    if action == DISCARD:
        kind = spec[1]
        assert isinstance(kind, int)
        return [DISCARD_BASE + kind]
    if action in (DRAW, ASK, YES, NO):
        return [{DRAW: DRAW_ACTION, ASK: ASK_ACTION, YES: YES_ACTION, NO: NO_ACTION}[action]]
    plan = spec_plan(spec)
    steps = [PILE_ACTION] if action == PILE else []
    steps.extend(STAGE_BASE + s for s in range(NUM_SLOTS) for _ in range(plan[s]))
    steps.append(COMMIT)
    return steps


def sample_masked(mask: Sequence[int], u: float) -> int:
    """The allowed action at fraction ``u`` in [0, 1) of the allowed ones (for random play)."""
    allowed = [a for a, ok in enumerate(mask) if ok]
    return allowed[int(u * len(allowed))]


def move_of(turn: TurnActions, moves: Sequence[Move], pick: Callable[[TurnActions], int]) -> Move:
    """Apply ``pick``'s actions to ``turn`` until they commit a move, which must be one of ``moves``.

    How a policy bot (``policy:FILE``, ``neural``) plays a turn sampled from its view: the
    sample keeps the seat's own cards, so the move is legal at the real table too.
    """
    while (move := turn.apply(pick(turn))) is None:
        pass
    if move in moves:
        return move
    raise AssertionError(f"the policy's move {move} is not among the legal moves")


__all__ = [
    "ACTION_NAMES", "ASK_ACTION", "COMMIT", "DISCARD_BASE", "DRAW_ACTION", "EMPTY_PLAN",
    "JOKER_SLOT", "NO_ACTION", "NUM_ACTIONS", "NUM_SLOTS", "PILE_ACTION", "STAGE_BASE", "TWO_SLOT",
    "YES_ACTION", "TurnActions", "action_to_string", "actions_for_spec", "move_of", "sample_masked", "spec_plan",
    "string_to_action",
]
