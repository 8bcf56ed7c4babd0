"""compose.yaml running (scripts/container-compose.sh starts it and sets CANASTA_COMPOSE_URL): a table through Caddy.

Skipped otherwise. The script runs compose.yaml with podman-compose; where no registry answers, with stand-ins for
the official postgres and caddy images (tests/deploy/standins).
"""

from __future__ import annotations

import json
import os
import random
import ssl

import pytest

from .test_stack import Seat, Stack, play

URL = os.environ.get("CANASTA_COMPOSE_URL", "")
pytestmark = pytest.mark.skipif(not URL, reason="compose.yaml runs only under scripts/container-compose.sh")


@pytest.fixture(scope="module")
def site() -> Stack:
    tls = ssl.create_default_context(cafile=os.environ["CANASTA_COMPOSE_CA"])
    return Stack([], [], URL, 0, tls, [])


def test_the_site_is_ready_over_tls(site: Stack) -> None:
    status, body, _ = site.get("/readyz")
    assert status == 200 and json.loads(body) == {"ready": True, "draining": False, "listening": True}
    assert site.get("/metrics")[0] == 404


def test_a_table_played_through_the_proxy(site: Stack) -> None:
    created = site.post("/api/tables", {"preset": "two-player", "seats": [{"kind": "human"}] * 2})
    table, tokens = created["table"], [s["link"].split("#")[1] for s in created["seats"]]
    seats = [Seat(site, table, token) for token in tokens]
    acked: list[int] = []
    play(seats, 6, random.Random(34), acked)
    assert len(acked) == 6
    for seat in seats:
        seat.ws.close()
    with open(os.environ.get("CANASTA_COMPOSE_TABLE_FILE", os.devnull), "w") as out:
        out.write(json.dumps({"table": table, "tokens": tokens, "state": acked[-1]}))


def test_a_table_of_an_earlier_start_is_still_there(site: Stack) -> None:
    """After ``down`` and ``up`` again, new containers: the game was in the named volume, and goes on."""
    earlier = os.environ.get("CANASTA_COMPOSE_EARLIER", "")
    if not earlier:
        pytest.skip("the first start")
    table = json.loads(earlier)
    seats = [Seat(site, table["table"], token) for token in table["tokens"]]
    assert all(seat.latest is not None and seat.latest["state"] == table["state"] for seat in seats)
    acked: list[int] = []
    play(seats, 2, random.Random(35), acked)
    assert acked == [table["state"] + 1, table["state"] + 2]
    for seat in seats:
        seat.ws.close()
