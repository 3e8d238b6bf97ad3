"""What a CRMArena-Pro org is about: the company, its catalog, competitors, issues and policy numbers.

A :class:`Domain` holds every word and number that differs between the two orgs (an
electronic-design software vendor selling to businesses, :mod:`.domain_b2b`; a car dealership
selling to consumers, :mod:`.domain_b2c`); the generation steps read them from here and never
hard-code a domain. The sales vocabulary both orgs share (the five stages and their typical
tasks, the sales subtopics of call transcripts, the BANT factors) is here too. Every name is
this project's own: the products, companies, competitors and policies are invented.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STAGES = ("Qualification", "Discovery", "Quote", "Negotiation", "Closed")
"""The Pro orgs' opportunity stages in order (:data:`crmarena_sf.metadata.crmarena_pro.PRO_STAGES`)."""

BUSINESS_STAGE_TASKS: dict[str, tuple[str, ...]] = {
    "Qualification": (
        "Research {account}'s background and recent news",
        "Send an introduction email to {contact}",
        "Make a first contact call to {contact}",
        "Check {account}'s fit against the ideal customer profile",
        "Book a discovery meeting with {contact}",
        "Log {account} as a lead from the regional trade show",
        "Confirm who owns the budget at {account}",
        "Review {account}'s website and open job postings",
    ),
    "Discovery": (
        "Map {account}'s current tools and pain points",
        "Interview {contact} about business goals",
        "Study {account}'s competitors and market",
        "Draft a solution outline for {account}",
        "Collect technical requirements from {contact}'s team",
        "Identify the stakeholders involved at {account}",
        "Summarize discovery notes for {account}",
        "Run a needs workshop with {contact}",
    ),
    "Quote": (
        "Prepare a tailored proposal for {account}",
        "Run a product demo for {contact}",
        "Send {contact} a customer reference story",
        "Build the pricing worksheet for {account}",
        "Set up a trial for {account}",
        "Present the proposal to {contact}",
        "Answer {contact}'s follow-up questions on the proposal",
        "Send the quote to {contact} for review",
    ),
    "Negotiation": (
        "Hold a pricing negotiation call with {contact}",
        "Address {contact}'s objections on contract terms",
        "Align with legal on {account}'s redlines",
        "Prepare the contract for {account} to sign",
        "Agree the final discount with sales management",
        "Confirm payment terms with {contact}",
        "Follow up on the revised proposal with {contact}",
        "Schedule the signing meeting with {account}",
    ),
    "Closed": (
        "Hand {account} over to the onboarding team",
        "Hold the kick-off meeting with {contact}",
        "Record the signed contract details for {account}",
        "Run a win-loss review of the {account} deal",
        "Send {contact} the welcome pack",
        "Plan an upsell conversation with {account}",
        "Hold an internal review of the {account} deal",
        "Check in with {contact} thirty days after go-live",
    ),
}
"""Typical tasks of each stage of a sale to a company (the activity guide an agent is given
states the same split in prose); ``{account}`` and ``{contact}`` are filled per opportunity. The
first three of each stage are its priority tasks (Priority High)."""

CONSUMER_STAGE_TASKS: dict[str, tuple[str, ...]] = {
    "Qualification": (
        "Call {contact} back about their inquiry",
        "Send {contact} the brochure they asked for",
        "Confirm {contact}'s budget range",
        "Ask {contact} which models interest them",
        "Invite {contact} to visit the showroom",
        "Log {contact}'s web inquiry",
        "Find out when {contact} wants to buy",
        "Ask {contact} about the car they drive now",
    ),
    "Discovery": (
        "Book a test drive for {contact}",
        "Ask {contact} about their daily driving needs",
        "Compare two models for {contact}",
        "Review financing options with {contact}",
        "Appraise {contact}'s trade-in",
        "Note the features {contact} must have",
        "Check stock for {contact}'s preferred trim",
        "Summarize what {contact} is looking for",
    ),
    "Quote": (
        "Prepare a price quote for {contact}",
        "Send {contact} the monthly payment estimate",
        "Present care plan options to {contact}",
        "Send the quote to {contact}",
        "Walk {contact} through the quote",
        "Answer {contact}'s questions on the quote",
        "Add the accessories {contact} asked about to the quote",
        "Get a lender pre-approval for {contact}",
    ),
    "Negotiation": (
        "Negotiate the final price with {contact}",
        "Address {contact}'s concerns about the trade-in value",
        "Get manager approval for {contact}'s discount",
        "Prepare the purchase agreement for {contact}",
        "Confirm the financing terms with {contact}",
        "Answer {contact}'s counter-offer",
        "Schedule the signing appointment with {contact}",
        "Agree the delivery date with {contact}",
    ),
    "Closed": (
        "Hand the keys over to {contact}",
        "Walk {contact} through the vehicle's features",
        "Record {contact}'s signed purchase details",
        "Send {contact} a thank-you note",
        "Offer {contact} a service plan upgrade",
        "Hold an internal review of {contact}'s purchase",
        "Call {contact} a week after delivery",
        "Book {contact}'s first service visit",
    ),
}
"""The same for a sale to a consumer (a car buyer): ``{contact}`` is the buyer."""

