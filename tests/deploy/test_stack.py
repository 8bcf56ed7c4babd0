"""compose.yaml's processes without containers: PostgreSQL, three ``canasta serve`` and Caddy with deploy/Caddyfile.

The Caddyfile is the repository's, rendered for this machine (upstreams on loopback ports, unprivileged ports for
HTTP and HTTPS, no admin endpoint); Caddy serves ``https://localhost`` with a certificate of its own authority, which
the clients here trust, and nothing else. A table is made and played through the proxy, its websockets included;
then the process holding it gets SIGTERM and the players, reconnecting through the proxy, play on elsewhere.

The same tests run the image itself (``[containers]``) when CANASTA_CONTAINER_IMAGE names a built image:
scripts/container-smoke.sh builds it and sets it. Its containers use the host's network, as PostgreSQL and
Caddy run here on loopback; compose.yaml's own network, its PostgreSQL and Caddy images are not run here.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .deployfiles import CADDYFILE, ROOT, exec_form, render_caddyfile, stages

pytest.importorskip("fastapi", reason="the deployment tests need the web extra: pip install 'canasta[web]'")
sync_client = pytest.importorskip("websockets.sync.client", reason="these tests need websockets")
exceptions = pytest.importorskip("websockets.exceptions")

Message = dict[str, Any]
SERVERS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def caddy_binary() -> str:
    """Debian's caddy, installed when missing (scripts/ensure-debian-package.sh); skips where it cannot be."""
    found = shutil.which("caddy")
    if found is None:
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure-debian-package.sh"), "caddy"], capture_output=True,
                       timeout=300, check=False)
        found = shutil.which("caddy")
    if found is None:
        pytest.skip("caddy is not installed and apt-get could not install it (apt-get install caddy)")
    return found


def ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
            body = json.load(answer)
        return bool(body["ready"] and body["listening"])
    except OSError:
        return False


def wait_for(what: str, check: Any, procs: list[subprocess.Popen[bytes]], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        for proc in procs:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"{what}: a process stopped: {err[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    if proc.stderr:
        proc.stderr.close()


@dataclass
class Stack:
    ports: list[int]
    servers: list[subprocess.Popen[bytes]]
    https: str
    http_port: int
    tls: ssl.SSLContext
    containers: list[str]  # the containers' names, when the servers run in the image

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        request = urllib.request.Request(self.https + path)
        try:
            with urllib.request.urlopen(request, timeout=10, context=self.tls) as answer:
                return answer.status, answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers)

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(self.https + path, method="POST", data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10, context=self.tls) as answer:
            return json.load(answer)

    def connections(self) -> list[int]:
        """``canasta_connections`` of each process, read from the process itself (the proxy hides /metrics)."""
        counts = []
        for port in self.ports:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
                    text = answer.read().decode()
            except OSError:
                counts.append(-1)  # stopped
                continue
            line = next(line for line in text.splitlines() if line.startswith("canasta_connections "))
            counts.append(int(float(line.split()[1])))
        return counts


def podman() -> str:
    found = shutil.which("podman")
    assert found, "CANASTA_CONTAINER_IMAGE is set but podman is not installed"
    return found


