"""No message a seat receives ever shows a card it could not see at a real table.

Random games are played over the websocket protocol with every human seat and a spectator
connected.  Each connection keeps its own replay of the match from the seed (an oracle the
server never shows), and every message it receives is checked two ways:

* the ``view`` equals the engine's view of that seat at that state (the spectator's: the
  public view, with no seat and no hand), ``legal`` equals the seat's legal moves and
  ``actions`` the action words of all of them;
* every card named anywhere in the message (view, log, legal moves, errors) is one the seat
  can see: its own hand, the pile, the melds, red threes, cards known from pile pickups, and
  cards played in the public log.  Never the stock, never another hand.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from canasta.cards import MELD_RANK_CHARS, NUM_CODES, RED_THREE_CODES, card_text
from canasta.judge import kind_groups, unavailable_reason
from canasta.match import Match
from canasta.moves import Move
from canasta.rules import Rules
from canasta.views import make_view, public_view
from canasta.web.app import create_app
from canasta.web.limits import Limits

ACTIONS = ("draw", "pile", "meld", "discard", "ask", "yes", "no")
CARD = re.compile(r"\b(?:[AKQJT98765432][SHDC]|JK)\b")
Message = dict[str, Any]


@dataclass
class Seat:
    """One connection and its private replay of the match."""

    seat: int | None
    ws: WebSocketTestSession
    oracle: Match
    latest: Message | None = None
    seen: int = 0
    checked: set[int] = field(default_factory=set)
    match: int = 1
    facts: list[dict[str, Any]] = field(default_factory=list)
    """The oracle's facts of each move of this hand (what ``table.log`` adds to the notation)."""
    draws: dict[int, tuple[int, list[str]]] = field(default_factory=dict)
    """The oracle's cards of each draw of this hand, by log index: (seat, cards)."""


def visible_cards(oracle: Match, seat: int | None) -> set[str]:
    """Every card the seat may see in the oracle's state, and cards in the public log."""
    state = oracle.state
    seen: set[int] = set(state.pile)
    for side in state.melds:
        for meld in side:
            if meld is not None:
                seen.update(meld)
    for reds in state.red_threes:
        seen.update(reds)
    for other in range(state.players):
        seen.update(c for c in range(NUM_CODES) if state.known[other][c])
    if seat is not None:
        seen.update(state.hand(seat))
    if state.is_over:  # the hand is over: every player turns up the cards left (views' hands_left)
        for other in range(state.players):
            seen.update(state.hand(other))
    texts = {card_text(c) for c in seen}
    for _, move in state.history:
        texts.update(CARD.findall(str(move)))
    return texts


def sync_oracle(conn: Seat, message: Message) -> None:
    """Bring the connection's replay to the state the message shows (each state arrives in order)."""
    table = message["table"]
    if table["match"] != conn.match:  # a rematch: the server's randomness gives the tests' seed again
        assert table["match"] == conn.match + 1 and table["hand"] == 1
        conn.match += 1
        conn.oracle = Match(conn.oracle.rules, conn.oracle.players, seed=conn.oracle.seed, deal=False)
    oracle = conn.oracle
    while len(oracle.hands) < table["hand"]:
        assert not oracle.hands or oracle.state.is_over, "a new hand was dealt before the last one ended"
        oracle.new_hand()
        conn.facts, conn.draws = [], {}
    log = table["log"]
    have = len(oracle.state.history)
    assert [str(m) for _, m in oracle.state.history] == [e["move"] for e in log[:have]], "the log was rewritten"
    for entry in log[have:]:
        assert entry["seat"] == oracle.state.to_act
        play_noting(conn, entry["move"])


