"""People: the users (sales reps, service agents, other staff), the accounts and their contacts.

B2B accounts are companies (name, industry, size, a shipping state) with many contacts each;
B2C accounts are consumers, one contact per account, as in CRMArena-Pro's B2C dump (200 of
each), rather than person accounts. A lead that converts becomes a contact of its account (B2B:
a new contact at the company it came from; B2C: the consumer's own account), so the contacts
are written after the leads are planned (:mod:`.pipeline`). Every contact keeps private data a
customer must not learn about another one (phone, email, mailing address: the
private-customer-information task); the manifest lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from crmarena_sf.emulator.store.seed import STANDARD_USER_PROFILE_ID
from crmarena_sf.loaders.generate import vocab
from crmarena_sf.loaders.generate.context import ADMIN_USER_N, Context
from crmarena_sf.loaders.generate.people import person_name, phone, unique_handle
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro import latent
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.records import FIRST_DAY, ORG_START, audit, emit

STATES = {s.code: s for s in vocab.STATES}


@dataclass
class Staff:
    ids: list[str]
    names: list[str]
    emails: list[str]
    reps: list[int]
    """User indexes of the sales reps."""
    agents: list[int]
    """User indexes of the service agents."""
    rep_traits: latent.RepTraits
    agent_traits: latent.AgentTraits

    def rep_id(self, r: int) -> str:
        return self.ids[self.reps[r]]

    def rep_name(self, r: int) -> str:
        return self.names[self.reps[r]]

    def agent_id(self, a: int) -> str:
        return self.ids[self.agents[a]]

    def agent_name(self, a: int) -> str:
        return self.names[self.agents[a]]


def write_users(ctx: Context) -> None:
    """User: sales reps first, then service agents, then other staff; unique usernames and aliases."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-users")
    n = ctx.count("User")
    n_reps, n_agents = ctx.sizing.reps, ctx.sizing.agents
    used: set[str] = set()
    rows, ids, names, emails = [], [], [], []
    for i in range(n):
        first, last = person_name(rnd)
        handle = unique_handle(first, last, used)
        email = f"{handle}@{domain.email_domain}"
        role = "rep" if i < n_reps else "agent" if i < n_reps + n_agents else "staff"
        title = rnd.choice(
            {"rep": domain.rep_titles, "agent": domain.agent_titles, "staff": domain.staff_titles}[role]
        )
        department = {"rep": "Sales", "agent": "Customer Support", "staff": "Operations"}[role]
        state = rnd.choice(vocab.STATES)
        created = ORG_START + (FIRST_HIRE * rnd.random())
        uid = ctx.record_id("User", ADMIN_USER_N + 1 + i)
        rows.append(
            {
                "Id": uid,
                "Username": email,
                "LastName": last,
                "FirstName": first,
                "Name": f"{first} {last}",
                "CompanyName": domain.company,
                "Department": department,
                "Title": title,
                "Email": email,
                "Phone": phone(rnd, state.area_code),
                "Alias": (first[0] + re.sub(r"[^A-Za-z]", "", last))[:8].lower(),
                "CommunityNickname": handle[:40],
                "IsActive": True,
                "TimeZoneSidKey": rnd.choice(vocab.TIME_ZONES),
                "LocaleSidKey": "en_US",
                "EmailEncodingKey": "UTF-8",
                "ProfileId": STANDARD_USER_PROFILE_ID,
                "UserType": "Standard",
                "LanguageLocaleKey": "en_US",
                "DigestFrequency": "D",
                "DefaultGroupNotificationFrequency": "N",
                **audit(ctx, created),
            }
        )
        ids.append(uid)
        names.append(f"{first} {last}")
        emails.append(email)
    emit(ctx, "User", rows)
    ctx.plan["staff"] = Staff(
        ids,
        names,
        emails,
        list(range(n_reps)),
        list(range(n_reps, n_reps + n_agents)),
        latent.draw_rep_traits(ctx.rng("pro-rep-traits"), n_reps),
        latent.draw_agent_traits(
            ctx.rng("pro-agent-traits"), n_agents, len(domain.issues), len(domain.categories)
        ),
    )


FIRST_HIRE = ORG_START.replace(month=12, day=20) - ORG_START
"""Users were created during the org's first weeks."""


@dataclass
class Accounts:
    names: list[str] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    cities: list[str] = field(default_factory=list)
    created: list = field(default_factory=list)
    owner_rep: list[int] = field(default_factory=list)
    contacts: list[list[int]] = field(default_factory=list)
    """Per account, its contact indexes (filled when contacts are planned)."""
    ids: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.names)


@dataclass
class People:
    """Contacts (and, for B2C, the consumers their accounts stand for)."""

    first: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)
    email: list[str] = field(default_factory=list)
    phone: list[str] = field(default_factory=list)
    title: list[str | None] = field(default_factory=list)
    account: list[int] = field(default_factory=list)
    created: list = field(default_factory=list)
    street: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.first)

    def name(self, k: int) -> str:
        return f"{self.first[k]} {self.last[k]}"


def company_names(domain: Domain, rnd, n: int, taken: set[str]) -> list[str]:
    """``n`` company names not in ``taken`` (numbered when the word pairs run out)."""
    firsts, seconds = domain.account_words
    pairs = [f"{a} {b}" for a in firsts for b in seconds]
    rnd.shuffle(pairs)
    out = []
    k = 0
    while len(out) < n:
        name = pairs[k % len(pairs)] + ("" if k < len(pairs) else f" {k // len(pairs) + 1}")
        k += 1
        if name not in taken:
            taken.add(name)
            out.append(name)
    return out


