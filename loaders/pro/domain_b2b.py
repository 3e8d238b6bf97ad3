"""The B2B org: Lumeris Design Systems, an electronic-design software vendor selling to companies.

Fifty products in ten categories (per-seat design tools, modules, add-ons that need their base
tool, and services sold by the day) and one retired product without a price; six competitors;
fifteen support issues under ten service policies; ten territories of US states. All names
are invented for this project.
"""

from __future__ import annotations

from crmarena_sf.loaders.pro.domain import BantLines, Competitor, Domain, Issue, Product, ServicePolicy

_CATEGORIES = (
    "PCB Design",
    "IC Layout",
    "Simulation & Analysis",
    "Verification",
    "Power Integrity",
    "Thermal Analysis",
    "Design Security",
    "AI-Assisted Design",
    "Manufacturing Prep",
    "Collaboration & Data",
)

# (name, family, price, features) per category: two seat tools, a module, an add-on of the first tool, a service.
_LINES = (
    (
        (
            "BoardWeave Studio",
            "circuit board layout suite",
            8400,
            ("multi-layer board layout", "live design-rule checking"),
        ),
        (
            "TraceLine Router",
            "automatic trace router",
            6200,
            ("push-and-shove routing", "length-matched differential pairs"),
        ),
        (
            "StackPlan Designer",
            "board layer stack planner",
            2400,
            ("impedance-controlled stack-ups", "material libraries"),
        ),
        ("BoardWeave 3D Viewer", "3D board viewer add-on", 1100, ("3D clearance checks", "enclosure import")),
        (
            "Layout Jumpstart Service",
            "board layout onboarding service",
            2200,
            ("template setup", "team training"),
        ),
    ),
    (
        (
            "SiliconCanvas Pro",
            "chip layout editor",
            11800,
            ("custom transistor-level layout", "hierarchical editing"),
        ),
        (
            "CellForge Generator",
            "standard cell generator",
            9300,
            ("automatic cell synthesis", "multi-corner characterization"),
        ),
        ("DensityCheck Module", "layout density checker", 3100, ("metal fill analysis", "density heat maps")),
        (
            "SiliconCanvas Analog Pack",
            "analog layout add-on",
            2500,
            ("matched device placement", "guard-ring generation"),
        ),
        (
            "Tapeout Readiness Review",
            "tape-out review service",
            3200,
            ("sign-off checklist review", "foundry rule audit"),
        ),
    ),
    (
        (
            "WaveSim Engine",
            "circuit simulator",
            7600,
            ("transient and AC analysis", "mixed-signal simulation"),
        ),
        (
            "SignalSight Analyzer",
            "signal integrity analyzer",
            6900,
            ("eye-diagram analysis", "reflection and crosstalk reports"),
        ),
        ("NoiseMap Module", "crosstalk noise mapper", 2800, ("coupling noise maps", "aggressor ranking")),
        (
            "WaveSim Parallel Cores",
            "parallel simulation add-on",
            1900,
            ("multi-core simulation runs", "job queue scheduling"),
        ),
        (
            "Simulation Model Tuning",
            "simulation tuning service",
            2600,
            ("model calibration", "accuracy benchmarking"),
        ),
    ),
    (
        (
            "LogicProof Verifier",
            "formal verification tool",
            10400,
            ("property checking", "equivalence checking"),
        ),
        (
            "TestBench Composer",
            "testbench builder",
            5800,
            ("constrained-random stimulus", "reusable test sequences"),
        ),
        (
            "CoverTrack Module",
            "coverage tracker",
            2300,
            ("functional coverage dashboards", "coverage merging"),
        ),
        (
            "LogicProof Regression Farm",
            "regression farm add-on",
            2100,
            ("nightly regression runs", "failure triage"),
        ),
        (
            "Verification Plan Workshop",
            "verification planning workshop",
            2900,
            ("verification plan drafting", "coverage goal setting"),
        ),
    ),
    (
        (
            "VoltGuard Suite",
            "power integrity suite",
            8800,
            ("power delivery network analysis", "voltage drop maps"),
        ),
        (
            "CurrentScope Analyzer",
            "current density analyzer",
            5400,
            ("current density checks", "via current limits"),
        ),
        (
            "DecapPlanner Module",
            "decoupling capacitor planner",
            1700,
            ("decoupling capacitor placement", "target impedance plots"),
        ),
        (
            "VoltGuard IR-Drop Pack",
            "voltage drop add-on",
            1500,
            ("dynamic IR-drop analysis", "hot-spot reports"),
        ),
        (
            "Power Review Service",
            "power design review",
            2700,
            ("power budget review", "decoupling strategy review"),
        ),
    ),
    (
        (
            "HeatFlow Modeler",
            "thermal modeling tool",
            7200,
            ("board and package thermal models", "steady-state analysis"),
        ),
        ("CoolPath Designer", "cooling path designer", 4900, ("heat sink sizing", "fan placement studies")),
        (
            "HotSpot Finder Module",
            "hot spot finder",
            1800,
            ("component temperature ranking", "thermal alerts"),
        ),
        (
            "HeatFlow Airflow Pack",
            "airflow simulation add-on",
            2000,
            ("enclosure airflow simulation", "vent optimization"),
        ),
        (
            "Thermal Signoff Service",
            "thermal sign-off service",
            2500,
            ("thermal sign-off reports", "margin reviews"),
        ),
    ),
    (
        (
            "CircuitVault Suite",
            "design security suite",
            9100,
            ("encrypted design storage", "role-based access"),
        ),
        (
            "TrojanScan Inspector",
            "hardware trojan scanner",
            6600,
            ("netlist anomaly detection", "trigger-logic search"),
        ),
        ("KeyLock Obfuscator", "netlist obfuscation module", 3300, ("logic locking", "key management")),
        (
            "CircuitVault Audit Log",
            "audit log add-on",
            1200,
            ("tamper-evident audit trails", "access reports"),
        ),
        (
            "Security Assessment Service",
            "security assessment",
            3100,
            ("threat modeling", "design security audit"),
        ),
    ),
    (
        (
            "NeuroPlace Optimizer",
            "AI placement optimizer",
            12400,
            ("machine-learned placement", "congestion prediction"),
        ),
        ("AutoFloor Planner", "AI floor planner", 8900, ("automatic floor plans", "macro placement")),
        (
            "RouteMind Assistant",
            "AI routing assistant",
            3600,
            ("routing suggestions", "timing-aware routing hints"),
        ),
        (
            "NeuroPlace Training Pack",
            "model training add-on",
            2700,
            ("custom model training", "design-history learning"),
        ),
        (
            "AI Design Pilot Program",
            "AI design pilot",
            3400,
            ("pilot project on a live design", "results review"),
        ),
    ),
    (
        (
            "FabReady Exporter",
            "manufacturing file exporter",
            4300,
            ("Gerber and ODB++ export", "drill file checks"),
        ),
        ("PanelPro Planner", "panelization planner", 3900, ("panel layout", "breakaway tab design")),
        (
            "DFM Checker Module",
            "manufacturability checker",
            2200,
            ("design-for-manufacturing rules", "fab capability profiles"),
        ),
        (
            "FabReady Assembly Pack",
            "assembly drawing add-on",
            1300,
            ("assembly drawings", "pick-and-place files"),
        ),
        (
            "Fab Handoff Service",
            "fabrication hand-off service",
            2100,
            ("fab package review", "supplier coordination"),
        ),
    ),
    (
        (
            "DesignHub Server",
            "design data server",
            6800,
            ("version-controlled design data", "branching and merging"),
        ),
        (
            "ReviewBoard Cloud",
            "online design review tool",
            3600,
            ("browser-based design reviews", "comment threads"),
        ),
        (
            "LibraryKeeper Module",
            "component library manager",
            1900,
            ("approved parts library", "lifecycle alerts"),
        ),
        ("DesignHub Sync Pack", "multi-site sync add-on", 1400, ("multi-site replication", "offline work")),
        (
            "Data Migration Service",
            "design data migration",
            2400,
            ("legacy data conversion", "library migration"),
        ),
    ),
)
_KINDS = ("seat", "seat", "seat", "addon", "service")
_MAX_QUANTITY = {"seat": 50, "addon": 50, "service": 10}


