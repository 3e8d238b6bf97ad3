"""A new org's opportunity stages and forecast categories (Object Reference: OpportunityStage,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_opportunitystage.htm).

The Opportunity describe lists them as picklist values (:mod:`crmarena_sf.metadata.specs.opportunity`)
and the store derives IsClosed, IsWon, Probability and the forecast category from them
(:mod:`crmarena_sf.emulator.store.derive_sales`).
"""

OPPORTUNITY_STAGES = [
    ("Prospecting", 10, "Pipeline"),
    ("Qualification", 10, "Pipeline"),
    ("Needs Analysis", 20, "Pipeline"),
    ("Value Proposition", 50, "Pipeline"),
    ("Id. Decision Makers", 60, "Pipeline"),
    ("Perception Analysis", 70, "Pipeline"),
    ("Proposal/Price Quote", 75, "Pipeline"),
    ("Negotiation/Review", 90, "Pipeline"),
    ("Closed Won", 100, "Closed"),
    ("Closed Lost", 0, "Omitted"),
]
"""A new org's opportunity stages: (StageName, default probability, forecast category), the
OpportunityStage rows."""

FORECAST_CATEGORIES = [("Omitted", "Omitted"), ("Pipeline", "Pipeline"), ("BestCase", "Best Case"), ("Forecast", "Commit"), ("Closed", "Closed")]  # fmt: skip
"""Opportunity.ForecastCategory (API value, label); ForecastCategoryName holds the labels."""
