"""Random JSON and query strings at every route and websocket message: always a named error, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")
pytest.importorskip("hypothesis")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta.rules import OPTION_NAMES, PRESETS
from canasta.web.app import create_app
from canasta.web.limits import Limits
from canasta.web.protocol import ERRORS

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
KEYS = st.sampled_from(["preset", "options", "target", "seats", "seed", "kind", "name", "names", "hands", "rules",
                        "entry", "side", "out", "type", "token", "move", "state", "id", *OPTION_NAMES])
SCALARS = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | \
    st.text(max_size=12) | st.sampled_from([*PRESETS, "human", "expert", "search:1s", "search:9999s", "draw", "next"])
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS | st.text(max_size=6),
                                                                                              inner, max_size=6),
                    max_leaves=30)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.sqlite3"
    limits = Limits(tables_burst=100_000, scores_burst=100_000, pdfs_burst=100_000, hints_burst=100_000,
                    messages_burst=100_000, requests_burst=1_000_000)
    with TestClient(create_app(str(db), bot_delay=0, limits=limits), raise_server_exceptions=False) as c:
        yield c


def named(answer: Any) -> None:
    assert answer.status_code < 500 or answer.json().get("error") in ("storage_unavailable",), answer.text
    assert "Traceback" not in answer.text and "Internal Server Error" not in answer.text
    if answer.status_code >= 400 and answer.headers.get("content-type", "").startswith("application/json"):
        assert isinstance(answer.json().get("error"), str)


@FUZZ
@given(body=JSON, path=st.sampled_from(["/api/tables", "/api/score", "/api/score/entry"]))
def test_random_json_bodies_get_named_answers(client: TestClient, body: Any, path: str) -> None:
    named(client.post(path, content=json.dumps(body), headers={"content-type": "application/json"}))


@FUZZ
@given(body=st.binary(max_size=200), path=st.sampled_from(["/api/tables", "/api/score", "/api/score/entry",
                                                           "/play"]))
def test_random_bytes_get_named_answers(client: TestClient, body: bytes, path: str) -> None:
    named(client.post(path, content=body, follow_redirects=False))


QUERY = st.lists(st.tuples(st.sampled_from(["paper", "sides", "set", "x", *OPTION_NAMES]),
                           st.text(max_size=20) | st.sampled_from(["preset=classic", "decks=9", "hand_size=99",
                                                                    "target=", "=", "a4", "3"])), max_size=4)


@FUZZ
@given(query=QUERY, preset=st.sampled_from([*PRESETS, "nope", "%0A"]),
       kind=st.sampled_from(["rules.pdf", "scoresheet.pdf", "x"]),
       page=st.sampled_from(["/", "/play", "/score", "/api/setup", "/api/health", "/api/score/setup", "/t/x"]))
def test_random_query_strings_get_named_answers(client: TestClient, query: list[tuple[str, str]], preset: str,
                                                kind: str, page: str) -> None:
    named(client.get(f"{page}?{urlencode(query)}"))
    answer = client.get(f"/sheets/{preset}/{kind}?{urlencode(query)}")
    assert answer.status_code < 500 or answer.status_code == 503, answer.text  # 503: no PDF library
    assert "Traceback" not in answer.text


@FUZZ
@given(messages=st.lists(JSON | st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "move", "next", "ready", "rematch", "chat", "leave", "back", "resolve",
                              "hint", "ping", "renew"])},
    optional={"text": SCALARS | st.text(max_size=320), "token": SCALARS, "state": SCALARS,
              "move": SCALARS, "id": SCALARS,
              "action": SCALARS | st.sampled_from(["meld", "pile", "discard", "draw", "ask", "yes", "no"]),
              "cards": SCALARS | st.lists(SCALARS | st.sampled_from(["KS", "JK", "2C", "3H", "XX"]), max_size=8)}),
    min_size=1, max_size=4),
    hello=st.booleans())
def test_random_websocket_messages_get_named_errors(client: TestClient, messages: list[Any], hello: bool) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": [{"kind": "human"}] * 2}).json()
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        if hello:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        for message in messages:
            ws.send_text(json.dumps(message))
        ws.send_json({"type": "ping", "id": "end"})
        while (reply := ws.receive_json()).get("id") != "end" or reply["type"] != "pong":
            if reply["type"] == "error":
                assert reply["error"] in ERRORS and reply["error"] != "server_error", reply