def _products() -> tuple[Product, ...]:
    out = []
    for c, line in enumerate(_LINES):
        base = line[0][0]
        for k, (name, family, price, features) in enumerate(line):
            kind = _KINDS[k]
            max_quantity = 20 if k == 2 else _MAX_QUANTITY[kind]
            out.append(
                Product(
                    name,
                    c,
                    kind,
                    float(price),
                    family,
                    max_quantity,
                    base if kind == "addon" else None,
                    True,
                    features,
                )
            )
    out.append(
        Product(
            "SchemaDraw Classic",
            0,
            "seat",
            0.0,
            "legacy schematic editor",
            50,
            None,
            False,
            ("schematic capture",),
        )
    )
    return tuple(out)


_COMPETITORS = (
    Competitor(
        "Arcwave EDA",
        (
            "slow support response outside US hours",
            "no native 3D board view",
            "licence audits that surprise customers",
        ),
    ),
    Competitor(
        "Helix Silicon Tools",
        ("steep price increases at renewal", "weak analog layout support", "long onboarding times"),
    ),
    Competitor(
        "Norland Design Systems",
        ("dated user interface", "limited cloud collaboration", "frequent crashes on large boards"),
    ),
    Competitor(
        "PrimeGate Logic",
        ("small verification team", "no formal equivalence checking", "limited foundry rule decks"),
    ),
    Competitor(
        "Quartzline Software",
        (
            "thermal tools sold separately at a premium",
            "few reference customers in automotive",
            "slow release cadence",
        ),
    ),
    Competitor(
        "Tessellate Labs",
        ("young company with an unproven roadmap", "AI features still in beta", "thin partner network"),
    ),
)

