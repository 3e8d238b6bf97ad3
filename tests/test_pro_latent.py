"""Each planted latent variable of the Pro orgs, read back from the data by SOQL and SOSL.

A reader who knows only the org (the records, and the knowledge articles that state the
policies) finds what the manifest says was planted: the BANT gaps in the leads' calls, the quote
and configuration violations against their articles' thresholds, the mis-staged deals and the
off-stage tasks against the stages article, one territory per state and one routing winner per
territory, the reps' cycle, size and win traits, the service side's hot products, top issues,
experts and fastest state, the competitor trend in the calls (CRMArena-Pro, arXiv 2505.18878,
says which task reads which).
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections import Counter, defaultdict

import pytest
from crmarena_sf.loaders.dataset import Dataset

from crmarena_sf.connection.connect import connect

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["b2b", "b2c"])
def pro(request, pro_org, pro_dataset):
    """(simple-salesforce client on a fork of the org, the manifest's latent truth)."""
    fork = pro_org(request.param)
    yield connect(org=fork), Dataset(pro_dataset(request.param)).latent
    fork.close()


def records(sf, soql):
    return sf.query_all(soql)["records"]


def article(sf, title: str) -> str:
    """An article's text, found by SOSL on its title as an agent would, unescaped."""
    found = sf.search(
        f"FIND {{{title}}} IN NAME FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c "
        "WHERE PublishStatus = 'Online' AND Language = 'en_US')"
    )["searchRecords"]
    match = [r for r in found if r["Title"] == title]
    assert len(match) == 1, title
    return html.unescape(match[0]["FAQ_Answer__c"])


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        for rank, i in enumerate(order):
            out[i] = rank
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mean = (n - 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry))
    var = sum((a - mean) ** 2 for a in rx)
    return cov / var


def days(later: str, earlier: str) -> int:
    return (dt.date.fromisoformat(later[:10]) - dt.date.fromisoformat(earlier[:10])).days


# ---------------------------------------------------------------------------- lead qualification
AUTHORITY_UNMET = ("can't approve", "without me", "need my", "just looking for my")
NEED_UNMET = ("mostly curious", "don't have a specific problem", "just browsing", "don't really need")


def test_bant_gaps_are_in_each_leads_call_against_the_articles_thresholds(pro):
    sf, truth = pro
    text = article(sf, "Lead Qualification Criteria (BANT)")
    floor = int(re.search(r"at least \$([\d,]+)", text).group(1).replace(",", ""))
    months = int(re.search(r"within (\d+) months", text).group(1))
    leads = {r["Id"]: r["Name"] for r in records(sf, "SELECT Id, Name FROM Lead")}
    calls = records(sf, "SELECT LeadId__c, Body__c FROM VoiceCallTranscript__c WHERE LeadId__c != null")
    assert len(calls) == len(leads)
    found = {}
    for call in calls:
        said = [
            line.split(": ", 1)[1]
            for line in call["Body__c"].split("\n")
            if f"] {leads[call['LeadId__c']]}: " in line
        ]
        unmet = set()
        for line in said:
            amount = re.search(r"\$([\d,]+)", line)
            if amount and int(amount.group(1).replace(",", "")) < floor:
                unmet.add("Budget")
            if "no budget" in line or "haven't set any money" in line:
                unmet.add("Budget")
            wait = re.search(r"(\d+) months", line)
            if wait and int(wait.group(1)) > months:
                unmet.add("Timeline")
            if any(cue in line for cue in AUTHORITY_UNMET):
                unmet.add("Authority")
            if any(cue in line for cue in NEED_UNMET):
                unmet.add("Need")
        found[call["LeadId__c"]] = sorted(unmet)
    assert found == {lead: sorted(v["unmet"]) for lead, v in truth["lead_bant"].items()}
    gaps = Counter(len(v) for v in found.values())
    assert gaps[0] >= 20 and gaps[1] + gaps[2] >= 80  # lead qualification: 80 failing leads, 20 qualified
    converted = {r["Id"] for r in records(sf, "SELECT Id FROM Lead WHERE IsConverted = true")}
    assert all(not found[lead] for lead in converted)


