"""The words of sales calls: what reps ask and what leads and customers answer.

Each customer line about a sales subtopic carries one sentiment and names the subtopic's
matter plainly, so a reader can tell which subtopic it is and whether it is positive or
negative (sales-insight mining). Competitor lines name the rival: a plain mention, a rival's
offer (the customer prefers it: negative on competing offers), or our edge over the rival
(positive on competing offers). ``{product}``, ``{company}`` and ``{competitor}`` are filled per
call. The lead-call questions go with the domain's BANT answers (:mod:`.domain`).
"""

from __future__ import annotations

PROMPTS = {
    "Pain points": (
        "What is hurting your team most right now?",
        "Did our summary of your problems match what you see?",
    ),
    "Pricing and value for money": (
        "How did the pricing land with your team?",
        "What do you think of the price for what you get?",
    ),
    "Implementation and support": (
        "How do you feel about the rollout plan and our support?",
        "Any concerns about getting set up?",
    ),
    "Value proposition": (
        "Does the case for {product} hold up for you?",
        "How well does {product} fit what you want to achieve?",
    ),
    "Customer references": ("Did the customer stories we shared help?", "Were the references useful?"),
    "Competing offers": (
        "How do we compare with the other offers you have?",
        "Where do we stand against the alternatives?",
    ),
    "Product capabilities": (
        "How did {product} do against your checklist?",
        "What did the team think of the features?",
    ),
}

LINES = {
    ("Pain points", "positive"): (
        "You clearly understood the problems we described; it felt like you got our situation.",
        "Your summary of our pain points was spot on, which is encouraging.",
    ),
    ("Pain points", "negative"): (
        "I'm not convinced you understand our problems; the proposal misses what hurts us most.",
        "Your summary of our pain points felt off, and that worries me.",
    ),
    ("Pricing and value for money", "positive"): (
        "The pricing works for us; for what we get it's good value.",
        "Honestly the price is fair, the value is there.",
    ),
    ("Pricing and value for money", "negative"): (
        "Frankly the price is too high for what we would get.",
        "The pricing is hard to justify; the value isn't there for that cost.",
    ),
    ("Implementation and support", "positive"): (
        "The rollout plan and the support you described give us real confidence.",
        "Your onboarding and support setup look solid to us.",
    ),
    ("Implementation and support", "negative"): (
        "I'm worried about the implementation; the support you offer won't cover our teams.",
        "The rollout plan looks shaky and your support hours are a concern.",
    ),
    ("Value proposition", "positive"): (
        "The case for {product} is convincing; it clearly saves us time.",
        "I like the value {product} brings, it solves a real problem for us.",
    ),
    ("Value proposition", "negative"): (
        "I still don't see what {product} gives us that we don't already have.",
        "The value of {product} isn't clear to us yet, the benefit seems thin.",
    ),
    ("Customer references", "positive"): (
        "The customer stories you shared were very reassuring.",
        "Talking to your reference customer really helped, they were happy with you.",
    ),
    ("Customer references", "negative"): (
        "The references you sent weren't relevant to people like us.",
        "The customer stories didn't convince us; they were nothing like our situation.",
    ),
    ("Competing offers", "positive"): (
        "Your offer is clearly stronger than what {competitor} put on the table.",
        "Compared with {competitor}, you come out ahead on what matters to us.",
    ),
    ("Competing offers", "negative"): (
        "{competitor} offered us a better deal than yours, and that's hard to ignore.",
        "To be honest, {competitor} came in with a more attractive offer.",
    ),
    ("Product capabilities", "positive"): (
        "{product} does everything on our checklist; the features are impressive.",
        "The team loved the features of {product}, it covers all we need.",
    ),
    ("Product capabilities", "negative"): (
        "{product} is missing features we need, which is a problem.",
        "The features of {product} fall short of our checklist.",
    ),
}

MENTION = (
    "We're also talking to {competitor} about this.",
    "{competitor} has been calling us too.",
)
"""A plain competitor mention: no subtopic, no sentiment."""

OPENINGS = (
    (
        "Hi {customer}, it's {rep} from {company}. Thanks for making time today.",
        "Hi {rep}, good to talk again.",
    ),
    ("Hello {customer}, {rep} here from {company}. Is now still a good time?", "Yes, go ahead."),
    (
        "Morning {customer}, {rep} from {company}. I wanted to follow up on our last conversation.",
        "Sure, I have a few minutes.",
    ),
)
CLOSINGS = (
    ("Thanks, {customer}. I'll send a short summary and the next steps.", "Sounds good, talk soon."),
    ("Great talking with you. I'll follow up by email this week.", "Thanks, bye for now."),
)

BANT_QUESTIONS = {
    "Budget": ("Have you set aside a budget for this?", "What budget are you working with?"),
    "Authority": ("Who else is involved in the decision?", "Are you the one who signs off on this?"),
    "Need": ("What's driving the search right now?", "What problem are you hoping to solve?"),
    "Timeline": ("When would you like to have something in place?", "What's your timeframe for this?"),
}
LEAD_OPENINGS = (
    (
        "Hi {customer}, this is {rep} from {company}. Thanks for reaching out to us.",
        "Hi {rep}, thanks for calling back.",
    ),
    ("Hello {customer}, {rep} from {company} here. Do you have a few minutes?", "Yes, now works."),
)
LEAD_CLOSINGS = (
    ("Thanks, {customer}. I'll write up what we discussed.", "Great, thank you."),
    ("Appreciate your time, {customer}. Let's stay in touch.", "Will do, bye."),
)