def play_noting(conn: Seat, text: str) -> None:
    """Play a move on the oracle and keep what the log in words is told of it: a pile's size and top card
    before a take, the ranks of melds already on the table that the move added to, the red threes laid
    out (by the mover's side: the mover; else by the player whose turn began), the hand's end, and the cards a
    draw or a pile taken put in the mover's hand."""
    state = conn.oracle.state
    seat, pile, reds = state.to_act, list(state.pile), [len(r) for r in state.red_threes]
    sizes = [[len(m or ()) for m in side] for side in state.melds]
    hand = Counter(state.hand(seat))
    move = conn.oracle.play(text)
    side = state.side_of(seat)
    facts: dict[str, Any] = {}
    if move.action == "pile":
        facts |= {"took": len(pile), "top": card_text(pile[-1])}
    melded = [MELD_RANK_CHARS[r] for r, n in enumerate(sizes[side]) if not n and state.melds[side][r]]
    if melded and move.action in ("meld", "pile"):
        facts["melded"] = melded
    added = [MELD_RANK_CHARS[r] for r, n in enumerate(sizes[side]) if n and len(state.melds[side][r] or ()) > n]
    if added and move.action in ("meld", "pile"):
        facts["added"] = added
    laid = [{"seat": seat if other == side else state.turn,
             "cards": [card_text(c) for c in state.red_threes[other][n:]]}
            for other, n in enumerate(reds) if state.red_threes[other][n:]]
    if laid:
        facts["reds"] = laid
    if state.is_over:
        facts["hand_over"] = True
    conn.facts.append(facts)
    if move.action in ("draw", "pile"):
        drew = Counter(c for c in state.hand(seat) if c not in RED_THREE_CODES) - hand
        conn.draws[len(conn.facts) - 1] = (seat, sorted(card_text(c) for c in drew.elements()))


def check_message(conn: Seat, message: Message, sent: str = "") -> None:
    """The message holds nothing the seat may not see (``sent``: the move text it answers)."""
    allowed = visible_cards(conn.oracle, conn.seat) | set(CARD.findall(sent))
    named = set(CARD.findall(json.dumps(message)))
    assert named <= allowed, f"seat {conn.seat} was shown {sorted(named - allowed)} in {message['type']}"
    if message["type"] == "chat":  # public lines, each with its seat's name
        assert set(message) == {"type", "messages"}
        for line in message["messages"]:
            assert set(line) == {"seat", "name", "text", "at"} and line["text"] in CHAT_LINES
    if message["type"] != "state":
        return
    table = message["table"]
    assert set(table["ready"]) <= {p["seat"] for p in table["players"] if p["kind"] == "human"}
    assert all(isinstance(p["computer"], bool) and isinstance(p["away"], bool) for p in table["players"])
    assert all(p["computer"] for p in table["players"] if p["away"])
    assert isinstance(table["away_minutes"], float) and isinstance(table["turn_seconds"], float)
    left = table["turn_left"]
    assert left is None or (table["turn_seconds"] > 0 and 0 <= left <= table["turn_seconds"])
    state = conn.oracle.state
    view = message["view"]
    if conn.seat is None:
        expected = public_view(state).to_json()
        assert view["seat"] is None and view["hand"] == []
        assert view["known"] == [[card_text(c) for c in range(NUM_CODES) for _ in range(state.known[s][c])]
                                 for s in range(state.players)]
    else:
        expected = make_view(state, conn.seat).to_json()
    assert expected.pop("history") == [[seat, str(move)] for seat, move in state.history]
    assert view == expected
    # The new public facts are there for everybody: each canasta's kind, the blocked pile, the sheet.
    assert len(view["canastas"]) == state.sides and isinstance(view["pile_blocked"], bool)
    assert (view["result"] is None) == (state.result is None)
    if view["result"] is not None:
        assert [row["label"] for row in view["result"]["sheet"]][-1] == "Hand total"
    to_act = not (conn.seat is None or state.is_over or state.to_act != conn.seat)
    legal = [str(m) for m in state.legal_moves()] if to_act else []
    assert message["legal"] == legal[:400]
    assert message["actions"] == [w for w in ACTIONS if w in {m.split()[0] for m in legal}]
    # Each action word not offered carries the engine's sentence, for the seat to act only.
    expected_reasons = ({w: unavailable_reason(state, conn.seat, w) for w in ACTIONS if w not in message["actions"]}
                        if to_act and conn.seat is not None else {})
    assert message["reasons"] == expected_reasons
    assert table["dealt"] == conn.oracle.dealt.to_json()
    assert set(message) == {"type", "state", "table", "view", "actions", "reasons", "legal", "legal_more",
                            "elsewhere", "drawn"}
    # The log's facts (a pile's size and top, melds added to, red threes) are the public ones of each move;
    # the cards drawn go to the seat that drew them only.
    assert [{k: v for k, v in e.items() if k not in ("seat", "move")} for e in table["log"]] == conn.facts
    assert {index: sorted(cards) for index, cards in message["drawn"].items()} == {
        str(index): cards for index, (seat, cards) in conn.draws.items() if seat == conn.seat}
    # other connections on this seat only: a count, never a card, and nothing about other seats
    assert isinstance(message["elsewhere"], int) and message["elsewhere"] >= 0
    if conn.seat is None:
        assert message["elsewhere"] == 0


