"""What the Pro families share: their build context, article lookups and window helpers.

A Pro family module has the v1 family's shape (NAME, METRIC, NONE_SHARE, ``generate(ctx, n,
n_none)`` and ``solve(client, params)``, :mod:`crmarena_sf.tasks.families.base`); its answers
may be a tuple (a list answer: activity_priority's task Ids, lead_qualification's unmet
factors), which the build writes as CRMArena-Pro's list. ``ctx`` is a :class:`ProBuildContext`:
the v1 context (the service records, read once) plus :attr:`ProBuildContext.sales`, the sales
records read once (:mod:`crmarena_sf.tasks.pro.sales_facts`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from crmarena_sf.tasks import periods
from crmarena_sf.tasks.families.base import BuildContext, Draft, Quota
from crmarena_sf.tasks.org_client import OrgClient, quote
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.pro.texts import article_text


@dataclass
class ProBuildContext(BuildContext):
    sales: Any = None
    """The org's sales records (:class:`crmarena_sf.tasks.pro.sales_facts.SalesFacts`)."""
    suite: str = "pro-b2b"

    def spanning(self, first: dt.date, last: dt.date) -> ProBuildContext:
        """The same context with its data span set to [first, last] (the periods a family asks about)."""
        return dataclasses.replace(self, first_day=first, last_day=last, _named=None)


def quiet_window(ctx: BuildContext) -> tuple[dt.date, periods.Window]:
    """A recent period after the data's last day, where a None instance finds nothing to count."""
    rnd = ctx.rnd
    today = ctx.last_day + dt.timedelta(days=rnd.randint(10, 150))
    unit = rnd.choice(("day", "week", "month"))
    count = {"day": rnd.randint(5, 60), "week": rnd.randint(1, 8), "month": rnd.randint(1, 3)}[unit]
    return today, periods.relative(today, unit, count, rnd)


def read_article(client: OrgClient, title: str) -> tuple[str, str]:
    """(Id, plain text) of the one online en_US article titled ``title``, by SOQL."""
    rows = client.query(
        f"SELECT Id, FAQ_Answer__c FROM Knowledge__kav WHERE Title = {quote(title)} "
        "AND PublishStatus = 'Online' AND Language = 'en_US'"
    )
    if len(rows) != 1:
        raise LookupError(f"{len(rows)} online articles are titled {title!r}")
    return rows[0]["Id"], article_text(rows[0]["FAQ_Answer__c"])


def date_bounds(params: dict) -> tuple[dt.date, dt.date]:
    """A period's first day and the day after its last (periods start and end at midnight UTC)."""
    return parse_iso(params["start"]).date(), parse_iso(params["end"]).date()


def soql_date(day: dt.date) -> str:
    """An unquoted SOQL date literal."""
    return day.isoformat()


def pick_drafts(
    items: Iterable, n: int, n_none: int, answer_of: Callable, draft_of: Callable[[Any, Any], Draft]
) -> list[Draft]:
    """Drafts over ``items`` (in the seeded order given): ``answer_of(item)`` is its answer (LookupError:
    the item is in doubt and skipped), ``draft_of(item, answer)`` its draft; ``n`` of them, ``n_none`` None."""
    drafts, quota = [], Quota(n, n_none)
    for item in items:
        if quota.full:
            break
        try:
            answer = answer_of(item)
        except LookupError:
            continue
        if not quota.wants(answer):
            continue
        quota.take(answer)
        drafts.append(draft_of(item, answer))
    return drafts
