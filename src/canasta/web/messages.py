"""The web protocol's messages as types: one ``TypedDict`` per message of docs/protocol.md.

Client messages are the checked form :func:`~canasta.web.protocol.parse_client_message`
returns: only the fields the server reads, each of the type docs/protocol.md gives, with the
optional ones filled in (``id`` None, a ``resolve``'s ``cards`` ``[]`` and ``onto`` None).
Each has a literal ``type``, so ``message["type"] == "move"`` tells mypy which one it is.
Server messages are built as these types and sent as they are (:func:`~canasta.web.protocol.dumps`).
A view (``View.to_json``) and a hand's result keep the engine's own JSON (:mod:`canasta.views`,
:mod:`canasta.scoring`).  This module imports nothing of the project: every part of the server
can name a message.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

Status: TypeAlias = Literal["playing", "hand_over", "over"]
"""A table's ``status``: a hand being played, a hand over (waiting for the next deal), the match over."""
RequestId: TypeAlias = str | int | None
"""A client message's optional ``id`` (a string of at most 64 characters, or a number), sent back in its answer."""

# -- client to server -------------------------------------------------------------------------


class HelloRequest(TypedDict):
    """Take the seat (or the spectator's place) that ``token`` opens."""

    type: Literal["hello"]
    token: str
    id: RequestId


class MoveRequest(TypedDict):
    """Play a move chosen in state ``state``."""

    type: Literal["move"]
    move: str
    state: int
    id: RequestId


class ReadyRequest(TypedDict):
    """The hand's result dismissed (``next`` is its old name)."""

    type: Literal["ready", "next"]
    state: int
    id: RequestId


class HintRequest(TypedDict):
    """The expert's move for this seat, and why."""

    type: Literal["hint"]
    state: int
    id: RequestId


class ResolveRequest(TypedDict):
    """The legal moves of ``action`` that lay exactly ``cards`` (``onto``: a meld rank, for a meld)."""

    type: Literal["resolve"]
    cards: list[str]
    action: str
    onto: str | None
    state: int
    id: RequestId


class ChatRequest(TypedDict):
    """A line to the table (its text cleaned: one line, nothing invisible)."""

    type: Literal["chat"]
    text: str
    id: RequestId


class PlainRequest(TypedDict):
    """A message of its type alone: a rematch asked for, the seat left to the computer or taken back, a ping,
    a new link for the seat."""

    type: Literal["rematch", "leave", "back", "ping", "renew"]
    id: RequestId


ClientMessage: TypeAlias = (HelloRequest | MoveRequest | ReadyRequest | HintRequest | ResolveRequest | ChatRequest
                            | PlainRequest)
"""A client message, checked."""

# -- server to client -------------------------------------------------------------------------


class PlayerJson(TypedDict):
    """One seat in ``table.players``."""

    seat: int
    name: str
    kind: str
    connected: bool
    computer: bool
    away: bool
    rating: NotRequired[float]
    """The rating in the game's family (docs/room.md): a signed-in person's, or a computer level's fixed one."""
    provisional: NotRequired[bool]
    """With ``rating``: the server is still unsure of it (few rated matches)."""


class TableJson(TypedDict):
    """``state.table``: what everybody at the table may see about it (no hand, no stock, no seed unless
    the creator chose it)."""

    id: str
    status: Status
    players: list[PlayerJson]
    sides: list[list[int]]
    target: int
    rules: str | dict[str, Any]
    hand: int
    scores: list[int]
    minimums: list[int]
    results: list[dict[str, Any]]
    winner: int | None
    match: int
    ready: list[int]
    waiting: list[int]
    dealt: dict[str, Any]
    log: list[dict[str, Any]]
    away_minutes: float
    turn_seconds: float
    turn_left: float | None
    seed: NotRequired[int]


class StateMessage(TypedDict):
    """The table as one connection may see it."""

    type: Literal["state"]
    state: int
    table: TableJson
    view: dict[str, Any]
    actions: list[str]
    reasons: dict[str, str]
    legal: list[str]
    legal_more: bool
    elsewhere: int
    drawn: dict[str, list[str]]


class Welcome(TypedDict):
    """After a good ``hello``."""

    type: Literal["welcome"]
    table: str
    seat: int | None
    role: Literal["player", "spectator"]
    id: RequestId


class Ack(TypedDict):
    """A move, ``ready``, ``rematch``, ``chat``, ``leave`` or ``back`` committed; ``state`` the new state id."""

    type: Literal["ack"]
    state: int
    move: str
    id: RequestId


class HintAnswer(TypedDict):
    """The answer to ``hint``."""

    type: Literal["hint"]
    move: str
    reason: str
    id: RequestId


class MovesAnswer(TypedDict):
    """The answer to ``resolve``, to the asking connection only."""

    type: Literal["moves"]
    action: str
    moves: list[str]
    reason: str | None
    state: int
    id: RequestId


class Renewed(TypedDict):
    """The answer to ``renew``: the seat's new token and link."""

    type: Literal["renewed"]
    token: str
    link: str
    id: RequestId


class Pong(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: RequestId


class ChatLine(TypedDict):
    """One chat line."""

    seat: int
    name: str
    text: str
    at: float


class ChatMessage(TypedDict):
    """Chat lines: the table's latest after ``hello``, then each new one."""

    type: Literal["chat"]
    messages: list[ChatLine]


class ErrorMessage(TypedDict):
    """A refused message (``error`` one of :data:`~canasta.web.protocol.ERRORS`); nothing changed."""

    type: Literal["error"]
    error: str
    message: str
    id: RequestId


class Reconnect(TypedDict):
    """This server process is stopping: connect again (another process takes the table); the socket closes with
    1012.  Every move acknowledged before it is stored."""

    type: Literal["reconnect"]
    message: str


ServerMessage: TypeAlias = (StateMessage | Welcome | Ack | HintAnswer | MovesAnswer | Renewed | Pong | ChatMessage
                            | ErrorMessage | Reconnect)
"""A message the server sends on a websocket."""

# -- HTTP -------------------------------------------------------------------------------------


class SeatLink(TypedDict):
    """One seat in the answer to ``POST /api/tables`` (``token`` and ``link`` null for a computer player)."""

    seat: int
    kind: str
    name: str
    token: str | None
    link: str | None


class SpectatorLink(TypedDict):
    """The spectators' link of a new table."""

    token: str
    link: str


class TableCreated(TypedDict):
    """The answer to ``POST /api/tables`` (201)."""

    table: str
    seats: list[SeatLink]
    away_minutes: float
    turn_seconds: float
    spectator: SpectatorLink