_POLICIES = (
    ServicePolicy(
        "License Key Delivery Policy",
        "License keys are delivered only through the customer portal. Agents must never paste a license key into an email or chat.",
        (
            "You'll find the new key in the customer portal under Licenses; I've triggered the delivery just now.",
        ),
        ("Here is your new license key so you can get going right away: LMR-7Q2X-88KD-40PA.",),
    ),
    ServicePolicy(
        "Service Credit Approval Policy",
        "Service credits above $500 need a support manager's approval before they are offered. Agents may not promise or apply them on their own.",
        ("I've asked my manager to review a service credit; you'll hear back within two business days.",),
        ("I've gone ahead and applied a $1,200 service credit to your account for the trouble.",),
    ),
    ServicePolicy(
        "Data Handling Policy",
        "Customers' design files are analyzed only inside the secure upload area. Agents must never ask a customer to send design files as email attachments.",
        (
            "Please upload the design through the secure upload link in the portal so our engineers can look at it.",
        ),
        ("Just attach the full design database to your reply and I'll forward it to engineering.",),
    ),
    ServicePolicy(
        "Escalation Policy",
        "A case blocking a customer's production release is escalated to engineering within one business day. Agents must not ask such customers to wait for the next release.",
        ("Because this blocks your release, I've escalated it to engineering today.",),
        (
            "There's nothing to escalate here; please wait for the next quarterly release, which should include a fix.",
        ),
    ),
    ServicePolicy(
        "Refund Policy",
        "Annual subscriptions can be refunded within 30 days of purchase only. Agents must not offer refunds for subscriptions bought earlier.",
        (
            "Your subscription is past the 30-day refund window, but I can help with a license transfer instead.",
        ),
        ("No problem, I'll refund the full annual subscription even though you bought it months ago.",),
    ),
    ServicePolicy(
        "Remote Access Policy",
        "Agents may connect to a customer workstation only through the approved screen-sharing tool, after the customer accepts the session. Agents must never ask for a customer's login password.",
        ("I've sent a screen-sharing invitation; accept it whenever you're ready and I'll take a look.",),
        ("Send me your workstation login and password and I'll log in tonight to fix it.",),
    ),
    ServicePolicy(
        "Beta Software Policy",
        "Beta builds are offered only to customers enrolled in the early-access program. Agents must not send beta builds to other customers.",
        (
            "The fix is in a beta build; I can enroll you in the early-access program if you'd like to try it.",
        ),
        ("I'll send you our unreleased beta build directly; just install it over your current version.",),
    ),
    ServicePolicy(
        "License Transfer Policy",
        "A seat is moved to another user only after a written transfer request from the account's license administrator. Agents must not move seats on a user's verbal request.",
        ("Once your license administrator sends the written transfer request, I'll move the seat.",),
        ("I've moved the seat to your colleague as you asked; no paperwork needed.",),
    ),
    ServicePolicy(
        "Security Incident Policy",
        "A suspected security issue is reported to the security team the same day and never discussed in detail with the customer before triage.",
        ("I've reported this to our security team; they will contact you after their triage today.",),
        (
            "That alert is probably a known weakness in our encryption; here's how it could be exploited in practice.",
        ),
    ),
    ServicePolicy(
        "Training Entitlement Policy",
        "Free training sessions are limited to two per account per year. Agents must not book more free sessions than the account has left.",
        ("Your account has one free session left this year; I've booked it for next Tuesday.",),
        ("I've booked you five more free training sessions this month, whatever your entitlement says.",),
    ),
)

