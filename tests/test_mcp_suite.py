"""``crmarena-sf mcp --suite``: the benchmark taken by an MCP agent, driven by the MCP SDK's own ``Client``.

The server is the CLI in a process of its own, over stdio and over HTTP. The agent here submits
the reference answers (the gold answers, as the reference agent words them) through MCP: a
CRMArena slice (the tiny org's nine tasks) and a CRMArena-Pro slice (the B2B org's 22 tasks, one
instance each) must score 100, and ``crmarena-sf report DIR`` must show the run as it shows any.
The suite's tools are the function-calling agent's (same names, descriptions, JSON schemas and
results); their errors (bad SOQL, an unknown object, a missing field) and the benchmark's own
(no open task, a second answer, an unknown tool) are tool errors, never a crash of the server.
A server started again on the same ``--out`` resumes where the last one stopped.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import anyio
import anyio.from_thread
import pytest
from crmarena_sf.tasks.agents.function_calling import FunctionCallingAgent
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.records import load_tasks
from crmarena_sf.tasks.tools.tool_sets import run_tool, tool_names
from mcp import Client
from mcp.types import Implementation
from mcp_sdk import SyncClient, http_client, http_server, stdio_client
from reference_replies import gold_reply

from crmarena_sf.cli.main import main

SESSION_TOOLS = {"next_task", "submit_answer"}


def take_the_benchmark(client: SyncClient, tasks, limit: int | None = None) -> list[int]:
    """Answer every task the server hands out with its gold reply (at most ``limit``); the idx answered."""
    by_idx = {t.idx: t for t in tasks}
    answered = []
    while limit is None or len(answered) < limit:
        failed, text = client.call("next_task", {})
        assert not failed, text
        briefing = json.loads(text)
        if briefing.get("done"):
            break
        record = by_idx[briefing["idx"]]
        assert briefing["query"] == record.query
        failed, text = client.call("submit_answer", {"answer": gold_reply(record)})
        assert not failed and json.loads(text)["recorded"] is True, text
        answered.append(record.idx)
    return answered


def report_of(out: Path, capsys) -> str:
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    return capsys.readouterr().out


def mcp_suite(*options: str) -> list[str]:
    return ["--suite", *options]


# ---------------------------------------------------------------------------- one tool set
class RecordingModel:
    """A chat model that records the tools it is offered and answers at once with ``respond``."""

    def __init__(self) -> None:
        self.tools = None

    def settings(self):
        return {"model": "recording"}

    def complete(self, messages, tools=None, usage=None):
        self.tools = tools
        call = SimpleNamespace(
            id="1", function=SimpleNamespace(name="respond", arguments='{"content": "None"}')
        )
        return SimpleNamespace(content=None, tool_calls=[call])


def offered_to_the_function_calling_agent(task, sf) -> dict[str, tuple[str, dict]]:
    model = RecordingModel()
    FunctionCallingAgent(model).run(task, sf)
    return {
        t["function"]["name"]: (t["function"]["description"], t["function"]["parameters"])
        for t in model.tools
    }


def listed_over_mcp(session, suite) -> dict[str, tuple[str, dict]]:
    from crmarena_sf.mcp_server.suite_tools import suite_server

    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(suite_server(session, suite, "test"))) as client,
    ):
        tools = SyncClient(portal, client).tools()
    return {name: (tool.description, tool.input_schema) for name, tool in tools.items()}


@pytest.fixture
def tiny_session(tiny_org, tiny_task_file, tmp_path):
    from crmarena_sf.mcp_server.suite_session import SuiteSession

    fork = tiny_org.fork()
    session = SuiteSession(load_tasks(tiny_task_file), fork, tmp_path / "run", {"org": "tiny"})
    yield session
    session.close()
    fork.close()


@pytest.mark.parametrize("suite", [None, "pro-b2b"])
def test_the_mcp_tools_are_the_function_calling_agents_for_the_same_suite(
    suite, tiny_session, tiny_fork, tiny_task_file
):
    from crmarena_sf.connection.connect import connect

    task = load_tasks(tiny_task_file)[0]
    task.suite = suite
    offered = offered_to_the_function_calling_agent(task, connect(org=tiny_fork))
    final = offered.pop("respond")
    listed = listed_over_mcp(tiny_session, suite)
    assert {name: listed[name] for name in listed if name not in SESSION_TOOLS} == offered
    assert set(listed) == set(offered) | SESSION_TOOLS
    assert len(offered) == (2 if suite else 26)  # CRMArena's 27 tools, or Pro's three, less respond
    assert listed["submit_answer"][1]["required"] == ["answer"]
    assert final[1]["required"] == ["content"]


# ---------------------------------------------------------------------------- CRMArena over stdio
@pytest.fixture(scope="module")
def tiny_tasks(tiny_task_file):
    return load_tasks(tiny_task_file)


def test_a_crmarena_slice_of_reference_answers_through_mcp_scores_100(
    tiny_dataset, tiny_task_file, tiny_tasks, tmp_path, capsys
):
    out = tmp_path / "run"
    options = mcp_suite(
        "crmarena", "--tasks", str(tiny_task_file), "--org", str(tiny_dataset), "--out", str(out)
    )
    info = Implementation(name="acme-agent", version="2.1")
    with stdio_client(*options, "--model-name", "gpt-test", client_info=info, mode="legacy") as client:
        assert take_the_benchmark(client, tiny_tasks) == sorted(t.idx for t in tiny_tasks)
        failed, text = client.call("next_task", {})
        assert not failed and json.loads(text)["done"] is True
    results = json.loads((out / "results.json").read_text())
    assert results["overall"] == 100.0 and len(results["episodes"]) == 9
    assert results["settings"]["agent"] == "acme-agent" and results["settings"]["model"] == "gpt-test"
    assert results["episodes"][0]["trajectory"][0] == {
        "action": "mcp_client",
        "name": "acme-agent",
        "version": "2.1",
    }
    table = report_of(out, capsys)
    assert "overall" in table and table.strip().splitlines()[-1].split()[-2] == "100.0"


def test_the_tools_answer_on_the_open_tasks_fork_as_the_function_calling_agent_sees_them_and_errors_are_tool_errors(
    tiny_dataset, tiny_task_file, tiny_tasks, tmp_path
):
    from crmarena_sf.connection.connect import connect

    options = mcp_suite(
        "crmarena", "--tasks", str(tiny_task_file), "--org", str(tiny_dataset), "--out", str(tmp_path)
    )
    direct = OrgClient(connect(org=str(tiny_dataset)))
    with stdio_client(*options) as client:
        failed, text = client.call("issue_soql_query", {"query": "SELECT Id FROM Case"})
        assert failed and text == "Error: no task is open: call next_task before issue_soql_query"
        failed, text = client.call("submit_answer", {"answer": "None"})
        assert failed and text.startswith("Error: no task is open")
        briefing = json.loads(client.call("next_task", {})[1])
        assert briefing["tools"][-1] == "submit_answer" and len(briefing["tools"]) == 27
        assert "submit_answer" in briefing["instructions"] and "# Schema" in briefing["instructions"]
        record = next(t for t in tiny_tasks if t.idx == briefing["idx"])
        assert (briefing["required"], briefing["optional"]) == (
            record.metadata["required"],
            record.metadata["optional"],
        )
        failed, text = client.call("next_task", {})
        assert (
            failed
            and text == f"Error: task {record.idx} is still open: call submit_answer with its answer first"
        )
        # Every tool answers through MCP what it answers the function-calling agent (here without arguments).
        for name in (n for n in client.tools() if n not in SESSION_TOOLS):
            expected = run_tool(direct, None, name, {})
            assert client.call(name, {}) == (expected.error, expected.observation), name
        for query, words in [
            ("SELECT Id FROM", "MALFORMED_QUERY: "),  # bad SOQL
            ("SELECT Id FROM Nope__c", "INVALID_TYPE: "),  # an unknown object
            ("SELECT Id, Nope__c FROM Case", "INVALID_FIELD: "),  # a missing field
        ]:
            failed, text = client.call("issue_soql_query", {"query": query})
            assert failed and text.startswith(words), text
            assert text == run_tool(direct, None, "issue_soql_query", {"query": query}).observation
        failed, text = client.call("issue_sosl_query", {"query": "FIND {"})
        assert failed and text.startswith("MALFORMED_SEARCH: ")
        failed, text = client.call("execute_soql", {"query": "SELECT Id FROM Case"})  # a Pro tool: not here
        assert failed and "execute_soql" in text
        failed, text = client.call("get_cases", {"start_date": "last week", "end_date": "now"})
        assert failed and text.startswith("Error: start_date must be a date-time string")
        assert json.loads(client.call("submit_answer", {"answer": "None"})[1])["recorded"] is True
        failed, text = client.call("submit_answer", {"answer": "None"})
        assert (
            failed
            and text
            == "Error: no task is open: call next_task before submit_answer (the last answer was recorded)"
        )
    results = json.loads((tmp_path / "results.json").read_text())
    steps = results["episodes"][0]["trajectory"]
    assert steps[0]["action"] == "mcp_client" and steps[-1] == {"action": "respond", "content": "None"}
    called = [s["name"] for s in steps if s["action"] == "tool" and s["name"] != "respond"]
    assert (
        len(called) == 26 + 5
    )  # every tool, the four bad queries and get_cases (an unknown tool is not called)


def test_agent_name_names_the_agent_of_a_client_that_names_none(tiny_org, tiny_task_file, tmp_path):
    from crmarena_sf.mcp_server.suite_session import SuiteSession

    fork = tiny_org.fork()
    session = SuiteSession(load_tasks(tiny_task_file), fork, tmp_path, {"org": "tiny"}, agent_name="by-flag")
    try:
        session.next_task(None)
        assert json.loads(session.respond("None").text)["recorded"] is True
        session.next_task({"name": "by-client", "version": "1"})
        session.respond("None")
    finally:
        session.close()
        fork.close()
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["settings"]["agent"] == "by-flag, by-client"


def test_a_server_started_again_on_the_same_out_resumes_and_another_task_set_is_refused(
    tiny_dataset, tiny_task_file, tiny_tasks, tmp_path, capsys
):
    out = tmp_path / "run"
    options = mcp_suite(
        "crmarena", "--tasks", str(tiny_task_file), "--org", str(tiny_dataset), "--out", str(out)
    )
    with stdio_client(*options) as client:
        first = take_the_benchmark(client, tiny_tasks, limit=4)
        json.loads(client.call("next_task", {})[1])  # left open when the server stops: never logged
    with stdio_client(*options) as client:
        second = take_the_benchmark(client, tiny_tasks)
    assert len(first) == 4 and not set(first) & set(second)
    assert sorted(first + second) == sorted(t.idx for t in tiny_tasks)
    log = (out / "results.episodes.jsonl").read_text().splitlines()
    assert len(log) == 1 + 9  # the run's header, then each episode once
    assert json.loads((out / "results.json").read_text())["overall"] == 100.0
    other = tmp_path / "other.jsonl"
    other.write_text("".join(line for line in tiny_task_file.read_text().splitlines(True)[:3]))
    capsys.readouterr()
    assert (
        main(
            [
                "mcp",
                "--suite",
                "crmarena",
                "--tasks",
                str(other),
                "--org",
                str(tiny_dataset),
                "--out",
                str(out),
            ]
        )
        == 2
    )
    assert "another task set" in capsys.readouterr().err


def test_without_tasks_the_suites_set_is_built_on_the_org_as_run_builds_it(
    tiny_dataset, tiny_task_file, tmp_path
):
    out = tmp_path / "run"
    options = mcp_suite("crmarena", "--org", str(tiny_dataset), "--per-task", "1", "--out", str(out))
    built = {t.query for t in load_tasks(tiny_task_file)}  # tasks build --per-task 1 on the same org
    with stdio_client(*options) as client:
        briefing = json.loads(client.call("next_task", {})[1])
        assert briefing["of"] == len(built) and briefing["query"] in built
        client.call("submit_answer", {"answer": "None"})
    settings = json.loads((out / "results.json").read_text())["settings"]
    assert (settings["suite"], settings["per_task"], settings["seed"]) == ("crmarena", 1, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--suite", "crmarena"], "--suite needs --out DIR"),
        (["--tasks", "t.jsonl"], "--tasks is for the benchmark mode: give --suite"),
        (["--out", "d", "--org", "blank"], "--out is for the benchmark mode: give --suite"),
        (["--suite", "crmarena", "--out", "d", "--read-only"], "--read-only is for serving an org"),
        (["--suite", "crmarena", "--out", "d", "--tasks", "t", "--per-task", "2"], "give one"),
    ],
)
def test_options_of_the_other_mode_are_refused_in_one_line(options, message, capsys):
    assert main(["mcp", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crmarena-sf: ") and message in err and err.count("\n") == 1


def test_a_task_file_of_another_suite_is_refused(tiny_dataset, tiny_task_file, tmp_path, capsys):
    pro_file = tmp_path / "pro.jsonl"  # the same records, labelled CRMArena-Pro's
    records = [json.loads(line) | {"suite": "pro-b2b"} for line in tiny_task_file.read_text().splitlines()]
    pro_file.write_text("".join(json.dumps(r) + "\n" for r in records))
    options = ["--tasks", str(pro_file), "--org", str(tiny_dataset), "--out", str(tmp_path / "run")]
    assert main(["mcp", "--suite", "crmarena", *options]) == 2
    assert "holds tasks of another suite than --suite crmarena" in capsys.readouterr().err


# ---------------------------------------------------------------------------- CRMArena-Pro over HTTP
@pytest.mark.slow
def test_a_pro_slice_of_reference_answers_over_http_scores_100_and_names_the_agent(
    pro_dataset, tmp_path, capsys
):
    pro_dataset("b2b")  # the org, in the session's cache
    task_file = tmp_path / "pro.jsonl"
    assert (
        main(["tasks", "build", "--suite", "pro-b2b", "--per-task", "1", "--out", str(task_file), "--quiet"])
        == 0
    )
    tasks = load_tasks(task_file)
    out = tmp_path / "run"
    options = mcp_suite("pro-b2b", "--tasks", str(task_file), "--out", str(out), "--agent-name", "unused")
    info = Implementation(
        name="pro-agent", version="0.9"
    )  # under 2026-07-28, each request's _meta carries it
    with (
        http_server(*options) as (url, token, _),
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(
            http_client(url, token, mode="2026-07-28", client_info=info)
        ) as raw,
    ):
        client = SyncClient(portal, raw)
        assert set(client.tools()) == {"execute_soql", "execute_sosl"} | SESSION_TOOLS
        briefing = json.loads(client.call("next_task", {})[1])
        record = next(t for t in tasks if t.idx == briefing["idx"])
        assert briefing["persona"] == record.persona and briefing["required"] == record.metadata["required"]
        failed, text = client.call("execute_soql", {"query": "SELECT Id FROM Opportunity LIMIT 1"})
        assert not failed and text.startswith("[{'Id': '006")
        failed, text = client.call("execute_sosl", {"query": "FIND {"})
        assert failed and text.startswith("MALFORMED_SEARCH: ")
        failed, text = client.call("execute_soql", {"query": "SELECT Nope FROM Opportunity"})
        assert failed and text.startswith("INVALID_FIELD: ")
        failed, text = client.call(
            "issue_soql_query", {"query": "SELECT Id FROM Case"}
        )  # v1's tool: not on Pro
        assert failed and "issue_soql_query" in text
        client.call("submit_answer", {"answer": gold_reply(record)})
        answered = take_the_benchmark(client, tasks)
    assert len(answered) + 1 == len(tasks) == 22
    results = json.loads((out / "results.json").read_text())
    assert results["overall"] == 100.0 and results["settings"]["agent"] == "pro-agent"
    assert results["settings"]["transport"] == "mcp http"
    table = report_of(out, capsys)
    assert "100.0" in table


# ---------------------------------------------------------------------------- multi-turn
def test_an_interactive_suite_talks_through_reply_to_user_and_scores_the_last_message(
    tiny_dataset, tiny_task_file, tiny_tasks, tmp_path, capsys
):
    out = tmp_path / "run"
    options = mcp_suite(
        "crmarena-interactive", "--tasks", str(tiny_task_file), "--org", str(tiny_dataset), "--out", str(out)
    )
    by_idx = {t.idx: t for t in tiny_tasks}
    with stdio_client(*options) as client:
        assert set(client.tools()) == set(tool_names(None)) - {"respond"} | {"next_task", "reply_to_user"}
        failed, text = client.call("reply_to_user", {"message": "Hello?"})
        assert failed and text.startswith("Error: no task is open")
        # The first task: one question to the user, then the answer alone; the user stops and it is scored.
        briefing = json.loads(client.call("next_task", {})[1])
        record = by_idx[briefing["idx"]]
        assert "query" not in briefing and briefing["user_says"] and briefing["user_says"] != record.query
        assert briefing["tools"][-1] == "reply_to_user" and "reply_to_user" in briefing["instructions"]
        failed, reply = client.call("reply_to_user", {"message": "Which period do you mean?"})
        assert not failed and reply and "ended" not in reply
        failed, text = client.call("reply_to_user", {"message": gold_reply(record)})
        assert not failed and "[The episode ended: the user ended the conversation." in text
        # The second: tool calls and no message to the user, until the action limit ends it (scored 0).
        json.loads(client.call("next_task", {})[1])
        for _ in range(19):
            assert client.call("issue_soql_query", {"query": "SELECT Id FROM Case LIMIT 1"})[0] is False
        failed, text = client.call("issue_soql_query", {"query": "SELECT Id FROM Case LIMIT 1"})
        assert failed and "no message to the user within 20 tool calls" in text
        failed, text = client.call("issue_soql_query", {"query": "SELECT Id FROM Case LIMIT 1"})
        assert failed and text.startswith("Error: no task is open")
    results = json.loads((out / "results.json").read_text())
    rewards = {e["end_reason"]: e["reward"] for e in results["episodes"]}
    assert rewards == {"user_stop": 1.0, "action_limit": 0.0}
    assert (
        results["settings"]["suite"] == "crmarena-interactive" and results["settings"]["user"] == "scripted"
    )
    assert "overall" in report_of(out, capsys)
