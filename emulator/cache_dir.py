"""Where crmarena-sf keeps files between runs (generated orgs, the server's certificate).

One answer for every part of the project, so ``CRMARENA_SF_CACHE`` moves all of it: a user
who points it at a project folder (or a CI job at a scratch directory) finds nothing written
under their home directory.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """``$CRMARENA_SF_CACHE``, else ``$XDG_CACHE_HOME/crmarena-sf``, else ``~/.cache/crmarena-sf``."""
    override = os.environ.get("CRMARENA_SF_CACHE")
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "crmarena-sf"
