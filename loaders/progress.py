"""Progress bars for long work (generate, load, search indexing, first use of the default org), on stderr."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from tqdm import tqdm


class _Silent:
    """Stands in for a bar when progress is off."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def set_description_str(self, text: str) -> None:
        pass


@contextlib.contextmanager
def progress_bar(total: int, description: str, *, enabled: bool = True, delay: float = 0) -> Iterator[Any]:
    """A tqdm bar of ``total`` steps labelled ``description`` (a silent stand-in when not ``enabled``).

    ``delay``: show the bar only once the work has taken that many seconds (quick work stays quiet).
    """
    if not enabled:
        yield _Silent()
        return
    bar = tqdm(
        total=total,
        desc=description,
        unit="step",
        file=sys.stderr,
        leave=True,
        dynamic_ncols=True,
        delay=delay,
    )
    try:
        yield bar
    finally:
        bar.close()


def progress_factory(
    description: str, *, enabled: bool = True, delay: float = 0
) -> Callable[[int], contextlib.AbstractContextManager[Any]]:
    """``factory(total)`` -> :func:`progress_bar`: for work that learns its total later (a search index build)."""
    return lambda total: progress_bar(total, description, enabled=enabled, delay=delay)
