"""The B2C org: Harborline Auto Group, a car dealership selling vehicles and care plans to consumers.

Thirty-three vehicles in four categories (one of them no longer sold), care plans that need a
vehicle on the same quote, and accessories; six rival dealerships; fifteen service issues under
ten service policies; ten territories of US states. All names, models and brands are invented
for this project.
"""

from __future__ import annotations

from crmarena_sf.loaders.pro.domain import (
    CONSUMER_STAGE_TASKS,
    BantLines,
    Competitor,
    Domain,
    Issue,
    Product,
    ServicePolicy,
)

_CATEGORIES = (
    "Sedans",
    "SUVs & Crossovers",
    "Trucks & Vans",
    "Electric & Hybrid",
    "Care Plans & Accessories",
)

# (name, family, price, features)
_VEHICLES = (
    (
        0,
        "Kestrel Ardent LX Sedan",
        "compact sedan",
        24990,
        ("adaptive cruise control", "40 mpg on the highway"),
    ),
    (
        0,
        "Kestrel Ardent Sport Sedan",
        "sport compact sedan",
        28490,
        ("turbocharged engine", "sport suspension"),
    ),
    (0, "Aurelia Lumen Sedan", "midsize sedan", 31990, ("panoramic roof", "wireless phone charging")),
    (
        0,
        "Aurelia Lumen Touring Sedan",
        "midsize touring sedan",
        36490,
        ("heated rear seats", "premium audio"),
    ),
    (
        0,
        "Halden Vireo Executive Sedan",
        "full-size luxury sedan",
        58990,
        ("massage seats", "night vision assist"),
    ),
    (
        0,
        "Halden Vireo M Performance",
        "high-performance sedan",
        74990,
        ("twin-turbo V8", "carbon-ceramic brakes"),
    ),
    (
        0,
        "Kestrel Nova Hatchback",
        "small hatchback",
        21990,
        ("fold-flat rear seats", "city emergency braking"),
    ),
    (1, "Aurelia Solace Compact SUV", "compact SUV", 29990, ("all-wheel drive", "hands-free liftgate")),
    (
        1,
        "Aurelia Solace Touring SUV",
        "midsize touring SUV",
        38990,
        ("three-row seating", "tri-zone climate"),
    ),
    (
        1,
        "Halden Ridgeline Luxury SUV",
        "full-size luxury SUV",
        69990,
        ("air suspension", "rear-seat entertainment"),
    ),
    (1, "Halden Ridgeline Sport SUV", "performance SUV", 76490, ("sport exhaust", "launch control")),
    (1, "Kestrel Trailmark Crossover", "subcompact crossover", 23490, ("raised ride height", "roof rails")),
    (
        1,
        "Kestrel Trailmark Adventure",
        "off-road crossover",
        33490,
        ("locking differential", "all-terrain tires"),
    ),
    (1, "Aurelia Coastal Family SUV", "seven-seat family SUV", 44990, ("captain's chairs", "rear sunshades")),
    (1, "Halden Meridian Coupe SUV", "coupe-style SUV", 62990, ("sloping roofline", "adaptive headlights")),
    (2, "Kestrel Forge Work Truck", "work pickup truck", 34990, ("towing package", "bed liner")),
    (2, "Kestrel Forge Crew Cab", "crew cab pickup", 42990, ("four full doors", "trailer camera")),
    (2, "Halden Titanus Heavy Duty", "heavy-duty pickup", 61990, ("diesel engine", "14,000 lb towing")),
    (2, "Aurelia Voyager Minivan", "family minivan", 37990, ("sliding doors", "built-in vacuum")),
    (2, "Aurelia Voyager Cargo Van", "cargo van", 39490, ("high roof", "shelving package")),
    (2, "Kestrel Forge Trail Edition", "off-road pickup", 48490, ("skid plates", "rock crawl mode")),
    (2, "Halden Titanus Camper", "camper-ready pickup", 66990, ("camper shell mounts", "auxiliary battery")),
    (3, "Aurelia Spark EV Hatchback", "electric hatchback", 32990, ("260-mile range", "DC fast charging")),
    (3, "Aurelia Spark EV Long Range", "long-range electric car", 41990, ("340-mile range", "heat pump")),
    (
        3,
        "Halden Volta Electric SUV",
        "electric SUV",
        57990,
        ("dual-motor all-wheel drive", "over-the-air updates"),
    ),
    (3, "Kestrel Ardent Hybrid Sedan", "hybrid sedan", 27990, ("52 mpg combined", "regenerative braking")),
    (3, "Kestrel Trailmark Hybrid", "hybrid crossover", 31490, ("electric all-wheel drive", "eco mode")),
    (
        3,
        "Halden Volta Plug-in Hybrid",
        "plug-in hybrid SUV",
        52990,
        ("40-mile electric range", "home charging kit"),
    ),
    (
        3,
        "Aurelia Spark EV Crossover",
        "electric crossover",
        45990,
        ("one-pedal driving", "vehicle-to-load outlet"),
    ),
    (
        3,
        "Halden Volta Electric Truck",
        "electric pickup truck",
        67990,
        ("frunk storage", "power export outlets"),
    ),
    (0, "Aurelia Lumen Hybrid Sedan", "midsize hybrid sedan", 33990, ("48 mpg combined", "lane centering")),
    (1, "Halden Ridgeline Hybrid SUV", "hybrid luxury SUV", 71490, ("hybrid V6", "four-zone climate")),
)
_PLANS = (
    (
        "Harborline Complete Care Plan",
        "comprehensive maintenance plan",
        2499,
        ("all scheduled maintenance", "roadside assistance"),
    ),
    (
        "Harborline Essential Care Plan",
        "basic maintenance plan",
        999,
        ("oil changes and rotations", "multi-point inspections"),
    ),
    (
        "Harborline Powertrain Extension",
        "powertrain warranty extension",
        1899,
        ("engine and transmission coverage", "seven-year term"),
    ),
    (
        "Harborline Tire and Wheel Plan",
        "tire and wheel protection",
        799,
        ("road hazard tire replacement", "wheel repair"),
    ),
    (
        "Harborline EV Battery Care",
        "EV battery care plan",
        1499,
        ("battery health checks", "charging cable replacement"),
    ),
    ("Harborline Appearance Plan", "paint and interior protection", 699, ("paint sealant", "stain repair")),
    (
        "Harborline Key Replacement Plan",
        "key fob replacement plan",
        399,
        ("lost key replacement", "fob battery service"),
    ),
    (
        "Harborline GAP Protection",
        "loan gap coverage",
        899,
        ("covers the loan balance gap", "deductible assistance"),
    ),
)
_ACCESSORIES = (
    ("All-Weather Floor Mats", "set of rubber floor mats", 189, ("laser-fit design", "raised edges")),
    ("Roof Cargo Box", "roof storage box", 649, ("16 cubic feet", "dual-side opening")),
    ("Hitch-Mounted Bike Rack", "bike carrier", 429, ("holds four bikes", "tilt-away arm")),
    ("Level 2 Home Charger", "home EV charger", 799, ("48-amp charging", "app scheduling")),
    ("Winter Wheel and Tire Set", "winter tire package", 1599, ("studless winter tires", "alloy wheels")),
    ("Dash Camera Kit", "dashboard camera", 279, ("front and rear recording", "parking mode")),
    ("Cargo Organizer", "trunk organizer", 89, ("collapsible bins", "non-slip base")),
    ("Tonneau Cover", "truck bed cover", 1099, ("hard folding panels", "lockable")),
    ("Remote Start Module", "remote engine starter", 449, ("phone app start", "two-mile range")),
    ("Pet Travel Barrier", "pet barrier", 149, ("adjustable width", "rattle-free mounts")),
)


