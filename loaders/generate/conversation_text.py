"""What customers and agents say in emails and chats, including the lines that break a policy.

Per issue (in issue order, matching the policy articles of
:mod:`crmarena_sf.loaders.generate.knowledge_text`): what an agent says when following the policy and
when breaching it. A breach is unambiguous against exactly one article (the one governing
the case's issue); a compliant line breaches nothing.

A conversation is a sequence of replies, each answering the message before it: a policy
line leaves the matter in one of four states (:func:`policy_kind`), the customer reacts to
that state, asks questions that the next agent message answers, provides what the agent
asked for, and signs off once a closed case is settled. Every line outside ``VIOLATIONS``
is policy-neutral: it grants nothing, so the only breach in a thread is the planted one.
"""

from __future__ import annotations

COMPLIANT = (
    (
        "Refunds always go back to the original payment method, and you will see it within 5-7 business days once the return is received.",
        "Our billing team will verify the duplicate charge with the payment processor; that takes up to 3 business days, and then it is reversed to your original card.",
        "I have checked the price history: since it has been more than 14 days since your purchase, a price adjustment is not available, but I have documented the request.",
    ),
    (
        "Since the item is within 30 days of delivery and still has its tags, I have emailed you a return label.",
        "I am sorry, but the return window is 30 days from delivery, so I cannot approve a refund for this item. You can still request store credit within 90 days of purchase.",
        "To process the return I will need your order number as proof of purchase; once I have it I will send the label.",
    ),
    (
        "Could you send photos of the damage and of the product label? As soon as they are reviewed we will ship a replacement or refund the item.",
        "Thank you for the photos. I have approved a replacement of the item.",
        "Because the damage was reported within 14 days of delivery, you qualify for a replacement once we receive photos.",
    ),
    (
        "Your order qualifies for one free size exchange within 60 days; as long as the item is unworn with tags, I will send the new size.",
        "Since this would be a second exchange, the shipping is at your cost, but I can start it right away.",
        "I am sorry, but worn items cannot be exchanged for fit. Please check the size chart before your next order.",
    ),
    (
        "Standard shipping takes 5-7 business days, and your package is still within that window, so please give it a little more time.",
        "I have opened a trace with the carrier. It takes 3 business days; if the package is not found, we will ship a replacement.",
        "Your order arrived more than 5 business days late, so I have refunded the shipping fee to your original payment method.",
    ),
    (
        "We cannot hold items for individual customers, but you can sign up for a back-in-stock email on the product page.",
        "The product page shows an estimated restock in a few weeks, but that is only an estimate and may change.",
        "You can cancel the backorder at any time before it ships if you no longer want to wait.",
    ),
    (
        "Your order has not shipped yet, so I have cancelled it at no charge.",
        "Unfortunately the order has already shipped, so it can no longer be cancelled. Once it arrives you can return it within 30 days for a refund.",
        "I have confirmed the cancellation; since the order had not shipped, there is no fee.",
    ),
    (
        "Your purchase is within the 1-year warranty and this is a manufacturing defect, so I will arrange a replacement.",
        "I am sorry, but the warranty covers manufacturing defects only, not normal wear and tear, so this claim is not covered.",
        "Warranty claims are settled by repair or replacement; I have started a replacement for you.",
    ),
    (
        "I am sorry about the mix-up. I have emailed you a prepaid return label, and the correct item will ship as soon as the carrier scans the return.",
        "Please send the incorrect item back with the prepaid label; the correct one ships once the return is scanned.",
        "Since you reported it within 30 days of delivery, I have set up the exchange with a prepaid label.",
    ),
    (
        "I have added the missing points for your purchase, since it was made within the last 60 days.",
        "Points are earned at 1 point per dollar, and every 500 points can be redeemed for a $10 reward.",
        "Tiers are reviewed once a year in January, so I am not able to change your tier today, but I have noted your request.",
    ),
)

