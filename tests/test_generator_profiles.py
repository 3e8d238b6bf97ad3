"""Profiles and the `crmarena-sf generate` command: sizes, the Developer Edition budget, scaling, exit codes."""

from __future__ import annotations

import pytest
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.generate import generate
from crmarena_sf.loaders.profiles import FULL, NOT_SCALED, estimated_storage_kb, resolve

from crmarena_sf.cli.main import main


def test_full_is_the_original_org_and_history_adds_up():
    sizing = resolve("full")
    assert sizing.counts == FULL
    # 977 creations + 1,088 assignments (977 first + 111 transfers) + 918 closings (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)
    assert (
        sizing.counts["CaseHistory__c"] == 977 + (977 + sizing.transfers) + (977 - sizing.open_cases) == 2983
    )


def test_scale_multiplies_everything_but_reference_data():
    sizing = resolve("full", 3)
    for name, count in FULL.items():
        if name in NOT_SCALED:
            assert sizing.counts[name] == count, name
        elif name == "User":
            assert sizing.counts[name] == (count - 1) * 3 + 1  # one admin user, however big the org
        else:
            assert sizing.counts[name] == count * 3, name


def test_dev_org_fits_a_developer_edition_orgs_5_mb_with_room_to_spare(tmp_path):
    # Record sizes: Salesforce Help, Data and File Storage Allocations (2 KB most records, 4 KB person accounts and
    # articles, an email its own size; products, price books and items count nothing).
    dataset = Dataset(generate(tmp_path / "dev", profile="dev-org", seed=0))
    con = dataset.connect()
    email_bytes = con.execute(
        'SELECT sum(strlen(coalesce("TextBody", \'\')) + strlen(coalesce("Subject", \'\'))) FROM "EmailMessage"'
    ).fetchone()[0]
    counts = dict(dataset.manifest["counts"])
    assert estimated_storage_kb(counts, email_bytes) < 4.5 * 1024
    assert counts["Case"] >= 150 and counts["Knowledge__kav"] == 45


def test_cli_generate_writes_and_reports(tmp_path, capsys):
    assert (
        main(["generate", "--profile", "tiny", "--seed", "2", "--out", str(tmp_path / "ds"), "--quiet"]) == 0
    )
    assert "records of 20 objects to" in capsys.readouterr().out
    assert Dataset(tmp_path / "ds").manifest["seed"] == 2


def test_cli_generate_refuses_bad_input_with_a_message_and_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["generate", "--profile", "huge", "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert "invalid choice: 'huge'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "--profile", "tiny", "--scale", "0", "--out", str(tmp_path / "x")])
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    assert main(["generate", "--profile", "tiny", "--out", str(a_file / "ds"), "--quiet"]) == 2
    assert f"--out {a_file / 'ds'}: {a_file} is a file, not a directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
