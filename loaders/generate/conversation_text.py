"""What customers and agents say in emails and chats, including the lines that break a policy.

Per issue (in issue order, matching the policy articles of
:mod:`loaders.generate.knowledge_text`): what an agent says when following the policy and
when breaching it. A breach is unambiguous against exactly one article (the one governing
the case's issue); a compliant line breaches nothing.
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

AGENT_OPENINGS = (
    "Thank you for reaching out to Shoes & Clothings.",
    "Thanks for contacting us about this.",
    "I am sorry to hear about the trouble with your order.",
    "Thank you for your patience while I looked into this.",
    "I appreciate you letting us know.",
)
CHAT_FOLLOW_UP_OPENINGS = (
    "Following up on our chat earlier about the {product}.",
    "Thank you for chatting with us today about your order from {order_date}.",
    "As promised in our chat, here is a written summary.",
    "I wanted to follow up on the {product} we discussed in chat.",
)
AGENT_CLOSINGS = (
    "Is there anything else I can help you with?",
    "Please let me know if you have any other questions.",
    "Have a great day, and thank you for shopping with us.",
    "Feel free to reply to this email if anything else comes up.",
)
CUSTOMER_REACTIONS = (
    "Thanks for the quick reply.",
    "I appreciate the help.",
    "Thank you, that helps.",
    "Okay, understood.",
    "Got it, thanks for explaining.",
    "Thanks for getting back to me.",
    "I see.",
)
CUSTOMER_QUESTIONS = (
    "Could you confirm when I should expect an update on the {product}?",
    "Is there anything else you need from me for case {case_number}?",
    "I will keep an eye on my email for news about my order from {order_date}.",
    "Can you send me a written confirmation for the {product}?",
    "How long will it take to sort out the {product}?",
    "Any news on case {case_number}? It has been a while since my order from {order_date}.",
    "Please make sure the notes on case {case_number} mention the {product}.",
)
AGENT_FOLLOW_UPS = (
    "I have added a note to case {case_number} so any of my colleagues can pick it up.",
    "You will receive a confirmation email about the {product} shortly.",
    "I have updated case {case_number} with these details.",
    "I will follow up on the {product} once I hear back from the team.",
    "Your case number is {case_number}, for reference.",
    "I checked again this morning and case {case_number} is moving along.",
)
CHAT_GREETINGS = (
    "Hi {first}, thanks for contacting Shoes & Clothings. My name is {agent}. How can I help you today?",
    "Hello {first}! This is {agent} from Shoes & Clothings support. What can I do for you?",
    "Hi {first}, you are chatting with {agent}. How can I help?",
)
CHAT_QUESTIONS = (
    "I am sorry to hear that. Could you confirm the order date for the {product}?",
    "Thanks for the details. Let me pull up your order for the {product}.",
    "I understand. One moment while I check your account.",
    "Thank you. Can you tell me a bit more about what happened with the {product}?",
)
CHAT_CUSTOMER_ANSWERS = (
    "Sure, it was the order from {order_date}.",
    "Yes, it is the {product} I ordered on {order_date}.",
    "Okay, thanks. I ordered it on {order_date}.",
    "It's the one from {order_date}, the {product}.",
)
CHAT_THANKS = (
    "Thank you so much!",
    "Great, thanks for your help.",
    "Okay, thank you.",
    "Perfect, appreciate it.",
)
CHAT_ENDINGS = (
    "You're welcome, {first}! Have a great day.",
    "Happy to help. Thanks for chatting with Shoes & Clothings!",
    "Glad I could help, {first}. Take care!",
)