def plan_accounts(ctx: Context) -> None:
    """The accounts: companies (B2B, named) or consumers (B2C, named after the person, see :func:`write_people`)."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-accounts")
    n = ctx.count("Account")
    accounts = Accounts()
    states = sorted(domain.territory_of())
    state_pick = Weighted(states, [STATES[s].weight for s in states])
    names = company_names(domain, rnd, n, set()) if domain.business_accounts else [""] * n
    for i in range(n):
        state = state_pick.pick(rnd)
        accounts.names.append(names[i])
        accounts.states.append(state)
        accounts.cities.append(rnd.choice(STATES[state].cities))
        # Customers the company had when it set up the org; a B2C lead's conversion dates its own account.
        accounts.created.append(ORG_START + (FIRST_DAY - ORG_START) * rnd.random())
        accounts.owner_rep.append(rnd.randrange(ctx.sizing.reps))
        accounts.contacts.append([])
        accounts.ids.append(ctx.record_id("Account", i + 1))
    ctx.plan["accounts"] = accounts


def write_people(ctx: Context) -> None:
    """Account and Contact, once the leads have said which contacts conversions create."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-people")
    accounts: Accounts = ctx.plan["accounts"]
    people: People = ctx.plan["people"]
    staff: Staff = ctx.plan["staff"]
    account_rows = []
    for i in range(len(accounts)):
        state = STATES[accounts.states[i]]
        if not domain.business_accounts and accounts.contacts[i]:
            k = accounts.contacts[i][0]
            accounts.names[i] = people.name(k)
        street = (
            f"{rnd.randint(10, 9899)} {rnd.choice(vocab.STREET_NAMES)} {rnd.choice(vocab.STREET_SUFFIXES)}"
        )
        row = {
            "Id": accounts.ids[i],
            "Name": accounts.names[i],
            "Type": "Customer - Direct",
            "ShippingStreet": street,
            "ShippingCity": accounts.cities[i],
            "ShippingState": accounts.states[i],
            "ShippingPostalCode": f"{state.zip_prefix}{rnd.randint(0, 999):03d}",
            "ShippingCountry": "United States",
            "BillingStreet": street,
            "BillingCity": accounts.cities[i],
            "BillingState": accounts.states[i],
            "BillingPostalCode": f"{state.zip_prefix}{rnd.randint(0, 999):03d}",
            "BillingCountry": "United States",
            "Phone": phone(rnd, state.area_code),
            "Industry": rnd.choice(domain.industries) if domain.business_accounts else None,
            "NumberOfEmployees": int(rnd.lognormvariate(5.5, 1.1)) + 20 if domain.business_accounts else None,
            "Description": (
                f"{accounts.names[i]} designs {rnd.choice(PRODUCT_WORDS)} in {accounts.cities[i]}, {accounts.states[i]}."
                if domain.business_accounts
                else f"Individual customer of {domain.company} from {accounts.cities[i]}, {accounts.states[i]}."
            ),
            "AccountSource": rnd.choice(("Web", "Phone Inquiry", "Partner Referral", "Other")),
            "OwnerId": staff.rep_id(accounts.owner_rep[i]),
            **audit(ctx, accounts.created[i]),
        }
        account_rows.append(row)
    emit(ctx, "Account", account_rows)
    contact_rows = []
    for k in range(len(people)):
        a = people.account[k]
        state = STATES[accounts.states[a]]
        contact_rows.append(
            {
                "Id": people.ids[k],
                "AccountId": accounts.ids[a],
                "LastName": people.last[k],
                "FirstName": people.first[k],
                "Name": people.name(k),
                "Title": people.title[k],
                "MailingStreet": people.street[k],
                "MailingCity": accounts.cities[a],
                "MailingState": accounts.states[a],
                "MailingPostalCode": f"{state.zip_prefix}{(k * 37) % 1000:03d}",
                "MailingCountry": "United States",
                "Phone": people.phone[k],
                "Email": people.email[k],
                "OwnerId": staff.rep_id(accounts.owner_rep[a]),
                **audit(ctx, people.created[k]),
            }
        )
    emit(ctx, "Contact", contact_rows)


PRODUCT_WORDS = (
    "industrial controllers",
    "medical imaging boards",
    "automotive sensors",
    "networking hardware",
    "consumer wearables",
    "satellite radios",
    "power converters",
    "robot drives",
)


def new_person(ctx: Context, rnd, used: set[str], account: int, created, title: str | None, name=None) -> int:
    """Add one contact to the plan (its Id follows the contacts planned before it)."""
    domain: Domain = ctx.plan["domain"]
    accounts: Accounts = ctx.plan["accounts"]
    people: People = ctx.plan["people"]
    first, last = name or person_name(rnd)
    handle = unique_handle(first, last, used)
    if domain.business_accounts:
        email_domain = re.sub(r"[^a-z]", "", accounts.names[account].lower())[:20] + ".example.com"
    else:
        email_domain = rnd.choice(domain.customer_domains)
    k = len(people)
    people.first.append(first)
    people.last.append(last)
    people.email.append(f"{handle}@{email_domain}")
    people.phone.append(phone(rnd, STATES[accounts.states[account]].area_code))
    people.title.append(title)
    people.account.append(account)
    people.created.append(created)
    people.street.append(
        f"{rnd.randint(10, 9899)} {rnd.choice(vocab.STREET_NAMES)} {rnd.choice(vocab.STREET_SUFFIXES)}"
    )
    people.ids.append(ctx.record_id("Contact", k + 1))
    accounts.contacts[account].append(k)
    return k