def receive(conn: Seat, sent: str = "") -> Message:
    message: Message = conn.ws.receive_json()
    conn.seen += 1
    if message["type"] == "state":
        sync_oracle(conn, message)
        conn.latest = message
    check_message(conn, message, sent)
    return message


def read_until_state(conn: Seat, state_id: int) -> Message:
    while conn.latest is None or conn.latest["state"] < state_id:
        receive(conn)
    assert conn.latest["state"] == state_id
    return conn.latest


def waiting_for_human(message: Message, humans: set[int]) -> bool:
    table = message["table"]
    if table["status"] != "playing":
        return True
    to_act = message["view"]["to_act"]
    return to_act in humans and not table["players"][to_act]["computer"]


CHAT_LINES = ("hello all", "nice one!", "<b>not bold</b> & <script>x</script>", "well played", "brb")
"""What the tests' players write (no card names, so any card in a chat message would be a leak)."""


def chat_check(conns: dict[int | None, Seat], rng: random.Random) -> None:
    """Someone writes a line: a seat's line reaches every connection (names from the seat); a spectator's is
    refused."""
    writer = conns[rng.choice(list(conns))]
    text = rng.choice(CHAT_LINES)
    writer.ws.send_json({"type": "chat", "text": text, "id": "c"})
    while (reply := receive(writer))["type"] not in ("ack", "error"):
        assert reply["type"] in ("state", "chat")
    if writer.seat is None:
        assert reply["error"] == "not_your_turn"
        return
    assert reply["type"] == "ack" and reply["move"] == "chat"
    for conn in conns.values():
        while (message := receive(conn))["type"] != "chat" or message["messages"][-1]["text"] != text:
            pass
        assert message["messages"][-1]["seat"] == writer.seat


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = Path(tmp_path_factory.mktemp("leaks")) / "leaks.sqlite3"
    # these games ask, write and send far faster than a person
    limits = Limits(messages_burst=10**6, resolves_burst=10**6, work_burst=10**6, chats_burst=10**6,
                    chats_per_address_burst=10**6)
    with TestClient(create_app(str(db), bot_delay=0, clock=0.05, limits=limits)) as c:
        yield c


