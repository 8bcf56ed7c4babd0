"""Operating a server process: /healthz, /readyz, /metrics, request ids, JSON logs, draining (docs/deploy.md)."""

from __future__ import annotations

import json
import logging
import logging.config
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")
pytest.importorskip("prometheus_client", reason="metrics need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from canasta.web.app import create_app
from canasta.web.logs import JsonFormatter, log_config, request_id, table_id

Message = dict[str, Any]


def until(ws: WebSocketTestSession, kinds: tuple[str, ...]) -> Message:
    while True:
        message: Message = ws.receive_json()
        if message["type"] in kinds:
            return message


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The scraped page as {(sample name, labels): value}, read with the client library's own parser."""
    page = client.get("/metrics")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(page.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_health_and_readiness(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)) as client:
        assert client.get("/healthz").json() == {"ok": True}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["ready"] is True
        assert ready.json()["listening"] is None  # SQLite: nothing to listen to
        assert client.get("/api/health").json()["ok"] is True  # the old one stays
        client.app.state.service.storage.storage.close()  # type: ignore[attr-defined]  # the database goes away
        down = client.get("/readyz")
        assert down.status_code == 503 and down.json()["ready"] is False and down.json()["storage"]
        assert client.get("/healthz").status_code == 200  # alive all the same


def test_metrics_count_tables_connections_moves_acks_and_errors(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)) as client:
        before = samples(client)
        assert before[("canasta_tables", ())] == 0 and before[("canasta_connections", ())] == 0
        assert before[("canasta_moves_total", ())] == 0 and ("canasta_cpu_pool_queue", ()) in before
        created = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        token = created["seats"][1]["link"].split("#")[1]
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = until(ws, ("state",))
            ws.send_json({"type": "move", "move": "draw", "state": state["state"]})
            assert until(ws, ("ack", "error"))["type"] == "ack"
            ws.send_json({"type": "move", "move": "draw", "state": state["state"]})  # stale now
            assert until(ws, ("ack", "error"))["error"] == "stale_state"
            ws.send_json({"type": "move", "move": "meld ZZ", "state": state["state"] + 1})
            assert until(ws, ("ack", "error"))["error"] == "bad_move"
            during = samples(client)
        after = samples(client)
    assert during[("canasta_tables", ())] == 1 and during[("canasta_connections", ())] == 1
    assert after[("canasta_connections", ())] == 0
    assert after[("canasta_moves_total", ())] == 1  # the draw (a new table's first deal is no move)
    assert after[("canasta_ack_seconds_count", (("kind", "move"),))] == 1
    assert after[("canasta_ack_seconds_bucket", (("kind", "move"), ("le", "+Inf")))] == 1
    assert 0 < after[("canasta_ack_seconds_sum", (("kind", "move"),))] < 5
    assert after[("canasta_errors_total", (("name", "stale_state"),))] == 1
    assert after[("canasta_errors_total", (("name", "bad_move"),))] == 1


def test_every_answer_names_its_request(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), bot_delay=0)) as client:
        assert client.get("/healthz", headers={"X-Request-ID": "lb-1234"}).headers["x-request-id"] == "lb-1234"
        made = client.get("/healthz", headers={"X-Request-ID": "not a plain\ttoken"}).headers["x-request-id"]
        assert len(made) == 16 and made != client.get("/healthz").headers["x-request-id"]


def test_json_log_lines_name_their_table_and_request() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord("canasta.web", logging.WARNING, "", 0, "table %s: storage failed (%s)",
                               ("AbC-9", "OperationalError"), None)
    line = json.loads(formatter.format(record))
    assert line["level"] == "warning" and line["table"] == "AbC-9" and "request" not in line
    assert line["message"] == "table AbC-9: storage failed (OperationalError)" and line["time"].endswith("Z")
    tokens = table_id.set("T1"), request_id.set("R1")
    try:
        line = json.loads(formatter.format(logging.LogRecord("uvicorn", logging.INFO, "", 0, "hi", (), None)))
    finally:
        table_id.reset(tokens[0])
        request_id.reset(tokens[1])
    assert (line["table"], line["request"], line["logger"]) == ("T1", "R1", "uvicorn")
    config = log_config("json")  # what uvicorn's dictConfig makes of it
    assert isinstance(logging.config.DictConfigurator(config).configure_formatter(config["formatters"]["main"]),
                      JsonFormatter)
    with pytest.raises(ValueError, match="text or json"):
        log_config("yaml")


def test_draining_refuses_new_tables_tells_every_connection_to_reconnect_and_keeps_acknowledged_moves(
        tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        created = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        token = created["seats"][1]["link"].split("#")[1]
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = until(ws, ("state",))
            ws.send_json({"type": "move", "move": "draw", "state": state["state"], "id": 1})
            acked = until(ws, ("ack",))
            assert client.portal is not None
            app: Any = client.app
            told = client.portal.call(app.state.drain.run, app.state.service, 2.0)
            assert told == 1
            assert until(ws, ("reconnect",))["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1012
        assert client.get("/readyz").status_code == 503 and client.get("/readyz").json()["draining"] is True
        refused = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4})
        assert refused.status_code == 503 and refused.json()["error"] == "draining"
        with client.websocket_connect(f"/ws/{created['table']}") as late:
            late.send_json({"type": "hello", "token": token})
            assert until(late, ("reconnect",))["type"] == "reconnect"
    with TestClient(create_app(db, bot_delay=0)) as again:  # another process on the same database
        with again.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert until(ws, ("state",))["state"] == acked["state"]
