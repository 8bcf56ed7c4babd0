"""The table driver every front end uses: a match, its seats and computer players, one way in for moves.

:class:`Table` judges a move in the web protocol's order (docs/protocol.md, "Errors") and
raises the engine's named errors: :class:`~canasta.errors.MatchOver`,
:class:`~canasta.errors.NotYourTurn`, :class:`~canasta.errors.StaleState`,
:class:`~canasta.errors.MoveSyntaxError`, :class:`~canasta.errors.IllegalMoveError`.
Nothing changes when one is raised.  The **state id** counts the deals and moves applied, and
the new matches started at the same seats (:meth:`Table.rematch`), so a state id names one
moment of the table over every match played at it.  :meth:`Table.require_turn` is the part
of that order before the move itself (what a front end checks before a hint or a selection),
:meth:`Table.require_person` and :meth:`Table.require_rematch` the table's other refusals.

Computer players choose from their seat's :class:`~canasta.views.View` and the legal moves
only (:func:`bot_choice`); the bot at seat ``k`` plays hand ``i`` with
``canasta.match.bot_random(seed, i, k)``, and hand ``i`` is dealt by
``canasta.match.deal_deck(rules, seed, i)``: one seed gives the same match in the terminal,
the full-screen table, the browser, the arena and :class:`~canasta.match.Match`.

>>> from canasta.rules import Rules
>>> from .seats import parse_seats
>>> rules = Rules.from_preset("classic", target=1000)
>>> table = Table(rules, parse_seats(["basic"] * 4, rules), seed=3)
>>> table.state_id, table.bot_to_act() == table.state.to_act
(1, True)
>>> seat, move = table.play_bot()
>>> seat, str(move), table.state_id
(1, 'draw', 2)
>>> table.submit(2, "draw", 2)
Traceback (most recent call last):
...
canasta.errors.NotYourTurn: it is Basic 2's turn, not yours
>>> table.submit(1, "draw", 1)
Traceback (most recent call last):
...
canasta.errors.StaleState: the table has moved on (state 2, not 1)
>>> table.rematch(8)
Traceback (most recent call last):
...
canasta.errors.NotYourTurn: the match goes on; a rematch is for its end
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..bots import Bot, make_bot
from ..errors import MatchOver, NotYourTurn, SeatError, StaleState
from ..match import SEEDING, Match, bot_random
from ..moves import Move
from ..rules import Rules
from ..state import GameState
from ..views import View, make_view
from .seats import Seat

HOUSE = -1
"""The table itself acting: it deals the next hand of a table no person sits at."""


def bot_choice(state: GameState, bot: Bot) -> Move:
    """The move ``bot`` chooses for the seat to act, from that seat's view and the legal moves only."""
    return bot.choose(make_view(state, state.to_act), list(state.legal_moves()))


def run_bots(state: GameState, bots: Mapping[int, Bot], play: Callable[[Move], object]) -> int:
    """The bot loop: while the hand goes on and a seat of ``bots`` is to act, it chooses and ``play`` applies.

    Returns how many moves were made.  The Gymnasium opponents and :meth:`Table.run_bots` use it.
    """
    made = 0
    while not state.is_over:
        bot = bots.get(state.to_act)
        if bot is None:
            break
        play(bot_choice(state, bot))
        made += 1
    return made


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A computer player's decision to make: what it may see, taken on the thread that owns the table.

    :meth:`choose` may then run on another thread (a slow bot); the move goes in through
    :meth:`Table.submit` with ``state_id``, so a table that moved on meanwhile refuses it.
    """

    seat: int
    bot: Bot
    view: View
    moves: list[Move]
    state_id: int

    @property
    def slow(self) -> bool:
        """True when the bot may think long (``search``)."""
        return bool(getattr(self.bot, "slow", False))

    def choose(self) -> Move:
        """The bot's move (one of :attr:`moves`, or an equal one it built)."""
        return self.bot.choose(self.view, self.moves)