def play_table(client: TestClient, rules: Rules, kinds: list[str], seed: int, moves: int) -> Message:
    """Play random legal moves at one table, every message checked; returns the last state seen.

    No player may choose the seed of a table of several people: the server's own randomness
    gives it ``seed`` here, so that the oracles can replay the deals.
    """
    client.app.state.service.new_seed = lambda: seed  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={"preset": rules.preset, "options": {"target": rules.target},
                                               "seats": [{"kind": k} for k in kinds]})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tid = created["table"]
    humans = {s["seat"] for s in created["seats"] if s["kind"] == "human"}
    rng = random.Random(seed)
    tokens = {s["seat"]: s["link"].split("#")[1] for s in created["seats"] if s["link"]}
    tokens[None] = created["spectator"]["link"].split("#")[1]
    conns: dict[int | None, Seat] = {}
    contexts = []
    try:
        for seat, token in tokens.items():
            cm = client.websocket_connect(f"/ws/{tid}")
            ws = cm.__enter__()
            contexts.append(cm)
            conn = Seat(seat, ws, Match(rules, [f"P{i}" for i in range(rules.players)], seed=seed, deal=False))
            conns[seat] = conn
            ws.send_json({"type": "hello", "token": token})
            welcome = receive(conn)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat
        anchor = conns[min(humans)]
        current = anchor.latest or receive(anchor)
        while not waiting_for_human(current, humans):
            current = receive(anchor)
        played = 0
        readied: set[tuple[int, int]] = set()
        while played < moves and current["table"]["status"] != "over":
            sid = current["state"]
            for conn in conns.values():
                read_until_state(conn, sid)
            if rng.random() < 0.02:
                chat_check(conns, rng)
            if current["table"]["status"] == "hand_over":
                # Everybody dismisses the result: the last ``ready`` deals (``next`` is its old name).
                seat = min(h for h in humans if (current["table"]["hand"], h) not in readied)
                readied.add((current["table"]["hand"], seat))
                actor, text, kind = conns[seat], "", rng.choice(["ready", "next"])
            else:
                actor = conns[current["view"]["to_act"]]
                assert actor.latest is not None
                kind = "move"
                if rng.random() < 0.05:  # a forged move (someone else's card, nonsense); it may happen to be legal
                    text = rng.choice(["discard " + card_text(rng.randrange(NUM_CODES)), "meld KS KS KS KS", "pile",
                                       "fly"])
                else:
                    text = rng.choice(actor.latest["legal"])
            if kind == "move" and text in actor.latest["legal"] and text.split()[0] in ("meld", "pile", "discard") \
                    and rng.random() < 0.3:
                resolve_check(actor, text, sid)
            if kind == "move" and rng.random() < 0.1:  # somebody not to act asks: refused, nothing shown
                other = conns[rng.choice([s for s in conns if s != actor.seat])]
                other.ws.send_json({"type": "resolve", "cards": ["KS"], "action": "meld", "state": sid, "id": "r"})
                while (reply := receive(other))["type"] != "error":
                    assert reply["type"] == "state"
                assert reply["error"] == "not_your_turn"
            message = {"type": kind, "state": sid, "id": played}
            if kind == "move":
                message["move"] = text
            actor.ws.send_json(message)
            while (reply := receive(actor, sent=text))["type"] not in ("ack", "error"):
                assert reply["type"] == "state", reply
            if reply["type"] == "error":
                assert reply["error"] in ("bad_move", "illegal_move") and text not in actor.latest["legal"]
                continue
            played += 1
            current = actor.latest
            while current is None or current["state"] < reply["state"] or not waiting_for_human(current, humans):
                current = receive(actor)
        return current
    finally:
        for cm in reversed(contexts):
            cm.__exit__(None, None, None)


def resolve_check(actor: Seat, text: str, sid: int) -> None:
    """The seat to act selects the cards of a legal move: the engine's answer holds that move,
    goes to this connection only and names only cards of the seat's hand (checked by ``receive``)."""
    move = Move.parse(text)
    actor.ws.send_json({"type": "resolve", "cards": CARD.findall(text), "action": move.action, "state": sid,
                        "id": "r"})
    while (reply := receive(actor))["type"] != "moves":
        assert reply["type"] == "state", reply
    assert reply["id"] == "r" and reply["action"] == move.action and reply["state"] == sid
    answers = [Move.parse(m) for m in reply["moves"]]
    assert any(a.action == move.action and kind_groups(a.groups) == kind_groups(move.groups) and a.card == move.card
               for a in answers), (text, reply)


@pytest.mark.parametrize(
    ("preset", "kinds", "seed"),
    [
        ("classic", ["human"] * 4, 1),
        ("classic", ["human", "basic", "human", "expert"], 2),
        ("classic", ["human", "random", "random", "random"], 3),
        ("two-player", ["human", "human"], 4),
        ("three-player", ["human", "human", "basic"], 5),
        ("five-player", ["human"] * 5, 6),
        ("six-player", ["human", "basic"] * 3, 7),
    ],
)
def test_random_games_never_show_a_seat_a_card_it_cannot_see(client: TestClient, preset: str, kinds: list[str],
                                                             seed: int) -> None:
    rules = Rules.from_preset(preset, target=2000)
    last = play_table(client, rules, kinds, seed, moves=400)
    assert last["state"] >= 400 or last["table"]["status"] == "over"
    assert last["table"]["hand"] >= 2 or last["table"]["status"] == "over"