# ---------------------------------------------------------------------------- quotes
def test_quote_and_configuration_violations_break_exactly_their_articles(pro):
    sf, truth = pro
    approval = article(sf, "Quote Approval Policy")
    limit = float(re.search(r"Discount is at most ([\d.]+)%", approval).group(1))
    validity = int(re.search(r"at most (\d+) days after", approval).group(1))
    limits = {
        name: int(n)
        for name, n in re.findall(
            r"- (.+): at most (\d+) per quote line", article(sf, "Product Quantity Limits")
        )
    }
    bundle = article(sf, "Bundle Requirements")
    requires = dict(re.findall(r"- (.+) requires (.+)", bundle))
    plans = set(re.findall(r"^- (.+)$", bundle, re.M)) if "care plan" in bundle else set()
    vehicles = {
        r["Product"]["Name"]
        for r in records(
            sf,
            "SELECT Product.Name, ProductCategory.Name FROM ProductCategoryProduct WHERE IsPrimaryCategory = true",
        )
        if r["ProductCategory"]["Name"] != "Care Plans & Accessories"
    }
    prices = {
        r["Product2Id"]: r["UnitPrice"]
        for r in records(sf, "SELECT Product2Id, UnitPrice FROM PricebookEntry")
    }
    ids = truth["sales_policy_articles"]
    lines = defaultdict(list)
    for line in records(
        sf, "SELECT QuoteId, Product2Id, Product2.Name, Quantity, UnitPrice, Discount FROM QuoteLineItem"
    ):
        lines[line["QuoteId"]].append(line)
    broken = {}
    for quote in records(sf, "SELECT Id, CreatedDate, ExpirationDate FROM Quote"):
        items = lines[quote["Id"]]
        names = {item["Product2"]["Name"] for item in items}
        rules = set()
        if (
            any((item["Discount"] or 0) > limit for item in items)
            or days(quote["ExpirationDate"], quote["CreatedDate"]) > validity
        ):
            rules.add(ids["quote_approval"])
        if any(item["Quantity"] > limits[item["Product2"]["Name"]] for item in items):
            rules.add(ids["quantity"])
        if any(requires.get(n) and requires[n] not in names for n in names) or (
            names & plans and not names & vehicles
        ):
            rules.add(ids["bundle"])
        if any(item["UnitPrice"] != prices[item["Product2Id"]] for item in items):
            rules.add(ids["price"])
        broken[quote["Id"]] = rules
    assert {q: r for q, r in broken.items() if r} == {
        **{q: {v["article"]} for q, v in truth["quote_violations"].items()},
        **{q: {v["article"]} for q, v in truth["invalid_configurations"].items()},
    }
    assert all(not broken[q] for q in truth["clean_quotes"])
    assert len(truth["quote_violations"]) >= 80 and len(truth["clean_quotes"]) >= 20
    per_article = Counter(v["article"] for v in truth["invalid_configurations"].values())
    assert len(per_article) == 3 and min(per_article.values()) >= 27  # invalid config: 80 over 3 articles


# ---------------------------------------------------------------------------- stages and tasks
def test_stages_and_off_stage_tasks_follow_from_the_tasks_and_the_stages_article(pro):
    sf, truth = pro
    text = article(sf, "Opportunity Stages and Their Activities")
    patterns = []
    stage = None
    for line in text.split("\n"):
        if line.endswith(":") and not line.startswith("-"):
            stage = line[:-1]
        elif line.startswith("- ") and stage:
            body = (
                re.escape(line[2:])
                .replace("the\\ account", ".+")
                .replace("the\\ contact", ".+")
                .replace("the\\ customer", ".+")
            )
            patterns.append((re.compile(f"^{body}$"), stage))
    stages = {r["Id"]: r["StageName"] for r in records(sf, "SELECT Id, StageName FROM Opportunity")}
    open_tasks = defaultdict(list)
    for task in records(sf, "SELECT Id, WhatId, Subject FROM Task WHERE Status = 'Not Started' ORDER BY Id"):
        matched = {s for pattern, s in patterns if pattern.match(task["Subject"])}
        assert len(matched) == 1, task["Subject"]
        open_tasks[task["WhatId"]].append((task["Id"], matched.pop()))
    wrong, off = {}, {}
    for deal, stage_name in stages.items():
        seen = {s for _, s in open_tasks[deal]}
        if seen and stage_name not in seen:
            assert len(seen) == 1
            wrong[deal] = seen.pop()
        elif len(seen) > 1:
            off[deal] = sorted(t for t, s in open_tasks[deal] if s != stage_name)
    assert wrong == {deal: v["true_stage"] for deal, v in truth["wrong_stages"].items()}
    assert off == {deal: sorted(tasks) for deal, tasks in truth["off_stage_tasks"].items()}
    assert all(4 <= len(tasks) <= 7 for tasks in off.values())
    assert len(wrong) >= 80 and len(off) >= 80 and len(truth["clean_stage_opportunities"]) >= 20
    assert Counter(wrong.values()).most_common(1)[0][0] == "Closed"