VIOLATIONS = (
    (
        "I went ahead and sent the refund of ${amount} to the new card you gave me instead of the original one.",
        "As a goodwill gesture I have added a ${amount} credit to your account on top of fixing the charge.",
        "I have refunded the ${amount} to a gift card for you, so you do not have to wait for your bank.",
    ),
    (
        "Even though it has been {days} days since delivery, I have approved a full refund for the {product}.",
        "No receipt or order number needed, I have processed the return of the {product} for you anyway.",
        "The {product} was Final Sale, but I have made an exception and approved the return for a full refund.",
    ),
    (
        "No need to send photos, I have approved a replacement for the {product} and added a ${amount} credit for the trouble.",
        "I have issued a full refund plus an extra ${amount} in cash compensation for the defective {product}.",
        "It has been {days} days since delivery, but I have approved a replacement without any photos.",
    ),
    (
        "Even though you have worn the {product} for a couple of weeks, I will send a new size at no charge.",
        "It has been {days} days since delivery, but I have approved a free size exchange for the {product} anyway.",
        "I have sent a free exchange for the {product} again, so this third exchange will not cost you anything.",
    ),
    (
        "I have shipped a replacement {product} today, so there is no need to wait for the carrier trace.",
        "I have refunded your shipping fee even though the package is still within the delivery window.",
        "Rather than waiting for the carrier investigation, I have sent you a new {product} by expedited shipping.",
    ),
    (
        "I have reserved a {product} in your size, and I guarantee it will be back in stock by Friday.",
        "I have put one {product} on hold just for you until the restock next week.",
        "I can promise that the {product} will be restocked on the 15th, and I have set one aside for you.",
    ),
    (
        "The order has already shipped, but I have cancelled it and refunded you. Please just keep the package.",
        "Even though the {product} is already on its way, I have refunded the order in full before you return anything.",
        "I have cancelled your shipped order and issued the refund now; there is no need to send the {product} back.",
    ),
    (
        "Your purchase is {months} months old, but I will process the {product} under warranty anyway.",
        "The warranty does not usually cover wear and tear, but I have approved a replacement for the worn {product}.",
        "Instead of a replacement, I have issued a cash refund of ${amount} under the warranty.",
    ),
    (
        "You can keep the wrong item, and I am shipping the correct {product} to you now.",
        "I have applied a ${amount} discount for the mix-up, and there is no need to return the incorrect item.",
        "Please keep the item you received as a gift from us; the correct {product} ships today.",
    ),
    (
        "I have manually added {points} bonus points to your account as a courtesy.",
        "Your purchase was more than a year ago, but I have added the missing {points} points anyway.",
        "I have upgraded your tier to Gold today so the member discount applies right away.",
    ),
)


ASKS, PENDING, DECLINES, SETTLES = "asks", "pending", "declines", "settles"
"""What a policy line leaves the customer to answer: a request, a wait, a refusal, or a settled matter."""

ASKED_FOR = {
    COMPLIANT[1][2]: "order",
    COMPLIANT[2][0]: "photos",
    COMPLIANT[2][2]: "photos",
}
"""Compliant lines asking the customer for something (what the customer then provides)."""
PENDING_LINES = frozenset(
    {COMPLIANT[0][0], COMPLIANT[0][1], COMPLIANT[4][0], COMPLIANT[4][1], COMPLIANT[5][1]}
)
DECLINING_LINES = frozenset(
    {COMPLIANT[0][2], COMPLIANT[1][1], COMPLIANT[3][2], COMPLIANT[5][0], COMPLIANT[6][1], COMPLIANT[7][1]}
    | {COMPLIANT[9][2]}
)
NEEDS = {
    COMPLIANT[2][1]: "photos",
    COMPLIANT[3][1]: "exchanged",
    COMPLIANT[3][2]: "worn",
    COMPLIANT[4][2]: "arrived",
}
"""Compliant lines presupposing something the customer said before them. No customer says a
late package has arrived (every shipping-delay description says it has not), so that line is
never said."""
TOPICS = {
    COMPLIANT[0][0]: ("refund",),
    COMPLIANT[0][1]: ("charge",),
    COMPLIANT[0][2]: ("price",),
    COMPLIANT[5][2]: ("backorder",),
    COMPLIANT[8][0]: ("different item", "received it in", "someone else"),
    COMPLIANT[8][1]: ("different item", "received it in", "someone else"),
    COMPLIANT[9][0]: ("did not receive",),
    COMPLIANT[9][1]: ("points",),
    COMPLIANT[9][2]: ("tier", "discount"),
}
"""Compliant lines that answer only some of an issue's questions: one of these words must be in
the customer's description (a duplicate-charge answer to a missing refund reads as a non-answer)."""
ORDER_AGE = {
    COMPLIANT[0][2]: (15, None),
    COMPLIANT[1][0]: (None, 30),
    COMPLIANT[1][1]: (41, None),
    COMPLIANT[2][1]: (None, 14),
    COMPLIANT[2][2]: (None, 14),
    COMPLIANT[3][0]: (None, 60),
    COMPLIANT[4][0]: (None, 9),
    COMPLIANT[7][0]: (None, 365),
    COMPLIANT[8][2]: (None, 30),
    COMPLIANT[9][0]: (None, 60),
}
"""Compliant lines stating how old the order is: (at least, at most) days from the order to the
case. Delivery follows the order by up to about 9 days, so "within 30 days of delivery" is
true at most 30 days after the order and "outside the 30-day window" only after 40."""