def test_renewing_a_link_and_a_second_connection_show_no_card(client: TestClient) -> None:
    """``elsewhere`` and ``renewed`` go to the seat's own connections only, and name no card."""
    rules = Rules.from_preset("two-player")
    client.app.state.service.new_seed = lambda: 9  # type: ignore[attr-defined]
    created = client.post("/api/tables", json={"preset": "two-player", "seats": [{"kind": "human"}] * 2}).json()
    tid = created["table"]
    token0 = created["seats"][0]["token"]
    spectator = created["spectator"]["token"]
    opened = []
    try:
        conns = []
        for seat, token in ((0, token0), (0, token0), (1, created["seats"][1]["token"]), (None, spectator)):
            cm = client.websocket_connect(f"/ws/{tid}")
            ws = cm.__enter__()
            opened.append(cm)
            conn = Seat(seat, ws, Match(rules, ["P0", "P1"], seed=9, deal=False))
            ws.send_json({"type": "hello", "token": token})
            while (message := receive(conn))["type"] != "state":
                pass
            conns.append(conn)
        first, second, other, watcher = conns
        while (message := receive(first))["type"] != "state" or message["elsewhere"] != 1:
            pass
        first.ws.send_json({"type": "renew", "id": 1})
        while (message := receive(first))["type"] != "renewed":
            pass
        assert set(message) == {"type", "token", "link", "id"} and message["token"] != token0
        while (message := receive(second))["type"] != "error":
            pass
        assert message["error"] == "bad_token"
        for conn in (other, watcher):
            conn.ws.send_json({"type": "ping", "id": "p"})
            while (message := receive(conn))["type"] != "pong":
                assert message["type"] == "state" and (conn.seat is None or message["elsewhere"] == 0)
    finally:
        for cm in reversed(opened):
            cm.__exit__(None, None, None)


