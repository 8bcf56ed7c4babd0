"""A tournament table's match: hand ``i`` is board ``i`` of the tournament, one hand a board, over after the last.

Each board is dealt from the tournament's deck for it, by its dealer, from its side totals (so each
side's first-meld minimum is the board's), whatever happened on the boards before: the same cards in
the same seats at every table.  The match keeps no seed of its own (``seed`` None), so no record or
message of the table can carry the tournament's seed, from which every board could be dealt.

>>> from canasta.cards import card_text
>>> from canasta.rules import Rules
>>> from canasta.bots.tournament import Tournament
>>> t = Tournament(Rules(), (("expert",) * 4, ("expert",) * 4), boards=2, seed=5, schedule=[(0, 0), (1500, 0)])
>>> m = BoardMatch(t, ["a", "b", "c", "d"])
>>> m.new_hand().minimum(0), m.hands[0]["deck"] == [card_text(c) for c in t.deck(0)], m.seed
(50, True, None)
"""

from __future__ import annotations

from collections.abc import Sequence

from ...bots.tournament import Tournament
from ...errors import CanastaError
from ...match import Match
from ...play import HOUSE, Table
from ...state import GameState


class BoardMatch(Match):
    """The boards of a tournament at one table, in order: a :class:`~canasta.match.Match` of ``boards`` hands."""

    def __init__(self, tournament: Tournament, players: Sequence[str]) -> None:
        super().__init__(tournament.rules, players, seed=None, scores=tournament.board(0).scores, deal=False)
        self.tournament = tournament
        self.dealer = tournament.board(0).dealer

    def new_hand(self, deck: Sequence[int] | None = None) -> GameState:
        """Deal the next board (the tournament's deck; a ``deck`` given must be that one)."""
        if self.hands and not self.state.is_over:
            raise CanastaError("the current board is not over")
        if len(self.hands) >= self.tournament.boards:
            raise CanastaError("every board of the tournament is played at this table")
        board = self.tournament.board(len(self.hands))
        cards = self.tournament.deck(board.number)
        if deck is not None and list(deck) != cards:
            raise CanastaError(f"board {board.number + 1} is dealt from the tournament's deck only")
        self.dealer, self.scores = board.dealer, list(board.scores)
        return self._deal_hand(cards, board.sitting_out)

    @property
    def totals(self) -> list[tuple[int, ...]]:
        """Each played board's hand totals, by side (the results the scoreboard compares)."""
        return [tuple(result.totals) for result in self.results]

    @property
    def winner(self) -> int | None:
        """None until every board is played; then the side with the most points over the boards (a tie: the first)."""
        if len(self.results) < self.tournament.boards:
            return None
        sums = [sum(t[side] for t in self.totals) for side in range(self.rules.sides)]
        return sums.index(max(sums))


def board_match(spec: object, players: Sequence[str]) -> BoardMatch:
    """The match of a tournament table from its spec's ``tournament`` entry (``format``: the tournament's JSON)."""
    if not isinstance(spec, dict) or "format" not in spec:
        raise CanastaError("a tournament table's spec names its tournament's format")
    return BoardMatch(Tournament.from_json(spec["format"]), players)


class BoardTable(Table):
    """A tournament table's driver: where every person left the seat to the computer (gone past the away time,
    or by choice), the server deals the next board itself, so a table nobody sits at still plays its boards."""

    def bot_to_act(self, deal: bool = False) -> int | None:
        """As :meth:`Table.bot_to_act`, and :data:`HOUSE` at a board's end when every person's seat is the
        computer's."""
        seat = super().bot_to_act(deal)
        match = self.match
        if (seat is None and deal and match.hands and match.state.is_over and not match.is_over
                and set(self.humans) <= self.stand_ins):
            return HOUSE
        return seat
