"""One seed, one match: the same deals and the same computer players' moves everywhere.

``canasta play --plain``, the full-screen table's session, the web server's table, the arena
and :class:`~canasta.match.Match` driven by hand with ``deal_deck``/``bot_random`` all play
the same match for one seed (four ``basic`` players: every move is a computer player's).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.bots.arena import play_deal
from canasta.match import Match, bot_random
from canasta.rules import Rules
from canasta.tui.plain import play_in_terminal
from canasta.tui.session import Session

SEED = 31
KIND = "basic"
RULES = Rules.from_preset("classic", target=1500)
Hands = list[dict[str, Any]]


def by_hand(hands: Hands) -> Hands:
    return [{"dealer": h["dealer"], "deck": h["deck"], "moves": h["moves"]} for h in hands]


@pytest.fixture(scope="module")
def reference() -> Hands:
    """The match by the written scheme: hand ``i`` from ``deal_deck``, seat ``k``'s bot from ``bot_random``."""
    match = Match(RULES, seed=SEED)
    while True:
        number = len(match.hands) - 1
        bots = {seat: make_bot(KIND, bot_random(SEED, number, seat)) for seat in range(RULES.players)}
        state = match.state
        while not state.is_over:
            match.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
        if match.is_over:
            break
        match.new_hand()
    assert len(match.hands) >= 2  # the test covers the next deals too
    return by_hand(match.to_record()["hands"])


def test_the_plain_terminal(reference: Hands) -> None:
    lines: list[str] = []
    session = Session.new(RULES, [KIND] * 4, SEED)  # what ``canasta play --plain --seed`` plays
    assert play_in_terminal(RULES, None, SEED, read=lambda prompt: "", write=lines.append, session=session) == 0
    assert by_hand(session.match.to_record()["hands"]) == reference
    told = [line for line in lines if line.startswith("  ")]  # its log, in words: one line a move at least
    assert len(told) >= sum(len(hand["moves"]) for hand in reference)


def test_the_full_screen_tables_session(reference: Hands) -> None:
    session = Session.new(RULES, [KIND] * 4, SEED)
    while True:
        session.table.run_bots()
        if session.match.is_over:
            break
        session.deal_next()
    assert by_hand(session.to_record()["hands"]) == reference


def test_the_web_servers_table(reference: Hands, tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the web extra")
    from canasta.web.service import TableService
    from canasta.web.storage import AsyncStorage, open_storage

    async def play() -> Hands:
        service = TableService(AsyncStorage(open_storage(str(tmp_path / "one.sqlite3"))), bot_delay=0)
        try:
            created = await service.create({"preset": "classic", "target": RULES.target,
                                            "seats": [{"kind": KIND}] * 4, "seed": SEED})
            table = service.tables[created["table"]]
            for _ in range(2000):  # the server deals each next hand of a table of computer players
                if table.match.is_over:
                    break
                await asyncio.sleep(0.01)
            return by_hand(table.match.to_record()["hands"])
        finally:
            await service.close()
            await service.storage.close()

    assert asyncio.run(play()) == reference


def test_the_arena(reference: Hands) -> None:
    """Deal 0 of the arena is the match's first hand, in both replays (partners and opponents seeded by seat)."""
    first = Match.from_record({"rules": RULES.to_json(), "hands": [reference[0]]})
    result = first.results[0]
    for hand in play_deal(KIND, KIND, RULES, SEED, 0):
        assert hand.totals == result.totals and hand.decisions == len(reference[0]["moves"])
