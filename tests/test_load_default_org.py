"""The default org: generated on first use into the cache directory, reused, regenerated when stale, forked per call."""

from __future__ import annotations

import json

import pytest
from crmarena_sf.loaders import default_org
from crmarena_sf.loaders.generate import GENERATOR_VERSION


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One cache directory for the module (tests run in file order: the stale-dataset test comes last)."""
    root = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CRMARENA_SF_CACHE", str(root))
        # The mechanics are the same for every profile; `tiny` keeps the test fast.
        patch.setattr(default_org, "PROFILE", "tiny")
        patch.setattr(default_org, "_templates", {})
        yield root


def test_cache_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("CRMARENA_SF_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_org.cache_root() == tmp_path / "xdg" / "crmarena-sf"
    monkeypatch.setenv("CRMARENA_SF_CACHE", str(tmp_path / "mine"))
    assert default_org.cache_root() == tmp_path / "mine"
    assert (default_org.PROFILE, default_org.SEED) == ("full", 0)


def test_first_use_generates_then_reuses_the_dataset(cache):
    path = default_org.default_dataset_dir(progress=False)
    assert path == cache / "datasets" / f"{GENERATOR_VERSION}-tiny-0"
    manifest = json.loads((path / "manifest.json").read_text())
    assert (manifest["profile"], manifest["seed"]) == ("tiny", 0)
    stamp = (path / "manifest.json").stat().st_mtime_ns
    assert default_org.default_dataset_dir(progress=False) == path
    assert (path / "manifest.json").stat().st_mtime_ns == stamp


def test_each_call_gets_a_private_fork(cache):
    first = default_org.crmarena_org(progress=False)
    second = default_org.crmarena_org(progress=False)
    cases = first.count("Case")
    assert cases > 0 and second.count("Case") == cases
    first.insert("Case", {"Subject": "Only in the first fork"})
    assert first.count("Case") == cases + 1
    assert second.count("Case") == cases
    first.close()
    second.close()


def test_the_loaded_and_indexed_org_is_kept_as_a_read_only_file(cache, monkeypatch):
    from crmarena_sf.emulator.sosl import search

    path = default_org.default_org_file(progress=False)
    assert path.name == f"{GENERATOR_VERSION}-tiny-0.duckdb"
    built = path.stat().st_mtime_ns
    monkeypatch.setattr(default_org, "_templates", {})  # as a new process would
    org = default_org.crmarena_org(progress=False)
    assert path.stat().st_mtime_ns == built  # reused, not rebuilt, and never written
    product = org.con.execute(f'SELECT "Name" FROM {org.table_sql("Product2")} LIMIT 1').fetchone()[0]
    word = max(product.replace("'", " ").split(), key=len)
    found = search(org, f"FIND {{{word}}} RETURNING Product2(Name)")["searchRecords"]
    assert any(r["Name"] == product for r in found)
    (path.parent / (path.name + ".source")).write_text("other generator", encoding="utf-8")
    default_org.default_org_file(progress=False)
    assert path.stat().st_mtime_ns != built  # a stale org file is rebuilt


def test_a_dataset_made_against_other_metadata_is_regenerated(cache):
    path = default_org.default_dataset_dir(progress=False)
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["schema_version"] = "0000000000000000"
    (path / "manifest.json").write_text(json.dumps(manifest))
    assert default_org.default_dataset_dir(progress=False) == path
    assert json.loads((path / "manifest.json").read_text())["schema_version"] != "0000000000000000"
    datasets = [p.name for p in (cache / "datasets").iterdir() if p.is_dir()]
    assert datasets == [path.name]  # the stale copy is gone (the org file beside it is rebuilt on use)
