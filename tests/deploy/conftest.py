"""Fixtures of the deployment tests: the web tests' PostgreSQL, and a schema that a module's servers share."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from tests.web.conftest import postgres_url

__all__ = ["module_schema_url", "postgres_url"]


@pytest.fixture(scope="module")
def module_schema_url(postgres_url: str) -> Iterator[str]:
    """The PostgreSQL URL with a fresh schema of its own as search path, for one module; dropped afterwards."""
    import psycopg

    schema = f"deploy_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in postgres_url else "?"
    yield f"{postgres_url}{sep}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
