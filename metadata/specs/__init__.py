"""Compact per-object metadata specs: one module per sObject, each defining ``SPEC``.

``python -m metadata.build`` expands them into ``metadata/describes/<Object>.json``.
"""

from __future__ import annotations

import importlib
import pkgutil


def all_specs() -> list[dict]:
    """Every sObject spec in this package, in module-name order."""
    specs = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if spec is not None:
            specs.append(spec)
    return specs