def _products() -> tuple[Product, ...]:
    out = [Product(n, c, "unit", float(p), f, 1, None, True, feats) for c, n, f, p, feats in _VEHICLES]
    out += [Product(n, 4, "addon", float(p), f, 1, "vehicle", True, feats) for n, f, p, feats in _PLANS]
    out += [Product(n, 4, "unit", float(p), f, 4, None, True, feats) for n, f, p, feats in _ACCESSORIES]
    out.append(
        Product(
            "Kestrel Ardent Classic Coupe",
            0,
            "unit",
            0.0,
            "discontinued two-door coupe",
            1,
            None,
            False,
            ("manual gearbox",),
        )
    )
    return tuple(out)


_COMPETITORS = (
    Competitor(
        "Lakeshore Motors",
        (
            "thin service department with week-long waits",
            "no home delivery",
            "dealer fees added late in the deal",
        ),
    ),
    Competitor(
        "Summit Ridge Autos",
        ("small used-car inventory", "financing approvals that take days", "no EV specialists"),
    ),
    Competitor(
        "Pinecrest Car Company",
        ("high documentation fees", "loaner cars rarely available", "few certified technicians"),
    ),
    Competitor(
        "Bayline Auto Mall", ("pushy add-on sales", "slow title and registration", "limited weekend hours")
    ),
    Competitor(
        "Redstone Motor Works",
        ("short test drives only", "no maintenance plans of its own", "trade-in offers below market"),
    ),
    Competitor(
        "Coastal Drive Dealers",
        ("online prices that change at the store", "a single service location", "poor review scores"),
    ),
)

