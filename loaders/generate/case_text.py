"""Case subjects and descriptions, written by the customer, from per-issue templates.

The case-routing task shows an agent only a case's Subject and Description, so the text
must name the product and make the issue recognisable without naming the category. Slots
(order date, sizes, amounts, colours ...) and optional detail sentences keep descriptions
from repeating.
"""

from __future__ import annotations

import datetime as dt
import random

SIZES = ("XS", "S", "M", "L", "XL", "XXL")
SHOE_SIZES = ("6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "12")
COLORS = ("black", "navy", "red", "green", "gray", "blue", "white", "orange", "purple", "teal")
CARRIERS = ("UPS", "FedEx", "USPS", "DHL")

SUBJECTS = (
    # Billing/Payment Issue
    (
        "Charged twice for {product}",
        "Billing error on my {product} order",
        "Incorrect charge for {product}",
        "Refund not received for {product}",
        "Payment declined but money taken for {product}",
    ),
    # Return Policy Issue
    (
        "Return request for {product}",
        "Can I still return my {product}?",
        "Question about returning {product}",
        "Store credit for {product} return",
        "Return label for {product}",
    ),
    # Product Defect
    (
        "Defective {product}",
        "{product} broke after a few uses",
        "Problem with the quality of my {product}",
        "{product} arrived damaged",
        "Faulty {product}",
    ),
    # Size Mismatch
    (
        "Wrong size {product}",
        "{product} does not fit",
        "Size issue with {product}",
        "{product} runs small",
        "Exchange {product} for a different size",
    ),
    # Shipping Delay
    (
        "{product} order has not arrived",
        "Where is my {product}?",
        "Delayed delivery of {product}",
        "Shipping delay for {product}",
        "Tracking not updating for {product}",
    ),
    # Product Availability
    (
        "When will {product} be back in stock?",
        "{product} out of stock",
        "Availability of {product} in my size",
        "Backorder status for {product}",
        "Is {product} discontinued?",
    ),
    # Order Cancellation
    (
        "Cancel my order for {product}",
        "Unable to Cancel Order for {product}",
        "Please cancel {product} order",
        "Cancellation request for {product}",
        "Change of mind on {product} order",
    ),
    # Warranty Issue
    (
        "Warranty claim for {product}",
        "Is my {product} covered by warranty?",
        "{product} failed within warranty",
        "Warranty repair for {product}",
        "Warranty replacement for {product}",
    ),
    # Incorrect Item Received
    (
        "Incorrect Item Received",
        "Received the wrong item instead of {product}",
        "Wrong color {product} delivered",
        "Package did not contain {product}",
        "Order mix-up: {product}",
    ),
    # Loyalty Program Inquiry
    (
        "Loyalty points missing for {product} purchase",
        "Rewards points question",
        "Member discount not applied to {product}",
        "Loyalty tier status question",
        "How do I redeem points on {product}?",
    ),
)

DESCRIPTIONS = (
    (
        "I was charged twice for the {product} I ordered on {order_date}. My card statement shows two charges of ${amount}. Please refund the duplicate.",
        "My order of the {product} from {order_date} shows a charge of ${amount}, but the price at checkout was lower. Can you correct the billing?",
        "I returned the {product} {days} days ago and still have not received my refund of ${amount}.",
        "My payment for the {product} was declined at checkout on {order_date}, yet my bank shows a pending charge of ${amount}.",
    ),
    (
        "I bought the {product} on {order_date} and would like to return it. It is unused and still has the tags. What is the process?",
        "I want to return the {product} I purchased {days} days ago. I no longer have the receipt but I have the order email. Is that enough?",
        "I'd like store credit instead of a refund for the {product} from my order on {order_date}. How do I request it?",
        "The return portal will not let me start a return for the {product}. I ordered it on {order_date}.",
    ),
    (
        "The {product} I received on {order_date} stopped working properly after only {uses} uses. The {part} came apart.",
        "My {product} arrived with a torn {part}. I ordered it on {order_date} and have not used it yet.",
        "After {uses} uses the {part} of my {product} is already falling apart. This seems like a manufacturing defect.",
        "The {product} I bought on {order_date} has a visible defect on the {part}. I would like a replacement.",
    ),
    (
        "I ordered the {product} in size {size} on {order_date}, but it fits like a {other_size}. The size chart says it should fit.",
        "The {product} I received is labeled {size} but it is much smaller than the {size} I usually wear.",
        "I need to exchange the {product} from my {order_date} order for size {other_size}; the {size} is too tight.",
        "The {product} I got is the wrong size: I ordered {size} and the package had a {other_size}.",
    ),
    (
        "I ordered the {product} on {order_date} and it still has not arrived. The {carrier} tracking has not updated in {days} days.",
        "My {product} was supposed to arrive {days} days ago. Can you tell me where my package is?",
        "The {carrier} tracking for my {product} order says delivered, but nothing came to my door.",
        "It has been {days} days since I ordered the {product} on {order_date} and I have no shipping update.",
    ),
    (
        "I want to buy the {product} in {color}, size {size}, but it shows as out of stock. When will it be available again?",
        "The {product} has been on backorder since {order_date}. Is there an estimated date?",
        "Can you check whether any store near me has the {product} in size {size}? The website says unavailable.",
        "I was told the {product} would be restocked, but it is still unavailable {days} days later.",
    ),
    (
        "I recently placed an order for {product} on {order_date} and I'm trying to cancel it, but the website won't let me.",
        "Please cancel my order for the {product} placed on {order_date}. I ordered the wrong model by mistake.",
        "I ordered the {product} {days} days ago and want to cancel before it ships. How do I do that?",
        "I need to cancel the {product} from my order on {order_date}; I found it cheaper elsewhere.",
    ),
    (
        "My {product} from {order_date} has a worn-out {part} after {uses} uses. I believe it is still under warranty.",
        "I would like to file a warranty claim for the {product}. The {part} failed {days} days after purchase.",
        "Does the warranty cover the {part} of my {product}? It started failing after normal use.",
        "The {product} I bought on {order_date} broke at the {part}. What does the warranty cover?",
    ),
    (
        "I recently ordered a {product}, but I received a completely different item in my package. I need the correct item.",
        "I ordered the {product} in {color} on {order_date} but received it in {other_color}.",
        "My package from the {order_date} order contained someone else's item instead of the {product}.",
        "I received {qty} units of the {product} but only ordered one. How do I send the extra back?",
    ),
    (
        "I did not receive loyalty points for my {product} purchase on {order_date}. It should have earned {points} points.",
        "My member discount was not applied when I bought the {product}. Can you adjust the price?",
        "How many points do I need to redeem for the {product}? I currently have {points} points.",
        "My loyalty tier dropped even though I bought the {product} on {order_date}. Can you check my status?",
    ),
)

PARTS = ("sole", "zipper", "seam", "strap", "handle", "stitching", "buckle", "lining", "cushioning", "clasp")
DETAILS = (
    "I have attached photos.",
    "This is the second time this has happened.",
    "I have been a customer for years and this is disappointing.",
    "Please let me know what you need from me.",
    "I need this resolved before my trip next week.",
    "My order number is in the confirmation email.",
    "I already tried the help center articles.",
    "Thank you for your help.",
)


def case_text(
    rnd: random.Random, issue: int, product: str, order_date: dt.date, case_date: dt.datetime
) -> tuple[str, str]:
    """(Subject, Description) of a case about ``product`` filed under issue number ``issue``."""
    kind = issue % len(SUBJECTS)
    size = rnd.choice(SHOE_SIZES if "Shoe" in product or "Sneaker" in product or "Boot" in product else SIZES)
    other_size = rnd.choice([s for s in (SHOE_SIZES if size in SHOE_SIZES else SIZES) if s != size])
    color, other_color = rnd.sample(COLORS, 2)
    slots = {
        "product": product,
        "order_date": f"{order_date:%B} {order_date.day}, {order_date.year}",
        "days": max((case_date.date() - order_date).days, 2),
        "amount": f"{rnd.randint(15, 260)}.{rnd.choice((0, 49, 95, 99)):02d}",
        "uses": rnd.randint(2, 12),
        "part": rnd.choice(PARTS),
        "size": size,
        "other_size": other_size,
        "color": color,
        "other_color": other_color,
        "carrier": rnd.choice(CARRIERS),
        "qty": rnd.randint(2, 3),
        "points": rnd.randrange(150, 2500, 25),
    }
    subject = rnd.choice(SUBJECTS[kind]).format(**slots)
    template = rnd.choice(DESCRIPTIONS[kind])
    if "{order_date}" not in template:
        # The order date makes each customer's story their own (and the case routing text unambiguous).
        template += rnd.choice(
            (" I placed the order on {order_date}.", " It was part of my order from {order_date}.")
        )
    description = template.format(**slots)
    for extra in rnd.sample(DETAILS, rnd.randint(0, 2)):
        description += " " + extra
    return subject[:255], description
