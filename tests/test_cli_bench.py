"""``crmarena-sf bench``: the performance table's command (numbers are not asserted here)."""

import json

import pytest

from crmarena_sf.cli.main import main


@pytest.mark.slow  # the store benchmarks fork the default CRMArena org
def test_bench_reports_measurements_with_their_targets(capsys):
    assert main(["bench", "--only", "store", "--quick", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = {row["name"] for row in rows}
    assert "new blank org (fork of the process template)" in names
    assert all(row["area"] == "store" and row["unit"] == "ms" for row in rows)


def test_bench_refuses_an_unknown_area_naming_every_area_the_table_shows(capsys):
    assert main(["bench", "--only", "warp-drive"]) == 2
    assert capsys.readouterr().err == (
        "crmarena-sf: unknown benchmark area(s): warp-drive; choose from "
        "env, generate, mcp, mcp_suite, pro, rest, scale, server, soql, sosl, store, tasks\n"
    )


def test_bench_help_names_the_same_areas_as_its_refusal(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "env, generate, mcp, mcp_suite, pro, rest, scale, server, soql, sosl, store, tasks" in text
