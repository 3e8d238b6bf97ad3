"""The Gymnasium-style env on the default CRMArena org: its ``reset`` and its tool step (issue 26).

A training loop pays ``reset()`` once per episode (a fresh copy-on-write fork of the org and a
client on it) and a step per tool call. Targets: ``reset`` at most 5 ms; a tool step that runs
a query (``issue_soql_query``) at most 0.3 ms over the same query sent the way the tool sends
it (``query_all`` through simple-salesforce on the same fork), the two timed in turns so machine
load hits both alike. Also measured, without a target: a multi-turn step to the scripted user.
"""

from __future__ import annotations

import statistics
import time

from crmarena_sf.bench import Measurement, median_ms, under

TARGET_RESET_MS = 5.0
TARGET_STEP_OVER_MS = 0.3
STEP_QUERY = "SELECT Id, Name FROM Issue__c"
"""The §5 issues query (CRMArena's ``get_issues``): ten records."""
TASK = {
    "idx": 0,
    "task": "knowledge_qa",
    "query": "How many days do customers have to return an item?",
    "answer": "30",
    "reward_metric": "exact_match",
}


def run(quick: bool = False) -> list[Measurement]:
    from crmarena_sf.env import CRMArenaEnv

    repeat = 20 if quick else 200
    env = CRMArenaEnv(TASK, mode="tools")  # the default org, as the README shows it
    try:
        reset = median_ms(env.reset, repeat)
        env.reset()
        action = {"name": "issue_soql_query", "arguments": {"query": STEP_QUERY}}
        steps, queries = [], []
        for i in range(repeat + 3):
            env.episode.actions = 0  # keep the episode under its action limit
            start = time.perf_counter()
            env.step(action)
            middle = time.perf_counter()
            env.sf.query_all(STEP_QUERY)
            end = time.perf_counter()
            if i >= 3:
                steps.append((middle - start) * 1000)
                queries.append((end - middle) * 1000)
    finally:
        env.close()
    step, query = statistics.median(steps), statistics.median(queries)
    talk = _user_step_ms(repeat)
    return [
        under("env", "CRMArenaEnv.reset() on the default org (a fork and a client)", reset, TARGET_RESET_MS),
        Measurement(
            "env",
            "tool step (issue_soql_query, §5 issues) over the query's own cost",
            round(step - query, 3),
            "ms",
            f"<= {TARGET_STEP_OVER_MS:g} ms",
            step - query <= TARGET_STEP_OVER_MS,
            f"step {step:.3f} ms, the query through simple-salesforce {query:.3f} ms",
        ),
        Measurement(
            "env",
            "multi-turn step: a question to the scripted user and its one-criterion reply",
            round(talk, 3),
            "ms",
        ),
    ]


def _user_step_ms(repeat: int) -> float:
    """Median ms of ``respond`` to the scripted user, each on a fresh episode (its turns are few)."""
    from crmarena_sf.env import CRMArenaEnv

    task = {**TASK, "params": {"question": TASK["query"], "article_id": "x"}}
    env = CRMArenaEnv(task, mode="tools", user="scripted")
    action = {"name": "respond", "arguments": {"content": "What is your question?"}}
    times = []
    try:
        for _ in range(repeat):
            env.reset()
            start = time.perf_counter()
            env.step(action)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        env.close()
    return statistics.median(times)


if __name__ == "__main__":
    for m in run(quick=True):
        print(f"{m.name:70s} {m.value:8.3f} {m.unit:3s} {m.target:10s} {m.note}")