_POLICIES = (
    ServicePolicy(
        "Loaner Vehicle Policy",
        "A loaner car is offered only for warranty repairs expected to take more than one day. Agents must not promise loaners for other visits.",
        ("This warranty repair will take two days, so I've reserved a loaner for you.",),
        ("Don't worry about the oil change wait, I'll hand you a loaner car for the day anyway.",),
    ),
    ServicePolicy(
        "Goodwill Repair Approval Policy",
        "Repairs outside warranty paid by the dealership as goodwill need the service manager's approval. Agents must not promise free repairs on their own.",
        ("I've asked the service manager to review a goodwill repair and will call you tomorrow.",),
        ("I'll cover that out-of-warranty repair for free, no need to check with anyone.",),
    ),
    ServicePolicy(
        "Financing Disclosure Policy",
        "Interest rates are quoted only after a credit application is reviewed. Agents must never promise a specific rate before that.",
        ("Once your credit application is reviewed, finance will confirm the rate you qualify for.",),
        ("I can promise you 0.9% financing right now, no credit check needed.",),
    ),
    ServicePolicy(
        "Recall Repair Policy",
        "Recall repairs are free and scheduled within seven days of the customer's request. Agents must never charge for recall work.",
        ("That recall repair is free; I've booked you in for this Thursday.",),
        ("The recall fix will cost $180 for labor, payable when you pick up the car.",),
    ),
    ServicePolicy(
        "Personal Data Policy",
        "Customers' driver's license and payment details are collected only in the secure document portal. Agents must never ask for them by email or chat.",
        ("Please upload your license in the secure document portal; I'll confirm once it's in.",),
        (
            "Just reply with a photo of your driver's license and your card number and I'll finish the paperwork.",
        ),
    ),
    ServicePolicy(
        "Care Plan Cancellation Policy",
        "A care plan cancelled within 60 days is refunded in full; later cancellations are prorated. Agents must not promise full refunds after 60 days.",
        ("Your plan is past 60 days, so the refund will be prorated for the months you used.",),
        ("Even though you bought the plan a year ago, I'll refund every dollar of it.",),
    ),
    ServicePolicy(
        "Test Drive Policy",
        "Test drives require a valid driver's license on file and a staff member in the car. Agents must not arrange unaccompanied test drives.",
        ("One of our product specialists will ride along for your test drive on Saturday.",),
        ("Take the car for the weekend by yourself, no need for anyone to come along.",),
    ),
    ServicePolicy(
        "Trade-In Appraisal Policy",
        "Trade-in values are given only after an in-person appraisal. Agents must never promise a trade-in value sight unseen.",
        ("Bring the car in for a twenty-minute appraisal and we'll give you a firm number.",),
        ("I can guarantee you $18,000 for your trade-in without seeing it.",),
    ),
    ServicePolicy(
        "Delivery Timeline Policy",
        "Delivery dates are confirmed only once the vehicle's VIN is assigned. Agents must not promise a delivery date before that.",
        ("As soon as the factory assigns a VIN, I'll confirm your delivery date.",),
        ("Your car will definitely be here on the 12th, I promise, even though it hasn't been built yet.",),
    ),
    ServicePolicy(
        "Warranty Claim Policy",
        "Warranty work needs a technician's diagnosis first. Agents must not approve warranty coverage before the diagnosis.",
        ("Our technician will diagnose it first, then we'll confirm what the warranty covers.",),
        ("That's definitely covered by warranty; I've approved it already without a diagnosis.",),
    ),
)