def test_seats_left_to_the_computer_a_rematch_and_chat_show_no_card(client: TestClient) -> None:
    """Both people leave their seats to the computer (an expert plays each to the match end), take them
    back, and ask for a rematch: the new match deals from the server's randomness at the same seats.
    Every message each connection gets on the way is checked."""
    rules = Rules.from_preset("two-player", target=1000)
    service = client.app.state.service  # type: ignore[attr-defined]
    service.new_seed = lambda: 21
    delay = service.bot_delay
    service.bot_delay = 0.01  # the tests read every message: no faster than they can
    created = client.post("/api/tables", json={"preset": "two-player", "options": {"target": 1000},
                                               "seats": [{"kind": "human", "name": "Ann"},
                                                         {"kind": "human", "name": "Bob"}]}).json()
    tid = created["table"]
    opened = []
    try:
        conns: dict[int | None, Seat] = {}
        tokens = {0: created["seats"][0]["token"], 1: created["seats"][1]["token"], None: created["spectator"]["token"]}
        for seat, token in tokens.items():
            cm = client.websocket_connect(f"/ws/{tid}")
            ws = cm.__enter__()
            opened.append(cm)
            conns[seat] = Seat(seat, ws, Match(rules, ["P0", "P1"], seed=21, deal=False))
            ws.send_json({"type": "hello", "token": token})
            while receive(conns[seat])["type"] != "state":
                pass
        chat_check(conns, random.Random(4))
        for seat in (0, 1):
            conns[seat].ws.send_json({"type": "leave", "id": "l"})
            while (reply := receive(conns[seat]))["type"] != "ack":
                assert reply["type"] in ("state", "chat")
            assert reply["move"] == "leave"
        watcher = conns[None]
        while watcher.latest is None or watcher.latest["table"]["status"] != "over":
            receive(watcher)
        assert all(p["computer"] for p in watcher.latest["table"]["players"])
        final = watcher.latest["state"]
        for conn in conns.values():
            read_until_state(conn, final)
        # A rematch waits for every person at the table; the first to ask is told who is awaited.
        for seat in (0, 1):
            conns[seat].ws.send_json({"type": "back", "id": "b"})
            while (reply := receive(conns[seat]))["type"] != "ack":
                pass
            assert reply["move"] == "back"
        conns[0].ws.send_json({"type": "ready", "state": final, "id": "r"})
        while (reply := receive(conns[0]))["type"] != "error":
            pass
        assert reply["error"] == "table_over"
        conns[0].ws.send_json({"type": "rematch", "id": "m"})
        while (reply := receive(conns[0]))["type"] != "ack":
            pass
        assert reply["state"] == final
        while (message := receive(watcher))["type"] != "state" or message["table"]["ready"] != [0]:
            pass
        assert message["table"]["waiting"] == [1] and message["table"]["status"] == "over"
        conns[None].ws.send_json({"type": "rematch", "id": "m"})
        while (reply := receive(watcher))["type"] != "error":
            pass
        assert reply["error"] == "not_your_turn"
        conns[1].ws.send_json({"type": "rematch", "id": "m"})
        while (reply := receive(conns[1]))["type"] != "ack":
            pass
        assert reply["state"] == final + 2  # the rematch and the new deal
        for conn in conns.values():
            message = read_until_state(conn, final + 2)
            assert message["table"]["match"] == 2 and message["table"]["hand"] == 1
            assert message["table"]["status"] == "playing" and message["table"]["results"] == []
            assert message["table"]["ready"] == [] and "seed" not in message["table"]
    finally:
        service.bot_delay = delay
        for cm in reversed(opened):
            cm.__exit__(None, None, None)


def test_a_seat_away_and_a_turn_timer_show_no_card(client: TestClient) -> None:
    """Bob never comes: once his turn waits on him an expert takes his seat (``away``); Ann never moves:
    her time runs out each turn and the expert plays it for her.  Then Bob comes and his seat is his again."""
    rules = Rules.from_preset("two-player", target=1000)
    client.app.state.service.new_seed = lambda: 31  # type: ignore[attr-defined]
    created = client.post("/api/tables", json={
        "preset": "two-player", "options": {"target": 1000}, "turn_seconds": 0.1, "away_minutes": 0.005,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}).json()
    assert created["turn_seconds"] == 0.1 and created["away_minutes"] == 0.005
    tid = created["table"]
    opened = []
    try:
        conns: dict[int | None, Seat] = {}
        for seat, token in ((0, created["seats"][0]["token"]), (None, created["spectator"]["token"])):
            cm = client.websocket_connect(f"/ws/{tid}")
            opened.append(cm)
            conns[seat] = Seat(seat, cm.__enter__(), Match(rules, ["P0", "P1"], seed=31, deal=False))
            conns[seat].ws.send_json({"type": "hello", "token": token})
        ann, watcher = conns[0], conns[None]
        timed = False
        while True:
            message = receive(watcher)
            if message["type"] != "state":
                continue
            table = message["table"]
            timed = timed or (table["turn_left"] is not None and table["log"] and table["log"][-1]["seat"] == 0)
            if table["players"][1]["away"] and timed and message["state"] >= 8:
                break
        cm = client.websocket_connect(f"/ws/{tid}")
        opened.append(cm)
        bob = Seat(1, cm.__enter__(), Match(rules, ["P0", "P1"], seed=31, deal=False))
        bob.ws.send_json({"type": "hello", "token": created["seats"][1]["token"]})
        while (message := receive(bob))["type"] != "state":
            pass
        assert not message["table"]["players"][1]["away"] and not message["table"]["players"][1]["computer"]
        while (message := receive(ann))["type"] != "state" or message["table"]["players"][1]["away"]:
            pass
    finally:
        for cm in reversed(opened):
            cm.__exit__(None, None, None)