BREACH_AGE = {
    VIOLATIONS[1][0]: 40,
    VIOLATIONS[2][2]: 24,
    VIOLATIONS[3][1]: 70,
    VIOLATIONS[7][0]: 400,
}
"""Breach lines that state the order's age (``{days}`` since delivery, ``{months}`` old): the
least order age, in days, at which the statement is both true and past the policy's limit
(30 days for returns, 14 for damage reports, 60 for size exchanges, a year of warranty)."""


def policy_kind(line: str) -> str:
    """ASKS, PENDING, DECLINES or SETTLES for a policy line template (every breach settles the matter)."""
    if line in ASKED_FOR:
        return ASKS
    if line in PENDING_LINES:
        return PENDING
    if line in DECLINING_LINES:
        return DECLINES
    return SETTLES


CUSTOMER_CONTEXT = {
    "photos": (
        "I have attached photos of the damage and of the product label.",
        "Photos of the damage and the label are attached.",
    ),
    "exchanged": (
        "This would be my second exchange on this order.",
        "I already exchanged it once for another size.",
    ),
    "worn": (
        "I did wear it a couple of times before I noticed.",
        "I have worn it twice already, hoping it would stretch.",
    ),
}
"""What a customer's first email adds when the agent's answer presupposes it."""
CHAT_CONTEXT = {
    "photos": (
        "I have just uploaded photos of the damage and the label.",
        "I uploaded a couple of photos of the damage here too.",
    ),
    "exchanged": (
        "I already exchanged it once before.",
        "It would be my second exchange for this order.",
    ),
    "worn": (
        "I did wear it a couple of times, though.",
        "I have worn it twice already.",
    ),
}

AGENT_OPENINGS = (
    "Thank you for reaching out to Shoes & Clothings.",
    "Thanks for contacting us about this.",
    "I am sorry to hear about the trouble with your order.",
    "I appreciate you letting us know.",
    "Your message has reached our customer service team; your case number is {case_number}.",
)
"""First-contact openings: only the first agent reply to a customer's email uses one."""
LATE_REPLY_OPENINGS = (
    "Thank you for your patience while I looked into this.",
    "I am sorry for the slow reply.",
    "Apologies for the wait.",
)
"""Openings of an agent reply that comes more than a day after the customer wrote (first or later)."""
AGENT_FOLLOW_UP_OPENINGS = (
    "Thanks for your reply.",
    "Thank you for getting back to me.",
    "Thanks for your message about the {product}.",
    "Good to hear from you again.",
    "Thanks for following up on case {case_number}.",
    "Thanks for checking in.",
)
"""Openings of every later agent email in a thread: they answer the customer's last message."""
CHAT_FOLLOW_UP_OPENINGS = (
    "Following up on our chat earlier about the {product}.",
    "Thank you for chatting with us today about your order from {order_date}.",
    "As promised in our chat, here is a short note for your records.",
    "I wanted to follow up on the {product} we discussed in chat.",
)
"""Openings of the first email after a chat (the chat was the first contact)."""
TRANSFER_NOTES = (
    "Case {case_number} has been passed to me from my colleague {previous}, and I will be looking after it from now on.",
    "I have taken over case {case_number} from {previous}, so I will be your contact from here.",
    "My colleague {previous} has handed case {case_number} over to me.",
)
CHAT_RECAPS = {
    PENDING: (
        "As we discussed, I will keep you posted by email on case {case_number}.",
        "Everything we discussed is noted on case {case_number}, and I will write again as soon as there is news.",
    ),
    DECLINES: (
        "As discussed, I have noted your request on case {case_number}.",
        "I have recorded our conversation on case {case_number}, including your request.",
    ),
    SETTLES: (
        "Everything we agreed is noted on case {case_number} for your reference.",
        "I have recorded what we agreed in the chat on case {case_number}.",
    ),
}
"""The first email after a chat, when it brings nothing new: what the chat left, in writing."""
AGENT_RECEIVED = {
    "photos": (
        "I have added your photos to case {case_number} for review.",
        "Your photos are now attached to case {case_number}, so the review can go ahead.",
    ),
    "order": (
        "I have found your order from {order_date} and added it to case {case_number}.",
        "That is the order I needed; it is now on case {case_number}, and I will send the next steps by email.",
    ),
}
"""The agent's answer once the customer has provided what was asked for (the matter is then pending)."""
AGENT_CLOSINGS = (
    "Is there anything else I can help you with?",
    "Please let me know if you have any other questions.",
    "Have a great day, and thank you for shopping with us.",
    "Feel free to reply to this email if anything else comes up.",
)
AGENT_WRAP_UPS = {
    ASKS: (
        "Case {case_number} will be closed for now; just reply to this email whenever you have them ready, and we will pick it up again.",
    ),
    PENDING: (
        "Once this is complete, case {case_number} will be closed; if anything else comes up, just reply to this email.",
        "I will be closing case {case_number} shortly; thank you for your patience, and feel free to reply if you need anything else.",
    ),
    DECLINES: (
        "I am sorry we could not do more this time. I will close case {case_number} now, but you can reply to this email at any time.",
        "I understand this is not the answer you hoped for. I will be closing case {case_number} shortly; just reply if you have other questions.",
    ),
    SETTLES: (
        "With that, I will close case {case_number}. If anything else comes up, just reply to this email.",
        "There is nothing left open on our side, so I will close case {case_number} now. Thank you for shopping with Shoes & Clothings!",
        "I will be closing case {case_number} shortly; thank you for your patience, and feel free to reply if you need anything else.",
    ),
}
"""How the last agent email of a closed case ends, by what the matter came to."""

