"""The build's second gold computation: each draft's reference solver, on two forks at once where it can.

A build computes every gold answer twice: the family's candidate search, then its reference
solver through SOQL/SOSL (:mod:`crmarena_sf.tasks.build`). The solver's queries are most of a
build's time, and half of a query's time is DuckDB's, which runs without Python's lock; so on
an emulated org and a machine with two or more cores the drafts are solved by two threads, each
on its own copy-on-write fork of the build's org and through its own simple-salesforce client.
A solver only reads, so a fork answers exactly as the build's org does; the solutions come
back in the drafts' order, so the build checks them, and stops at the first disagreement, as
it would one by one. On a real org, or one core, the drafts are solved one by one on ``sf``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from crmarena_sf.tasks.org_client import OrgClient

Solve = Callable[[OrgClient, dict], Any]


class GoldSolver:
    """Solves drafts' params on the org behind ``sf``; use as a context manager (it closes its forks)."""

    def __init__(self, sf: Any, workers: int | None = None) -> None:
        from crmarena_sf.connection.connect import emulated_org

        self.sf = sf
        self._org = emulated_org(sf)
        if workers is None:
            workers = min(2, os.cpu_count() or 1)
        self.workers = workers if self._org is not None else 1
        self._pool: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._forks: list[Any] = []
        self._forks_lock = threading.Lock()

    def __enter__(self) -> GoldSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads and close the forks they solved on."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        with self._forks_lock:
            forks, self._forks = self._forks, []
        for fork in forks:
            fork.close()

    def solutions(self, solve: Solve, params: Sequence[dict]) -> Iterator[Any]:
        """``solve(client, p)`` for each ``p`` of ``params``, in that order (an exception is raised where its draft is)."""
        if self.workers < 2 or len(params) < 2:
            for p in params:
                yield solve(OrgClient(self.sf), p)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="gold-solver")
        yield from self._pool.map(lambda p: solve(OrgClient(self._client()), p), params)

    def _client(self) -> Any:
        """This thread's client, on a fork of the build's org made on its first draft."""
        client = getattr(self._local, "client", None)
        if client is None:
            from crmarena_sf.connection.connect import connect

            fork = self._org.fork()
            with self._forks_lock:
                self._forks.append(fork)
            client = self._local.client = connect(org=fork, version=self.sf.sf_version)
        return client
