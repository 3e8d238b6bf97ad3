"""Task and Event: what the reps did and plan to do on each deal, fitting (or planted against) its stage.

A deal's tasks tell its stage (the activity guide an agent is given lists the typical tasks of
each stage, the domain's ``stage_tasks``): the completed ones come from
its stage and the stages before, the 'Not Started' ones from its stage. The planted groups of
:mod:`.deals` differ exactly there:

- a ``wrong_stage`` deal's tasks all fit its *true* stage, not its StageName (wrong-stage
  rectification: the answer is the true stage);
- an ``off_stage`` deal has six to eight 'Not Started' tasks of its stage and four to seven of
  two or three other stages, never as many of one other stage as of its own (activity
  priority: the answer is the off-stage tasks' Ids).

Priorities follow the latent per-stage priorities (each stage's first three tasks are High,
the rest Normal), whatever deal a task sits on, so Priority never gives a planted task away.
Events are meetings on clean deals past qualification.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.pro.deals import Deals
from crmarena_sf.loaders.pro.domain import STAGES, Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, audit, emit

HIGH_PRIORITY_TASKS = 3
"""The first three tasks of each stage are its priority tasks."""


@dataclass
class PlannedTask:
    deal: int
    stage: str
    subject: int
    """Index into the domain's ``stage_tasks[stage]``."""
    done: bool


@dataclass
class Activities:
    tasks: list[PlannedTask] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    off_stage: dict[int, list[int]] = field(default_factory=dict)
    """Off-stage deal -> indexes of its planted 'Not Started' tasks."""


def _pick(
    rnd, tasks: dict[str, tuple[str, ...]], stage: str, used: set[tuple[str, int]], count: int
) -> list[int]:
    free = [j for j in range(len(tasks[stage])) if (stage, j) not in used]
    chosen = rnd.sample(free, min(count, len(free)))
    used.update((stage, j) for j in chosen)
    return chosen


