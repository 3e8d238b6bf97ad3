"""Leads: who they are, who owns them, whether they convert, and their BANT signals.

A lead's owner, source and creation date are drawn; whether it converts follows the latent
``lead_source_conversion`` of its source times the owner's ``rep_conversion`` (conversion-rate
task), after a lag of days to weeks. A converted lead becomes a contact of its account (B2B: a
company account, whose name the lead's Company holds; B2C: the consumer's own account) and an
opportunity (:mod:`.deals`), and carries the Converted* fields a real conversion sets.

Each lead also gets its BANT signals (lead-qualification task): a converted lead met all four;
a lead that did not convert either met them all (still being worked) or fails one factor, or
two, in about the proportions of CRMArena-Pro's gold answers (Authority most often, then Budget,
Need, Timeline). The lead's call (:mod:`.transcripts`) says each factor as met or unmet in words
that the lead-qualification article's thresholds decide (:mod:`.knowledge`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.people import person_name, phone, unique_handle
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro import latent
from crmarena_sf.loaders.pro.domain import BANT, Domain
from crmarena_sf.loaders.pro.people import STATES, Accounts, company_names, new_person
from crmarena_sf.loaders.pro.records import DATA_NOW, FIRST_DAY, LAST_DAY, audit, emit

SOURCE_WEIGHTS = {
    "Web": 0.34,
    "Phone Inquiry": 0.14,
    "Partner Referral": 0.14,
    "Purchased List": 0.24,
    "Other": 0.14,
}
GAPS = (
    ("Authority",),
    ("Budget",),
    ("Need",),
    ("Timeline",),
    ("Authority", "Need"),
    ("Budget", "Timeline"),
    ("Authority", "Budget"),
    ("Need", "Timeline"),
)
GAP_WEIGHTS = (0.3, 0.21, 0.17, 0.12, 0.06, 0.05, 0.05, 0.04)
QUALIFIED_SHARE = 0.3
"""Share of unconverted leads whose call shows every factor met (they are still being worked)."""
STALE_DAYS = 120
"""An unconverted lead older than this at capture is closed as not converted."""


@dataclass
class Leads:
    first: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    source: list[str] = field(default_factory=list)
    state: list[str] = field(default_factory=list)
    created: list[dt.datetime] = field(default_factory=list)
    converted: list[dt.datetime | None] = field(default_factory=list)
    account: list[int | None] = field(default_factory=list)
    contact: list[int | None] = field(default_factory=list)
    opportunity: list[int | None] = field(default_factory=list)
    """Index of the opportunity the conversion created (set by :mod:`.deals`)."""
    title: list[str] = field(default_factory=list)
    company: list[str] = field(default_factory=list)
    gaps: list[tuple[str, ...]] = field(default_factory=list)
    """The BANT factors the lead's call shows unmet (empty: qualified)."""
    ids: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.first)

    def name(self, k: int) -> str:
        return f"{self.first[k]} {self.last[k]}"


