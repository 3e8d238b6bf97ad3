"""The knowledge base: ten policy articles (one per issue) and FAQ articles with concrete facts.

Policy articles state rules an agent can break; :mod:`crmarena_sf.loaders.generate.conversation_text`
holds, per policy, what an agent says when following or breaching it (policy-violation
task). FAQ articles carry facts a customer asks about, each listed with its question and
short answer (knowledge-QA task). Text is plain here; the article writer renders it as the
HTML-escaped rich text CRMArena's ``FAQ_Answer__c`` holds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Article:
    title: str
    summary: str
    paragraphs: tuple[str, ...]
    facts: tuple[tuple[str, str], ...]
    """(question a customer might ask, the short answer the article gives)."""
    issue: int | None = None
    """For a policy article: the issue number whose cases it governs."""


POLICIES = (
    Article(
        "Refunds and Billing Disputes Policy",
        "How refunds are issued and how duplicate or incorrect charges are resolved.",
        (
            "Refunds are issued only to the original payment method. We cannot send a refund to a different card, a bank transfer or a gift card, except store credit when the customer asks for it.",
            "Once a returned item reaches our warehouse, the refund is processed within 5-7 business days. Duplicate or incorrect charges are reversed after the billing team verifies them with the payment processor, which takes up to 3 business days.",
            "Price adjustments are available within 14 days of purchase if the same item drops in price on our website. Agents may not offer goodwill credits on billing cases.",
        ),
        (
            ("How long does it take to process a refund after my return arrives?", "5-7 business days."),
            ("Can my refund go to a different card?", "No, refunds go only to the original payment method."),
            ("Within how many days of purchase can I get a price adjustment?", "14 days."),
        ),
        issue=0,
    ),
    Article(
        "Return Policy",
        "Which items can be returned, within what time, and how store credit works.",
        (
            "Items can be returned for a full refund within 30 days of delivery, unworn and unwashed, with the original tags attached. Proof of purchase (an order number or receipt) is required for every return.",
            "If opting for store credit, the request must be made within 90 days from the purchase date. Store credit never expires.",
            "Items marked Final Sale cannot be returned or exchanged. Returns outside the 30-day window are declined; agents may not approve refunds for them.",
        ),
        (
            (
                "If opting for store credit, within how many days from the purchase date must you request it?",
                "90 days.",
            ),
            ("How many days do I have to return an item for a refund?", "30 days from delivery."),
            ("Can I return a Final Sale item?", "No, Final Sale items cannot be returned or exchanged."),
        ),
        issue=1,
    ),
    Article(
        "Defective and Damaged Items Policy",
        "What to do when an item arrives damaged or has a manufacturing defect.",
        (
            "Damaged or defective items must be reported within 14 days of delivery. The customer sends photos of the damage and of the product label before any replacement or refund is approved.",
            "After the photos are reviewed, we ship a replacement or issue a full refund of the item price. Compensation is limited to the value of the item: agents may not add credits, discounts or cash on top.",
        ),
        (
            ("Within how many days must I report a damaged item?", "14 days of delivery."),
            (
                "What do I need to send for a defective item claim?",
                "Photos of the damage and of the product label.",
            ),
        ),
        issue=2,
    ),
    Article(
        "Size Exchange Policy",
        "Free size exchanges: conditions and time limits.",
        (
            "Each order qualifies for one free size exchange within 60 days of delivery. The item must be unworn, with tags attached; worn items cannot be exchanged for fit.",
            "Second and later exchanges of the same item are shipped at the customer's cost. Use the size chart on each product page; footwear should be measured in the evening.",
        ),
        (
            ("How long do I have to exchange an item for a different size?", "60 days of delivery."),
            ("How many free size exchanges do I get per order?", "One free size exchange per order."),
        ),
        issue=3,
    ),
    Article(
        "Shipping and Delivery Policy",
        "Delivery times, shipping fees and what happens when a package is late or lost.",
        (
            "Standard shipping takes 5-7 business days and is free on orders over $75; expedited shipping takes 2-3 business days.",
            "Shipping fees are refunded only when an order arrives more than 5 business days after the promised delivery date. When a package is reported lost, the carrier runs a trace of 3 business days before we ship a replacement; agents may not send replacements before the trace ends.",
        ),
        (
            ("How long does standard shipping take?", "5-7 business days."),
            ("What is the minimum order for free standard shipping?", "$75."),
            ("How long is the carrier trace for a lost package?", "3 business days."),
        ),
        issue=4,
    ),
    Article(
        "Backorder and Availability Policy",
        "How backorders work and what we can promise about restocking.",
        (
            "Backordered items ship as soon as stock arrives, and customers may cancel a backorder at any time before it ships.",
            "We do not reserve or hold inventory for individual customers and never guarantee restock dates, because supplier shipments change. Agents may share the estimated date shown on the product page only as an estimate.",
        ),
        (
            (
                "Can you hold an item for me until it is back in stock?",
                "No, inventory is not reserved for individual customers.",
            ),
            ("Can I cancel a backorder?", "Yes, at any time before it ships."),
        ),
        issue=5,
    ),
    Article(
        "Order Cancellation Policy",
        "When an order can still be cancelled and what to do after it ships.",
        (
            "An order can be cancelled within 1 hour of placing it, or at any time before it ships. There is no cancellation fee.",
            "Once an order has shipped it can no longer be cancelled; the customer returns it under the Return Policy after delivery. Agents may not refund a shipped order before the items are returned.",
        ),
        (
            (
                "How soon after ordering can I cancel?",
                "Within 1 hour of placing it, or any time before it ships.",
            ),
            ("Is there a fee to cancel an order?", "No, there is no cancellation fee."),
        ),
        issue=6,
    ),
    Article(
        "Product Warranty Policy",
        "What the one-year limited warranty covers.",
        (
            "Shoes & Clothings products carry a 1-year limited warranty against manufacturing defects, starting on the purchase date. Proof of purchase is required.",
            "The warranty does not cover normal wear and tear, misuse or accidental damage. Warranty claims are settled by repair or replacement only, never by a cash refund.",
        ),
        (
            ("How long is the product warranty?", "1 year from the purchase date."),
            ("Does the warranty cover normal wear and tear?", "No, only manufacturing defects."),
        ),
        issue=7,
    ),
    Article(
        "Incorrect Item Policy",
        "What happens when a package contains the wrong item.",
        (
            "Incorrect items must be reported within 30 days of delivery. We email a prepaid return label, and the correct item ships as soon as the carrier scans the returned package.",
            "Customers may not keep the incorrect item, and no extra discount is given for the mix-up.",
        ),
        (
            ("How long do I have to report receiving the wrong item?", "30 days of delivery."),
            (
                "Can I keep the wrong item that was sent to me?",
                "No, it must be returned with the prepaid label.",
            ),
        ),
        issue=8,
    ),
    Article(
        "Shoes & Clothings Rewards Program Terms",
        "How loyalty points are earned, redeemed and when they expire.",
        (
            "Members earn 1 point for every dollar spent; 500 points can be redeemed for a $10 reward. Points expire after 12 months without account activity.",
            "Missing points can be added only for purchases made within the last 60 days, with the order number. Agents may not grant bonus points or change a member's tier; tiers are reviewed once a year in January.",
        ),
        (
            ("How many points do I need for a $10 reward?", "500 points."),
            ("When do loyalty points expire?", "After 12 months without account activity."),
            ("How far back can missing points be added?", "Purchases within the last 60 days."),
        ),
        issue=9,
    ),
)

FAQS = (
    Article(
        "Golf Shoes Technology",
        "What makes our golf shoes grip and stay dry.",
        (
            "Shoes & Clothings golf shoes combine advanced sole technology and waterproof materials: a spikeless traction pattern for the course and a waterproof membrane with a two-year waterproof guarantee.",
        ),
        (
            (
                "What technology features do Shoes & Clothings golf shoes have?",
                "Advanced sole technology and waterproof materials",
            ),
        ),
    ),
    Article(
        "When to Replace Running Shoes",
        "How long running shoes last.",
        (
            "Running shoe cushioning wears out after 300 to 500 miles. Replace your pair when the midsole shows deep creases or your legs feel more tired after usual runs.",
        ),
        (("How many miles do running shoes last?", "300 to 500 miles."),),
    ),
    Article(
        "Finding Your Size",
        "How to measure for clothing and shoes.",
        (
            "Measure your chest at its fullest point and your waist at the narrowest point, then compare with the size chart on the product page. Measure feet in the evening, when they are largest, and choose the larger size if between sizes.",
        ),
        (("When should I measure my feet for shoes?", "In the evening."),),
    ),
    Article(
        "Gift Cards",
        "Using and checking gift cards.",
        (
            "Shoes & Clothings gift cards never expire and have no fees. They cannot be redeemed for cash, and a lost card can be replaced only with its original purchase receipt.",
        ),
        (("Do gift cards expire?", "No, they never expire."),),
    ),
    Article(
        "Tracking Your Order",
        "When tracking information becomes available.",
        (
            "A shipping confirmation email with the tracking number is sent within 24 hours of your order leaving our warehouse. Tracking can take one business day to show the first scan.",
        ),
        (("When will I get a tracking number?", "Within 24 hours of the order shipping."),),
    ),
    Article(
        "Where We Ship",
        "Shipping destinations.",
        (
            "We ship only to the United States (all 50 states) and Canada. We do not ship to PO boxes for orders containing bikes or fitness equipment.",
        ),
        (("Do you ship internationally?", "Only to the United States and Canada."),),
    ),
    Article(
        "Accepted Payment Methods",
        "Ways to pay online and in store.",
        (
            "We accept Visa, Mastercard, American Express, Discover, PayPal and Apple Pay. Pay-in-4 installments are available on orders over $50.",
        ),
        (("What is the minimum order for installment payments?", "$50."),),
    ),
    Article(
        "Price Match Guarantee",
        "Matching a lower price from another retailer.",
        (
            "We match the price of an identical item sold by an authorized US retailer within 14 days of your purchase. Marketplace sellers, clearance and backordered items are excluded.",
        ),
        (("Within how many days can I request a price match?", "14 days of purchase."),),
    ),
    Article(
        "Caring for Waterproof Jackets",
        "Keeping rain jackets waterproof.",
        (
            "Wash waterproof jackets on a cold gentle cycle with a technical wash, then tumble dry on low for 20 minutes to reactivate the water-repellent finish. Never use fabric softener.",
        ),
        (
            (
                "How do I restore the water repellency of my jacket?",
                "Tumble dry on low for 20 minutes after washing.",
            ),
        ),
    ),
    Article(
        "Cleaning Your Yoga Mat",
        "Keeping a yoga mat clean and grippy.",
        (
            "Wipe your mat after each session with mild soap and water, and let it air dry away from direct sunlight, which breaks down natural rubber.",
        ),
        (
            (
                "How should I clean my yoga mat?",
                "With mild soap and water, then air dry away from direct sunlight.",
            ),
        ),
    ),
    Article(
        "Swim Cap Care",
        "Making silicone swim caps last.",
        (
            "Rinse silicone swim caps in fresh water after every swim and dry them flat. With regular use a cap lasts about six months.",
        ),
        (("How long does a silicone swim cap last?", "About six months with regular use."),),
    ),
    Article(
        "When to Replace a Bike Helmet",
        "Helmet lifespan and crash replacement.",
        (
            "Replace a bike helmet every 5 years, and immediately after any crash, even if no damage is visible. Our helmets include a one-time crash replacement discount of 30%.",
        ),
        (("How often should I replace my bike helmet?", "Every 5 years or after any crash."),),
    ),
    Article(
        "Sleeping Bag Temperature Ratings",
        "Reading comfort and limit ratings.",
        (
            "Our sleeping bags are rated to ISO 23537. The comfort rating is the lowest temperature at which a typical sleeper stays comfortable; the limit rating is for a curled-up sleeper.",
        ),
        (("Which standard are the sleeping bag ratings based on?", "ISO 23537."),),
    ),
    Article(
        "Breaking In Hiking Boots",
        "How to break in new boots.",
        (
            "Leather hiking boots need about two weeks of short walks, roughly 20 to 30 miles, before a long hike. Synthetic boots need little break-in.",
        ),
        (
            (
                "How long does it take to break in leather hiking boots?",
                "About two weeks, roughly 20 to 30 miles.",
            ),
        ),
    ),
    Article(
        "Adjustable Dumbbell Set Guide",
        "Weight range and adjustment.",
        (
            "The Home Gym adjustable dumbbells go from 5 to 52.5 pounds per hand in 2.5-pound increments. Always return the handle to the tray before turning the dial.",
        ),
        (("What is the weight range of the adjustable dumbbells?", "5 to 52.5 pounds per hand."),),
    ),
    Article(
        "Buy Online, Pick Up in Store",
        "Collecting online orders at a store.",
        (
            "Most pickup orders are ready within 2 hours. We hold pickup orders for 7 days before cancelling and refunding them.",
        ),
        (("How long is a pickup order held in store?", "7 days."),),
    ),
    Article(
        "Student Discount",
        "Savings for students.",
        ("Students get 15% off full-price items after verifying their student status once a year.",),
        (("How much is the student discount?", "15% off full-price items."),),
    ),
    Article(
        "Military and First Responder Discount",
        "Thank-you savings.",
        (
            "Active military, veterans and first responders receive 10% off every purchase after a one-time verification.",
        ),
        (("How much is the military discount?", "10% off every purchase."),),
    ),
    Article(
        "Resetting Your Password",
        "Regaining access to your account.",
        ("Use Forgot Password on the sign-in page. The reset link we email is valid for 24 hours.",),
        (("How long is the password reset link valid?", "24 hours."),),
    ),
    Article(
        "Newsletter Sign-Up Offer",
        "Welcome offer for subscribers.",
        (
            "Sign up for our newsletter to get 10% off your first order. The code arrives by email and is valid for 30 days.",
        ),
        (("What discount do I get for signing up for the newsletter?", "10% off the first order."),),
    ),
    Article(
        "Gift Wrapping",
        "Wrapping options at checkout.",
        (
            "Gift wrapping is available for $5 per item and includes a handwritten note. Gift receipts never show prices.",
        ),
        (("How much does gift wrapping cost?", "$5 per item."),),
    ),
    Article(
        "Custom Team Jerseys",
        "Personalized jerseys for teams.",
        (
            "Custom jerseys take 7-10 business days to produce. Personalized items are final sale and cannot be returned.",
        ),
        (("How long does it take to make custom jerseys?", "7-10 business days."),),
    ),
    Article(
        "Choosing a Backpack Size",
        "Measuring torso length.",
        (
            "Measure torso length from the bony bump at the base of your neck (C7 vertebra) to the top of your hip bones. Choose a pack whose torso range includes your measurement.",
        ),
        (
            (
                "How do I measure my torso for a backpack?",
                "From the C7 vertebra at the base of the neck to the top of the hip bones.",
            ),
        ),
    ),
    Article(
        "Compression Wear Explained",
        "What graduated compression does.",
        (
            "Our compression tights and socks apply graduated compression of 15-20 mmHg, tightest at the ankle, to support circulation during and after exercise.",
        ),
        (("How much compression do the compression socks provide?", "15-20 mmHg."),),
    ),
    Article(
        "Pitching Your Tent",
        "Setting up our backpacking tents.",
        (
            "Basecamp and Ultralight tents use color-coded poles and clips and can be pitched by one person in under 10 minutes.",
        ),
        (("How long does it take to pitch the tent?", "Under 10 minutes."),),
    ),
    Article(
        "Insulated Water Bottles",
        "How long drinks stay hot or cold.",
        (
            "Our double-wall insulated bottles keep drinks cold for 24 hours and hot for 12 hours. Lids are dishwasher safe; bottles should be washed by hand.",
        ),
        (("How long does the insulated bottle keep drinks cold?", "24 hours."),),
    ),
    Article(
        "Reflective Running Gear",
        "Staying visible on early and late runs.",
        (
            "Reflective trims on our running vests and jackets are visible from up to 200 meters in car headlights.",
        ),
        (("From how far is the reflective gear visible?", "Up to 200 meters."),),
    ),
    Article(
        "Bike Light Set",
        "Brightness and battery life.",
        (
            "The bike light set has a 400-lumen front light and a 50-lumen rear light, with about 4 hours of battery life on high and USB-C charging.",
        ),
        (("How long does the bike light battery last on high?", "About 4 hours."),),
    ),
    Article(
        "Team Pricing",
        "Discounts for clubs and schools.",
        ("Team orders of at least 10 units of the same item get 20% off through our Team Sales price book.",),
        (("What is the minimum for team pricing?", "10 units of the same item."),),
    ),
    Article(
        "Shoe Recycling Program",
        "Trading in worn-out shoes.",
        (
            "Bring any worn athletic shoes to a store and get $10 off a new pair. Collected shoes are ground into playground surfaces.",
        ),
        (("How much do I get for trading in old shoes?", "$10 off a new pair."),),
    ),
    Article(
        "Product Reviews",
        "Posting a product review.",
        (
            "Reviews are checked by our moderation team and appear on the product page within 48 hours. Reviews mentioning prices or other retailers are not published.",
        ),
        (("How long does it take for my review to appear?", "Within 48 hours."),),
    ),
    Article(
        "Rewards Birthday Bonus",
        "A birthday gift for members.",
        (
            "Rewards members receive 200 bonus points during their birthday month, added on the first day of the month.",
        ),
        (("How many bonus points do members get on their birthday?", "200 points."),),
    ),
    Article(
        "Our Materials and Sustainability",
        "What our products are made of.",
        (
            "Over 60% of the polyester in our apparel is recycled, and all cotton is organic or recycled. Shoe boxes are made from 100% recycled cardboard.",
        ),
        (("How much of the polyester in your apparel is recycled?", "Over 60%."),),
    ),
    Article(
        "Washing Technical Apparel",
        "Care for activewear.",
        (
            "Wash activewear inside out in cold water and hang to dry. Heat and fabric softener damage moisture-wicking fibers.",
        ),
        (("How should I wash activewear?", "Inside out in cold water, then hang to dry."),),
    ),
    Article(
        "Kids' Shoe Fit Guarantee",
        "Growing feet, free refits.",
        (
            "Kids' shoes that are outgrown within 90 days of purchase can be exchanged once for the next size up at no cost.",
        ),
        (("Within how many days can outgrown kids' shoes be exchanged?", "90 days of purchase."),),
    ),
)


def all_articles() -> tuple[Article, ...]:
    """Policy articles first (in issue order), then the FAQs."""
    return POLICIES + FAQS
