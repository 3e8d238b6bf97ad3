"""The latent-variable core: which customer opens which case, about what, when, and who handles it.

Cases are drawn from the latent traits (:mod:`crmarena_sf.loaders.generate.latent`): habitual
complainers open more cases, mostly about their favourite issue; hot products draw most
cases, mostly about their dominant issue and mostly in their peak month; the issue's
experts get (and receive transfers of) its cases and close them faster; a few agents
transfer far more than others; closure time also depends on the customer's state.

Random draws can blur a planted answer (a product whose peak month loses to another month
by chance), so each planted answer is then *repaired* deterministically: the smallest
change to the draws that makes the data say what the latent variable says. The repaired
plan is what the nine CRMArena tasks can discover (CRMArena's task definitions, arXiv 2411.02305).
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate import latent, vocab
from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted

OPEN_STATUSES = (("New", 4), ("Working", 5), ("Escalated", 1))
DATA_NOW = vocab.LAST_CASE + dt.timedelta(days=1)
"""The org's "now" when the data was captured: open cases are still open then."""


@dataclass
class CasePlan:
    customer: list[int] = field(default_factory=list)
    product: list[int] = field(default_factory=list)
    issue: list[int] = field(default_factory=list)
    created: list[dt.datetime] = field(default_factory=list)
    closed: list[dt.datetime | None] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    priority: list[str] = field(default_factory=list)
    assignments: list[list[tuple[dt.datetime, int]]] = field(default_factory=list)
    """Per case, the owners in order: (when assigned, agent index); the first at creation."""
    chat: list[bool] = field(default_factory=list)
    order_item: list[int] = field(default_factory=list)
    """Record number of the OrderItem the case is about (set by the orders step)."""
    order_day: list[dt.date] = field(default_factory=list)
    """Date of the order the case's item belongs to (set by the history step)."""
    subject: list[str] = field(default_factory=list)
    description: list[str] = field(default_factory=list)
    routing_ties: dict[int, tuple[int, int]] = field(default_factory=dict)
    """The issues whose top two experts closed equally many of its cases: issue -> (top, second)."""

    def __len__(self) -> int:
        return len(self.customer)

    def owner(self, k: int) -> int:
        """The case's current (latest) owner."""
        return self.assignments[k][-1][1]

    def owner_at(self, k: int, when: dt.datetime) -> int:
        current = self.assignments[k][0][1]
        for at, agent in self.assignments[k]:
            if at <= when:
                current = agent
        return current

    def transferred(self, k: int) -> bool:
        return len(self.assignments[k]) > 1


def plan_cases(ctx: Context) -> None:
    """Draw every case, repair the planted answers, and keep the plan for the writing steps."""
    rnd = ctx.rng("cases")
    customers = ctx.plan["customers"]
    catalog = ctx.plan["catalog"]
    agents = ctx.plan["agents"].traits
    profiles = catalog.profiles
    n = ctx.count("Case")
    n_issues = len(ctx.plan["issues"])
    pick_customer = Weighted(range(len(customers)), customers.habits.rate)
    pick_product = Weighted(range(len(catalog)), profiles.case_weight)
    issue_pickers: dict[int, Weighted] = {}
    drafts = []
    for _ in range(n):
        c, p = pick_customer.pick(rnd), pick_product.pick(rnd)
        favorite = customers.habits.favorite_issue[c]
        if favorite is not None and rnd.random() < 0.6:
            issue = favorite
        else:
            picker = issue_pickers.get(p) or issue_pickers.setdefault(
                p, Weighted(range(n_issues), profiles.issue_weights[p])
            )
            issue = picker.pick(rnd)
        drafts.append(_Draft(c, p, issue, _created(rnd, customers.since[c], profiles, p)))
    _repair_top_issues(drafts, profiles, customers.habits)
    _repair_peak_months(drafts, profiles, customers.since)
    drafts.sort(key=lambda d: d.created)
    plan = CasePlan()
    for d in drafts:
        plan.customer.append(d.customer)
        plan.product.append(d.product)
        plan.issue.append(d.issue)
        plan.created.append(d.created)
    _statuses(rnd, plan, ctx.sizing.open_cases, ctx.plan["issue_kinds"])
    _owners(rnd, plan, agents, n_issues, ctx.sizing.transfers, ctx.rng("routing-ties"))
    ctx.plan["regions"] = latent.draw_region_traits(ctx.rng("regions"))
    _durations(rnd, plan, agents, ctx.plan["issue_kinds"], customers, ctx.plan["regions"])
    n_chats = min(ctx.count("LiveChatTranscript"), n)
    chats = set(rnd.sample(range(n), n_chats))
    plan.chat = [k in chats for k in range(n)]
    ctx.plan["cases"] = plan


