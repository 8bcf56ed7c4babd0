"""Fixtures of the web tests: a database URL per storage backend, a real PostgreSQL when there is one; and the browser
tests' own: a real server, a headless Chromium and its contexts, axe-core, each once per module where it is
module-scoped (a module overrides one by defining a fixture of the same name)."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from .browser_helpers import Server, browser_contexts, find_axe, headless_chromium, room_client, running_server

ROOT = Path(__file__).resolve().parents[2]
ENSURE_POSTGRES = ROOT / "scripts" / "ensure-postgres.sh"


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A PostgreSQL URL: $CANASTA_TEST_PG, else a server that scripts/ensure-postgres.sh starts in .venv/pg."""
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg: pip install 'canasta[web]'")
    url = os.environ.get("CANASTA_TEST_PG", "")
    if not url:
        if not ENSURE_POSTGRES.exists():
            pytest.skip(f"PostgreSQL not available: set CANASTA_TEST_PG (there is no {ENSURE_POSTGRES})")
        try:
            run = subprocess.run(["bash", str(ENSURE_POSTGRES), str(ROOT / ".venv" / "pg")],
                                 capture_output=True, text=True, timeout=600, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.skip(f"PostgreSQL not available: scripts/ensure-postgres.sh failed: {exc}")
        lines = run.stdout.split()
        if run.returncode != 0 or len(lines) != 1:
            reason = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
            pytest.skip(f"PostgreSQL not available: scripts/ensure-postgres.sh failed: {reason} "
                        "(or set CANASTA_TEST_PG to a postgresql:// URL)")
        url = lines[0]
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=10).close()
    except psycopg.Error as exc:
        pytest.fail(f"cannot connect to the test PostgreSQL {url}: {' '.join(str(exc).split())}")
    return url


@pytest.fixture
def postgres_schema_url(postgres_url: str) -> Iterator[str]:
    """The PostgreSQL URL with a fresh schema of its own as search path, dropped afterwards."""
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in postgres_url else "?"
    yield f"{postgres_url}{sep}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty SQLite database file of the test's own."""
    return str(tmp_path / "canasta.sqlite3")


@pytest.fixture(params=["sqlite", "postgres"])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database: a SQLite file, or a PostgreSQL schema of this test's own."""
    if request.param == "sqlite":
        return str(tmp_path / "canasta.sqlite3")
    url: str = request.getfixturevalue("postgres_schema_url")
    return url


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``canasta serve`` for the whole module, its database in a folder named after the module."""
    with running_server(tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2])) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """Fresh contexts (CSP bypassed for Playwright's string waits, reduced motion unless asked); no script error."""
    with browser_contexts(browser, reduced_motion="reduce") as make:
        yield make


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's axe.min.js, installed from npm under tests/web/node_modules by scripts/ensure-axe.sh."""
    return find_axe()


@pytest.fixture
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id at its cheapest for the accounts' passwords: the tests check the flow, not the cost."""
    from argon2 import PasswordHasher

    from canasta.web.room import accounts

    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def trusted_room_client(storage_url: str) -> Iterator[Any]:
    """The room's server on the test's database (``storage_url``), its quick match waiting half a second for players.

    The test client plays as fast as the expert thinks, faster than the flood limit lets a connection send (a burst
    of 60, then 20 a second): its address is trusted, as a load tester's is.
    """
    from canasta.web.limits import Limits

    with room_client(storage_url, wait=0.5, limits=Limits(trusted=("testclient",))) as client:
        yield client


@pytest.fixture
def sqlite_room_client(sqlite_url: str) -> Iterator[Any]:
    """The room's server on an empty SQLite file (``sqlite_url``), its quick match waiting a minute for players."""
    with room_client(sqlite_url) as client:
        yield client