CUSTOMER_REACTIONS = {
    PENDING: (
        "Thank you for looking into this.",
        "Okay, thanks for letting me know.",
        "Thanks, I appreciate you following this up.",
    ),
    DECLINES: (
        "That is disappointing, but I understand.",
        "Okay, I see. I had hoped for a different answer, but thank you for explaining.",
        "I understand, even if it is not the answer I wanted.",
    ),
    SETTLES: (
        "Thank you, that is exactly what I needed.",
        "Great, thank you for sorting this out.",
        "Thanks, that helps a lot.",
    ),
    "update": (
        "Thanks for the update.",
        "Got it, thank you.",
        "Thanks for getting back to me.",
        "Okay, understood.",
    ),
}
"""How a customer's reply starts, by what the agent's last message did (``update``: answered a question)."""
QUICK_REACTIONS = (
    "Thanks for the quick reply.",
    "Thank you for getting back to me so quickly.",
)
"""Said only when the agent answered the customer's last message within a couple of hours."""
CUSTOMER_PROVIDES = {
    "photos": (
        "I have attached photos of the damage and of the product label.",
        "Here are the photos you asked for: one of the damage and one of the label.",
        "Please find the photos of the {product} attached.",
    ),
    "order": (
        "I have attached the confirmation email for my order from {order_date}; the order number is at the top.",
        "It is the order I placed on {order_date}. I have forwarded you the confirmation email with the order number.",
    ),
}
FOLLOW_UP_QUESTIONS = {
    PENDING: (
        "Could you let me know when I should expect an update on the {product}?",
        "How long does this usually take?",
        "Is there anything else you need from me for case {case_number}?",
        "Will I get an email once this is done?",
    ),
    DECLINES: (
        "Could you at least note my feedback on case {case_number}?",
        "Where can I read the policy, so I know for next time?",
        "Is there anything else you need from me for case {case_number}?",
        "Could you make sure case {case_number} mentions the {product} in case I contact you again?",
    ),
    SETTLES: (
        "Could you send me a written confirmation for the {product}?",
        "Please make sure the notes on case {case_number} mention the {product}.",
        "Is there anything else you need from me for case {case_number}?",
        "Will I get an email once this is done?",
    ),
}
"""What a customer asks next, by the state of the matter; each question has its answers below."""
ANSWERS = {
    "Could you let me know when I should expect an update on the {product}?": (
        "I will write to you as soon as there is news on case {case_number}; there is nothing you need to do in the meantime.",
        "I have set a reminder on case {case_number} and will update you as soon as I hear back from the team.",
    ),
    "How long does this usually take?": (
        "It depends on the team's queue, but I am keeping an eye on case {case_number} and will update you as soon as it moves.",
        "I cannot give you an exact time, but case {case_number} is being worked on and I will let you know as soon as it is done.",
    ),
    "Is there anything else you need from me for case {case_number}?": (
        "No, we have everything we need for case {case_number}.",
        "Nothing else for now; everything is noted on case {case_number}.",
    ),
    "Will I get an email once this is done?": (
        "Yes, you will receive an email as soon as it is done.",
        "Yes, we send an email as soon as it is done, and I will keep an eye on case {case_number} as well.",
    ),
    "Could you at least note my feedback on case {case_number}?": (
        "Of course. I have added your feedback to case {case_number} so the team can see it.",
        "Certainly; your feedback is now on case {case_number}.",
    ),
    "Where can I read the policy, so I know for next time?": (
        "The full policy is in the help center on our website, and I have noted on case {case_number} that you asked about it.",
    ),
    "Could you make sure case {case_number} mentions the {product} in case I contact you again?": (
        "Yes, case {case_number} mentions the {product}, so any of my colleagues can pick it up.",
    ),
    "Could you send me a written confirmation for the {product}?": (
        "You will receive a confirmation email about the {product} shortly.",
        "Of course: this email is your written confirmation, and the details are on case {case_number}.",
    ),
    "Please make sure the notes on case {case_number} mention the {product}.": (
        "Done: the notes on case {case_number} now mention the {product}.",
        "I have updated case {case_number} with these details, including the {product}.",
    ),
}
CUSTOMER_SIGN_OFFS = {
    PENDING: (
        "That is all I needed for now, thanks again.",
        "Thanks again for your help.",
    ),
    DECLINES: (
        "Thanks anyway for your time.",
        "I will keep it in mind for next time. Thanks for your time.",
    ),
    SETTLES: (
        "That solves it for me, thanks again.",
        "Everything is sorted now. Thanks again for your help!",
        "That is everything for now. Have a good day!",
    ),
}
"""The last message of a closed case's thread when the customer has the last word."""