def _created(rnd, since: dt.datetime, profiles: latent.ProductProfiles, p: int) -> dt.datetime:
    earliest = max(vocab.FIRST_CASE, since + dt.timedelta(days=3))
    latest = vocab.LAST_CASE
    if rnd.random() < profiles.seasonality[p]:
        month = profiles.peak_month[p]
        years = [y for y in range(earliest.year, latest.year + 1) if _month_fits(y, month, earliest, latest)]
        if years:
            return _in_month(rnd, rnd.choice(years), month, earliest, latest)
    span = int((latest - earliest).total_seconds())
    return earliest + dt.timedelta(seconds=rnd.randrange(max(span, 1)))


def _month_fits(year: int, month: int, earliest: dt.datetime, latest: dt.datetime) -> bool:
    first = dt.datetime(year, month, 1)
    last = dt.datetime(year, month, calendar.monthrange(year, month)[1], 23, 59, 59)
    return last >= earliest and first <= latest


def _in_month(rnd, year: int, month: int, earliest: dt.datetime, latest: dt.datetime) -> dt.datetime:
    """A business-hours moment in ``month`` of ``year``, inside [earliest, latest]."""
    first = max(dt.datetime(year, month, 1), earliest)
    last = min(dt.datetime(year, month, calendar.monthrange(year, month)[1], 23, 59, 59), latest)
    day = first.date() + dt.timedelta(days=rnd.randrange((last.date() - first.date()).days + 1))
    moment = dt.datetime.combine(day, dt.time(rnd.randint(7, 21), rnd.randrange(60), rnd.randrange(60)))
    return min(max(moment, first), last)


@dataclass(slots=True)
class _Draft:
    """A case before the plan is written: repairs change its issue and when it was opened."""

    customer: int
    product: int
    issue: int
    created: dt.datetime


def _make_strict_maximum(target: int, counts: Callable[[], Counter], move_one: Callable[[int], bool]) -> None:
    """Repair until ``target`` counts strictly more than any other key: each round moves one item from
    the strongest rival (the most counted, ties to the smaller key) while ``move_one(rival)`` can."""
    while True:
        current = counts()
        rival, rival_count = max(
            ((key, n) for key, n in current.items() if key != target),
            key=lambda t: (t[1], -t[0]),
            default=(None, 0),
        )
        if current[target] > rival_count or not move_one(rival):
            return


def _hot_products(drafts: list[_Draft], profiles: latent.ProductProfiles) -> list[tuple[int, list[_Draft]]]:
    """Each hot product and its drafts, in the order the products first appear."""
    by_product = defaultdict(list)
    for d in drafts:
        by_product[d.product].append(d)
    return [(p, cases) for p, cases in by_product.items() if profiles.hot[p]]


def _repair_top_issues(
    drafts: list[_Draft], profiles: latent.ProductProfiles, habits: latent.CustomerHabits
) -> None:
    """A hot product's dominant issue is strictly its most frequent one (top-issue task)."""
    for p, cases in _hot_products(drafts, profiles):
        top = profiles.top_issue[p]

        def move_one(rival: int, cases: list[_Draft] = cases, top: int = top) -> bool:
            movable = [d for d in cases if d.issue == rival]
            movable.sort(key=lambda d: habits.favorite_issue[d.customer] is not None)
            movable[0].issue = top
            return True

        _make_strict_maximum(top, lambda cases=cases: Counter(d.issue for d in cases), move_one)


