"""Playing with friends (issue 14, points 3 and 7): ready, rematch, chat and seats left to the computer
are events in storage, so a server started again on the same database replays them."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from canasta.bots import make_bot
from canasta.web.protocol import ProtocolError, state_message
from canasta.web.served import ServedTable
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, open_storage


class Conn:
    """A connection that keeps what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def snapshot(table: ServedTable) -> tuple[object, ...]:
    return (table.seq, table.state_id, table.matches, table.seed, sorted(table.driver.stand_ins), sorted(table.ready),
            list(table.chat), state_message(table, 0)["view"], table.match.scores, len(table.match.hands))


async def until(predicate: object, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def test_ready_waits_for_every_person_and_counts_the_absent_as_ready(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        svc.new_seed = lambda: 8
        created = await svc.create({"preset": "two-player", "seats": [{"kind": "human"}, {"kind": "human"}]})
        table = await svc.get(created["table"])
        assert table is not None
        ann, bob = Conn(0), Conn(1)
        table.connections |= {ann, bob}
        with pytest.raises(ProtocolError) as refused:
            await svc.ready(table, 0, table.state_id)
        assert refused.value.name == "not_your_turn"  # the hand goes on
        await svc.hand_over(table, 1, True)  # an expert plays Bob's seat; Ann plays as one too
        mine = make_bot("expert", random.Random(1))
        svc.changed(table)
        while table.status == "playing":
            state = table.match.state
            if state.to_act == 0:
                await svc.submit(table, 0, str(mine.choose(state.view(0), list(state.legal_moves()))), table.state_id)
                svc.changed(table)  # as the app does after each move: the computer players go on
            await asyncio.sleep(0.005)
        await svc.hand_over(table, 1, False)
        assert table.status == "hand_over"
        sid = table.state_id
        assert await svc.ready(table, 0, sid) == (sid, "ready")
        assert table.waiting() == [1] and table.status == "hand_over"
        assert await svc.ready(table, 0, sid) == (sid, "ready")  # again: nothing new
        table.connections.discard(bob)  # Bob goes away: he counts as ready, and the hand is dealt
        await svc.settle(table)
        assert table.status == "playing" and table.state_id == sid + 1 and not table.ready
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_restart_replays_chat_seats_left_and_a_rematch(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        seeds = iter([3, 77])
        svc.new_seed = lambda: next(seeds)
        created = await svc.create({"preset": "two-player", "options": {"target": 1000},
                                    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
        tid = created["table"]
        table = await svc.get(tid)
        assert table is not None
        await svc.say(table, 0, "good luck")
        with pytest.raises(ProtocolError):
            await svc.say(table, None, "spectators read")
        with pytest.raises(ProtocolError) as early:
            await svc.rematch(table, 0)
        assert early.value.name == "not_your_turn"
        for seat in (0, 1):
            await svc.hand_over(table, seat, True)
        with pytest.raises(ProtocolError) as left:
            await svc.submit(table, 0, "draw", table.state_id)
        assert left.value.name == "not_your_turn"
        svc.changed(table)
        await until(lambda: table.match.is_over)  # two experts play the match through
        await svc.close()
        await svc.hand_over(table, 0, False)
        await svc.say(table, 1, "gg")
        before = table.state_id
        assert await svc.rematch(table, 0) == (before + 2, "rematch")  # nobody connected: nobody to wait for
        assert table.matches == 2 and table.seed == 77 and table.driver.stand_ins == {1}
        assert len(table.match.hands) == 1 and table.match.scores == [0, 0]
        assert await storage.table_ids("playing") == [tid]
        again = TableService(storage, bot_delay=0)
        replayed = await again.get(tid)
        assert replayed is not None and snapshot(replayed) == snapshot(table)
        assert [line["text"] for line in replayed.chat] == ["good luck", "gg"]
        assert replayed.chat[1]["name"] == "Bob"
        await again.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_person_away_too_long_is_played_by_an_expert_until_they_come_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        svc.new_seed = lambda: 5
        people = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        for body, away in (({"preset": "two-player", "seats": people}, 5.0),
                           ({"preset": "two-player"}, 0.0),  # one person: nobody else waits
                           ({"preset": "two-player", "seats": people, "away_minutes": 0.5}, 0.5)):
            assert (await svc.create(body))["away_minutes"] == away
        for wrong in (-1, "5", True, 10**6):
            with pytest.raises(ValueError, match="away_minutes"):
                await svc.create({"preset": "two-player", "seats": people, "away_minutes": wrong})
        created = await svc.create({"preset": "two-player", "seats": people, "away_minutes": 0.002})  # 0.12 s
        tid = created["table"]
        table = await svc.get(tid)
        assert table is not None
        to_act = table.match.state.to_act
        here = Conn(1 - to_act)
        table.connections.add(here)
        table.connection_changed(here.seat)
        assert await svc.tick() == 0  # not away long enough yet
        await asyncio.sleep(0.15)
        assert await svc.tick() == 1
        assert table.away == {to_act} and to_act in table.driver.stand_ins
        assert state_message(table, here.seat)["table"]["players"][to_act]["away"] is True
        await until(lambda: table.match.state.to_act != to_act or table.status != "playing")  # the expert moved
        again = TableService(storage, bot_delay=0)  # a restart keeps the seat with the expert
        replayed = await again.get(tid)
        assert replayed is not None and replayed.away == {to_act} and to_act in replayed.driver.stand_ins
        await again.close()
        await svc.come_back(table, to_act)  # what a hello from the seat does
        assert not table.away and to_act not in table.driver.stand_ins
        await svc.come_back(table, here.seat)  # nothing to take back: nothing stored
        seq = table.seq
        await svc.hand_over(table, here.seat, True)  # a seat left on purpose stays left on a hello
        await svc.come_back(table, here.seat)
        assert table.seq == seq + 1 and here.seat in table.driver.stand_ins
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_turn_timer_lets_the_expert_play_the_turn_of_a_slow_person(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        svc.new_seed = lambda: 5
        with pytest.raises(ValueError, match="turn_seconds"):
            await svc.create({"preset": "two-player", "turn_seconds": -2})
        assert (await svc.create({"preset": "two-player"}))["turn_seconds"] == 0
        created = await svc.create({"preset": "two-player", "turn_seconds": 0.2,
                                    "seats": [{"kind": "human"}, {"kind": "expert"}]})
        table = await svc.get(created["table"])
        assert table is not None
        me = Conn(0)
        table.connections.add(me)
        table.connection_changed(0)
        svc.changed(table)
        await until(lambda: table.person_to_act() == 0)
        left = state_message(table, 0)["table"]["turn_left"]
        assert isinstance(left, float) and 0 < left <= 0.2
        hand, before = len(table.match.hands), table.state_id
        assert await svc.tick() == 0
        await asyncio.sleep(0.25)
        assert state_message(table, 0)["table"]["turn_left"] == 0
        assert await svc.tick() == 1
        assert table.state_id > before  # the expert's moves, stored as moves of seat 0
        assert table.match.state.to_act != 0 or len(table.match.hands) != hand or table.status != "playing"
        assert not table.driver.stand_ins  # for that turn only
        events = await storage.events(table.id, 0)
        assert [e.kind for e in events[before + 0:]][:1] == ["move"] and events[before].seat == 0
        await until(lambda: table.person_to_act() == 0 or table.status != "playing")
        if table.status == "playing":
            assert 0.1 < (table.turn_left() or 0) <= 0.2  # a new turn, a new count
        await svc.close()
        await storage.close()

    asyncio.run(scenario())
