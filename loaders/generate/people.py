"""People and reference data: the ten issues, the agents (Users) and the customers (person accounts).

Customers are person accounts (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db): an Account with the Person Account record
type, FirstName/LastName/PersonEmail, a derived Name, and its person Contact (same name and
email, ``IsPersonAccount``), which ``Account.PersonContactId`` points at. The org holds a
few more contacts than accounts (208 for 201): those extra contacts belong to no account.
Agents are Standard User users with the Service Cloud permissions; the new org's admin user
(record number 1) is not generated again.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from crmarena_sf.emulator.store.seed import STANDARD_USER_PROFILE_ID
from crmarena_sf.loaders.generate import latent, vocab
from crmarena_sf.loaders.generate.context import ADMIN_USER_N, Context, audit_sql, secs, ts
from crmarena_sf.loaders.generate.rng import Weighted
from faker.providers.person.en_US import Provider as PersonNames

_FEMALE = Weighted(list(PersonNames.first_names_female), list(PersonNames.first_names_female.values()))
_MALE = Weighted(list(PersonNames.first_names_male), list(PersonNames.first_names_male.values()))
_LAST = Weighted(list(PersonNames.last_names), list(PersonNames.last_names.values()))
_STATES = Weighted(list(vocab.STATES), [s.weight for s in vocab.STATES])


def person_name(rnd) -> tuple[str, str]:
    first = (_FEMALE if rnd.random() < 0.5 else _MALE).pick(rnd)
    return first, _LAST.pick(rnd)


def _handle(first: str, last: str) -> str:
    return re.sub(r"[^a-z]", "", first.lower()) + "." + re.sub(r"[^a-z]", "", last.lower())


def unique_handle(first: str, last: str, used: set[str]) -> str:
    """``first.last``, numbered from 2 when taken (an email's local part stays unique)."""
    base = _handle(first, last)
    handle, n = base, 1
    while handle in used:
        n += 1
        handle = f"{base}{n}"
    used.add(handle)
    return handle


def phone(rnd, area_code: str) -> str:
    return f"({area_code}) {rnd.randint(200, 989)}-{rnd.randint(0, 9999):04d}"


# ---------------------------------------------------------------------------- issues
def write_issues(ctx: Context) -> None:
    """Issue__c: the ten issue categories cases are filed under."""
    n = ctx.count("Issue__c")
    kinds = [vocab.ISSUES[i % len(vocab.ISSUES)] for i in range(n)]
    created = secs(vocab.ORG_START)
    ctx.stage(
        "raw_issue",
        {
            "n": ("INTEGER", list(range(1, n + 1))),
            "name": (
                "VARCHAR",
                [k.name if i < len(vocab.ISSUES) else f"{k.name} {i + 1}" for i, k in enumerate(kinds)],
            ),
            "description": ("VARCHAR", [k.description for k in kinds]),
        },
    )
    ctx.write(
        "Issue__c",
        f'SELECT {ctx.sql_id("Issue__c", "n")} AS "Id", name AS "Name", description AS "Description__c", '
        f"{audit_sql(ts(str(created)), owner=True)} FROM raw_issue ORDER BY n",
    )
    ctx.plan["issues"] = [ctx.record_id("Issue__c", i + 1) for i in range(n)]
    ctx.plan["issue_kinds"] = kinds


# ---------------------------------------------------------------------------- agents
@dataclass
class Agents:
    ids: list[str]
    names: list[str]
    emails: list[str]
    traits: latent.AgentTraits


def write_agents(ctx: Context) -> None:
    """User: the service agents, each with a unique username, alias and nickname."""
    rnd = ctx.rng("agents")
    n = ctx.count("User")
    used: set[str] = set()
    rows: dict[str, list] = {
        k: [] for k in ("n", "first", "last", "email", "alias", "nick", "title", "tz", "phone", "created")
    }
    titles = Weighted([t for t, _ in vocab.AGENT_TITLES], [w for _, w in vocab.AGENT_TITLES])
    names, emails = [], []
    for i in range(n):
        first, last = person_name(rnd)
        handle = unique_handle(first, last, used)
        email = f"{handle}@{vocab.COMPANY_DOMAIN}"
        rows["n"].append(ADMIN_USER_N + 1 + i)
        rows["first"].append(first)
        rows["last"].append(last)
        rows["email"].append(email)
        rows["alias"].append((first[0] + re.sub(r"[^A-Za-z]", "", last))[:8].lower())
        rows["nick"].append(handle[:40])
        rows["title"].append(titles.pick(rnd))
        rows["tz"].append(rnd.choice(vocab.TIME_ZONES))
        rows["phone"].append(phone(rnd, rnd.choice(vocab.STATES).area_code))
        rows["created"].append(secs(vocab.ORG_START + dt.timedelta(hours=rnd.randint(1, 24 * 20))))
        names.append(f"{first} {last}")
        emails.append(email)
    ctx.stage("raw_user", {k: ("BIGINT" if k in ("n", "created") else "VARCHAR", v) for k, v in rows.items()})
    ctx.write(
        "User",
        f'SELECT {ctx.sql_id("User", "n")} AS "Id", email AS "Username", last AS "LastName", first AS "FirstName", '
        "first || ' ' || last AS \"Name\", "
        f'\'{vocab.COMPANY}\' AS "CompanyName", \'Customer Service\' AS "Department", title AS "Title", '
        'email AS "Email", phone AS "Phone", alias AS "Alias", nick AS "CommunityNickname", true AS "IsActive", '
        'tz AS "TimeZoneSidKey", \'en_US\' AS "LocaleSidKey", \'UTF-8\' AS "EmailEncodingKey", '
        f"'{STANDARD_USER_PROFILE_ID}' AS \"ProfileId\", 'Standard' AS \"UserType\", 'en_US' AS \"LanguageLocaleKey\", "
        "'D' AS \"DigestFrequency\", 'N' AS \"DefaultGroupNotificationFrequency\", "
        'true AS "UserPermissionsSupportUser", true AS "UserPermissionsKnowledgeUser", '
        'true AS "UserPermissionsLiveAgentUser", '
        f"{audit_sql(ts('created'))} FROM raw_user ORDER BY n",
    )
    ids = [ctx.record_id("User", k) for k in rows["n"]]
    traits = latent.draw_agent_traits(ctx.rng("agent-traits"), n, len(ctx.plan["issues"]))
    ctx.plan["agents"] = Agents(ids, names, emails, traits)


# ---------------------------------------------------------------------------- customers
@dataclass
class Customers:
    first: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)
    email: list[str] = field(default_factory=list)
    state: list[str] = field(default_factory=list)
    city: list[str] = field(default_factory=list)
    since: list[dt.datetime] = field(default_factory=list)
    """When the customer's account was created (every order and case comes later)."""
    account_ids: list[str] = field(default_factory=list)
    contact_ids: list[str] = field(default_factory=list)
    habits: latent.CustomerHabits | None = None

    def __len__(self) -> int:
        return len(self.account_ids)

    def name(self, i: int) -> str:
        return f"{self.first[i]} {self.last[i]}"