def _repair_peak_months(
    drafts: list[_Draft], profiles: latent.ProductProfiles, since: list[dt.datetime]
) -> None:
    """A hot product's complaints peak strictly in its peak month, years merged (seasonality task)."""
    for p, cases in _hot_products(drafts, profiles):
        peak = profiles.peak_month[p]

        def move_one(rival: int, cases: list[_Draft] = cases, peak: int = peak) -> bool:
            for d in (d for d in cases if d.created.month == rival):
                earliest = max(vocab.FIRST_CASE, since[d.customer] + dt.timedelta(days=3))
                years = [
                    y
                    for y in range(earliest.year, vocab.LAST_CASE.year + 1)
                    if _month_fits(y, peak, earliest, vocab.LAST_CASE)
                ]
                if years:
                    year = min(years, key=lambda y: abs(y - d.created.year))
                    d.created = _clamp_day(d.created, year, peak, earliest)
                    return True
            return False

        _make_strict_maximum(peak, lambda cases=cases: Counter(d.created.month for d in cases), move_one)


def _clamp_day(moment: dt.datetime, year: int, month: int, earliest: dt.datetime) -> dt.datetime:
    day = min(moment.day, calendar.monthrange(year, month)[1])
    out = moment.replace(year=year, month=month, day=day)
    if out < earliest:
        out = earliest + dt.timedelta(hours=1)
    return min(out, vocab.LAST_CASE)


def _statuses(rnd, plan: CasePlan, n_open: int, kinds: list[vocab.IssueKind]) -> None:
    """The open cases are recent ones; every other case is Closed."""
    n = len(plan)
    n_open = min(n_open, n)
    recent = list(range(max(0, n - 3 * n_open), n))
    open_set = set(rnd.sample(recent, n_open))
    statuses = Weighted([s for s, _ in OPEN_STATUSES], [w for _, w in OPEN_STATUSES])
    for k in range(n):
        plan.status.append(statuses.pick(rnd) if k in open_set else "Closed")
        high = kinds[plan.issue[k]].high_priority
        roll = rnd.random()
        plan.priority.append("High" if roll < high else "Medium" if roll < high + (1 - high) * 0.6 else "Low")


def _owners(
    rnd, plan: CasePlan, agents: latent.AgentTraits, n_issues: int, n_transfers: int, rnd_ties
) -> None:
    n_agents = len(agents.workload)
    pickers = []
    for issue in range(n_issues):
        boost = [
            1 + 25 * (agents.expertise(a, issue) == 2) + 6 * (agents.expertise(a, issue) == 1)
            for a in range(n_agents)
        ]
        pickers.append(Weighted(range(n_agents), [w * b for w, b in zip(agents.workload, boost)]))
    first = [pickers[plan.issue[k]].pick(rnd) for k in range(len(plan))]
    chains: list[list[int]] = [[a] for a in first]
    # Transfers: cases of transfer-prone agents; a case is transferred at most twice.
    if n_agents > 1 and len(plan):
        by_propensity = Weighted(range(len(plan)), [agents.transfer_propensity[a] for a in first])
        workload = Weighted(range(n_agents), agents.workload)
        done, attempts = 0, 0
        while done < n_transfers and attempts < 50 * n_transfers:
            attempts += 1
            k = by_propensity.pick(rnd)
            if len(chains[k]) > 2:
                continue
            source = chains[k][-1]
            experts = [a for a in agents.experts[plan.issue[k]] if a != source]
            target = rnd.choice(experts) if experts and rnd.random() < 0.6 else workload.pick(rnd)
            if target == source:
                continue
            chains[k].append(target)
            done += 1
    _repair_top_transferrer(chains, agents.top_transferrer)
    _repair_best_agents(chains, plan, agents, n_issues)
    ties = {}
    closed_cases = Counter(plan.issue[k] for k in range(len(plan)) if plan.status[k] == "Closed")
    for issue in routing_tie_issues(rnd_ties, agents.experts, closed_cases):
        closed = [k for k in range(len(plan)) if plan.issue[k] == issue and plan.status[k] == "Closed"]
        pair = tuple(agents.experts[issue][:2])
        if plant_routing_tie(pair, closed, lambda k: chains[k][-1], _reown_unless_returned(chains), n_agents):
            ties[issue] = pair
    plan.routing_ties = ties
    plan.assignments = [[(plan.created[k], a) for a in chain] for k, chain in enumerate(chains)]