# ---------------------------------------------------------------------------- territories and routing
def test_every_state_has_one_territory_and_every_territory_one_routing_winner(pro):
    sf, truth = pro
    territories = records(sf, "SELECT Id, Description FROM Territory2")
    states = Counter(s.strip() for t in territories for s in t["Description"].split(","))
    assert set(states.values()) == {1}
    lead_states = {r["State"] for r in records(sf, "SELECT State FROM Lead")}
    assert lead_states <= set(states)
    accepted = Counter(
        r["Opportunity"]["OwnerId"]
        for r in records(sf, "SELECT Opportunity.OwnerId FROM Quote WHERE Status = 'Accepted'")
    )
    open_leads = Counter(
        r["OwnerId"] for r in records(sf, "SELECT OwnerId FROM Lead WHERE IsConverted = false")
    )
    members = defaultdict(list)
    for row in records(sf, "SELECT UserId, Territory2Id FROM UserTerritory2Association"):
        members[row["Territory2Id"]].append(row["UserId"])
    for territory in territories:
        ranked = sorted(members[territory["Id"]], key=lambda u: (-accepted[u], open_leads[u]))
        first, second = ranked[0], ranked[1]
        assert (accepted[first], open_leads[first]) != (accepted[second], open_leads[second])
        assert truth["territory_top_rep"][territory["Id"]] == first


# ---------------------------------------------------------------------------- reps
def test_the_reps_traits_show_in_their_deals_and_leads(pro):
    sf, truth = pro
    cycles, wins, deals = defaultdict(list), Counter(), Counter()
    for deal in records(sf, "SELECT OwnerId, CreatedDate, ContractID__r.CompanySignedDate FROM Opportunity"):
        deals[deal["OwnerId"]] += 1
        if deal["ContractID__r"]:
            wins[deal["OwnerId"]] += 1
            cycles[deal["OwnerId"]].append(
                days(deal["ContractID__r"]["CompanySignedDate"], deal["CreatedDate"])
            )
    reps = [r for r in cycles if len(cycles[r]) >= 2]
    assert (
        spearman([truth["rep_cycle_days"][r] for r in reps], [sum(cycles[r]) / len(cycles[r]) for r in reps])
        > 0.7
    )
    reps = [r for r in deals if deals[r] >= 10]
    assert spearman([truth["rep_win_weight"][r] for r in reps], [wins[r] / deals[r] for r in reps]) > 0.3
    quantity = defaultdict(list)
    for item in records(
        sf, "SELECT Opportunity.OwnerId, Quantity FROM OpportunityLineItem WHERE Quantity > 1"
    ):
        quantity[item["Opportunity"]["OwnerId"]].append(item["Quantity"])
    reps = [r for r in quantity if len(quantity[r]) >= 10]
    assert (
        spearman(
            [truth["rep_deal_size"][r] for r in reps], [sum(quantity[r]) / len(quantity[r]) for r in reps]
        )
        > 0.3
    )
    by_source = defaultdict(lambda: [0, 0])
    for lead in records(sf, "SELECT LeadSource, IsConverted FROM Lead"):
        by_source[lead["LeadSource"]][0] += 1
        by_source[lead["LeadSource"]][1] += lead["IsConverted"]
    rates = {s: c / n for s, (n, c) in by_source.items()}
    latent = truth["lead_source_conversion"]
    assert max(rates, key=rates.get) == max(latent, key=latent.get)
    assert min(rates, key=rates.get) == min(latent, key=latent.get)


