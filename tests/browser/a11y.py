"""Accessibility checks in the browser tests: axe-core (``axe-playwright-python``, its
script bundled, nothing fetched) run on a page against WCAG 2.1 A and AA."""

from __future__ import annotations

from typing import Any

#: The rules checked: WCAG 2.0 and 2.1, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(pg: Any, impacts: tuple[str, ...] = ("minor", "moderate", "serious",
                                                     "critical")) -> list[str]:
    """Each violation axe-core finds on ``pg`` of the impacts given, one line each: the
    rule, its impact and the first elements it names."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(pg, options={"runOnly": {"type": "tag", "values": WCAG_TAGS},
                                     "resultTypes": ["violations"]})
    found = []
    for v in results.response["violations"]:
        if v.get("impact") in impacts:
            where = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
            found.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {where}")
    return found


def wcag_violations(pg: Any) -> list[str]:
    """Every WCAG 2.1 A/AA violation on ``pg``, whatever its impact (the pages aim at none)."""
    return violations(pg)
