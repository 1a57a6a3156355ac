"""The seeded workspace of Huddle: Northwind's members (titles, emails, phones, time zones),
channels and DMs with a few weeks of messages, threads, reactions, unread counts and mentions.

Messages are dated by `day` (days before the phone's reset day) and `hm` (local "HH:MM"), so
they read the same on any seeded clock; today's seeded messages all lie before 09:00, when a
reset phone's clock starts."""

from __future__ import annotations

import random
from typing import Any

ME = "u00"
WORKSPACE = "Northwind"
# (name, title, UTC offset in hours, city)
MEMBERS = (
    ("Alex Morgan", "Product Manager", 8, "Shanghai"),
    ("Priya Shah", "Engineering Manager", 1, "London"),
    ("Marco Rossi", "Senior Designer", 2, "Milan"),
    ("Hannah Lee", "Design Lead", 9, "Seoul"),
    ("Diego Alvarez", "Site Reliability Engineer", -5, "New York"),
    ("Sofia Novak", "Finance Analyst", 2, "Prague"),
    ("Tom Becker", "Backend Engineer", 2, "Berlin"),
    ("Aisha Khan", "Frontend Engineer", 5, "Karachi"),
    ("Liam Byrne", "Marketing Manager", 1, "Dublin"),
    ("Yuki Tanaka", "QA Engineer", 9, "Tokyo"),
    ("Noah Williams", "Support Lead", -8, "San Francisco"),
    ("Chen Wei", "Data Scientist", 8, "Beijing"),
    ("Olivia Brown", "Recruiter", -6, "Chicago"),
    ("Lucas Martin", "DevOps Engineer", 2, "Paris"),
    ("Emma Schmidt", "Office Manager", 2, "Munich"),
    ("Ravi Patel", "Mobile Engineer", 4, "Dubai"),
    ("Grace Kim", "Content Designer", -7, "Denver"),
    ("Mateo Silva", "Sales Director", -3, "São Paulo"),
    ("Nina Petrova", "Security Engineer", 3, "Istanbul"),
    ("Jack Wilson", "CTO", 11, "Sydney"),
    ("Zara Ahmed", "Product Designer", 0, "Lisbon"),
)  # fmt: skip
# (id, topic)
CHANNELS = (
    ("general", "Company-wide announcements and work-based matters"),
    ("design", "Design reviews, mockups and feedback"),
    ("expenses", "Post your expenses here before filing them"),
    ("oncall", "Deploys, incidents and pages"),
    ("random", "Non-work banter and water cooler talk"),
    ("launch", "Northwind 3.0 launch coordination"),
    ("engineering", "Engineering discussions"),
    ("marketing", "Campaigns, copy and social"),
    ("support", "Customer issues that need a hand"),
    ("hiring", "Open roles, interviews and referrals"),
)
DM_WITH = ("u01", "u02", "u03", "u05", "u04", "u09", "u11")
EMOJI = ("+1", "tada", "heart", "joy", "eyes", "white_check_mark")  # Slack shortcodes
EXPENSE_ITEMS = ("Taxi to client site", "Team lunch", "Conference ticket", "Hotel night",
                 "Train ticket", "Printer ink", "Client dinner", "Figma seats",
                 "Airport parking", "Coffee for workshop", "Courier fee",
                 "Monitor cable")  # fmt: skip