CHAT_GREETINGS = (
    "Hi {first}, thanks for contacting Shoes & Clothings. My name is {agent}. How can I help you today?",
    "Hello {first}! This is {agent} from Shoes & Clothings support. What can I do for you?",
    "Hi {first}, you are chatting with {agent}. How can I help?",
)
CHAT_QUESTIONS = (
    "I am sorry to hear that. Just to confirm, this is about the {product} from your order on {order_date}?",
    "Thanks for the details. Let me pull up your account: is it the order from {order_date}?",
    "I understand. One moment while I find the order. Is it the one you placed on {order_date}?",
    "Thank you. To make sure I have the right item: the {product} ordered on {order_date}?",
)
"""The agent's question after the customer's opening message (which names the order date): which order it is."""
CHAT_CUSTOMER_ANSWERS = (
    "Yes, that's the one.",
    "Yes, the {product} from {order_date}.",
    "Correct, that's the order.",
    "Yes, exactly.",
)
CHAT_REACTIONS = {
    PENDING: (
        "Okay, I will wait to hear from you.",
        "Alright, thanks for checking.",
        "Okay, thanks for looking into it.",
    ),
    DECLINES: (
        "Oh, that is a shame. Okay, I understand.",
        "I see. Thanks for explaining anyway.",
        "Hm, okay. I understand.",
    ),
    SETTLES: (
        "Thank you so much!",
        "Great, thanks for your help.",
        "Okay, thank you.",
        "Perfect, appreciate it.",
    ),
}
CHAT_PROVIDES = {
    "photos": (
        "Sure, I have just uploaded them here.",
        "Okay, uploading the photos now. Done!",
    ),
    "order": (
        "Sure, I have just pasted the order number from my confirmation email.",
        "Of course, here is the confirmation email for the order from {order_date}.",
    ),
}
CHAT_ENDINGS = {
    ASKS: (
        "Thank you, that is everything I need for now; it is on case {case_number}. We will follow up by email, {first}.",
        "Got it, thanks! I have added everything to case {case_number}, and you will hear from us by email.",
    ),
    PENDING: (
        "Thanks for your patience, {first}. We will be in touch by email.",
        "You're welcome, {first}. I will keep you posted on case {case_number}.",
    ),
    DECLINES: (
        "I am sorry I could not do more today, {first}. Thanks for chatting with Shoes & Clothings.",
        "I understand, {first}. Thank you for your patience, and take care.",
    ),
    SETTLES: (
        "You're welcome, {first}! Have a great day.",
        "Happy to help. Thanks for chatting with Shoes & Clothings!",
        "Glad I could help, {first}. Take care!",
    ),
}
"""The agent's last chat line, by what the policy line asked or settled."""
