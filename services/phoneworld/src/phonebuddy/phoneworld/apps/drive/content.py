"""The seeded drive: a folder tree under My Drive, files with owners, sizes, dates, share
permissions and links, a "Shared with me" list, a few files in the Trash."""

from __future__ import annotations

import datetime as dt
import random
import string
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

ME = "me"
ROOT = "root"
SHARED = "shared"
QUOTA_GB = 15
OTHER_USAGE_KB = 6_400_000  # Gmail and Photos, beside the files listed here
ROLES = ("Viewer", "Commenter", "Editor")
LINK_MODES = (("restricted", "Restricted"), ("anyone", "Anyone with the link"))
LINK_BASE = "https://drive.pw/file/"
BIG_MB = 10
PEOPLE = (
    ("Alex Chen", "alex.chen@brightlabs.io"), ("Maria Lopez", "maria.lopez@brightlabs.io"),
    ("Sam Patel", "sam.patel@brightlabs.io"), ("Emma Wilson", "emma.w@gmail.com"),
    ("Noah Kim", "noah.kim@outlook.com"), ("Olivia Brown", "olivia.brown@brightlabs.io"),
    ("Liam Johnson", "liam.j@gmail.com"), ("Sophia Davis", "sophia.davis@northwind.com"),
    ("Lucas Martin", "lucas.martin@northwind.com"), ("Mia Garcia", "mia.garcia@gmail.com"),
)  # fmt: skip
# (id, name, parent)
FOLDERS = (
    ("fd-work", "Work", ROOT), ("fd-projects", "Projects", ROOT),
    ("fd-finance", "Finance", ROOT), ("fd-personal", "Personal", ROOT),
    ("fd-photos", "Photos", ROOT), ("fd-travel", "Travel", ROOT),
    ("fd-school", "School", ROOT), ("fd-archive", "Archive", ROOT),
    ("fd-reports", "Reports", "fd-work"), ("fd-meetings", "Meetings", "fd-work"),
    ("fd-website", "Website", "fd-projects"), ("fd-mobile", "Mobile App", "fd-projects"),
    ("fd-taxes", "Taxes", "fd-finance"), ("fd-recipes", "Recipes", "fd-personal"),
    ("fd-family", "Family", "fd-photos"), ("fd-japan", "Japan Trip", "fd-travel"),
)  # fmt: skip
# (name, folder); the owner is me
MY_FILES = (
    ("Team Roadmap.docx", "fd-work"), ("Hiring Plan.docx", "fd-work"),
    ("Budget Forecast.xlsx", "fd-work"), ("Onboarding Guide.pdf", "fd-work"),
    ("Quarterly Review.pdf", "fd-reports"), ("Sales Summary.xlsx", "fd-reports"),
    ("Market Analysis.pdf", "fd-reports"), ("Customer Survey.xlsx", "fd-reports"),
    ("Weekly Sync Notes.docx", "fd-meetings"), ("Offsite Agenda.docx", "fd-meetings"),
    ("Board Slides.pdf", "fd-meetings"), ("Launch Plan.docx", "fd-projects"),
    ("Risk Register.xlsx", "fd-projects"), ("Homepage Mockup.png", "fd-website"),
    ("Style Guide.pdf", "fd-website"), ("Content Calendar.xlsx", "fd-website"),
    ("Site Map.pdf", "fd-website"), ("App Wireframes.pdf", "fd-mobile"),
    ("Release Checklist.docx", "fd-mobile"), ("Login Screen.png", "fd-mobile"),
    ("Bug Tracker.xlsx", "fd-mobile"), ("Monthly Expenses.xlsx", "fd-finance"),
    ("Bank Statement.pdf", "fd-finance"), ("Savings Goals.xlsx", "fd-finance"),
    ("Tax Return.pdf", "fd-taxes"), ("Donation Receipts.pdf", "fd-taxes"),
    ("Deductions List.xlsx", "fd-taxes"), ("Reading List.docx", "fd-personal"),
    ("Workout Plan.xlsx", "fd-personal"), ("Apartment Lease.pdf", "fd-personal"),
    ("Lasagna.docx", "fd-recipes"), ("Banana Bread.docx", "fd-recipes"),
    ("Thai Curry.pdf", "fd-recipes"), ("Beach Sunset.jpg", "fd-photos"),
    ("City Skyline.jpg", "fd-photos"), ("Mountain Lake.jpg", "fd-photos"),
    ("Birthday Party.jpg", "fd-family"), ("Grandma Garden.jpg", "fd-family"),
    ("Family Portrait.jpg", "fd-family"), ("Flight Tickets.pdf", "fd-travel"),
    ("Packing List.docx", "fd-travel"), ("Hotel Booking.pdf", "fd-japan"),
    ("Kyoto Itinerary.docx", "fd-japan"), ("Tokyo Tower.jpg", "fd-japan"),
    ("Rail Pass.pdf", "fd-japan"), ("Thesis Draft.docx", "fd-school"),
    ("Lecture Notes.pdf", "fd-school"), ("Research Data.xlsx", "fd-school"),
    ("Old Resume.docx", "fd-archive"), ("Car Insurance.pdf", "fd-archive"),
    ("Moving Checklist.docx", "fd-archive"), ("Wedding Invite.png", "fd-archive"),
    ("Project Ideas.docx", ROOT), ("Passport Scan.pdf", ROOT),
)  # fmt: skip
SHARED_FILES = (
    "Design Review.pdf",
    "Partner Contract.pdf",
    "Sprint Board.xlsx",
    "Brand Assets.png",
    "Event Photos.jpg",
    "Research Proposal.docx",
    "Vendor Pricing.xlsx",
    "Interview Notes.docx",
)
TRASHED = 4
KINDS = {"docx": "doc", "xlsx": "sheet", "pdf": "pdf", "jpg": "image", "png": "image"}


