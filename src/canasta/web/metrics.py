"""What a server process shows at ``/metrics``, in the Prometheus text format (prometheus_client).

Each application has a registry of its own (tests run several in one interpreter).  The live figures
(tables, connections, the CPU pool's queue, moves committed, notifications heard) are read when scraped;
the acknowledgement latency and the errors by name are counted as they happen.  What to watch:
docs/deploy.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from . import pool as cpu_pool

if TYPE_CHECKING:
    from .notify import Listener
    from .service import TableService

CONTENT_TYPE = CONTENT_TYPE_LATEST
ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: from a client's message read to its ``ack`` queued (the commit is most of it)."""


class Metrics:
    """One server process's metrics: its registry, and the counters its code moves."""

    def __init__(self, service: Callable[[], TableService | None]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.acks = Histogram("canasta_ack_seconds", "Seconds from a client's message to its acknowledgement, "
                              "its commit included", ["kind"], buckets=ACK_BUCKETS, registry=self.registry)
        self.errors = Counter("canasta_errors", "Errors by name: those sent to clients (the protocol's names) "
                              "and the server's own (storage_unavailable, server_error)", ["name"],
                              registry=self.registry)
        self.live = _Live(service)
        """The figures read when scraped (the app sets its ``listener``)."""
        self.registry.register(self.live)

    def acked(self, kind: str, seconds: float) -> None:
        """One acknowledgement sent ``seconds`` after its message came."""
        self.acks.labels(kind).observe(seconds)

    def error(self, name: str) -> None:
        """One error of this name."""
        self.errors.labels(name).inc()

    def text(self) -> bytes:
        """The page ``/metrics`` serves."""
        return generate_latest(self.registry)


class _Live(Collector):
    """The figures read from the running service when scraped."""

    def __init__(self, service: Callable[[], TableService | None]) -> None:
        self.service = service
        self.listener: Listener | None = None

    def describe(self) -> list[Metric]:
        return []  # the live figures are read when scraped, never at registration

    def collect(self) -> Iterator[Metric]:
        svc = self.service()
        tables = list(svc.tables.values()) if svc is not None else []
        yield GaugeMetricFamily("canasta_tables", "Tables held in this process's memory", value=len(tables))
        yield GaugeMetricFamily("canasta_connections", "Websocket connections at a table in this process",
                                value=sum(len(t.connections) for t in tables))
        yield GaugeMetricFamily("canasta_cpu_pool_queue", "CPU pool jobs running or waiting (search players, "
                                "hints, PDFs)", value=cpu_pool.current().waiting)
        yield CounterMetricFamily("canasta_moves", "Moves and deals this process committed",
                                  value=svc.moves_committed if svc is not None else 0)
        listener = self.listener
        if listener is not None:
            yield CounterMetricFamily("canasta_notifications", "Notifications heard from the server processes "
                                      "on the same database", value=listener.received)
            yield GaugeMetricFamily("canasta_listening", "1 while this process listens to the other processes' "
                                    "commits (PostgreSQL)", value=1 if listener.listening.is_set() else 0)
