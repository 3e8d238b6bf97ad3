"""The service side CRMArena's nine tasks read: Issue__c, Case and CaseHistory__c.

Cases are about items customers bought (``Case.OrderItemId__c`` points at an order item of the
customer's account; the case opens after that order). The latent variables shape them, and the
few random draws that would blur a planted answer are repaired:

- ``hot_products`` draw most cases; each one's cases come in bursts in its ``product_peak_month``
  (two or three in that month of a year, monthly trend) and mostly concern its
  ``product_top_issue`` (top issue);
- the first owner is drawn by workload and expertise: an issue's experts (and a product
  category's expert) get more of its cases; transfers come from agents with a high
  ``agent_transfer_propensity`` (transfer count); each issue's top expert strictly closed the
  most cases of it (case routing, repaired), except in a seeded share of issues
  (:data:`crmarena_sf.loaders.generate.cases.ROUTING_TIE_SHARE`) where the top two experts closed
  equally many, more than anyone else (``agent_routing_ties``: routing's later steps decide);
- closure time is the issue's typical hours times the final owner's ``agent_speed``, less for
  expertise, times the customer state's ``state_closure_factor`` (handle time, best region);
  the planted fastest state strictly has the lowest mean closure time (repaired).

History rows follow CRMArena's layout: 'Case Creation', 'Owner Assignment' (OldValue__c and
NewValue__c the previous and new owner's User Id; the first has no old value), 'Case Closed'.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.cases import plant_routing_tie, repair_fastest_state, routing_tie_issues
from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro import latent
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, LAST_DAY, ORG_START, audit, autonumber, emit

BURST_SHARE = 0.55
"""Share of cases that come in the hot products' peak-month bursts."""
OPEN_STATUSES = (("New", 3), ("Working", 5), ("Escalated", 1))


@dataclass
class Cases:
    item: list[tuple[int, int]] = field(default_factory=list)
    """(deal, index of the deal's line) of the order item each case is about."""
    product: list[int] = field(default_factory=list)
    account: list[int] = field(default_factory=list)
    contact: list[int] = field(default_factory=list)
    issue: list[int] = field(default_factory=list)
    created: list[dt.datetime] = field(default_factory=list)
    closed: list[dt.datetime | None] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    priority: list[str] = field(default_factory=list)
    owners: list[list[tuple[dt.datetime, int]]] = field(default_factory=list)
    """Per case, (when assigned, agent index) in order; the first at creation."""
    chat: list[bool] = field(default_factory=list)
    subject: list[str] = field(default_factory=list)
    description: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    routing_ties: dict[int, tuple[int, int]] = field(default_factory=dict)
    """The issues whose top two experts closed equally many of its cases: issue -> (top, second)."""

    def __len__(self) -> int:
        return len(self.product)

    def owner(self, k: int) -> int:
        return self.owners[k][-1][1]