def start_servers(how: str, db: str, ports: list[int]) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``canasta serve`` on each port: processes of this checkout, or containers of the image (``podman run`` in
    the foreground, which passes its signals on to the server)."""
    if how == "processes":
        return [subprocess.Popen([sys.executable, "-m", "canasta.cli", "serve", "--port", str(port), "--db", db,
                                  "--bot-delay", "0", "--quiet", "--drain-seconds", "5"],
                                 cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for port in ports], []
    image = os.environ.get("CANASTA_CONTAINER_IMAGE", "")
    if not image:
        pytest.skip("the image is tested by scripts/container-smoke.sh (it builds one and sets "
                    "CANASTA_CONTAINER_IMAGE)")
    names = [f"canasta-test-{uuid.uuid4().hex[:8]}" for _ in ports]
    servers = [subprocess.Popen([podman(), "run", "--rm", "--name", name, "--network", "host",
                                 "--env", f"CANASTA_PORT={port}", "--env", f"CANASTA_DB={db}",
                                 "--env", "CANASTA_DRAIN_SECONDS=5", image, "--bot-delay", "0", "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
               for name, port in zip(names, ports)]
    return servers, names


@pytest.fixture(scope="module", params=["processes", "containers"])
def stack(request: pytest.FixtureRequest, module_schema_url: str,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    caddy = caddy_binary()
    ports = [free_port() for _ in range(SERVERS)]
    servers, containers = start_servers(request.param, module_schema_url, ports)
    home = tmp_path_factory.mktemp("caddy")
    proxy: subprocess.Popen[bytes] | None = None
    try:
        wait_for("the servers", lambda: all(ready(p) for p in ports), servers)
        http_port, https_port = free_port(), free_port()
        config = home / "Caddyfile"
        config.write_text(render_caddyfile(CADDYFILE.read_text(), [f"127.0.0.1:{p}" for p in ports],
                                           http_port, https_port))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "CANASTA_SITE": "localhost",
               "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
        with open(home / "caddy.log", "wb") as log:  # its log, in case of need (a pipe nobody reads could fill)
            proxy = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"], cwd=home,
                                     env=env, stdout=subprocess.DEVNULL, stderr=log)
        root = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_for("caddy's certificate authority", root.exists, [proxy], 30)
        tls = ssl.create_default_context(cafile=str(root))
        stack = Stack(ports, servers, f"https://localhost:{https_port}", http_port, tls, containers)

        def answers() -> bool:
            try:
                return stack.get("/healthz")[0] == 200
            except OSError:
                return False

        wait_for("caddy", answers, [proxy], 30)
        yield stack
    finally:
        if proxy is not None:
            stop(proxy)
        for server in servers:
            stop(server)
        for name in containers:
            subprocess.run([podman(), "rm", "--force", "--ignore", name], capture_output=True, timeout=60,
                           check=False)


def test_the_proxy_terminates_tls_and_checks_readiness(stack: Stack) -> None:
    status, body, _ = stack.get("/readyz")
    assert status == 200 and json.loads(body)["ready"] is True
    assert stack.get("/metrics")[0] == 404, "the proxy does not serve the metrics to players"
    status, body, _ = stack.get("/")
    assert status == 200 and b"<html" in body.lower()
    # Plain HTTP is sent to HTTPS.
    request = urllib.request.Request(f"http://localhost:{stack.http_port}/play")
    opener = urllib.request.build_opener(NoRedirect())
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(request, timeout=10)
    assert redirect.value.code in (301, 308) and redirect.value.headers["Location"].startswith("https://")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_the_image_runs_the_compiled_build_unprivileged_and_healthy(stack: Stack) -> None:
    if not stack.containers:
        pytest.skip("only the image's containers")
    name = stack.containers[0]
    inside = subprocess.run([podman(), "exec", name, "sh", "-c", "id -u; canasta --version"], capture_output=True,
                            text=True, timeout=60, check=False)
    assert inside.returncode == 0, inside.stderr
    uid, version = inside.stdout.splitlines()
    assert uid != "0" and version.endswith("compiled (mypyc)")
    health = subprocess.run([podman(), "healthcheck", "run", name], capture_output=True, text=True, timeout=60,
                            check=False)
    assert health.returncode == 0, health.stdout + health.stderr
    status = subprocess.run([podman(), "inspect", "--format", "{{.State.Health.Status}}", name], capture_output=True,
                            text=True, timeout=60, check=False)
    assert status.stdout.strip() == "healthy", status.stdout + status.stderr


def test_the_images_health_check_command(stack: Stack) -> None:
    if stack.containers:
        pytest.skip("the containers run it themselves (above)")
    check = exec_form(stages()[1][-1].last("HEALTHCHECK").partition("CMD ")[2])
    assert check[0] == "python3"
    live = subprocess.run([sys.executable, *check[1:]], env={**os.environ, "CANASTA_PORT": str(stack.ports[0])},
                          capture_output=True, timeout=30, check=False)
    assert live.returncode == 0, live.stderr
    dead = subprocess.run([sys.executable, *check[1:]], env={**os.environ, "CANASTA_PORT": str(free_port())},
                          capture_output=True, timeout=30, check=False)
    assert dead.returncode != 0


class Seat:
    """One seat's websocket through the proxy."""

    def __init__(self, stack: Stack, table: str, token: str) -> None:
        self.latest: Message | None = None
        deadline = time.monotonic() + 20
        while True:  # as the page does: connect again a second later while the process it reaches drains
            try:
                self.ws = sync_client.connect(f"wss://localhost:{stack.https.rsplit(':', 1)[1]}/ws/{table}",
                                              ssl=stack.tls, open_timeout=10).__enter__()
                self.ws.send(json.dumps({"type": "hello", "token": token}))
                if self.receive()["type"] == "welcome":
                    break
            except (OSError, exceptions.WebSocketException):
                pass
            assert time.monotonic() < deadline, "no process took the reconnecting player"
            time.sleep(0.5)
        self.state_at_least(0)

    def receive(self) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=20))
        if message["type"] == "state":
            self.latest = message
        return message

    def state_at_least(self, state_id: int) -> Message:
        while self.latest is None or self.latest["state"] < state_id:
            self.receive()
        return self.latest


