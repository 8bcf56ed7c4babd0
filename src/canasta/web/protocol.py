"""The messages of the web protocol (docs/protocol.md): what each connection may be sent.

Every message a seat receives is built here from that seat's :class:`~canasta.views.View`
and everything everybody receives (the table, a spectator's view) from the
:class:`~canasta.views.PublicView`, which is built from public fields only, so that no
message can carry another seat's cards or the stock.  A client's message is checked here
too, into its type of :mod:`.messages`; the refusals are :class:`ProtocolError` errors, the
table driver's named errors among them (:data:`NAMED_ERRORS`, :func:`named_errors`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from typing import Any

from ..cards import MELD_RANK_CHARS, card_text
from ..errors import CanastaError, IllegalMoveError, MatchOver, MoveSyntaxError, NotYourTurn, StaleState
from ..judge import unavailable_reason
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES
from ..rules import OPTION_NAMES, PRESETS, Rules
from ..scoring import HandResult, sheet_rows
from ..text.clean import TextRefused, clean_text
from ..views import PublicView, make_view, public_view
from .messages import ClientMessage, ErrorMessage, PlayerJson, RequestId, StateMessage, TableJson
from .requests import TARGETS
from .served import ServedTable

MAX_MESSAGE = 8 * 1024
"""Longest client message answered (bytes of text); longer ones get ``too_large``."""
MAX_LEGAL = 400
"""Legal moves listed in one ``state`` message."""

ERRORS = (
    "busy", "too_large", "bad_message", "bad_token", "no_table", "rate_limited", "table_over", "not_your_turn",
    "stale_state", "bad_move", "illegal_move", "server_error",
)
"""Named errors, in the order the server checks for them."""
ACTIONS = (DRAW, PILE, MELD, DISCARD, ASK, YES, NO)
"""The action words of moves, in the order ``actions`` lists them."""
KINDS = ("hello", "move", "next", "ready", "rematch", "chat", "leave", "back", "resolve", "hint", "ping", "renew")
"""The client's message types."""
MAX_RESOLVE_CARDS = 30
"""Most cards one ``resolve`` may name (more than any hand can hold to meld)."""
MAX_RESOLVED = 60
"""Most moves one ``moves`` answer lists."""
MAX_CHAT_TEXT = 300
"""Longest chat line, in characters."""
NAMED_ERRORS: dict[type[CanastaError], str] = {
    MatchOver: "table_over",
    NotYourTurn: "not_your_turn",
    StaleState: "stale_state",
    MoveSyntaxError: "bad_move",
    IllegalMoveError: "illegal_move",
}
"""The table driver's errors (:mod:`canasta.play.table`) by their protocol names (docs/protocol.md, "Errors")."""


class ProtocolError(Exception):
    """A refused message: ``name`` is one of :data:`ERRORS`, the text one sentence."""

    def __init__(self, name: str, message: str) -> None:
        assert name in ERRORS, name
        super().__init__(message)
        self.name = name
        self.message = message
        self.request_id: RequestId = None
        """The ``id`` of the message refused, when it had a valid one."""

    def to_message(self, request_id: RequestId = None) -> ErrorMessage:
        """The ``error`` message for this failure."""
        return {"type": "error", "error": self.name, "message": self.message,
                "id": request_id if request_id is not None else self.request_id}


@contextmanager
def named_errors() -> Iterator[None]:
    """Turn the table driver's refusals raised inside into :class:`ProtocolError` errors of their names
    (:data:`NAMED_ERRORS`), with their sentences; any other error goes through as it is."""
    try:
        yield
    except tuple(NAMED_ERRORS) as exc:
        name = next(name for kind, name in NAMED_ERRORS.items() if isinstance(exc, kind))
        raise ProtocolError(name, str(exc)) from None


def dumps(message: Mapping[str, Any]) -> str:
    """A message (one of :mod:`.messages`) as compact JSON text."""
    return json.dumps(message, separators=(",", ":"))


