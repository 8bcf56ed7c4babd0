"""Fixtures of the web tests: a database URL per storage backend, a real PostgreSQL when there is one."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

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


@pytest.fixture(params=["sqlite", "postgres"])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database: a SQLite file, or a PostgreSQL schema of this test's own."""
    if request.param == "sqlite":
        return str(tmp_path / "canasta.sqlite3")
    url: str = request.getfixturevalue("postgres_schema_url")
    return url
