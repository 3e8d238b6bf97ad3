"""Ctrl-C always stops: an interrupt is remembered even where DuckDB turns it into an error.

Python turns SIGINT into ``KeyboardInterrupt`` in the main thread. But while the main thread
is inside a DuckDB statement, DuckDB's Python client polls for signals, cancels the statement
and raises ``RuntimeError: Query interrupted`` instead. Left alone, the emulator's error
boundary would answer that as ``UNKNOWN_EXCEPTION`` like any engine failure (with a logged
traceback), an agent would read it as one more observation, and the work would go on as if
nothing had happened. So the boundary asks :func:`is_interrupt` and raises the interrupt
again, and since other code on the way may still catch an error:

while :func:`catching` is active, SIGINT first sets a process-wide flag and then does what it
did before (by default, raise ``KeyboardInterrupt``). Whoever ends a step (the benchmark
runner after each episode, the CLI when a command ends in any error) asks :func:`interrupted`
and stops: :func:`stop_if_interrupted` raises ``KeyboardInterrupt``. Only the main thread
receives signals, so a worker thread inside DuckDB is never interrupted; it finishes its
step and the runner stops after it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

DUCKDB_INTERRUPTED = "Query interrupted"
"""The message of the RuntimeError DuckDB's Python client raises for SIGINT inside a statement."""

_flag = threading.Event()
_depth = 0


def interrupted() -> bool:
    """True once SIGINT arrived while :func:`catching` was active (until the outermost one ends)."""
    return _flag.is_set()


def is_interrupt(failure: BaseException) -> bool:
    """True for Ctrl-C in any of its shapes: ``KeyboardInterrupt``, DuckDB's ``RuntimeError: Query
    interrupted`` (what its Python client raises when SIGINT arrives inside a statement), or any
    failure after the flag was set (the interrupt turned into some other error on the way up)."""
    return (
        isinstance(failure, KeyboardInterrupt)
        or (type(failure) is RuntimeError and str(failure) == DUCKDB_INTERRUPTED)
        or (isinstance(failure, Exception) and _flag.is_set())
    )


def stop_if_interrupted() -> None:
    """Raise ``KeyboardInterrupt`` if an interrupt arrived, wherever it was turned into an error."""
    if _flag.is_set():
        raise KeyboardInterrupt


@contextlib.contextmanager
def catching() -> Iterator[None]:
    """Remember SIGINT in the flag while the block runs (nestable; a no-op outside the main thread).

    A process that ignores SIGINT (started in the background, or a worker process told to)
    keeps ignoring it.
    """
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous == signal.SIG_IGN or previous is None:  # ignored, or a handler not set from Python
        yield
        return

    def remember(signum, frame) -> None:
        _flag.set()
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    if _depth == 0:
        _flag.clear()
    _depth += 1
    signal.signal(signal.SIGINT, remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _depth -= 1


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT back while the block runs (it arrives when the block ends); processes started
    inside it begin with SIGINT blocked, so they can ignore it before any arrives.

    The benchmark's worker processes use this: the parent alone answers Ctrl-C (it stops them).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def ignore_in_this_process() -> None:
    """A worker process: ignore SIGINT (its parent stops it), then let signals through again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