LINES = {
    "general": ("Reminder: all-hands is on Thursday", "Welcome our new teammates this week!",
                "The office wifi password changed, check the pinned note",
                "Quarterly survey closes on Friday", "Lunch & learn today in room 4B",
                "Please update your time off in the HR tool", "Kudos to the support team",
                "Building maintenance on Saturday, no access after 18:00"),
    "design": ("New mockups for the onboarding flow are up", "Can we try a darker header?",
               "Updated the icon set in Figma", "The empty states need another pass",
               "Design crit moved to the afternoon", "Love the new color tokens",
               "Accessibility contrast check done for buttons", "Who owns the settings redesign?"),
    "random": ("Anyone up for coffee?", "My cat just walked over my keyboard",
               "Best pizza place near the office?", "Happy Friday everyone!",
               "The plant in the kitchen needs water", "Who left cake in the fridge?",
               "Movie night next week?", "Found a great podcast about typography"),
    "launch": ("Press kit is ready for review", "Landing page copy is final",
               "We are on track for the launch date", "App store screenshots uploaded",
               "Beta feedback summary posted in the doc", "Pricing page needs legal sign-off",
               "Launch checklist is 80% done", "Support macros for 3.0 drafted"),
    "engineering": ("PR for the cache layer is up for review", "Flaky test in checkout fixed",
                    "We should upgrade the database driver", "Tech debt day on Wednesday",
                    "API latency is back to normal", "Who can pair on the migration?",
                    "New lint rules land tomorrow", "Benchmarks look 12% faster"),
    "marketing": ("Newsletter draft is ready", "Social calendar for next month is up",
                  "Webinar signups passed 400", "Blog post on 3.0 needs a hero image",
                  "Ad budget review tomorrow", "Case study with Acme approved"),
    "support": ("Ticket volume is up after the update", "Customer asks about SSO setup",
                "Refund request needs approval", "Known issue: export times out",
                "New macro for password resets", "Escalation from a key account"),
    "hiring": ("Two onsite interviews this week", "Referral bonus doubled this quarter",
               "Please submit scorecards by end of day", "New role: Staff Engineer",
               "Candidate accepted the offer!", "Interview training on Monday"),
}  # fmt: skip
DM_LINES = ("Do you have a minute later?", "Thanks for the quick review!",
            "Can you look at my comments?", "Sure, let's sync after lunch",
            "Sent you the doc", "Sounds good to me", "I'll be 5 min late",
            "Could you share the latest numbers?")  # fmt: skip
REPLIES = ("Agreed", "On it", "Thanks!", "Looks good to me", "Let's discuss tomorrow",
           "+1", "I can help with that", "Done")  # fmt: skip


def _hm(rng: random.Random, day: int) -> str:
    """A time of day; today's seeded messages lie before 09:00 (the reset clock)."""
    hour = rng.randrange(7, 9) if day == 0 else rng.randrange(8, 20)
    return f"{hour:02d}:{rng.randrange(0, 60):02d}"


def _reactions(rng: random.Random, people: list[str], most: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for _ in range(rng.randrange(0, most + 1)):
        emoji, who = rng.choice(EMOJI), rng.choice(people)
        if who not in out.setdefault(emoji, []):
            out[emoji].append(who)
    return {e: who for e, who in out.items() if who}


def _members(rng: random.Random) -> list[dict[str, Any]]:
    members = []
    for i, (name, title, tz, city) in enumerate(MEMBERS):
        first, _, last = name.partition(" ")
        prefix = rng.choice(("135", "138", "139", "150", "186", "187"))
        phone = f"{prefix}{rng.randrange(10**8):08d}"
        members.append({"id": f"u{i:02d}", "name": name, "title": title, "tz": tz, "city": city,
                        "email": f"{first.lower()}.{last.lower()}@northwind.io",
                        "phone": phone})  # fmt: skip
    return members


def _channel_messages(rng: random.Random, channel: str, people: list[str]) -> list[dict[str, Any]]:
    count = rng.randrange(28, 36)
    days = sorted((rng.randrange(0, 14) for _ in range(count)), reverse=True)
    out = []
    for n, day in enumerate(days):
        author = rng.choice(people)
        if channel == "expenses":
            cents = rng.randrange(8, 260) * 50
            text = f"{rng.choice(EXPENSE_ITEMS)}: ${cents // 100}.{cents % 100:02d}"
        elif channel == "oncall":
            text = rng.choice((f"Deploy {rng.randrange(100000, 999999)} rolled out to prod",
                               "Paged for high error rate, investigating",
                               "Incident resolved, postmortem to follow",
                               f"Hotfix deploy {rng.randrange(100000, 999999)} is live",
                               "Handing over the pager for the night"))  # fmt: skip
        elif channel == "launch" and rng.random() < 0.2:
            token = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(6))
            text = f"Standup link for this week: https://meet.northwind.io/{token[:3]}-{token[3:]}"
        elif channel == "support" and rng.random() < 0.2:
            text = (
                f"Customer asked for a callback at {rng.choice(('138', '186'))} "
                f"{rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}"
            )
        else:
            text = rng.choice(LINES[channel])
        out.append({"id": f"m-{channel}-{n + 1:03d}", "channel": channel, "author": author,
                    "day": day, "hm": _hm(rng, day), "text": text, "parent": None,
                    "reactions": _reactions(rng, people, 4), "pinned": False,
                    "edited": False})  # fmt: skip
    out.sort(key=lambda m: (-m["day"], m["hm"]))
    # One clear favourite per channel, for "the most reacted message" questions.
    top = rng.choice(out[: len(out) - 2])
    top["reactions"] = {e: rng.sample(people, rng.randrange(2, 4)) for e in EMOJI[:4]}
    for m in out:
        if m is not top and sum(len(w) for w in m["reactions"].values()) >= 6:
            m["reactions"] = {}
    return out


