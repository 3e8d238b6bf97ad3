"""The words of the product catalog: twelve categories, their items, styles and selling points.

A product name is ``[audience] [modifier] <style> <item>``, e.g. "Women's Insulated Trail
Jacket". Products sharing audience, style and item form a *family* ("women's trail jacket"):
a customer naming the family is ambiguous until their purchase history settles it, which is
what the named-entity-disambiguation task probes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    noun: str
    price: tuple[float, float]
    gendered: bool = True


@dataclass(frozen=True)
class Category:
    name: str
    styles: tuple[str, ...]
    items: tuple[Item, ...]
    features: tuple[str, ...]
    """Selling points for descriptions, completing "<name> features ..."."""


AUDIENCES = ("Men's ", "Women's ", "Kids' ")
MODIFIERS = (
    "",
    "Lightweight ",
    "Classic ",
    "Pro ",
    "Performance ",
    "Ultra ",
    "Essential ",
    "Premium ",
    "Everyday ",
)
COLORWAYS = (
    "Black",
    "Navy",
    "Slate",
    "Crimson",
    "Forest",
    "Sand",
    "Cobalt",
    "Ember",
    "Glacier",
    "Olive",
    "Coral",
    "Storm",
)

CATEGORIES = (
    Category(
        "Men’s Athletic Wear",
        ("Training", "Running", "Compression", "Gym", "All-Around"),
        (
            Item("T-Shirt", (18, 45)),
            Item("Shorts", (20, 55)),
            Item("Tank", (15, 40)),
            Item("Hoodie", (45, 95)),
            Item("Joggers", (40, 85)),
        ),
        (
            "moisture-wicking fabric and flatlock seams",
            "four-way stretch and an anti-odor finish",
            "a breathable mesh back panel",
        ),
    ),
    Category(
        "Women’s Athletic Wear",
        ("Fitness", "Yoga", "Running", "Studio", "All-Around"),
        (
            Item("Leggings", (35, 98)),
            Item("Sports Bra", (25, 65)),
            Item("Tank", (18, 48)),
            Item("Jacket", (55, 120)),
            Item("Capris", (30, 75)),
        ),
        (
            "a high-rise waistband with a hidden pocket",
            "squat-proof, sweat-wicking fabric",
            "soft brushed fabric that moves with you",
        ),
    ),
    Category(
        "Running Shoes",
        ("Road", "Trail", "Marathon", "Cushioned", "Racing"),
        (Item("Running Shoes", (70, 180)), Item("Sneakers", (55, 140)), Item("Spikes", (60, 130))),
        (
            "responsive foam cushioning and a grippy rubber outsole",
            "a breathable knit upper and reflective heel details",
            "a rock plate and lugged outsole for loose ground",
        ),
    ),
    Category(
        "Outdoor Apparel",
        ("Trail", "Explorer", "Alpine", "Rain", "Insulated", "Windproof"),
        (
            Item("Jacket", (80, 260)),
            Item("Vest", (50, 140)),
            Item("Pants", (55, 150)),
            Item("Fleece", (45, 110)),
            Item("Parka", (150, 320)),
        ),
        (
            "a waterproof, breathable membrane and taped seams",
            "recycled synthetic insulation that stays warm when wet",
            "an adjustable hood and pit zips for venting",
        ),
    ),
    Category(
        "Fitness Equipment",
        ("Home Gym", "Adjustable", "Studio", "Heavy-Duty", "Compact"),
        (
            Item("Dumbbell Set", (60, 320), False),
            Item("Kettlebell", (30, 120), False),
            Item("Resistance Bands", (15, 45), False),
            Item("Jump Rope", (10, 35), False),
            Item("Weight Bench", (120, 380), False),
        ),
        (
            "knurled steel handles and a rubber coating that protects floors",
            "quick-change weight selection and a compact storage tray",
            "a steel frame rated for 600 lb",
        ),
    ),
    Category(
        "Swimwear",
        ("Waterproof", "Competition", "Training", "Chlorine-Resistant", "Open Water"),
        (
            Item("Swim Cap", (10, 30), False),
            Item("Goggles", (15, 45), False),
            Item("Swimsuit", (35, 110)),
            Item("Swim Trunks", (25, 60)),
            Item("Rash Guard", (30, 70)),
        ),
        (
            "chlorine-resistant fabric that keeps its shape",
            "anti-fog lenses with UV protection",
            "a low-drag fit tested by competitive swimmers",
        ),
    ),
    Category(
        "Yoga & Pilates",
        ("Eco", "Studio", "Travel", "Grip", "Cushion"),
        (
            Item("Yoga Mat", (25, 120), False),
            Item("Yoga Block", (10, 30), False),
            Item("Yoga Strap", (8, 22), False),
            Item("Pilates Ring", (15, 40), False),
        ),
        (
            "natural tree rubber with a non-slip surface",
            "closed-cell foam that wipes clean",
            "a lightweight build that folds for travel",
        ),
    ),
    Category(
        "Team Sports",
        ("Pro League", "Match", "Practice", "All-Weather", "Youth"),
        (
            Item("Soccer Ball", (20, 150), False),
            Item("Basketball", (25, 170), False),
            Item("Shin Guards", (15, 45), False),
            Item("Baseball Glove", (40, 260), False),
            Item("Jersey", (35, 110)),
        ),
        (
            "a butyl bladder that holds air for weeks",
            "pebbled composite leather for a sure grip",
            "hand-stitched panels built for match play",
        ),
    ),
    Category(
        "Cycling",
        ("Road", "Mountain", "Commuter", "Reflective", "Aero"),
        (
            Item("Cycling Jersey", (45, 130)),
            Item("Bike Shorts", (40, 120)),
            Item("Helmet", (50, 250), False),
            Item("Cycling Gloves", (20, 55), False),
            Item("Bike Light Set", (25, 90), False),
        ),
        (
            "a padded chamois and silicone leg grippers",
            "MIPS impact protection and 18 vents",
            "reflective accents visible from 200 meters",
        ),
    ),
    Category(
        "Golf",
        ("Tour", "Spikeless", "Links", "Waterproof", "Classic"),
        (
            Item("Golf Shoes", (80, 220)),
            Item("Golf Polo", (40, 95)),
            Item("Golf Glove", (15, 35)),
            Item("Golf Balls", (25, 55), False),
            Item("Golf Bag", (120, 340), False),
        ),
        (
            "advanced sole technology and waterproof materials",
            "a soft-touch cover and low-spin core",
            "stretch fabric with UPF 50 sun protection",
        ),
    ),
    Category(
        "Hiking & Camping",
        ("Backcountry", "Trail", "Summit", "Ultralight", "Basecamp"),
        (
            Item("Hiking Boots", (90, 240)),
            Item("Backpack", (60, 260), False),
            Item("Tent", (120, 480), False),
            Item("Sleeping Bag", (70, 320), False),
            Item("Trekking Poles", (40, 150), False),
        ),
        (
            "a waterproof leather upper and Vibram outsole",
            "ripstop nylon and aluminum poles that pitch in minutes",
            "an adjustable torso fit and hip-belt pockets",
        ),
    ),
    Category(
        "Accessories",
        ("Reflective", "Sport", "Insulated", "Everyday", "Performance"),
        (
            Item("Running Vest", (30, 90)),
            Item("Water Bottle", (12, 45), False),
            Item("Gym Bag", (30, 110), False),
            Item("Beanie", (15, 40)),
            Item("Socks 3-Pack", (12, 30)),
        ),
        (
            "reflective trim and a secure zip pocket",
            "double-wall vacuum insulation that keeps drinks cold for 24 hours",
            "cushioned zones and arch support",
        ),
    ),
)

MATERIALS = (
    "Made with recycled polyester.",
    "Machine washable; line dry for best results.",
    "Backed by our one-year warranty against manufacturing defects.",
    "Available in multiple sizes; see the size chart for the right fit.",
    "Designed and tested by our product team in Portland.",
    "Lab-tested for durability over 500 hours of wear.",
)