# ---------------------------------------------------------------------------- service
def test_the_service_sides_latent_variables_show_in_the_cases(pro):
    sf, truth = pro
    cases = records(
        sf,
        "SELECT Id, CreatedDate, ClosedDate, Status, IssueId__c, OwnerId, OrderItemId__r.Product2Id, "
        "Account.ShippingState FROM Case",
    )
    for product in truth["hot_products"]:
        mine = [c for c in cases if c["OrderItemId__r"]["Product2Id"] == product]
        months = Counter(dt.date.fromisoformat(c["CreatedDate"][:10]).strftime("%B") for c in mine)
        (top, n), (_, second) = (months.most_common(2) + [(None, 0)])[:2]
        assert top == truth["product_peak_month"][product] and n > second
        issues = Counter(c["IssueId__c"] for c in mine).most_common(2) + [(None, 0)]
        assert issues[0][0] == truth["product_top_issue"][product] and issues[0][1] > issues[1][1]
    closed = [c for c in cases if c["Status"] == "Closed"]
    ties = truth["agent_routing_ties"]
    assert len(ties) == round(0.4 * len(truth["agent_issue_expertise"]))  # the seeded share of tied issues
    for issue, experts in truth["agent_issue_expertise"].items():
        counts = Counter(c["OwnerId"] for c in closed if c["IssueId__c"] == issue)
        owners = counts.most_common(3) + [(None, 0)] * 2
        if issue in ties:  # the top two experts closed as many, more than anyone else
            assert ties[issue] == experts[:2] and counts[experts[0]] == counts[experts[1]] > owners[2][1]
        elif owners[0][1]:
            assert owners[0][0] == experts[0] and owners[0][1] > owners[1][1]
    hours = defaultdict(list)
    for c in closed:
        spent = dt.datetime.fromisoformat(c["ClosedDate"][:19]) - dt.datetime.fromisoformat(
            c["CreatedDate"][:19]
        )
        hours[c["Account"]["ShippingState"]].append(spent.total_seconds())
    means = {state: sum(v) / len(v) for state, v in hours.items()}
    assert min(means, key=means.get) == truth["fastest_state"]
    assert sorted(means.values())[0] < sorted(means.values())[1]


# ---------------------------------------------------------------------------- calls
def test_the_leading_competitor_of_each_half_year_is_the_most_named_in_its_calls(pro):
    sf, truth = pro
    named = defaultdict(Counter)
    for call in records(
        sf, "SELECT EndTime__c, Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c != null"
    ):
        half = f"{call['EndTime__c'][:4]}-H{1 if int(call['EndTime__c'][5:7]) <= 6 else 2}"
        for rival in truth["competitors"]:
            named[half][rival] += call["Body__c"].count(rival)
    for half, rival in truth["competitor_trend"].items():
        if sum(named[half].values()) >= 20:
            (top, n), (_, second) = named[half].most_common(2)
            assert top == rival and n > second, half


def test_each_deals_call_sentiment_is_what_its_customers_say(pro):
    from crmarena_sf.loaders.pro import talk

    sf, truth = pro
    lines = {}
    for (subtopic, sentiment), texts in talk.LINES.items():
        for text in texts:
            lines[
                re.compile(
                    "^" + re.escape(text).replace(r"\{product\}", ".+").replace(r"\{competitor\}", ".+") + "$"
                )
            ] = (subtopic, sentiment)
    found = defaultdict(lambda: {"positive": [], "negative": []})
    for call in records(
        sf,
        "SELECT OpportunityId__c, Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c != null ORDER BY Name",
    ):
        for line in call["Body__c"].split("\n"):
            said = line.split(": ", 1)[1]
            for pattern, (subtopic, sentiment) in lines.items():
                if pattern.match(said):
                    found[call["OpportunityId__c"]][sentiment].append(truth["subtopics"].index(subtopic))
    assert dict(found) == truth["call_sentiment"]


# ---------------------------------------------------------------------------- knowledge
def test_facts_are_in_their_articles_and_internal_ones_hidden_from_customers(pro):
    sf, truth = pro
    bodies = {
        r["Id"]: (html.unescape(r["FAQ_Answer__c"]), r["IsVisibleInPkb"])
        for r in records(
            sf, "SELECT Id, FAQ_Answer__c, IsVisibleInPkb FROM Knowledge__kav WHERE PublishStatus = 'Online'"
        )
    }
    assert len(truth["knowledge_facts"]) >= 100 and len(truth["internal_facts"]) >= 80
    for fact in truth["knowledge_facts"]:
        body, public = bodies[fact["article_id"]]
        assert public and fact["answer"].lower() in body.lower()
    for fact in truth["internal_facts"]:
        body, public = bodies[fact["article_id"]]
        assert not public and fact["answer"].lower() in body.lower()
    cases = {r["Id"] for r in records(sf, "SELECT Id FROM Case")}
    assert set(truth["policy_breaches"]) | set(truth["clean_cases"]) == cases
    assert len(truth["policy_breaches"]) >= 23 and len(set(truth["policy_breaches"].values())) >= 8