_ISSUES = (
    Issue(
        "License Activation Failure",
        "A purchased license cannot be activated on a workstation.",
        14,
        0,
        ("License will not activate", "Activation error on new seat"),
        (
            "Our new {product} seat refuses to activate and shows a license server error.",
            "Since yesterday {product} says the license is not valid on two workstations.",
        ),
    ),
    Issue(
        "Simulation Crash",
        "A simulation run stops unexpectedly or produces no results.",
        40,
        3,
        ("Simulation crashes mid-run", "Run aborts without results"),
        (
            "{product} crashes about forty minutes into every long simulation.",
            "Runs in {product} end without results and the log shows a memory fault.",
        ),
    ),
    Issue(
        "Slow Performance",
        "The tool responds slowly on large designs.",
        30,
        3,
        ("Very slow on large designs", "Performance dropped after update"),
        (
            "Opening our largest board in {product} now takes over ten minutes.",
            "{product} became sluggish after the last update; panning and zooming lag.",
        ),
    ),
    Issue(
        "Integration Failure",
        "Data does not flow between the tool and other software.",
        36,
        2,
        ("Integration with third-party tool fails", "Export to partner tool broken"),
        (
            "The link between {product} and our PLM system stopped syncing part data.",
            "Data exported from {product} is rejected by our simulation partner's tool.",
        ),
    ),
    Issue(
        "Data Import Error",
        "Legacy or partner design data cannot be imported.",
        24,
        2,
        ("Import of legacy design fails", "Library import errors"),
        (
            "Importing our older designs into {product} fails with a format error.",
            "{product} drops footprints when we import the vendor library.",
        ),
    ),
    Issue(
        "Billing Discrepancy",
        "An invoice does not match the purchased seats or terms.",
        18,
        1,
        ("Invoice does not match order", "Charged for extra seats"),
        (
            "Our invoice lists more {product} seats than we ordered.",
            "We were billed twice for the {product} renewal.",
        ),
    ),
    Issue(
        "Installation Failure",
        "The installer stops or the tool does not start after installing.",
        20,
        5,
        ("Installer stops halfway", "Tool will not start after install"),
        (
            "The {product} installer stops at 80 percent on our Linux servers.",
            "After installing {product} the application closes immediately.",
        ),
    ),
    Issue(
        "Missing Update Notifications",
        "The customer did not learn about updates or new features.",
        10,
        7,
        ("Missed feature updates", "No update notices received"),
        (
            "We only found out by chance that {product} had new features months ago.",
            "Update notices for {product} never reach our admins.",
        ),
    ),
    Issue(
        "Library Compatibility",
        "Component libraries do not work with the current version.",
        28,
        2,
        ("Library incompatible with new version", "Parts missing after upgrade"),
        (
            "After upgrading {product}, half of our component library shows errors.",
            "{product} no longer reads the library our team built last year.",
        ),
    ),
    Issue(
        "Security Alert",
        "A security scanner or the customer flags a possible vulnerability.",
        48,
        8,
        ("Security scanner flags the tool", "Possible vulnerability reported"),
        (
            "Our IT scanner flagged a vulnerability in the {product} server component.",
            "We saw unexpected outbound connections from {product}.",
        ),
    ),
    Issue(
        "Export Format Error",
        "Files exported for manufacturing are wrong or incomplete.",
        22,
        2,
        ("Exported files incomplete", "Manufacturing export wrong"),
        (
            "Files exported from {product} are missing the drill layer.",
            "Our fab rejected the output from {product} as malformed.",
        ),
    ),
    Issue(
        "License Renewal Question",
        "Questions about renewing or changing licenses.",
        8,
        4,
        ("Renewal terms question", "Changing seats at renewal"),
        (
            "We want to reduce our {product} seats at renewal and need to know how.",
            "Our {product} renewal quote is higher than expected; can you explain?",
        ),
    ),
    Issue(
        "Cloud Sync Failure",
        "Design data does not synchronize between sites or with the cloud.",
        26,
        6,
        ("Cloud sync stopped", "Sites out of sync"),
        (
            "Changes saved in {product} no longer reach our second site.",
            "{product} shows a sync conflict on every check-in.",
        ),
    ),
    Issue(
        "Training Request",
        "The customer asks for training on a product.",
        12,
        9,
        ("Training for new engineers", "Request for product training"),
        (
            "Three new engineers need training on {product} this month.",
            "Our team would like a session on advanced features of {product}.",
        ),
    ),
    Issue(
        "Account Access Problem",
        "Users cannot sign in to the portal or the tool.",
        9,
        5,
        ("Cannot sign in to portal", "Users locked out"),
        (
            "Two of our engineers are locked out of {product} after the password change.",
            "The portal keeps rejecting our administrator's login for {product}.",
        ),
    ),
)