_ISSUES = (
    Issue(
        "Engine Warning Light",
        "The check-engine light comes on.",
        30,
        9,
        ("Check-engine light is on", "Engine warning after refuel"),
        (
            "The check-engine light came on in my {product} this morning.",
            "My {product} shows an engine warning every time I start it.",
        ),
    ),
    Issue(
        "Battery Drain",
        "The 12-volt or traction battery runs down unexpectedly.",
        26,
        9,
        ("Battery dies overnight", "Car will not start"),
        (
            "My {product} battery is dead every few mornings.",
            "The {product} would not start after sitting two days.",
        ),
    ),
    Issue(
        "Infotainment Glitch",
        "The touchscreen, audio or navigation misbehaves.",
        14,
        1,
        ("Touchscreen freezes", "Navigation not working"),
        (
            "The touchscreen in my {product} freezes and reboots while driving.",
            "Navigation in the {product} keeps losing the map.",
        ),
    ),
    Issue(
        "Brake Noise",
        "Brakes squeal, grind or feel soft.",
        20,
        9,
        ("Brakes squeal", "Grinding when stopping"),
        (
            "The brakes on my {product} squeal at every stop.",
            "I hear grinding from the front brakes of my {product}.",
        ),
    ),
    Issue(
        "Warranty Claim",
        "A part failed and the customer asks for warranty coverage.",
        40,
        9,
        ("Warranty repair request", "Part failed under warranty"),
        (
            "A window regulator on my {product} broke and it should be under warranty.",
            "The {product}'s power seat stopped working; is that covered?",
        ),
    ),
    Issue(
        "Care Plan Billing",
        "Questions or disputes about a care plan charge.",
        12,
        5,
        ("Charged twice for care plan", "Care plan refund request"),
        (
            "I was charged twice for the care plan on my {product}.",
            "I want to cancel the care plan I bought with my {product}.",
        ),
    ),
    Issue(
        "Financing Question",
        "Questions about a loan, lease or rate.",
        10,
        2,
        ("Question about my loan", "Lease payment question"),
        (
            "My payment on the {product} is higher than I was told.",
            "Can I refinance the loan on my {product}?",
        ),
    ),
    Issue(
        "Delivery Delay",
        "A purchased vehicle has not been delivered on time.",
        36,
        8,
        ("Car not delivered yet", "Delivery date slipped"),
        (
            "My {product} was supposed to be delivered last week.",
            "Nobody can tell me when my {product} will arrive.",
        ),
    ),
    Issue(
        "Recall Notice",
        "The customer received a recall notice.",
        18,
        3,
        ("Recall letter received", "Need recall repair"),
        (
            "I got a recall letter for my {product}; what should I do?",
            "Is my {product} affected by the airbag recall?",
        ),
    ),
    Issue(
        "Tire Wear",
        "Tires wear unevenly or quickly.",
        16,
        0,
        ("Tires wearing fast", "Uneven tire wear"),
        (
            "The tires on my {product} are worn after only 15,000 miles.",
            "The {product}'s front tires wear on the inside edge.",
        ),
    ),
    Issue(
        "Air Conditioning Failure",
        "The climate system does not cool or heat.",
        28,
        1,
        ("AC blows warm air", "Heater not working"),
        (
            "The air conditioning in my {product} blows warm air.",
            "The heater in my {product} stopped working.",
        ),
    ),
    Issue(
        "Key Fob Failure",
        "The key fob is lost or does not work.",
        8,
        4,
        ("Key fob not detected", "Lost key fob"),
        (
            "My {product} says no key detected even with the fob inside.",
            "I lost one of the fobs for my {product}.",
        ),
    ),
    Issue(
        "Paint Defect",
        "Paint chips, bubbles or fades.",
        34,
        6,
        ("Paint bubbling", "Paint chipped on delivery"),
        (
            "The paint on the hood of my {product} is bubbling.",
            "My new {product} arrived with chipped paint on a door.",
        ),
    ),
    Issue(
        "Charging Problem",
        "An electric or plug-in vehicle does not charge properly.",
        24,
        7,
        ("Car will not charge", "Charging stops early"),
        ("My {product} stops charging at 60 percent.", "The {product} won't charge on my home charger."),
    ),
    Issue(
        "Registration Paperwork",
        "Title, plates or registration are delayed or wrong.",
        15,
        4,
        ("Plates not received", "Registration error"),
        (
            "I still haven't received plates for my {product}.",
            "The registration for my {product} lists the wrong address.",
        ),
    ),
)