def _threads(rng: random.Random, messages: list[dict[str, Any]], people: list[str]) -> None:
    parents = rng.sample([m for m in messages if m["day"] > 0], 3)
    for p, parent in enumerate(parents):
        for r in range(rng.randrange(1, 4)):
            messages.append({"id": f"{parent['id']}-r{r + 1}", "channel": parent["channel"],
                             "author": rng.choice(people), "day": parent["day"],
                             "hm": f"{min(int(parent['hm'][:2]) + 1 + r, 23):02d}:{p * 10 + r:02d}",
                             "text": rng.choice(REPLIES), "parent": parent["id"],
                             "reactions": {}, "pinned": False, "edited": False})  # fmt: skip


def build(rng: random.Random) -> dict[str, Any]:
    members = _members(rng)
    people = [m["id"] for m in members]
    channels = [{"id": c, "name": c, "topic": topic, "kind": "channel"} for c, topic in CHANNELS]
    messages: list[dict[str, Any]] = []
    for channel, _ in CHANNELS:
        chunk = _channel_messages(rng, channel, people)
        _threads(rng, chunk, [p for p in people if p != ME])
        messages += chunk
    for other in DM_WITH:
        channels.append({"id": f"dm-{other}", "name": other, "topic": "", "kind": "dm"})
        for n in range(rng.randrange(4, 9)):
            day = 6 - n if n < 6 else 0
            messages.append({"id": f"m-dm-{other}-{n + 1:02d}", "channel": f"dm-{other}",
                             "author": rng.choice((ME, other)), "day": max(day, 0),
                             "hm": _hm(rng, max(day, 0)), "text": rng.choice(DM_LINES),
                             "parent": None, "reactions": {}, "pinned": False,
                             "edited": False})  # fmt: skip
    unread = {c["id"]: rng.choice((0, 0, 1, 2, 3, 5)) for c in channels}
    mentions = {c: 1 for c in rng.sample([c["id"] for c in channels], 3) if unread[c]}
    for n, channel in enumerate(sorted(mentions)):
        messages.append({"id": f"m-mention-{n + 1}", "channel": channel,
                         "author": rng.choice(people[1:]), "day": 0, "hm": f"08:{n + 30:02d}",
                         "text": f"@{MEMBERS[0][0]} could you take a look at this today?",
                         "parent": None, "reactions": {}, "pinned": False,
                         "edited": False})  # fmt: skip
    return {"members": members, "channels": channels, "messages": messages,
            "unread": unread, "mentions": mentions}  # fmt: skip