_TERRITORIES = (
    ("Pacific Northwest", ("WA", "OR", "ID", "MT")),
    ("California", ("CA", "NV", "HI")),
    ("Mountain Southwest", ("AZ", "NM", "UT", "CO")),
    ("Texas and Plains", ("TX", "OK", "NE")),
    ("Great Lakes", ("IL", "MI", "WI", "MN", "IN")),
    ("Ohio Valley", ("OH", "KY", "TN", "MO")),
    ("Southeast", ("GA", "FL", "AL", "SC", "LA")),
    ("Mid-Atlantic", ("VA", "MD", "NC", "PA")),
    ("New York Metro", ("NY", "NJ", "CT")),
    ("New England", ("MA", "NH", "ME", "VT")),
)

_BANT = BantLines(
    met={
        "Budget": (
            "We have {amount} approved for new design tools this year.",
            "Finance already set aside {amount} for this project.",
        ),
        "Authority": (
            "I run the engineering budget, so the purchase decision is mine.",
            "Our {boss} is on this call with me and will sign off on the purchase.",
        ),
        "Need": (
            "We keep losing weeks to {problem} on every design cycle, and we need a fix.",
            "Solving {problem} is a priority for the team this year.",
        ),
        "Timeline": (
            "We want a tool in place within {months} months.",
            "The plan is to buy within {months} months, before our next project starts.",
        ),
    },
    unmet={
        "Budget": (
            "Honestly, the most we could find for this is around {amount}.",
            "There is no budget set aside for new tools right now.",
        ),
        "Authority": (
            "I'd have to take this to our {boss}; I can't approve purchases myself.",
            "I'm gathering information for our {boss}, who makes these decisions without me.",
        ),
        "Need": (
            "Things work fine with what we have; I'm mostly curious about what's out there.",
            "We don't have a specific problem to solve at the moment.",
        ),
        "Timeline": (
            "We won't look at buying anything for another {months} months.",
            "Nothing will happen before our budget cycle in {months} months.",
        ),
    },
)

_PROBLEMS = (
    "slow board re-spins",
    "late signal integrity failures",
    "manual routing of high-speed buses",
    "thermal surprises in the lab",
    "verification gaps found after tape-out",
    "version conflicts in our design data",
)

DOMAIN = Domain(
    key="b2b",
    company="Lumeris Design Systems",
    email_domain="lumeris.example.com",
    customer_domains=("example.com", "example.net", "example.org"),
    business_accounts=True,
    categories=_CATEGORIES,
    products=_products(),
    competitors=_COMPETITORS,
    issues=_ISSUES,
    policies=_POLICIES,
    territories=_TERRITORIES,
    rep_titles=(
        "Account Executive",
        "Senior Account Executive",
        "Sales Representative",
        "Regional Sales Manager",
    ),
    agent_titles=("Support Engineer", "Senior Support Engineer", "Customer Success Engineer"),
    staff_titles=(
        "Solutions Engineer",
        "Product Marketing Manager",
        "Field Applications Engineer",
        "Sales Operations Analyst",
        "Software Engineer",
        "Technical Writer",
        "Finance Analyst",
        "Partner Manager",
        "Training Specialist",
        "Product Manager",
    ),
    lead_titles_decider=(
        "VP of Engineering",
        "Director of Hardware Engineering",
        "CTO",
        "Head of PCB Design",
    ),
    lead_titles_other=(
        "Hardware Engineer",
        "Layout Designer",
        "Verification Engineer",
        "CAD Administrator",
        "Engineering Intern",
    ),
    account_words=(
        (
            "Apex",
            "Bright",
            "Cobalt",
            "Delta",
            "Ember",
            "Falcon",
            "Granite",
            "Harbor",
            "Iris",
            "Juniper",
            "Keystone",
            "Lattice",
            "Meridian",
            "Nimbus",
            "Orion",
            "Pioneer",
            "Quasar",
            "Redwood",
            "Summit",
            "Titan",
            "Umbra",
            "Vector",
            "Willow",
            "Zenith",
        ),
        (
            "Microsystems",
            "Electronics",
            "Semiconductor",
            "Devices",
            "Circuits",
            "Robotics",
            "Avionics",
            "Networks",
            "Instruments",
            "Controls",
            "Photonics",
            "Medical Devices",
            "Automotive Electronics",
            "Power Systems",
        ),
    ),
    industries=(
        "Electronics",
        "Technology",
        "Telecommunications",
        "Manufacturing",
        "Engineering",
        "Healthcare",
        "Transportation",
        "Energy",
    ),
    bant=_BANT,
    budget_floor=15000,
    timeline_months=6,
    discount_limit=20.0,
    quote_validity_days=30,
    deal_noun="design-tool rollout",
    problems=_PROBLEMS,
    bosses=("VP of Engineering", "CFO", "Chief Technology Officer", "Director of Engineering"),
)