def _repair_top_transferrer(chains: list[list[int]], top: int) -> None:
    """The agent with the highest transfer propensity strictly transfers the most (transfer-count task)."""
    counts = Counter(a for chain in chains for a in chain[:-1])
    by_first = defaultdict(list)
    for chain in chains:
        if len(chain) > 1:
            by_first[chain[0]].append(chain)

    def move_one(rival: int) -> bool:
        # Hand one of the rival's transferred cases to the top transferrer before the transfer.
        chain = next((c for c in by_first[rival] if c[0] == rival and c[1] != top), None)
        if chain is None:
            return False
        chain[0] = top
        counts[rival] -= 1
        counts[top] += 1
        by_first[top].append(chain)
        return True

    _make_strict_maximum(top, lambda: counts, move_one)


def _repair_best_agents(
    chains: list[list[int]], plan: CasePlan, agents: latent.AgentTraits, n_issues: int
) -> None:
    """Each issue's top expert strictly closed the most cases of it (case-routing task)."""
    for issue in range(n_issues):
        best = agents.experts[issue][0]
        closed = [k for k in range(len(plan)) if plan.issue[k] == issue and plan.status[k] == "Closed"]
        counts = Counter(chains[k][-1] for k in closed)

        def move_one(
            rival: int, best: int = best, closed: list[int] = closed, counts: Counter = counts
        ) -> bool:
            # Re-own one of the rival's cases; never a transfer to the agent it came from.
            k = next(
                (
                    k
                    for k in closed
                    if chains[k][-1] == rival and (len(chains[k]) == 1 or chains[k][-2] != best)
                ),
                None,
            )
            if k is None:
                return False
            chains[k][-1] = best
            counts[rival] -= 1
            counts[best] += 1
            return True

        if closed:
            _make_strict_maximum(best, lambda counts=counts: counts, move_one)


ROUTING_TIE_SHARE = 0.4
"""The share of issues whose top two experts closed exactly as many of its cases, more than anyone
else: the routing policy's first step ties there, so its product-expertise and workload steps
settle those cases (CRMArena's case-routing instances need all three steps, arXiv 2411.02305)."""


def routing_tie_issues(rnd, experts: list[list[int]], closed: Counter) -> list[int]:
    """The issues to tie: a seeded sample of ``ROUTING_TIE_SHARE`` of them, among those with two experts
    and at least four Closed cases (``closed``: issue -> count; fewer cannot tie two agents above the rest)."""
    eligible = [issue for issue, ranked in enumerate(experts) if len(ranked) > 1 and closed[issue] >= 4]
    return sorted(rnd.sample(eligible, min(len(eligible), round(ROUTING_TIE_SHARE * len(experts)))))


def plant_routing_tie(
    pair: tuple[int, int],
    closed: list[int],
    owner: Callable[[int], int],
    reown: Callable[[int, int], bool],
    n_agents: int,
) -> bool:
    """Re-own closed cases of one issue until both agents of ``pair`` closed equally many of them and
    strictly more than any other agent; False (the counts as far as they got) when no case can move.

    ``owner(k)`` is case ``k``'s current owner; ``reown(k, agent)`` gives it to ``agent``, or says
    False when it cannot go there (a case never goes back to the agent it was transferred from).
    """
    a, b = pair

    def move(source: int | None, target: int) -> bool:
        return any(reown(k, target) for k in closed if owner(k) == source)

    for _ in range(2 * len(closed) + 2):
        counts = Counter(owner(k) for k in closed)
        rival, top_other = max(
            ((x, n) for x, n in counts.items() if x not in pair),
            key=lambda t: (t[1], -t[0]),
            default=(None, 0),
        )
        low, high = sorted(pair, key=lambda x: (counts[x], x))
        if counts[a] == counts[b] > top_other:
            return True
        if rival is not None and (top_other >= counts[low] or counts[high] - counts[low] == 1):
            moved = move(rival, low)  # a rival's case to the pair: closer, and further ahead
        elif counts[high] - counts[low] >= 2:
            moved = move(high, low)
        else:  # one apart and nobody else closed any: the higher gives one to an agent outside the pair
            if counts[low] < 2:
                return False
            outside = [x for x in range(n_agents) if x not in pair]
            moved = any(move(high, x) for x in outside)
        if not moved:
            return False
    return False