def write_issues(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    n = ctx.count("Issue__c")
    ids = [ctx.record_id("Issue__c", i + 1) for i in range(n)]
    emit(
        ctx,
        "Issue__c",
        [
            {
                "Id": ids[i],
                "OwnerId": ctx.record_id("User", 1),
                "Name": domain.issues[i % len(domain.issues)].name
                + ("" if i < len(domain.issues) else f" {i + 1}"),
                **audit(ctx, ORG_START),
                "Description__c": domain.issues[i % len(domain.issues)].description,
            }
            for i in range(n)
        ],
    )
    ctx.plan["issue_ids"] = ids


def plan_cases(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-cases")
    deals = ctx.plan["deals"]
    accounts = ctx.plan["accounts"]
    profiles: latent.ProductProfiles = ctx.plan["product_profiles"]
    n = ctx.count("Case")
    n_issues = len(domain.issues)
    # Order items by product: (when bought, deal, line index).
    bought: dict[int, list[tuple[dt.datetime, int, int]]] = defaultdict(list)
    for k, lines in deals.order_items.items():
        when = dt.datetime.combine(deals.contract_start[k], dt.time(12))
        for i in lines:
            bought[deals.lines[k][i][0]].append((when, k, i))
    for items in bought.values():
        items.sort()
    drafts: list[list] = []  # [product, (deal, line), created, issue]
    bursts = round(n * BURST_SHARE)
    hot = [p for p in profiles.hot if p in bought]
    for year in range(2020, 2025):
        for p in hot:
            month = profiles.peak_month[p]
            first = dt.datetime(year, month, 1)
            owned = [it for it in bought[p] if it[0] + dt.timedelta(days=3) < first]
            if not owned or first > LAST_DAY:
                continue
            size = rnd.choice((2, 3, 3))
            days = calendar.monthrange(year, month)[1]
            for _ in range(size):
                if len(drafts) >= bursts:
                    break
                when = first + dt.timedelta(
                    days=rnd.randrange(days), hours=rnd.randint(8, 19), minutes=rnd.randrange(60)
                )
                when = min(when, LAST_DAY)
                issue = profiles.top_issue[p] if rnd.random() < 0.75 else rnd.randrange(n_issues)
                _, k, i = rnd.choice(owned)
                drafts.append([p, (k, i), when, issue])
    popularity = Weighted(sorted(bought), [len(bought[p]) for p in sorted(bought)])
    while len(drafts) < n:
        p = popularity.pick(rnd)
        when_bought, k, i = rnd.choice(bought[p])
        start = when_bought + dt.timedelta(days=3)
        span = int((LAST_DAY - start).total_seconds())
        if span <= 0:
            continue
        created = start + dt.timedelta(seconds=rnd.randrange(span))
        issue = (
            profiles.top_issue[p]
            if p in profiles.top_issue and rnd.random() < 0.5
            else rnd.randrange(n_issues)
        )
        drafts.append([p, (k, i), created, issue])
    _repair_peaks(drafts, profiles)
    _repair_top_issues(drafts, profiles)
    drafts.sort(key=lambda d: (d[2], d[0]))
    cases = Cases()
    for p, (k, i), created, issue in drafts:
        cases.product.append(p)
        cases.item.append((k, i))
        a = deals.account[k]
        cases.account.append(a)
        contacts = accounts.contacts[a]
        cases.contact.append(deals.contact[k] if rnd.random() < 0.6 else rnd.choice(contacts))
        cases.issue.append(issue)
        cases.created.append(created)
    cases.ids = [ctx.record_id("Case", c + 1) for c in range(len(cases))]
    _statuses(ctx, rnd, cases)
    _owners(ctx, rnd, cases)
    _plant_fastest_state(ctx, cases)
    _durations(ctx, rnd, cases)
    n_chats = min(ctx.count("LiveChatTranscript"), len(cases))
    chats = set(rnd.sample(range(len(cases)), n_chats))
    cases.chat = [c in chats for c in range(len(cases))]
    for c in range(len(cases)):
        issue = domain.issues[cases.issue[c]]
        product = domain.products[cases.product[c]].name
        cases.subject.append(rnd.choice(issue.subjects))
        cases.description.append(
            rnd.choice(issue.problems).format(product=product)
            + " "
            + rnd.choice(CONTEXT).format(product=product)
        )
    ctx.plan["cases"] = cases


CONTEXT = (
    "It started after we bought the {product}.",
    "Could someone look into it soon?",
    "This is holding up our work, so any help is welcome.",
    "We have tried the obvious fixes without luck.",
    "Please let me know what you need from me.",
)


def _repair_peaks(drafts: list[list], profiles: latent.ProductProfiles) -> None:
    """A hot product's cases are most frequent, strictly, in its peak month (years merged)."""
    for p in profiles.hot:
        cases = [d for d in drafts if d[0] == p]
        peak = profiles.peak_month[p]
        for _ in range(len(cases)):
            counts = Counter(d[2].month for d in cases)
            rival = max((m for m in counts if m != peak), key=lambda m: (counts[m], -m), default=None)
            if rival is None or counts[peak] > counts[rival]:
                break
            movable = [d for d in cases if d[2].month == rival]
            d = movable[0]
            d[2] = d[2].replace(month=peak, day=min(d[2].day, calendar.monthrange(d[2].year, peak)[1]))


def _repair_top_issues(drafts: list[list], profiles: latent.ProductProfiles) -> None:
    """A hot product's top issue is strictly its most frequent one."""
    for p in profiles.hot:
        cases = [d for d in drafts if d[0] == p]
        top = profiles.top_issue[p]
        for _ in range(len(cases)):
            counts = Counter(d[3] for d in cases)
            rival = max((i for i in counts if i != top), key=lambda i: (counts[i], -i), default=None)
            if rival is None or counts[top] > counts[rival]:
                break
            next(d for d in cases if d[3] == rival)[3] = top


def _statuses(ctx: Context, rnd, cases: Cases) -> None:
    n = len(cases)
    n_closed = min(ctx.sizing.closed_cases, n)
    keys = sorted(((rnd.random() ** (1 / (1 + 2 * (1 - c / max(n, 1)))), c) for c in range(n)), reverse=True)
    closed = {c for _, c in keys[:n_closed]}
    pick_open = Weighted([s for s, _ in OPEN_STATUSES], [w for _, w in OPEN_STATUSES])
    for c in range(n):
        cases.status.append("Closed" if c in closed else pick_open.pick(rnd))
        roll = rnd.random()
        cases.priority.append("High" if roll < 0.25 else "Medium" if roll < 0.75 else "Low")


def _owners(ctx: Context, rnd, cases: Cases) -> None:
    domain: Domain = ctx.plan["domain"]
    traits = ctx.plan["staff"].agent_traits
    n_agents = len(traits.speed)
    chains = []
    for c in range(len(cases)):
        category = domain.products[cases.product[c]].category
        weights = [
            traits.workload[a]
            * (
                1
                + 12 * (traits.expertise(a, cases.issue[c]) == 2)
                + 4 * (traits.expertise(a, cases.issue[c]) == 1)
            )
            * (1 + 3 * (traits.product_experts[category] == a))
            for a in range(n_agents)
        ]
        chains.append([Weighted(range(n_agents), weights).pick(rnd)])
    by_propensity = Weighted(range(len(cases)), [traits.transfer_propensity[chain[0]] for chain in chains])
    done = attempts = 0
    while done < ctx.sizing.transfers and attempts < 100 * max(ctx.sizing.transfers, 1):
        attempts += 1
        c = by_propensity.pick(rnd)
        if len(chains[c]) > 2:
            continue
        source = chains[c][-1]
        experts = [a for a in traits.experts[cases.issue[c]] if a != source]
        target = rnd.choice(experts) if experts and rnd.random() < 0.6 else rnd.randrange(n_agents)
        if target != source:
            chains[c].append(target)
            done += 1
    # Each issue's top expert strictly closed the most of its cases (never re-owning a case
    # to the agent it was transferred away from).
    for issue in range(len(domain.issues)):
        best = traits.experts[issue][0]
        closed = [c for c in range(len(cases)) if cases.issue[c] == issue and cases.status[c] == "Closed"]
        for _ in range(len(closed) + 1):
            counts = Counter(chains[c][-1] for c in closed)
            rival = max((a for a in counts if a != best), key=lambda a: (counts[a], -a), default=None)
            if rival is None or counts[best] > counts[rival]:
                break
            c = next((c for c in closed if chains[c][-1] == rival and best not in chains[c][:-1]), None)
            if c is not None:
                chains[c][-1] = best
                continue
            # No case of the rival can go to the expert: close one of the issue's open cases
            # under the expert instead, and reopen one of the rival's (the closed count stays).
            reopen = next((c for c in closed if chains[c][-1] == rival), None)
            close = next(
                (
                    c
                    for c in range(len(cases))
                    if cases.issue[c] == issue and cases.status[c] != "Closed" and best not in chains[c][:-1]
                ),
                None,
            )
            if reopen is None or close is None:
                break
            chains[close][-1] = best
            cases.status[close], cases.status[reopen] = "Closed", "Working"
            closed = [c for c in closed if c != reopen] + [close]

    # A seeded share of issues ties its top two experts instead (case routing's later steps).
    def reown(c: int, agent: int) -> bool:
        if agent in chains[c][:-1]:
            return False
        chains[c][-1] = agent
        return True

    closed_cases = Counter(cases.issue[c] for c in range(len(cases)) if cases.status[c] == "Closed")
    for issue in routing_tie_issues(ctx.rng("pro-routing-ties"), traits.experts, closed_cases):
        closed = [c for c in range(len(cases)) if cases.issue[c] == issue and cases.status[c] == "Closed"]
        pair = tuple(traits.experts[issue][:2])
        if plant_routing_tie(pair, closed, lambda c: chains[c][-1], reown, n_agents):
            cases.routing_ties[issue] = pair
    cases.owners = [[(cases.created[c], a) for a in chain] for c, chain in enumerate(chains)]


def _plant_fastest_state(ctx: Context, cases: Cases) -> None:
    """The fastest state is one whose customers have at least two closed cases, so it shows."""
    accounts = ctx.plan["accounts"]
    closed = Counter(
        accounts.states[cases.account[c]] for c in range(len(cases)) if cases.status[c] == "Closed"
    )
    candidates = (
        sorted(s for s, n in closed.items() if n >= 2) or sorted(closed) or sorted(set(accounts.states))
    )
    fastest = ctx.rng("pro-fastest-state").choice(candidates)
    factor = {s: (f if s != fastest else latent.FASTEST_FACTOR) for s, f in ctx.plan["state_factor"].items()}
    ctx.plan["state_factor"], ctx.plan["fastest_state"] = factor, fastest


def _durations(ctx: Context, rnd, cases: Cases) -> None:
    domain: Domain = ctx.plan["domain"]
    traits = ctx.plan["staff"].agent_traits
    accounts = ctx.plan["accounts"]
    factor, fastest = ctx.plan["state_factor"], ctx.plan["fastest_state"]
    hours = []
    for c in range(len(cases)):
        owner = cases.owner(c)
        issue = domain.issues[cases.issue[c]]
        h = issue.base_hours * traits.speed[owner]
        h *= {2: 0.6, 1: 0.8}.get(traits.expertise(owner, cases.issue[c]), 1.0)
        h *= factor[accounts.states[cases.account[c]]]
        h *= latent.lognormal_noise(rnd, 0.35) * (1.3 if len(cases.owners[c]) > 1 else 1.0)
        # A case closes before the data was captured: its hours are what the records will show.
        room = (DATA_NOW - dt.timedelta(hours=1) - cases.created[c]).total_seconds() / 3600
        hours.append(min(max(h, 2.0), room))
    repair_fastest_state(
        [accounts.states[cases.account[c]] for c in range(len(cases))],
        [cases.status[c] == "Closed" for c in range(len(cases))],
        hours,
        fastest,
        rounds=60,
        floor=1.0,
    )
    for c in range(len(cases)):
        end = cases.created[c] + dt.timedelta(seconds=int(hours[c] * 3600))
        if cases.status[c] == "Closed":
            end = min(end, DATA_NOW - dt.timedelta(hours=1))
            cases.closed.append(end)
        else:
            cases.closed.append(None)
            end = min(end, DATA_NOW - dt.timedelta(hours=1))
        chain = cases.owners[c]
        if len(chain) > 1:
            span = max(int((end - cases.created[c]).total_seconds()), 120 * len(chain))
            moments = sorted(rnd.sample(range(60, span), len(chain) - 1))
            cases.owners[c] = [chain[0]] + [
                (cases.created[c] + dt.timedelta(seconds=s), agent)
                for s, (_, agent) in zip(moments, chain[1:])
            ]


def write_cases(ctx: Context) -> None:
    cases: Cases = ctx.plan["cases"]
    staff = ctx.plan["staff"]
    deals = ctx.plan["deals"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    issue_ids = ctx.plan["issue_ids"]
    rows = []
    for c in range(len(cases)):
        k, i = cases.item[c]
        item_id = deals.order_item_ids[k][deals.order_items[k].index(i)]
        owner = staff.agent_id(cases.owner(c))
        last_change = cases.closed[c] or cases.owners[c][-1][0]
        rows.append(
            {
                "Id": cases.ids[c],
                "CaseNumber": autonumber("Case", "CaseNumber", c + 1),
                "ContactId": people.ids[cases.contact[c]],
                "AccountId": accounts.ids[cases.account[c]],
                "Status": cases.status[c],
                "Origin": "Web" if cases.chat[c] else "Email",
                "Subject": cases.subject[c],
                "Priority": cases.priority[c],
                "Description": cases.description[c],
                "IsClosed": cases.status[c] == "Closed",
                "ClosedDate": cases.closed[c],
                "IsEscalated": cases.status[c] == "Escalated",
                "OwnerId": owner,
                **audit(ctx, cases.created[c], last_change),
                "OrderItemId__c": item_id,
                "IssueId__c": issue_ids[cases.issue[c]],
            }
        )
    emit(ctx, "Case", rows)
    events = []
    for c in range(len(cases)):
        events.append((cases.created[c], c, 0, "Case Creation", None, None))
        previous = None
        for step, (when, agent) in enumerate(cases.owners[c], start=1):
            new = staff.agent_id(agent)
            events.append((when, c, step, "Owner Assignment", previous, new))
            previous = new
        if cases.closed[c] is not None:
            events.append((cases.closed[c], c, 99, "Case Closed", None, None))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    emit(
        ctx,
        "CaseHistory__c",
        [
            {
                "Id": ctx.record_id("CaseHistory__c", h + 1),
                "OwnerId": ctx.record_id("User", 1),
                "Name": autonumber("CaseHistory__c", "Name", h + 1),
                **audit(ctx, when),
                "CaseId__c": cases.ids[c],
                "OldValue__c": old,
                "NewValue__c": new,
                "Field__c": field_name,
            }
            for h, (when, c, _, field_name, old, new) in enumerate(events)
        ],
    )