def plan_tasks(ctx: Context) -> None:
    rnd = ctx.rng("pro-tasks")
    tasks = ctx.plan["domain"].stage_tasks
    deals: Deals = ctx.plan["deals"]
    n = len(deals)
    per_deal: list[list[PlannedTask]] = [[] for _ in range(n)]
    planted_off: dict[int, list[int]] = {}
    for k in range(n):
        group, true = deals.group[k], deals.true_stage[k]
        s = STAGES.index(true)
        used: set[tuple[str, int]] = set()
        if group == "wrong_stage":
            for j in _pick(rnd, tasks, true, used, rnd.randint(2, 4)):
                per_deal[k].append(PlannedTask(k, true, j, False))
            earlier = STAGES[: s + 1]
            for _ in range(rnd.randint(1, 2)):
                stage = rnd.choice(earlier)
                for j in _pick(rnd, tasks, stage, used, 1):
                    per_deal[k].append(PlannedTask(k, stage, j, True))
        elif group == "off_stage":
            for j in _pick(rnd, tasks, true, used, rnd.randint(6, 8)):
                per_deal[k].append(PlannedTask(k, true, j, False))
            on_stage = len(per_deal[k])
            others = rnd.sample([x for x in STAGES if x != true], rnd.randint(2, 3))
            cap = min(3, on_stage - 1)
            want = min(rnd.randint(4, 7), cap * len(others))
            planted: list[PlannedTask] = []
            turn = 0
            while len(planted) < want:
                stage = others[turn % len(others)]
                turn += 1
                if sum(1 for t in planted if t.stage == stage) < cap:
                    planted += [PlannedTask(k, stage, j, False) for j in _pick(rnd, tasks, stage, used, 1)]
            planted_off[k] = [len(per_deal[k]) + i for i in range(len(planted))]
            per_deal[k] += planted
            for stage in rnd.sample(STAGES[: s + 1], min(2, s + 1))[: rnd.randint(0, 2)]:
                for j in _pick(rnd, tasks, stage, used, 1):
                    per_deal[k].append(PlannedTask(k, stage, j, True))
    planted_total = sum(len(t) for t in per_deal)
    clean = [k for k in range(n) if deals.group[k] == "clean"]
    remainder = ctx.count("Task") - planted_total
    sizes = {k: 1 for k in clean}
    extra = remainder - len(clean)
    while extra > 0 and clean:
        k = rnd.choice(clean)
        if sizes[k] < 6:
            sizes[k] += 1
            extra -= 1
    for k in clean:
        true = deals.true_stage[k]
        s = STAGES.index(true)
        used = set()
        not_started = min(3, max(1, sizes[k] // 2))
        for j in _pick(rnd, tasks, true, used, not_started):
            per_deal[k].append(PlannedTask(k, true, j, False))
        for _ in range(sizes[k] - not_started):
            stage = rnd.choice(STAGES[: s + 1])
            picked = _pick(rnd, tasks, stage, used, 1) or _pick(rnd, tasks, true, used, 1)
            for j in picked:
                per_deal[k].append(PlannedTask(k, stage, j, True))
    activities = Activities()
    for k in range(n):
        # Completed tasks first (oldest), then the open ones, as they were created.
        ordered = sorted(
            range(len(per_deal[k])),
            key=lambda i: (not per_deal[k][i].done, STAGES.index(per_deal[k][i].stage), i),
        )
        position = {}
        for i in ordered:
            position[i] = len(activities.tasks)
            activities.tasks.append(per_deal[k][i])
        if k in planted_off:
            activities.off_stage[k] = sorted(position[i] for i in planted_off[k])
    activities.ids = [ctx.record_id("Task", t + 1) for t in range(len(activities.tasks))]
    ctx.plan["activities"] = activities


def write_tasks(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-task-rows")
    activities: Activities = ctx.plan["activities"]
    deals: Deals = ctx.plan["deals"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    rows = []
    for t, task in enumerate(activities.tasks):
        k = task.deal
        owner = staff.rep_id(deals.owner[k])
        start, end = deals.created[k], deals.last_activity[k]
        span = max(int((end - start).total_seconds()), 3600)
        if task.done:
            due = start + dt.timedelta(seconds=rnd.randrange(span))
            created = due - dt.timedelta(days=rnd.randint(1, 7))
            created = max(created, start)
            completed = due.replace(hour=rnd.randint(9, 17))
        else:
            anchor = deals.signed[k] or DATA_NOW - dt.timedelta(days=rnd.randint(2, 20))
            created = max(start, anchor - dt.timedelta(days=rnd.randint(0, 10)))
            due = anchor + dt.timedelta(days=rnd.randint(3, 30))
            completed = None
        subject = domain.stage_tasks[task.stage][task.subject].format(
            account=accounts.names[deals.account[k]] or people.name(deals.contact[k]),
            contact=people.name(deals.contact[k]),
        )
        priority = "High" if task.subject < HIGH_PRIORITY_TASKS else "Normal"
        rows.append(
            {
                "Id": activities.ids[t],
                "WhoId": people.ids[deals.contact[k]],
                "WhatId": deals.ids[k],
                "Subject": subject,
                "ActivityDate": due.date(),
                "Status": "Completed" if task.done else "Not Started",
                "Priority": priority,
                "IsHighPriority": priority == "High",
                "OwnerId": owner,
                "Description": f"{subject}. Deal: {deals.names[k]}.",
                "AccountId": accounts.ids[deals.account[k]],
                "IsClosed": task.done,
                **audit(ctx, created, completed or created, owner),
                "IsArchived": False,
                "TaskSubtype": "Task",
                "CompletedDateTime": completed,
            }
        )
    emit(ctx, "Task", rows)


MEETINGS = {
    "Discovery": ("Discovery workshop with {account}", 90),
    "Quote": ("Product demo of {product} for {account}", 60),
    "Negotiation": ("Contract review meeting with {account}", 60),
    "Closed": ("Kick-off meeting with {account}", 60),
}


def write_events(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-events")
    deals: Deals = ctx.plan["deals"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    candidates = [
        k for k in range(len(deals)) if deals.group[k] == "clean" and deals.true_stage[k] in MEETINGS
    ]
    chosen = sorted(
        rnd.sample(candidates, min(ctx.count("Event"), len(candidates))), key=lambda k: (deals.created[k], k)
    )
    rows = []
    for e, k in enumerate(chosen):
        owner = staff.rep_id(deals.owner[k])
        subject, minutes = MEETINGS[deals.true_stage[k]]
        start = deals.created[k] + (deals.last_activity[k] - deals.created[k]) * rnd.uniform(0.4, 0.9)
        start = start.replace(hour=rnd.randint(9, 16), minute=rnd.choice((0, 30)), second=0, microsecond=0)
        end = start + dt.timedelta(minutes=minutes)
        name = accounts.names[deals.account[k]] or people.name(deals.contact[k])
        rows.append(
            {
                "Id": ctx.record_id("Event", e + 1),
                "WhoId": people.ids[deals.contact[k]],
                "WhatId": deals.ids[k],
                "Subject": subject.format(account=name, product=domain.products[deals.lines[k][0][0]].name),
                "Location": rnd.choice(("Video call", f"{accounts.cities[deals.account[k]]} office")),
                "IsAllDayEvent": False,
                "ActivityDateTime": start,
                "ActivityDate": start.date(),
                "DurationInMinutes": minutes,
                "StartDateTime": start,
                "EndDateTime": end,
                "EndDate": end.date(),
                "Description": f"Meeting about {deals.names[k]}.",
                "AccountId": accounts.ids[deals.account[k]],
                "OwnerId": owner,
                "IsPrivate": False,
                "ShowAs": "Busy",
                "IsChild": False,
                "IsGroupEvent": False,
                **audit(ctx, start - dt.timedelta(days=rnd.randint(1, 10)), by=owner),
                "IsArchived": False,
                "EventSubtype": "Event",
            }
        )
    emit(ctx, "Event", rows)