def plan_leads(ctx: Context) -> None:
    """Draw every lead, decide conversions, and plan the contacts (base contacts, then converted leads')."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-leads")
    staff = ctx.plan["staff"]
    accounts: Accounts = ctx.plan["accounts"]
    traits = staff.rep_traits
    source_conversion = latent.draw_source_conversion(ctx.rng("pro-lead-sources"))
    ctx.plan["source_conversion"] = source_conversion
    n = ctx.count("Lead")
    n_contacts = ctx.count("Contact")
    pick_rep = Weighted(range(ctx.sizing.reps), traits.workload)
    pick_source = Weighted(list(SOURCE_WEIGHTS), list(SOURCE_WEIGHTS.values()))
    states = sorted(domain.territory_of())
    pick_state = Weighted(states, [STATES[s].weight for s in states])
    pick_gap = Weighted(GAPS, GAP_WEIGHTS)
    # Conversions may not outnumber what the contacts allow: B2B keeps two contacts per account
    # of its own; B2C keeps a consumer for a fifth of the accounts.
    keep = 2 * len(accounts) if domain.business_accounts else len(accounts) // 5
    max_converted = max(n_contacts - keep, 0) if domain.business_accounts else len(accounts) - keep
    leads = Leads()
    span = int((LAST_DAY - dt.timedelta(days=3) - FIRST_DAY).total_seconds())
    taken_companies: set[str] = set(accounts.names)
    prospects = (
        company_names(domain, rnd, max(n // 8, 1), taken_companies) if domain.business_accounts else []
    )
    converted_count = 0
    for _ in range(n):
        rep = pick_rep.pick(rnd)
        source = pick_source.pick(rnd)
        created = FIRST_DAY + dt.timedelta(seconds=rnd.randrange(span))
        created = created.replace(hour=rnd.randint(8, 17))
        first, last = person_name(rnd)
        p = min(source_conversion[source] * traits.conversion[rep], 0.9)
        lag = dt.timedelta(days=2 + rnd.expovariate(1 / 16), hours=rnd.randint(0, 8))
        converts = (
            rnd.random() < p
            and created + lag < DATA_NOW - dt.timedelta(days=1)
            and converted_count < max_converted
        )
        if domain.business_accounts:
            decider = rnd.random() < 0.45
            title = rnd.choice(domain.lead_titles_decider if decider else domain.lead_titles_other)
        else:
            title = None
        leads.first.append(first)
        leads.last.append(last)
        leads.owner.append(rep)
        leads.source.append(source)
        leads.created.append(created)
        leads.converted.append(created + lag if converts else None)
        leads.title.append(title)
        if converts:
            converted_count += 1
            leads.gaps.append(())
        else:
            leads.gaps.append(() if rnd.random() < QUALIFIED_SHARE else pick_gap.pick(rnd))
        leads.state.append(pick_state.pick(rnd))
        leads.company.append(rnd.choice(prospects) if prospects else f"{first} {last}")
        leads.account.append(None)
        leads.contact.append(None)
        leads.opportunity.append(None)
        leads.ids.append(ctx.record_id("Lead", len(leads.ids) + 1))
    ctx.plan["leads"] = leads
    _plan_contacts(ctx, rnd, leads, converted_count)


def _plan_contacts(ctx: Context, rnd, leads: Leads, converted_count: int) -> None:
    """Base contacts (B2B: spread over the companies; B2C: one consumer per account), then one per conversion."""
    from crmarena_sf.loaders.pro.people import People

    domain: Domain = ctx.plan["domain"]
    accounts: Accounts = ctx.plan["accounts"]
    ctx.plan["people"] = People()
    used: set[str] = set()
    n_contacts = ctx.count("Contact")
    base = n_contacts - converted_count
    if domain.business_accounts:
        sizes = Weighted(range(len(accounts)), [rnd.lognormvariate(0, 0.6) for _ in range(len(accounts))])
        owners = [a % len(accounts) for a in range(min(base, 2 * len(accounts)))]
        owners += [sizes.pick(rnd) for _ in range(base - len(owners))]
        for a in sorted(owners):
            title = rnd.choice(domain.lead_titles_decider + domain.lead_titles_other)
            new_person(ctx, rnd, used, a, accounts.created[a] + dt.timedelta(days=rnd.randint(0, 20)), title)
    else:
        for a in range(base):
            new_person(ctx, rnd, used, a, accounts.created[a], None)
    free_consumers = list(range(base, len(accounts)))
    for k in sorted(range(len(leads)), key=lambda k: (leads.converted[k] or DATA_NOW, k)):
        when = leads.converted[k]
        if when is None:
            continue
        if domain.business_accounts:
            a = rnd.randrange(len(accounts))
            leads.company[k] = accounts.names[a]
            leads.state[k] = accounts.states[a]
        else:
            a = free_consumers.pop(0)
            accounts.created[a] = when
            accounts.states[a] = leads.state[k]
            accounts.cities[a] = rnd.choice(STATES[leads.state[k]].cities)
        leads.account[k] = a
        leads.contact[k] = new_person(
            ctx, rnd, used, a, when, leads.title[k], (leads.first[k], leads.last[k])
        )


def write_leads(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-lead-rows")
    leads: Leads = ctx.plan["leads"]
    staff = ctx.plan["staff"]
    accounts: Accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    deals = ctx.plan["deals"]
    used: set[str] = set()
    rows = []
    for k in range(len(leads)):
        state = STATES[leads.state[k]]
        converted = leads.converted[k]
        if converted is not None:
            status = "Closed - Converted"
        elif leads.created[k] < DATA_NOW - dt.timedelta(days=STALE_DAYS) and leads.gaps[k]:
            status = "Closed - Not Converted"
        else:
            status = "Working - Contacted"
        contact = leads.contact[k]
        email = (
            people.email[contact]
            if contact is not None
            else f"{unique_handle(leads.first[k], leads.last[k], used)}@{rnd.choice(domain.customer_domains)}"
        )
        modified = converted or leads.created[k] + dt.timedelta(days=rnd.randint(1, 30))
        rows.append(
            {
                "Id": leads.ids[k],
                "LastName": leads.last[k],
                "FirstName": leads.first[k],
                "Name": leads.name(k),
                "Title": leads.title[k],
                "Company": leads.company[k],
                "City": rnd.choice(state.cities),
                "State": leads.state[k],
                "Country": "United States",
                "Phone": phone(rnd, state.area_code),
                "Email": email,
                "Description": f"Interested in a {domain.deal_noun}; came in through {leads.source[k].lower()}.",
                "LeadSource": leads.source[k],
                "Status": status,
                "Industry": rnd.choice(domain.industries) if domain.business_accounts else None,
                "OwnerId": staff.rep_id(leads.owner[k]),
                "IsConverted": converted is not None,
                "ConvertedDate": converted.date() if converted else None,
                "ConvertedAccountId": accounts.ids[leads.account[k]] if converted else None,
                "ConvertedContactId": people.ids[contact] if converted else None,
                "ConvertedOpportunityId": deals.ids[leads.opportunity[k]] if converted else None,
                "IsUnreadByOwner": False,
                **audit(ctx, leads.created[k], min(modified, DATA_NOW), staff.rep_id(leads.owner[k])),
            }
        )
    emit(ctx, "Lead", rows)


def bant_profile(gaps: tuple[str, ...]) -> dict[str, bool]:
    """Factor -> met, for a lead whose unmet factors are ``gaps``."""
    return {factor: factor not in gaps for factor in BANT}