class Table:
    """A match and its seats: the only way a move gets in, checked in the protocol's order.

    ``match`` continues a loaded match (a save file, a table replayed from storage); otherwise
    a new one is made with ``seed`` and, with ``deal``, its first hand dealt.  ``files``
    admits ``policy:FILE`` players (local tools only).
    """

    def __init__(self, rules: Rules, seats: Sequence[Seat], seed: int, *, match: Match | None = None,
                 deal: bool = True, files: bool = False) -> None:
        if len(seats) != rules.players:
            raise SeatError(f"{rules.preset} seats {rules.players} players, not {len(seats)}")
        self.rules = rules
        self.seats = list(seats)
        self.seed = seed
        self.files = files
        if match is None:
            match = Match(rules, [s.name for s in seats], seed=seed, deal=False)
        self.match = match
        self.state_id = len(match.hands) + sum(len(hand["moves"]) for hand in match.hands)
        """The deals, moves and rematches applied at this table (a loaded match counts its own)."""
        self.matches = 1
        """The matches played at this table, this one included (:meth:`rematch`)."""
        self._bots: dict[int, Bot] = {}
        self._bots_key: tuple[int, frozenset[int]] = (-1, frozenset())
        self.stand_ins: set[int] = set()
        """People's seats an ``expert`` plays for now (the person left the seat to the computer)."""
        if deal and not match.hands:
            self.deal()

    # -- facts --------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The hand in play (or just finished)."""
        return self.match.state

    @property
    def names(self) -> list[str]:
        """Each seat's name."""
        return self.match.players

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [s.index for s in self.seats if s.is_human]

    @property
    def hand_number(self) -> int:
        """The current hand, from 1 (0 before the first deal)."""
        return len(self.match.hands)

    def is_bot(self, seat: int) -> bool:
        """True for a computer player's seat, and for a person's seat left to the computer."""
        return 0 <= seat < len(self.seats) and (not self.seats[seat].is_human or seat in self.stand_ins)

    @property
    def bots(self) -> dict[int, Bot]:
        """The computer players of the current hand, by seat (each hand's are seeded afresh);
        an ``expert`` stands in for each person in :attr:`stand_ins`."""
        hand = len(self.match.hands) - 1
        key = (hand, frozenset(self.stand_ins))
        if key != self._bots_key:
            self._bots = {s.index: make_bot(s.kind if not s.is_human else "expert",
                                            bot_random(self.seed, max(hand, 0), s.index), files=self.files)
                          for s in self.seats if self.is_bot(s.index)}
            self._bots_key = key
        return self._bots

    def bot_to_act(self, deal: bool = False) -> int | None:
        """The computer player's seat that acts now, or None.

        With ``deal``, :data:`HOUSE` when a hand is over at a table no person sits at and the
        match goes on (a server deals it; a screen waits for its watcher instead).  Where people
        sit, one of them deals, even when every one left their seat to the computer
        (docs/protocol.md: at least one person says ``ready``).
        """
        match = self.match
        if match.is_over or not match.hands:
            return None
        state = match.state
        if state.is_over:
            return HOUSE if deal and not self.humans else None
        return state.to_act if self.is_bot(state.to_act) else None

    # -- moves --------------------------------------------------------------------------

    def require_turn(self, seat: int | None, state_id: int | None = None, *, deal: bool = False,
                     computer: bool | None = None) -> None:
        """The protocol's checks before the move itself: ``seat`` may act now in state ``state_id``.

        ``seat`` is the sender, None for a spectator, :data:`HOUSE` for the table itself (it may
        only deal); ``deal`` asks for the next deal instead of a move.  In order: the match is
        over (``MatchOver``), the sender may not act now (``NotYourTurn``), ``state_id`` is not
        the current one (``StaleState``; None skips this check).  ``computer`` says who sends
        for a seat: True a computer player (a person who took the seat back since it began to
        think makes the move ``StaleState``), False its person (refused, ``NotYourTurn``, while
        the seat is left to the computer); None does not ask.
        """
        match = self.match
        state = match.state
        if match.is_over:
            raise MatchOver("the match is over")
        if computer is not None and seat is not None and seat >= 0 and computer != self.is_bot(seat):
            if computer:
                raise StaleState("the seat was taken back")
            raise NotYourTurn("you left your seat to the computer; take it back first")
        if seat is None:
            raise NotYourTurn("spectators watch; they do not play")
        if deal:
            if match.hands and not state.is_over:
                raise NotYourTurn("the hand is still being played")
        elif seat == HOUSE or state.is_over or not match.hands:
            raise NotYourTurn("the hand is over; deal the next one")
        elif state.to_act != seat:
            raise NotYourTurn(f"it is {self.names[state.to_act]}'s turn, not yours")
        if state_id is not None and state_id != self.state_id:
            raise StaleState(f"the table has moved on (state {self.state_id}, not {state_id})")

    def require_person(self, seat: int | None, what: str) -> int:
        """The person's seat that may ``what`` (say it is ready, chat, leave the seat...), even when left to the
        computer; ``NotYourTurn`` for a spectator, the table itself or a computer player's seat."""
        if seat is None or not 0 <= seat < len(self.seats) or not self.seats[seat].is_human:
            raise NotYourTurn(f"only the people seated at the table {what}")
        return seat

    def require_rematch(self) -> None:
        """``NotYourTurn`` unless the match is over (a new match at the same seats is for its end)."""
        if not self.match.is_over:
            raise NotYourTurn("the match goes on; a rematch is for its end")

    def judge(self, seat: int | None, text: str | Move | None, state_id: int | None = None, *,
              computer: bool | None = None) -> Move | None:
        """Check a move (``text``) or the next deal (None) without applying it; the move parsed.

        :meth:`require_turn` first (``MatchOver``, ``NotYourTurn``, ``StaleState``; ``computer``
        as there), then the text does not parse (``MoveSyntaxError``), the rules refuse the move
        (``IllegalMoveError``).
        """
        self.require_turn(seat, state_id, deal=text is None, computer=computer)
        if text is None:
            return None
        move = text if isinstance(text, Move) else Move.parse(text)
        self.match.state.check(move)
        return move

    def apply(self, move: Move | None) -> Move | None:
        """Apply a judged move, or deal the next hand (None); the move as applied."""
        if move is None:
            self.deal()
            return None
        applied = self.match.play(move)
        self.state_id += 1
        return applied

    def submit(self, seat: int | None, text: str | Move | None, state_id: int | None = None, *,
               computer: bool | None = None) -> Move | None:
        """Judge and apply: the one way a move (or the next deal, ``text`` None) gets in."""
        return self.apply(self.judge(seat, text, state_id, computer=computer))

    def deal(self) -> GameState:
        """Deal the next hand (the first one too), by the match's seeding."""
        state = self.match.new_hand()
        self.state_id += 1
        return state

    def rematch(self, seed: int, seeding: str = SEEDING) -> None:
        """Start a new match at the same seats, shuffled from ``seed``, its first hand not dealt yet.

        The state id goes on counting (the rematch is one), so a move chosen in the old match
        is stale in the new one; the seats left to the computer stay so.  ``NotYourTurn``
        while the match goes on (:meth:`require_rematch`).
        """
        self.require_rematch()
        self.seed = seed
        self.match = Match(self.rules, list(self.names), seed=seed, deal=False, seeding=seeding)
        self.matches += 1
        self.state_id += 1
        self._bots_key = (-1, frozenset())  # hand 0 of the new match has bots of its own seed

    def stand_in(self, seat: int, computer: bool = True) -> None:
        """Leave a person's seat to the computer (an ``expert`` plays it), or give it back (``computer`` False)."""
        self.require_person(seat, "leave their seats to the computer")
        if computer:
            self.stand_ins.add(seat)
        else:
            self.stand_ins.discard(seat)

    def bot_turn(self) -> BotTurn:
        """The decision of the computer player to act: its seat's view and the legal moves, nothing else."""
        seat = self.bot_to_act()
        if seat is None or seat == HOUSE:
            raise NotYourTurn("no computer player is to move")
        state = self.state
        return BotTurn(seat, self.bots[seat], state.view(seat), list(state.legal_moves()), self.state_id)

    def bot_move(self) -> tuple[int, Move]:
        """The computer player to act and the move it chooses (not applied), from its seat's view only."""
        turn = self.bot_turn()
        return turn.seat, turn.choose()

    def play_bot(self) -> tuple[int, Move]:
        """One computer player's move, chosen and applied."""
        seat, move = self.bot_move()
        self.apply(move)
        return seat, move

    def run_bots(self, each: Callable[[int, Move], object] | None = None) -> int:
        """Let computer players move until a person is to act or the hand ends (``each`` sees every move)."""
        state = self.state

        def play(move: Move) -> None:
            seat = state.to_act
            self.apply(move)
            if each is not None:
                each(seat, move)

        return run_bots(state, self.bots, play)
