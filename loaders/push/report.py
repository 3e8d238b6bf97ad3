"""What a push did: rows loaded, skipped (already in the org) and failed per object, and API calls used."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.loaders.push.loader import Tally

MAX_LISTED_FAILURES = 50


@dataclass
class PushReport:
    """The outcome of a push (also attached to a stop, for what was done before it)."""

    dataset: str
    org_id: str = ""
    tally: Tally = field(default_factory=Tally)
    schema_created: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    api_calls: int = 0
    seconds: float = 0.0
    state: str | None = None

    @property
    def failed(self) -> int:
        return len(self.tally.failures)

    def totals(self) -> tuple[int, int, int]:
        counts = self.tally.objects.values()
        return sum(c.loaded for c in counts), sum(c.skipped for c in counts), sum(c.failed for c in counts)

    def to_json(self) -> dict[str, Any]:
        loaded, skipped, failed = self.totals()
        return {
            "dataset": self.dataset,
            "org_id": self.org_id,
            "objects": {
                name: {"loaded": c.loaded, "skipped": c.skipped, "failed": c.failed}
                for name, c in self.tally.objects.items()
            },
            "loaded": loaded,
            "skipped": skipped,
            "failed": failed,
            "updated_after_load": self.tally.updated,
            "published_articles": self.tally.published,
            "schema_created": self.schema_created,
            "failures": [
                {"object": o, "key": k, "errorCode": c, "message": m} for o, k, c, m in self.tally.failures
            ],
            "unresolved_references": dict(self.tally.unresolved),
            "warnings": self.warnings,
            "api_calls": self.api_calls,
            "seconds": round(self.seconds, 2),
            "state": self.state,
        }

    def render(self) -> str:
        lines = [f"pushed {self.dataset} into org {self.org_id}"]
        if self.schema_created:
            lines.append(
                f"created {len(self.schema_created)} objects and fields: {', '.join(self.schema_created)}"
            )
        width = max([len(n) for n in self.tally.objects] + [6])
        lines.append(f"{'object':<{width}}  {'loaded':>7}  {'skipped':>7}  {'failed':>6}")
        for name, c in self.tally.objects.items():
            lines.append(f"{name:<{width}}  {c.loaded:>7}  {c.skipped:>7}  {c.failed:>6}")
        loaded, skipped, failed = self.totals()
        lines.append(f"{'total':<{width}}  {loaded:>7}  {skipped:>7}  {failed:>6}")
        extra = []
        if self.tally.updated:
            extra.append(f"{self.tally.updated} rows updated after loading")
        if self.tally.published:
            extra.append(f"{self.tally.published} articles published")
        if extra:
            lines.append("; ".join(extra))
        lines.append(f"API calls used: {self.api_calls}; {self.seconds:.1f} s")
        if self.tally.unresolved:
            listed = ", ".join(f"{k} ({n})" for k, n in sorted(self.tally.unresolved.items()))
            lines.append(f"references to records the org does not have, left empty: {listed}")
        for warning in self.warnings:
            lines.append(f"warning: {warning}")
        if self.tally.failures:
            lines.append(f"failed rows ({len(self.tally.failures)}), each with Salesforce's error:")
            for name, key, code, message in self.tally.failures[:MAX_LISTED_FAILURES]:
                lines.append(f"  {name} {key}: {code}: {message}")
            if len(self.tally.failures) > MAX_LISTED_FAILURES:
                lines.append(
                    f"  ... and {len(self.tally.failures) - MAX_LISTED_FAILURES} more (--json lists all)"
                )
        return "\n".join(lines)