def write_customers(ctx: Context) -> None:
    """Account (person accounts) and Contact (their person contacts, plus contacts without an account)."""
    rnd = ctx.rng("customers")
    n_accounts = ctx.count("Account")
    n_contacts = max(ctx.count("Contact"), n_accounts)
    used: set[str] = set()
    cust = Customers()
    rows: dict[str, list] = {
        k: [] for k in ("first", "last", "email", "phone", "street", "city", "state", "zip", "created")
    }
    span = (vocab.LAST_CASE - dt.timedelta(days=120) - vocab.ORG_START).total_seconds()
    for i in range(n_contacts):
        first, last = person_name(rnd)
        handle = unique_handle(first, last, used)
        state = _STATES.pick(rnd)
        city = rnd.choice(state.cities)
        # Most customers signed up early; sign-ups thin out towards the end of the data.
        since = vocab.ORG_START + dt.timedelta(seconds=int(span * rnd.random() ** 2.2) + 3600)
        rows["first"].append(first)
        rows["last"].append(last)
        rows["email"].append(f"{handle}@{rnd.choice(vocab.CUSTOMER_DOMAINS)}")
        rows["phone"].append(phone(rnd, state.area_code))
        rows["street"].append(
            f"{rnd.randint(10, 9899)} {rnd.choice(vocab.STREET_NAMES)} {rnd.choice(vocab.STREET_SUFFIXES)}"
        )
        rows["city"].append(city)
        rows["state"].append(state.code)
        rows["zip"].append(f"{state.zip_prefix}{rnd.randint(0, 999):03d}")
        rows["created"].append(secs(since))
        if i < n_accounts:
            cust.first.append(first)
            cust.last.append(last)
            cust.email.append(rows["email"][-1])
            cust.state.append(state.code)
            cust.city.append(city)
            cust.since.append(since)
            cust.account_ids.append(ctx.record_id("Account", i + 1))
            cust.contact_ids.append(ctx.record_id("Contact", i + 1))
    staged = {k: ("BIGINT" if k == "created" else "VARCHAR", v) for k, v in rows.items()}
    staged["n"] = ("BIGINT", list(range(1, n_contacts + 1)))
    ctx.stage("raw_customer", staged)
    person_type = ctx.schema.get("Account").record_type("PersonAccount")
    account_id, contact_id = ctx.sql_id("Account", "n"), ctx.sql_id("Contact", "n")
    address = (
        'street AS "ShippingStreet", city AS "ShippingCity", state AS "ShippingState", zip AS "ShippingPostalCode", '
        "'United States' AS \"ShippingCountry\", "
    )
    ctx.write(
        "Account",
        f'SELECT {account_id} AS "Id", first || \' \' || last AS "Name", '
        f"'{person_type.recordTypeId}' AS \"RecordTypeId\", {address}"
        'phone AS "Phone", \'Web\' AS "AccountSource", '
        f'{audit_sql(ts("created"), owner=True)}, first AS "FirstName", last AS "LastName", '
        f'{contact_id} AS "PersonContactId", true AS "IsPersonAccount", email AS "PersonEmail", '
        f'street AS "PersonMailingStreet", city AS "PersonMailingCity", state AS "PersonMailingState", '
        'zip AS "PersonMailingPostalCode", \'United States\' AS "PersonMailingCountry" '
        f"FROM raw_customer WHERE n <= {n_accounts} ORDER BY n",
    )
    ctx.write(
        "Contact",
        f'SELECT {contact_id} AS "Id", CASE WHEN n <= {n_accounts} THEN {account_id} END AS "AccountId", '
        'last AS "LastName", first AS "FirstName", first || \' \' || last AS "Name", '
        'street AS "MailingStreet", city AS "MailingCity", state AS "MailingState", zip AS "MailingPostalCode", '
        '\'United States\' AS "MailingCountry", phone AS "Phone", email AS "Email", '
        f'{audit_sql(ts("created"), owner=True)}, n <= {n_accounts} AS "IsPersonAccount" '
        "FROM raw_customer ORDER BY n",
    )
    cust.habits = latent.draw_customer_habits(ctx.rng("customer-habits"), n_accounts, len(ctx.plan["issues"]))
    ctx.plan["customers"] = cust