def parse_client_message(text: str) -> ClientMessage:
    """A client message checked, as its type of :mod:`.messages`; or :class:`ProtocolError` (``too_large`` /
    ``bad_message``)."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("bad_message", "the message is not JSON (or nests too deep)") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    request_id = message.get("id")
    if request_id is not None and (not isinstance(request_id, (str, int)) or isinstance(request_id, bool)):
        raise ProtocolError("bad_message", "id must be a string or a number")
    if isinstance(request_id, str) and (len(request_id) > 64 or _not_unicode({"id": request_id})):
        raise ProtocolError("bad_message", "id may hold at most 64 characters of valid Unicode")
    try:
        if (where := _not_unicode(message)) is not None:
            raise ProtocolError("bad_message",
                                f"the message's {where!r} is not valid Unicode (it holds a lone surrogate)")
        return _checked(message, request_id)
    except ProtocolError as exc:
        exc.request_id = request_id  # the refusal answers the message it refuses
        raise


def _checked(message: dict[str, Any], request_id: RequestId) -> ClientMessage:
    """The message as its type, holding only the fields the server reads; :class:`ProtocolError` for the
    first field that is missing or wrong."""
    kind = message.get("type")
    if kind not in KINDS:
        raise ProtocolError("bad_message", f"unknown message type {str(kind)[:40]!r} ({', '.join(KINDS)})")
    if kind == "hello":
        token = message.get("token")
        if not isinstance(token, str):
            raise ProtocolError("bad_message", "hello needs the seat's token as a string")
        return {"type": "hello", "token": token, "id": request_id}
    if kind == "chat":
        try:  # one line, whitespace folded; nothing invisible, no control or direction character
            text = clean_text(message.get("text"), "a chat line", MAX_CHAT_TEXT)
        except TextRefused as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        return {"type": "chat", "text": text, "id": request_id}
    if kind not in ("move", "next", "ready", "hint", "resolve"):
        return {"type": kind, "id": request_id}  # rematch, leave, back, ping, renew: the type is all
    state = message.get("state")
    if not isinstance(state, int) or isinstance(state, bool):
        raise ProtocolError("bad_message", f"{kind} needs the state id it was chosen in, as a number")
    if kind == "move":
        move = message.get("move")
        if not isinstance(move, str):
            raise ProtocolError("bad_message", "move needs the move as text, like \"meld KS KD KC\"")
        return {"type": "move", "move": move, "state": state, "id": request_id}
    if kind == "hint":
        return {"type": "hint", "state": state, "id": request_id}
    if kind != "resolve":
        return {"type": kind, "state": state, "id": request_id}  # ready, or next (its old name)
    cards = message.get("cards", [])
    if (not isinstance(cards, list) or len(cards) > MAX_RESOLVE_CARDS
            or not all(isinstance(c, str) and len(c) <= 4 for c in cards)):
        raise ProtocolError("bad_message", f"resolve needs cards as a list of at most {MAX_RESOLVE_CARDS} "
                            "card texts, like [\"KS\", \"JK\"]")
    action = message.get("action")
    if action not in ACTIONS:
        raise ProtocolError("bad_message", f"resolve needs an action: {', '.join(ACTIONS)}")
    onto = message.get("onto")
    if onto is not None and (action != MELD or not isinstance(onto, str) or len(onto) != 1
                             or onto not in MELD_RANK_CHARS):
        raise ProtocolError("bad_message", f"resolve's onto is a meld rank ({', '.join(MELD_RANK_CHARS)}), "
                            "for a meld only")
    return {"type": "resolve", "cards": cards, "action": action, "onto": onto, "state": state, "id": request_id}


def _not_unicode(message: dict[str, Any]) -> str | None:
    """The first field of a parsed message that holds a lone surrogate (JSON lets ``"\\ud800"`` through)."""
    stack: list[tuple[str, object]] = [("", message)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if any("\ud800" <= char <= "\udfff" for char in value):
                return where or "field name"
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append(("", key))
                stack.append((where or str(key)[:20], item))
        elif isinstance(value, list):
            stack.extend((where, item) for item in value)
    return None


def setup_message() -> dict[str, Any]:
    """``GET /api/setup``: presets with every option's value, option types, bots, levels, targets."""
    from ..bots import BOTS, LEVELS

    presets = {
        name: {"players": rules.players, "sides": rules.sides, **{o: getattr(rules, o) for o in OPTION_NAMES}}
        for name, rules in PRESETS.items()
    }
    base = PRESETS["classic"]
    options: dict[str, dict[str, Any]] = {}
    for name in OPTION_NAMES:
        value = getattr(base, name)
        if name == "black_three_upcard":
            options[name] = {"type": "choice", "choices": ["stays", "cover"]}
        elif isinstance(value, bool):
            options[name] = {"type": "bool"}
        else:
            options[name] = {"type": "int"}
    levels = [{"kind": level.kind, "name": level.name, "strength": level.strength} for level in LEVELS]
    return {"presets": presets, "options": options, "bots": sorted(BOTS), "levels": levels, "targets": list(TARGETS)}


def result_json(result: HandResult, rules: Rules) -> dict[str, Any]:
    """A finished hand in ``table.results``: the itemised result, its totals and its score-sheet rows."""
    return result.to_json() | {"totals": list(result.totals),
                               "sheet": [row.to_json() for row in sheet_rows(result, rules)]}