def kind_of(name: str) -> str:
    return KINDS[name.rpartition(".")[2]]


def _size(rng: random.Random, kind: str) -> int:
    """In KB (1 MB = 1000 KB): documents in tens of KB, the rest in tenths of a MB, so that
    any sum of sizes is a whole number of hundredths of a MB."""
    if kind in ("doc", "sheet"):
        return rng.randrange(2, 99) * 10
    if kind == "pdf":
        return rng.randrange(3, 250) * 100
    return rng.randrange(12, 190) * 100


def _link_id(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12))


def _file(
    rng: random.Random, i: int, name: str, parent: str, owner: str, day: int
) -> dict[str, Any]:
    kind = kind_of(name)
    shares = []
    if owner == ME:
        for _, email in rng.sample(PEOPLE, rng.randrange(0, 4)):
            shares.append({"id": email, "role": rng.choice(ROLES)})
    return {
        "id": f"f-{i + 1:02d}",
        "name": name,
        "kind": kind,
        "parent": parent,
        "owner": owner,
        "size": _size(rng, kind),
        "modified": EPOCH_START - day * 86400 - rng.randrange(0, 10) * 3600,
        "starred": False,
        "offline": False,
        "trashed": False,
        "shares": shares,
        "link": "anyone" if rng.random() < 0.25 else "restricted",
        "link_id": _link_id(rng),
    }


def build(rng: random.Random) -> dict[str, Any]:
    folders = [{"id": f, "name": n, "parent": p} for f, n, p in FOLDERS]
    total = len(MY_FILES) + len(SHARED_FILES)
    days = rng.sample(range(1, 400), total)
    files = [_file(rng, i, name, parent, ME, days[i]) for i, (name, parent) in enumerate(MY_FILES)]
    for j, name in enumerate(SHARED_FILES):
        i = len(MY_FILES) + j
        files.append(_file(rng, i, name, SHARED, rng.choice(PEOPLE)[1], days[i]))
    mine = files[: len(MY_FILES)]
    for f in rng.sample(files, 7):
        f["starred"] = True
    for f in rng.sample(mine, 3):
        f["offline"] = True
    for f in rng.sample([f for f in mine if not f["starred"]], TRASHED):
        f["trashed"] = True
    return {"folders": folders, "files": files}


def size_label(kb: int) -> str:
    return f"{kb} KB" if kb < 1000 else f"{kb / 1000:.1f} MB"


def date_label(epoch: int) -> str:
    day = dt.datetime.fromtimestamp(epoch, dt.timezone(dt.timedelta(hours=8)))
    return f"{day:%b} {day.day}, {day.year}"


def link_url(file: Any) -> str:
    return LINK_BASE + str(file["link_id"])


def person_name(email: str) -> str:
    if email == ME:
        return "me"
    return next((n for n, e in PEOPLE if e == email), email)


def slug(email: str) -> str:
    """An email as a widget id part: letters and digits, the rest as '_'."""
    return "".join(ch if ch.isalnum() else "_" for ch in email)
