"""How the fixtures in this folder were made, with the code of commit ed11542 (before ``canasta.play``).

Run at that commit (``PYTHONPATH=src python tests/play/data/make_fixtures.py``); at later commits it
writes other files, which is the point: the files hold what the old code did.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from canasta.bots import make_bot
from canasta.match import Match
from canasta.rules import Rules
from canasta.tui.session import Session
from canasta.web.service import Table
from canasta.web.storage import Event

HERE = Path(__file__).resolve().parent


def bot_play(state, rng: random.Random, moves: int | None = None) -> None:  # type: ignore[no-untyped-def]
    bot = make_bot("basic", rng)
    done = 0
    while not state.is_over and (moves is None or done < moves):
        yield bot.choose(state.view(state.to_act), list(state.legal_moves()))
        done += 1


def write(name: str, data: object) -> None:
    (HERE / name).write_text(json.dumps(data, indent=1) + "\n")


def tui_save() -> None:
    """A TUI save file in the third hand (seat 0 a person, moved here by a basic bot)."""
    session = Session.new(Rules.from_preset("classic", target=5000), ["you:Ann", "basic", "expert", "basic"], seed=11)
    rng = random.Random(1)
    for hand in range(3):
        for move in bot_play(session.state, rng, 25 if hand == 2 else None):
            session.play(move if session.state.to_act == 0 else session.bot_choice())
        if hand < 2:
            session.deal_next()
    session.save(str(HERE / "tui_save_ed11542.canasta.json"))
    # what the old code did next: finish the hand with bots and deal the fourth
    for move in bot_play(session.state, rng):
        session.play(move)
    session.deal_next()
    write("tui_save_ed11542.expected.json", {"next_deck": session.match.hands[-1]["deck"],
                                            "names": session.names, "seats": session.seats})


def match_record() -> None:
    """A ``Match`` record with a seed, in its third hand, and the deck the match deals next."""
    match = Match(Rules.from_preset("classic", target=5000), ["Ann", "Bob", "Cat", "Dan"], seed=5)
    rng = random.Random(2)
    for hand in range(3):
        for move in bot_play(match.state, rng, 30 if hand == 2 else None):
            match.play(move)
        if hand < 2:
            match.new_hand()
    write("match_record_ed11542.json", match.to_record())
    for move in bot_play(match.state, rng):
        match.play(move)
    match.new_hand()
    write("match_record_ed11542.expected.json", {"next_deck": match.hands[-1]["deck"]})


def web_table() -> None:
    """A web table as storage holds it (spec and events, decks never stored) and the decks it dealt."""
    spec = {"rules": Rules.from_preset("classic", target=5000).to_json(),
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "basic", "name": "Basic 2"},
                      {"kind": "human", "name": "Cat"}, {"kind": "basic", "name": "Basic 4"}],
            "seed": 424242, "created": 1.0}
    table = Table("fixture", spec)
    events = []

    def apply(kind: str, seat: int | None, text: str) -> None:
        event = Event(table.state_id, kind, seat, text, 2.0)
        table.apply(event)
        events.append({"seq": event.seq, "kind": kind, "seat": seat, "text": text})

    rng = random.Random(3)
    apply("deal", None, "")
    for hand in range(3):
        for move in bot_play(table.match.state, rng, 20 if hand == 2 else None):
            apply("move", table.match.state.to_act, str(move))
        if hand < 2:
            apply("deal", None, "")
    write("web_table_ed11542.json", {"spec": spec, "events": events,
                                     "decks": [h["deck"] for h in table.match.hands]})


if __name__ == "__main__":
    tui_save()
    match_record()
    web_table()