def _reown_unless_returned(chains: list[list[int]]) -> Callable[[int, int], bool]:
    def reown(k: int, agent: int) -> bool:
        if len(chains[k]) > 1 and chains[k][-2] == agent:
            return False
        chains[k][-1] = agent
        return True

    return reown


def _durations(
    rnd, plan: CasePlan, agents: latent.AgentTraits, kinds, customers, regions: latent.RegionTraits
) -> None:
    """Closure times from issue, final owner's speed and expertise, priority and region; transfer times inside."""
    hours = []
    for k in range(len(plan)):
        owner = plan.owner(k) if len(plan.assignments[k]) else 0
        expertise = agents.expertise(owner, plan.issue[k])
        h = kinds[plan.issue[k]].base_hours * agents.speed[owner]
        h *= {2: 0.55, 1: 0.8}.get(expertise, 1.0)
        h *= 0.75 if plan.priority[k] == "High" else 1.0
        h *= regions.factor[customers.state[plan.customer[k]]]
        h *= latent.lognormal_noise(rnd, 0.45) * (1.35 if plan.transferred(k) else 1.0)
        hours.append(max(h, 1.0))  # room for the opening chat and a follow-up email
    repair_fastest_state(
        [customers.state[plan.customer[k]] for k in range(len(plan))],
        [plan.status[k] == "Closed" for k in range(len(plan))],
        hours,
        regions.fastest,
    )
    for k in range(len(plan)):
        end = plan.created[k] + dt.timedelta(seconds=int(hours[k] * 3600))
        if plan.status[k] == "Closed":
            plan.closed.append(end)
        else:
            plan.closed.append(None)
            end = min(end, DATA_NOW)
        chain = plan.assignments[k]
        if len(chain) > 1:
            span = max(int((end - plan.created[k]).total_seconds()), len(chain) * 60)
            moments = sorted(rnd.sample(range(60, span), len(chain) - 1)) if span > len(chain) * 60 else []
            moments = moments or [60 * (i + 1) for i in range(len(chain) - 1)]
            plan.assignments[k] = [chain[0]] + [
                (plan.created[k] + dt.timedelta(seconds=s), agent)
                for s, (_, agent) in zip(moments, chain[1:])
            ]


def repair_fastest_state(
    states: list[str],
    closed: list[bool],
    hours: list[float],
    fastest: str,
    rounds: int = 50,
    floor: float = 0.0,
) -> None:
    """The planted fastest state strictly has the lowest mean closure time (best-region task).

    ``states[k]``, ``closed[k]`` and ``hours[k]`` are case k's account state, whether it is Closed,
    and its hours to close; the fastest state's hours shrink by 15 % a round (never below
    ``floor``) until its closed cases' mean is strictly the lowest, for at most ``rounds`` rounds.
    """
    for _ in range(rounds):
        total, count = defaultdict(float), Counter()
        for k, state in enumerate(states):
            if closed[k]:
                total[state] += hours[k]
                count[state] += 1
        if not count[fastest]:
            return
        means = {s: total[s] / count[s] for s in count}
        if all(means[fastest] < m for s, m in means.items() if s != fastest):
            return
        for k, state in enumerate(states):
            if state == fastest:
                hours[k] = max(hours[k] * 0.85, floor)
