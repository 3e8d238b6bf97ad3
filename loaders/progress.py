"""Progress bars for long work (generate, load, first use of the default org), on stderr."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
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
def progress_bar(total: int, description: str, *, enabled: bool = True) -> Iterator[Any]:
    """A tqdm bar of ``total`` steps labelled ``description`` (a silent stand-in when not ``enabled``)."""
    if not enabled:
        yield _Silent()
        return
    bar = tqdm(total=total, desc=description, unit="step", file=sys.stderr, leave=True, dynamic_ncols=True)
    try:
        yield bar
    finally:
        bar.close()
