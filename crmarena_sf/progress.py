"""Progress of long work (generate, load, search indexing, import, tasks, runs, first use of the default org), on stderr.

On a terminal it is a tqdm bar. Anywhere else (a CI log, ``2> build.log``, a pipe) a bar's
carriage returns pile up into one unreadable line, so progress is plain lines instead: one
at most every :data:`PLAIN_INTERVAL` seconds while the work runs, and one when it ends.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from tqdm import tqdm

PLAIN_INTERVAL = 10.0
"""Seconds between two progress lines when stderr is not a terminal."""


class _Silent:
    """Stands in for a bar when progress is off."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def set_description_str(self, text: str) -> None:
        pass


class _PlainLines(_Silent):
    """Progress as occasional whole lines (``loading: 12/30 (40%) Account``), for logs and pipes."""

    def __init__(self, total: int, description: str, stream: TextIO, delay: float = 0) -> None:
        self.total, self.description, self.stream, self.delay = total, description, stream, delay
        self.n, self.postfix = 0, ""
        self.started = self.last_line = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.last_line >= PLAIN_INTERVAL:
            self.last_line = now
            self._line(self._count() + (f" {self.postfix}" if self.postfix else ""))

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def set_description_str(self, text: str) -> None:
        self.description = text

    def close(self) -> None:
        took = time.monotonic() - self.started
        if took >= self.delay:  # quick work stays quiet
            self._line(f"{self._count()} in {took:.1f}s")

    def _count(self) -> str:
        if not self.total:
            return str(self.n)
        return f"{self.n}/{self.total} ({100 * self.n // self.total}%)"

    def _line(self, text: str) -> None:
        print(f"{self.description}: {text}", file=self.stream, flush=True)


@contextlib.contextmanager
def progress_bar(total: int, description: str, *, enabled: bool = True, delay: float = 0) -> Iterator[Any]:
    """Progress of ``total`` steps labelled ``description``: a bar on a terminal, plain lines elsewhere.

    ``delay``: show progress only once the work has taken that many seconds (quick work stays quiet).
    """
    if not enabled:
        yield _Silent()
        return
    stream = sys.stderr
    if _is_terminal(stream):
        bar = tqdm(
            total=total,
            desc=description,
            unit="step",
            file=stream,
            leave=True,
            dynamic_ncols=True,
            delay=delay,
        )
    else:
        bar = _PlainLines(total, description, stream, delay)
    try:
        yield bar
    except BaseException:
        # Work cut short (an error, Ctrl-C) draws no closing line: "120/1170 in 3.2s" would read as done.
        if isinstance(bar, _PlainLines):
            bar.delay = float("inf")
        raise
    finally:
        bar.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def progress_factory(
    description: str, *, enabled: bool = True, delay: float = 0
) -> Callable[[int], contextlib.AbstractContextManager[Any]]:
    """``factory(total)`` -> :func:`progress_bar`: for work that learns its total later (a search index build)."""
    return lambda total: progress_bar(total, description, enabled=enabled, delay=delay)