def table_json(table: ServedTable, public: PublicView | None = None) -> TableJson:
    """What everybody at the table may see about it (no cards in hands, no stock, no seed).

    ``public``: the hand's public view with its history, if built (the log comes from it).
    """
    match = table.match
    rules = match.rules
    if public is None:
        public = public_view(match.state)
    facts = table.facts
    data: TableJson = {
        "id": table.id,
        "status": table.status,
        "players": [player_json(table, s.index) for s in table.seats],
        "sides": [[seat for seat in range(rules.players) if seat % rules.sides == side] for side in range(rules.sides)],
        "target": rules.target,
        "rules": rules.to_json(),
        "hand": len(match.hands),
        "scores": list(match.scores),
        "minimums": [rules.minimum(score) for score in match.scores],
        "results": [result_json(result, rules) for result in match.results],
        "winner": match.winner,
        "match": table.matches,
        "ready": sorted(table.ready),
        "waiting": table.waiting(),
        "dealt": match.dealt.to_json(),
        "log": [{"seat": seat, "move": move, **(facts[i] if i < len(facts) else {})}
                for i, (seat, move) in enumerate(public.history)],
        "away_minutes": table.away_minutes,
        "turn_seconds": table.turn_seconds,
        "turn_left": None if (left := table.turn_left()) is None else round(left, 1),
    }
    if table.seed_announced:  # chosen by the creator: every seat knows it
        data["seed"] = table.seed
    return data


def player_json(table: ServedTable, seat: int) -> PlayerJson:
    """One seat in ``table.players``: its name (the room's, when it knows who sits there: a signed-in player, a
    lobby taker) and, where the room knows one, a rating; nothing else about the person."""
    s = table.seats[seat]
    data: PlayerJson = {"seat": seat, "name": s.name, "kind": s.kind, "connected": table.connected(seat),
                        "computer": seat in table.driver.stand_ins, "away": seat in table.away}
    label = (table.labels or {}).get(seat)
    if label is not None:
        if label.name:
            data["name"] = label.name
        if label.rating is not None:
            data["rating"] = label.rating
            data["provisional"] = label.provisional
    return data


def view_json(table: ServedTable, seat: int | None, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seat's view without the history (the table's ``log`` holds it); a spectator's is the public view.

    ``public``: the public view's JSON, when a broadcast built it already; a seat's view is that
    plus the seat, its hand and its own entry of ``known`` emptied (``make_view``'s definition),
    which the leak test checks message by message.
    """
    state = table.match.state
    if seat is None or public is None:
        view = public_view(state, history=False) if seat is None else make_view(state, seat, history=False)
        data = view.to_json()
        del data["history"]
        return data
    known = list(public["known"])
    known[seat] = []
    return {**public, "seat": seat, "hand": [card_text(c) for c in state.hand(seat)], "known": known}


def legal_json(table: ServedTable, seat: int | None) -> tuple[list[str], bool, list[str], dict[str, str]]:
    """The seat's legal moves when it is to act (at most :data:`MAX_LEGAL`), whether more exist,
    the action words of them all (``draw``, ``meld``...: every one, even when the list is cut short),
    and for each other action word the engine's sentence why not (:func:`canasta.judge.unavailable_reason`)."""
    state = table.match.state
    if seat is None or state.is_over or state.to_act != seat:
        return [], False, [], {}
    legal = state.legal_moves()
    moves = [str(m) for m in islice(legal, MAX_LEGAL)]
    words = {spec[0] for spec in legal.specs}
    reasons = {word: unavailable_reason(state, seat, word) for word in ACTIONS if word not in words}
    return moves, len(legal) > MAX_LEGAL, [word for word in ACTIONS if word in words], reasons


def state_message(table: ServedTable, seat: int | None, public: TableJson | None = None,
                  public_view_json: dict[str, Any] | None = None) -> StateMessage:
    """The ``state`` message for one connection (``public``: the table's :func:`table_json`, and
    ``public_view_json`` the spectators' :func:`view_json`, when a broadcast built them for every connection)."""
    legal, more, actions, reasons = legal_json(table, seat)
    return {
        "type": "state",
        "state": table.state_id,
        "table": public if public is not None else table_json(table),
        "view": view_json(table, seat, public_view_json),
        "actions": actions,
        "reasons": reasons,
        "legal": legal,
        "legal_more": more,
        "elsewhere": elsewhere(table, seat),
        "drawn": drawn(table, seat),
    }


def drawn(table: ServedTable, seat: int | None) -> dict[str, list[str]]:
    """The cards new in the seat's hand from each of its draws and piles taken this hand, by the move's index
    in the log (as text): only its own, never another seat's (a spectator: none)."""
    if seat is None:
        return {}
    return {str(index): cards for index, (who, cards) in table.draws.items() if who == seat}


def elsewhere(table: ServedTable, seat: int | None) -> int:
    """How many other connections hold the same seat (0 for a spectator, who is shown no one)."""
    if seat is None:
        return 0
    return max(0, sum(1 for conn in table.connections if conn.seat == seat) - 1)