def play(seats: list[Seat], moves: int, rng: random.Random, acked: list[int]) -> None:
    """``moves`` moves by whoever is to act (a random legal one), each acknowledged before the next."""
    for n in range(moves):
        state = max((s.latest for s in seats if s.latest), key=lambda m: m["state"])
        mover = next(s for s in seats if s.latest and s.latest["view"]["to_act"] == s.latest["view"]["seat"]
                     and s.latest.get("legal"))
        current = mover.state_at_least(state["state"])
        mover.ws.send(json.dumps({"type": "move", "move": rng.choice(current["legal"]), "state": current["state"],
                                  "id": n}))
        while (answer := mover.receive())["type"] not in ("ack", "error"):
            pass
        assert answer["type"] == "ack", answer
        acked.append(answer["state"])
        for seat in seats:
            seat.state_at_least(answer["state"])


def test_a_table_played_through_the_proxy_survives_its_process(stack: Stack) -> None:
    created = stack.post("/api/tables", {"preset": "two-player", "seats": [{"kind": "human"}] * 2})
    table, tokens = created["table"], [s["link"].split("#")[1] for s in created["seats"]]
    seats = [Seat(stack, table, token) for token in tokens]
    rng, acked = random.Random(34), list[int]()
    play(seats, 6, rng, acked)
    # lb_policy uri_hash: both seats' websockets (/ws/TABLE) reached one process.
    counts = stack.connections()
    assert sorted(counts) == [0] * (SERVERS - 1) + [2], counts
    holder = counts.index(2)
    stack.servers[holder].send_signal(signal.SIGTERM)
    for seat in seats:
        told = False
        with pytest.raises(exceptions.ConnectionClosed) as closed:
            while True:
                message = seat.receive()
                told = told or message["type"] == "reconnect"
        assert told and closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    assert stack.servers[holder].wait(20) == 0, "the drained process did not exit cleanly"
    # The players reconnect through the proxy, which leaves the stopped process out, and play on.
    again = [Seat(stack, table, token) for token in tokens]
    now = max(s.latest["state"] for s in again if s.latest)
    assert now == acked[-1], "every acknowledged move is there"
    play(again, 4, rng, acked)
    counts = stack.connections()
    assert counts[holder] == -1 and sorted(counts) == [-1, 0, 2], counts
    for seat in seats + again:
        seat.ws.close()