_TERRITORIES = (
    ("Northwest", ("WA", "OR", "ID")),
    ("Pacific", ("CA", "HI", "NV")),
    ("Rockies", ("CO", "UT", "MT", "NM")),
    ("Southwest", ("AZ", "TX", "OK")),
    ("Midwest", ("IL", "WI", "MN", "NE", "MO")),
    ("Lakes", ("MI", "OH", "IN", "KY")),
    ("South", ("TN", "AL", "LA", "SC", "GA")),
    ("Florida", ("FL",)),
    ("Atlantic", ("VA", "MD", "NC", "PA", "NJ")),
    ("Northeast", ("NY", "CT", "MA", "NH", "ME", "VT")),
)

_BANT = BantLines(
    met={
        "Budget": (
            "We've budgeted {amount} for the new car.",
            "The bank pre-approved us for up to {amount}.",
        ),
        "Authority": (
            "It's my decision; I'm the one buying and signing.",
            "My {boss} is here with me and we'll decide together today.",
        ),
        "Need": (
            "We really need a {problem} now that our old car keeps breaking down.",
            "With the new baby we need a {problem}, that's why we're looking.",
        ),
        "Timeline": (
            "We'd like to be driving it within {months} months.",
            "We plan to buy in the next {months} months.",
        ),
    },
    unmet={
        "Budget": (
            "Realistically we can only spend about {amount}.",
            "We haven't set any money aside for a car yet.",
        ),
        "Authority": (
            "I'll need my {boss} to agree, and they haven't seen any of this.",
            "I'm just looking for my {boss}, who will decide on their own.",
        ),
        "Need": (
            "Our current car is fine; we're just browsing.",
            "We don't really need anything, I was curious about the new models.",
        ),
        "Timeline": (
            "We're not planning to buy for another {months} months.",
            "Nothing before {months} months from now, when our lease ends.",
        ),
    },
)

DOMAIN = Domain(
    key="b2c",
    company="Harborline Auto Group",
    email_domain="harborline.example.com",
    customer_domains=("example.com", "example.net", "example.org", "mail.example.com"),
    business_accounts=False,
    categories=_CATEGORIES,
    products=_products(),
    competitors=_COMPETITORS,
    issues=_ISSUES,
    policies=_POLICIES,
    territories=_TERRITORIES,
    rep_titles=(
        "Sales Consultant",
        "Senior Sales Consultant",
        "Product Specialist",
        "Internet Sales Manager",
    ),
    agent_titles=("Service Advisor", "Senior Service Advisor", "Customer Care Specialist"),
    staff_titles=(
        "Finance Manager",
        "Service Technician",
        "Parts Specialist",
        "Lot Attendant",
        "Marketing Coordinator",
        "Detailer",
        "Office Manager",
        "Title Clerk",
        "Used Car Manager",
        "Receptionist",
    ),
    lead_titles_decider=("Buyer",),
    lead_titles_other=("Researcher",),
    account_words=((), ()),
    industries=(),
    bant=_BANT,
    budget_floor=25000,
    timeline_months=3,
    discount_limit=8.0,
    quote_validity_days=14,
    deal_noun="vehicle purchase",
    problems=(
        "bigger family car",
        "car with better fuel economy",
        "truck for work",
        "safer car for our teenager",
        "car that can tow our boat",
    ),
    bosses=("spouse", "partner", "parents", "co-signer"),
    stage_tasks=CONSUMER_STAGE_TASKS,
)
