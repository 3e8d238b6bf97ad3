"""Optional LLM enrichment, with a stand-in client: rewrites that keep the facts are used, the rest are not."""

from __future__ import annotations

import json
from types import SimpleNamespace

from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.generate import generate
from crmarena_sf.loaders.generate.enrich import rewrite


class FakeChat:
    """Answers like openai's chat.completions.create; drops the facts from every other rewrite."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls = 0
        self.completions = self

    @property
    def chat(self):
        return self

    def create(self, model, temperature, messages):
        self.calls += 1
        if self.fail:
            raise TimeoutError("network down")
        texts = json.loads(messages[-1]["content"])
        out = [
            f"Honestly, {t}" if i % 2 == 0 else "Something is wrong with my order."
            for i, t in enumerate(texts)
        ]
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=json.dumps(out)))])


def test_rewrites_that_drop_a_fact_are_refused():
    texts = ["The Trail Jacket from March 3, 2021 tore.", "My Swim Cap from May 1, 2022 leaks."]
    keep = [["Trail Jacket", "March 3, 2021"], ["Swim Cap", "May 1, 2022"]]
    out, changed = rewrite(texts, keep, FakeChat(), "test-model")
    assert out == ["Honestly, The Trail Jacket from March 3, 2021 tore.", texts[1]] and changed == 1


def test_a_failing_model_keeps_the_template_text():
    texts = ["The Trail Jacket tore."]
    assert rewrite(texts, [["Trail Jacket"]], FakeChat(fail=True), "test-model") == (texts, 0)


def test_enriched_generation_records_the_model_and_stays_valid(tmp_path):
    client = FakeChat()
    dataset = Dataset(generate(tmp_path / "ds", profile="tiny", enrich_model="test-model", llm_client=client))
    enriched = dataset.manifest["enriched"]
    assert (
        enriched["model"] == "test-model"
        and 0 < enriched["descriptions_rewritten"] < enriched["descriptions"]
    )
    con = dataset.connect()
    rewritten = con.execute(
        """SELECT count(*) FROM "Case" WHERE "Description" LIKE 'Honestly, %'"""
    ).fetchone()[0]
    assert rewritten == enriched["descriptions_rewritten"] and client.calls >= 1