SUBTOPICS = (
    "Pain points",
    "Pricing and value for money",
    "Implementation and support",
    "Value proposition",
    "Customer references",
    "Competing offers",
    "Product capabilities",
)
"""What a sales call discusses; each transcript line about one of them carries a sentiment."""

BANT = ("Budget", "Authority", "Need", "Timeline")


@dataclass(frozen=True)
class Product:
    name: str
    category: int
    kind: str
    """What the configuration rules see: a ``seat`` product sold per user, a ``unit`` (hardware,
    vehicle), an ``addon`` that needs its ``base`` on the same quote, or a ``service``."""
    price: float
    family: str
    """A vague description a customer would use ("a circuit board router"): unique in the catalog."""
    max_quantity: int
    base: str | None = None
    active: bool = True
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class Competitor:
    name: str
    weaknesses: tuple[str, ...]
    """Internal-only: what the sales team says against them (confidential articles)."""


@dataclass(frozen=True)
class Issue:
    name: str
    description: str
    base_hours: float
    policy: int
    """Index of the service policy (:attr:`Domain.policies`) a case of this issue falls under."""
    subjects: tuple[str, ...]
    problems: tuple[str, ...]
    """Sentences a customer writes about it; ``{product}`` is the product the case is about."""


@dataclass(frozen=True)
class ServicePolicy:
    title: str
    rule: str
    """The article's statement of the rule (what an agent must and must not do)."""
    compliant: tuple[str, ...]
    """Agent lines that follow it."""
    breach: tuple[str, ...]
    """Agent lines that break it: what a reader compares with the article."""


@dataclass(frozen=True)
class BantLines:
    met: dict[str, tuple[str, ...]]
    unmet: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Domain:
    key: str
    company: str
    email_domain: str
    customer_domains: tuple[str, ...]
    business_accounts: bool
    """True (B2B): accounts are companies with many contacts; False (B2C): one consumer per account."""
    categories: tuple[str, ...]
    products: tuple[Product, ...]
    competitors: tuple[Competitor, ...]
    issues: tuple[Issue, ...]
    policies: tuple[ServicePolicy, ...]
    territories: tuple[tuple[str, tuple[str, ...]], ...]
    """(territory name, state codes) for the ten territories; every state in exactly one."""
    rep_titles: tuple[str, ...]
    agent_titles: tuple[str, ...]
    staff_titles: tuple[str, ...]
    lead_titles_decider: tuple[str, ...]
    lead_titles_other: tuple[str, ...]
    account_words: tuple[tuple[str, ...], tuple[str, ...]]
    """(first words, second words) of company names (B2B accounts and lead companies)."""
    industries: tuple[str, ...]
    bant: BantLines
    budget_floor: int
    """The BANT article's budget threshold in dollars: a budget below it is not met."""
    timeline_months: int
    """The BANT article's timeline: a purchase planned later than this is not met."""
    discount_limit: float
    """The quote approval article: no quote line may carry a higher discount (percent)."""
    quote_validity_days: int
    """The quote approval article: a quote expires at most this many days after it was created."""
    deal_noun: str
    """What a deal buys ("design-tool rollout", "vehicle purchase")."""
    problems: tuple[str, ...]
    """Problems a prospect names when the Need factor is met."""
    bosses: tuple[str, ...]
    """Who else decides, when the person on the call does not."""
    stage_tasks: dict[str, tuple[str, ...]] = field(default_factory=lambda: BUSINESS_STAGE_TASKS)
    """Typical tasks of each stage (:data:`BUSINESS_STAGE_TASKS` or :data:`CONSUMER_STAGE_TASKS`)."""

    def product_index(self, name: str) -> int:
        return next(i for i, p in enumerate(self.products) if p.name == name)

    def territory_of(self) -> dict[str, int]:
        """State code -> territory index."""
        return {state: t for t, (_, states) in enumerate(self.territories) for state in states}
