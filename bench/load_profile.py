"""Where the servers' time went in a load run: ``python bench/load_profile.py .load``.

Reads the stacks py-spy sampled from every worker (``bench/load.py --profile`` writes
``profile-PORT.txt``: one collapsed stack a line, then its count) and prints, for each
view (the first frame of a stack in a view module), its share of all samples and how
its samples split by where the innermost frame was: the template engine, the ORM and
PostgreSQL's driver, forms, scoring, the app's own code, the rest of Django
(middleware, sessions, URL resolving, requests and responses), gunicorn, and the
password hasher (the sign-ins). Samples outside a view (gunicorn waiting, the
middleware around every view) are "outside a view".
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

FRAME = re.compile(r"^(?P<name>.+?) \((?P<path>[^:()]+)(?::\d+)?\)$")
VIEWS = re.compile(r"clubapp/\w+/views(?:/\w+)?\.py$|bench/load_urls\.py$")
PLACES = [
    ("password hashing", re.compile(r"hashers\.py$|pbkdf2")),
    ("templates", re.compile(r"django/template/|django/templatetags/|templatetags/")),
    ("ORM and driver", re.compile(r"django/db/|psycopg")),
    ("forms", re.compile(r"django/forms/|clubapp/\w+/forms\.py$")),
    ("xlsx", re.compile(r"xlsxwriter|openpyxl")),
    ("scoring", re.compile(r"(^|/)scoring/")),
    ("clubapp", re.compile(r"clubapp/")),
    ("gunicorn", re.compile(r"gunicorn/")),
    ("Django, the rest", re.compile(r"django/")),
]


def place(path: str) -> str:
    return next((name for name, pattern in PLACES if pattern.search(path)), "other")


def read(folder: Path) -> tuple[Counter[str], dict[str, Counter[str]]]:
    per_view: Counter[str] = Counter()
    split: dict[str, Counter[str]] = defaultdict(Counter)
    for profile in sorted(folder.glob("profile-*.txt")):
        for line in profile.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            frames = [FRAME.match(f) for f in stack.split(";")]
            parsed = [(m["name"], m["path"]) for m in frames if m]
            if not parsed:
                continue
            view = next((f"{name} ({path})" for name, path in parsed if VIEWS.search(path)), None)
            where = view or "outside a view"
            per_view[where] += int(count)
            split[where][place(parsed[-1][1])] += int(count)
    return per_view, split


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else ".load")
    per_view, split = read(folder)
    total = sum(per_view.values())
    if not total:
        sys.exit(f"no profile-*.txt samples in {folder}")
    print(f"{total} samples over every worker (50 a second while busy)\n")
    for view, n in per_view.most_common():
        parts = ", ".join(f"{name} {k / n:.0%}" for name, k in split[view].most_common(6))
        print(f"{n / total:6.1%}  {view}\n        {parts}")


if __name__ == "__main__":
    main()
