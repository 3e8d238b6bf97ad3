"""soql_generation: the text-to-SOQL track (suite ``soql``): a question in words, answered with a query.

Each instance holds a gold query built from the org's real data, in eight graded levels of
the language (``params.level``, ``params.level_name``). An answer is a SOQL or SOSL query;
it scores by execution (:mod:`crmarena_sf.tasks.soql_eval`): the predicted and the gold query run
on the same org and their results are compared. Instances whose gold returns nothing, or
more than :data:`MAX_ROWS` rows, are not asked (an empty result would match any query that
finds nothing). Date-literal questions carry ``params.now``: the emulator's org clock is
frozen there for the episode, so ``LAST_N_DAYS:30`` means the same thing every run.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.org_client import OrgClient, quote

NAME = "soql_generation"
PERSONA = "developer"
METRIC = "soql_execution"
NONE_SHARE = 0.0
DEFAULT_INSTANCES = 320
MAX_ROWS = 150

LEVELS = {
    1: "single-object filters",
    2: "parent relationship paths",
    3: "child subqueries",
    4: "aggregates with GROUP BY and HAVING",
    5: "date literals and date functions",
    6: "semi-joins and anti-joins",
    7: "polymorphic fields and TYPEOF",
    8: "SOSL search",
}

REQUIRED = (
    "- Answer with one SOQL query (or, where a text search fits better, one SOSL search) that returns exactly "
    "what the question asks for: the fields it names, every matching record, nothing else. You may run "
    "queries to explore the org; your final answer is the query itself, not its result."
)


def solve(client: OrgClient, params: dict) -> Solution:
    """The gold query (run once here, so a broken gold query stops the build)."""
    query = params["soql"]
    if query.startswith("FIND"):
        client.search(query)
    else:
        client.query(query)
    return Solution(query)


class _Data:
    """Values to ask about, read once from the org."""

    def __init__(self, client: OrgClient) -> None:
        self.accounts = client.query(
            "SELECT Id, Name, ShippingCity, ShippingState FROM Account WHERE ShippingCity != null"
        )
        self.orders = client.query(
            "SELECT Id, EffectiveDate, Account.Name FROM Order WHERE Status = 'Activated'"
        )
        self.issues = client.query("SELECT Id, Name FROM Issue__c")
        self.products = client.query("SELECT Id, Name FROM Product2")
        self.categories = [r["Name"] for r in client.query("SELECT Name FROM ProductCategory")]
        self.contacts = client.query(
            "SELECT Name, FirstName FROM Contact WHERE Id IN (SELECT ContactId FROM Case)"
        )
        self.words = sorted(
            {w for p in self.products for w in p["Name"].split() if w.isalpha() and len(w) > 4}
        )
        self.articles = client.query(
            "SELECT Title FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Language = 'en_US'"
        )
        self.years = sorted(
            {
                int(r["y"])
                for r in client.query(
                    "SELECT CALENDAR_YEAR(CreatedDate) y FROM Case GROUP BY CALENDAR_YEAR(CreatedDate)"
                )
            }
        )


Template = Callable[[object, _Data], tuple[str, str]]


def _l1(rnd, d: _Data):
    choice = rnd.randrange(4)
    if choice == 0:
        priority, status = rnd.choice(["High", "Medium", "Low"]), rnd.choice(["New", "Working", "Escalated"])
        return (
            f"List the subject and the status of every {priority.lower()}-priority case whose status is {status}.",
            f"SELECT Subject, Status FROM Case WHERE Priority = {quote(priority)} AND Status = {quote(status)}",
        )
    if choice == 1:
        word = rnd.choice(d.words)
        return (
            f"Which products have '{word}' in their name? Give their names.",
            f"SELECT Name FROM Product2 WHERE Name LIKE {quote('%' + word + '%')}",
        )
    if choice == 2:
        city = rnd.choice(d.accounts)["ShippingCity"]
        return (
            f"Give the first and last names of the customers whose shipping city is {city}.",
            f"SELECT FirstName, LastName FROM Account WHERE ShippingCity = {quote(city)}",
        )
    day = rnd.choice(d.orders)["EffectiveDate"]
    return (
        f"Which orders have an effective date of {day}? Give their Ids.",
        f"SELECT Id FROM Order WHERE EffectiveDate = {day}",
    )


def _l2(rnd, d: _Data):
    choice = rnd.randrange(3)
    if choice == 0:
        state = rnd.choice(d.accounts)["ShippingState"]
        return (
            f"List the subjects of the cases opened by customers whose account ships to the state {state}.",
            f"SELECT Subject FROM Case WHERE Account.ShippingState = {quote(state)}",
        )
    if choice == 1:
        order = rnd.choice(d.orders)
        return (
            f"For each item of order {order['Id']}, give the product's name and the quantity.",
            f"SELECT Product2.Name, Quantity FROM OrderItem WHERE OrderId = {quote(order['Id'])}",
        )
    contact = rnd.choice(d.contacts)["Name"]
    return (
        f"List the subject and status of each case whose contact is {contact}, with the name of the issue it is about.",
        f"SELECT Subject, Status, IssueId__r.Name FROM Case WHERE Contact.Name = {quote(contact)}",
    )


def _l3(rnd, d: _Data):
    choice = rnd.randrange(3)
    if choice == 0:
        city = rnd.choice(d.accounts)["ShippingCity"]
        return (
            f"For every customer whose shipping city is {city}, give the customer's name and the subjects of all their cases.",
            f"SELECT Name, (SELECT Subject FROM Cases) FROM Account WHERE ShippingCity = {quote(city)}",
        )
    if choice == 1:
        order = rnd.choice(d.orders)
        return (
            f"Give the status of order {order['Id']} together with the quantity and unit price of each of its items.",
            f"SELECT Status, (SELECT Quantity, UnitPrice FROM OrderItems) FROM Order WHERE Id = {quote(order['Id'])}",
        )
    contact = rnd.choice(d.contacts)["Name"]
    return (
        f"For each case whose contact is {contact}, give its subject and the subjects of the emails on it.",
        f"SELECT Subject, (SELECT Subject FROM EmailMessages) FROM Case WHERE Contact.Name = {quote(contact)}",
    )


def _l4(rnd, d: _Data):
    choice = rnd.randrange(4)
    if choice == 0:
        issue = rnd.choice(d.issues)
        return (
            f"Among cases about the issue '{issue['Name']}', how many are there of each status? Give each status and its count.",
            f"SELECT Status, COUNT(Id) FROM Case WHERE IssueId__c = {quote(issue['Id'])} GROUP BY Status",
        )
    if choice == 1:
        k = rnd.randint(8, 30)
        return (
            f"Which agents own more than {k} closed cases? Give each agent's user Id and the number of closed cases they own.",
            f"SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY OwnerId HAVING COUNT(Id) > {k}",
        )
    if choice == 2:
        product = rnd.choice(d.products)
        return (
            f"What are the lowest and the highest unit price of '{product['Name']}' across all price book entries?",
            f"SELECT MIN(UnitPrice), MAX(UnitPrice) FROM PricebookEntry WHERE Product2Id = {quote(product['Id'])}",
        )
    k = rnd.randint(10, 40)
    return (
        f"Which shipping states have more than {k} cases? Give each state and its number of cases.",
        f"SELECT Account.ShippingState, COUNT(Id) FROM Case GROUP BY Account.ShippingState HAVING COUNT(Id) > {k}",
    )


def _l5(rnd, d: _Data):
    choice = rnd.randrange(4)
    year = rnd.choice(d.years)
    if choice == 0:
        return (
            f"How many cases were created in each calendar month of {year}? Give the month number and the count.",
            f"SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case WHERE CALENDAR_YEAR(CreatedDate) = {year} "
            "GROUP BY CALENDAR_MONTH(CreatedDate)",
        )
    if choice == 1:
        quarter = rnd.randint(1, 4)
        return (
            f"In quarter {quarter} of {year}, how many cases were created on each day of the week? Give the day-of-week number (1 = Sunday) and the count.",
            f"SELECT DAY_IN_WEEK(CreatedDate), COUNT(Id) FROM Case WHERE CALENDAR_QUARTER(CreatedDate) = {quarter} "
            f"AND CALENDAR_YEAR(CreatedDate) = {year} GROUP BY DAY_IN_WEEK(CreatedDate)",
        )
    if choice == 2:
        n = rnd.choice([7, 10, 14, 30])
        return (
            f"List the subjects of the cases created today or in the {n} days before today.",
            f"SELECT Subject FROM Case WHERE CreatedDate = LAST_N_DAYS:{n}",
        )
    return (
        "List the subjects of the cases closed last month.",
        "SELECT Subject FROM Case WHERE ClosedDate = LAST_MONTH",
    )


def _l6(rnd, d: _Data):
    choice = rnd.randrange(3)
    if choice == 0:
        state = rnd.choice(d.accounts)["ShippingState"]
        status = rnd.choice(["Closed", "Working", "New", "Escalated"])
        return (
            f"Which customers shipping to {state} have at least one case with status {status}? Give their names.",
            f"SELECT Name FROM Account WHERE ShippingState = {quote(state)} AND Id IN (SELECT AccountId FROM Case WHERE Status = {quote(status)})",
        )
    if choice == 1:
        city = rnd.choice(d.accounts)["ShippingCity"]
        return (
            f"Which customers whose shipping city is {city} have never opened a case? Give their names.",
            f"SELECT Name FROM Account WHERE ShippingCity = {quote(city)} AND Id NOT IN (SELECT AccountId FROM Case)",
        )
    issue = rnd.choice(d.issues)
    return (
        f"Which contacts have an open (not closed) case about the issue '{issue['Name']}'? Give their names and emails.",
        f"SELECT Name, Email FROM Contact WHERE Id IN (SELECT ContactId FROM Case WHERE IssueId__c = {quote(issue['Id'])} AND Status != 'Closed')",
    )


def _l7(rnd, d: _Data):
    choice = rnd.randrange(2)
    contact = rnd.choice(d.contacts)["Name"]
    if choice == 0:
        return (
            f"For each case whose contact is {contact}, give the subject and, when the owner is a user, the owner's name and email (use TYPEOF on the polymorphic Owner).",
            f"SELECT Subject, TYPEOF Owner WHEN User THEN Name, Email END FROM Case WHERE Contact.Name = {quote(contact)}",
        )
    issue = rnd.choice(d.issues)
    year = rnd.choice(d.years)
    return (
        f"For the cases about '{issue['Name']}' created in {year} and owned by a user (not a queue), give the subject and the owner's name.",
        f"SELECT Subject, Owner.Name FROM Case WHERE IssueId__c = {quote(issue['Id'])} AND CALENDAR_YEAR(CreatedDate) = {year} "
        "AND Owner.Type = 'User'",
    )


def _l8(rnd, d: _Data):
    choice = rnd.randrange(3)
    if choice == 0:
        word = rnd.choice(d.words)
        return (
            f"Search every field for the word '{word}' and return the names of the matching products.",
            f"FIND {{{word}}} IN ALL FIELDS RETURNING Product2(Name)",
        )
    if choice == 1:
        title = rnd.choice(d.articles)["Title"]
        words = " ".join(
            w for w in title.split() if w.isalpha() and w.lower() not in ("and", "the", "of", "for")
        )[:40].rsplit(" ", 1)[0]
        return (
            f"Search for '{words}' and return the titles of the matching published English knowledge articles.",
            f"FIND {{{words}}} IN ALL FIELDS RETURNING Knowledge__kav(Title WHERE PublishStatus = 'Online' AND Language = 'en_US')",
        )
    first = rnd.choice(d.contacts)["FirstName"]
    return (
        f"Search name fields for '{first}' and return the matching contacts' names and emails.",
        f"FIND {{{first}}} IN NAME FIELDS RETURNING Contact(Name, Email)",
    )


TEMPLATES: dict[int, Template] = {1: _l1, 2: _l2, 3: _l3, 4: _l4, 5: _l5, 6: _l6, 7: _l7, 8: _l8}


def _rows(client: OrgClient, query: str, now: str | None) -> int:
    from crmarena_sf.connection.connect import emulated_org

    org = emulated_org(client.sf)
    if now and org is not None:
        org.clock.freeze(now)
    try:
        if query.startswith("FIND"):
            return len(client.search(query))
        result = client.sf.query(query)
        return result["totalSize"] if result["totalSize"] <= MAX_ROWS else MAX_ROWS + 1
    finally:
        if now and org is not None:
            org.clock.unfreeze()


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    from simple_salesforce.exceptions import SalesforceError

    rnd = ctx.rnd
    client = OrgClient(ctx.sf)
    data = _Data(client)
    per_level = {level: n // len(LEVELS) + (level <= n % len(LEVELS)) for level in LEVELS}
    drafts, seen = [], set()
    for level, wanted in per_level.items():
        made = 0
        for _ in range(wanted * 40):
            if made >= wanted:
                break
            question, query = TEMPLATES[level](rnd, data)
            now = None
            if level == 5 and "LAST_" in query:
                day = ctx.first_day + dt.timedelta(
                    days=rnd.randint(60, max((ctx.last_day - ctx.first_day).days, 61))
                )
                now = f"{day.isoformat()}T12:00:00Z"
                question += f" Today is {day.isoformat()}."
            if query in seen and now is None:
                continue
            try:
                rows = _rows(client, query, now)
            except SalesforceError:
                continue
            if not 1 <= rows <= MAX_ROWS:
                continue
            seen.add(query)
            params = {"level": level, "level_name": LEVELS[level], "soql": query}
            if now:
                params["now"] = now
            drafts.append(Draft(params, question, REQUIRED, query, (query, now)))
            made += 1
    return drafts
