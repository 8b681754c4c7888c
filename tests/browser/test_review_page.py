"""The review page in Hebrew, in a real Chromium (issue 36): every signed number of the
page ("-3.2", "+1.5" points, in a reason or an action's value) is drawn with its sign
on the left of its digits.  The same page with its numbers not isolated is measured too,
to show that the measure catches a sign drawn at the wrong end."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from box_gin.i18n import LRI, PDI

pytestmark = pytest.mark.browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_review_rtl import hebrew_review_page  # noqa: E402

#: For each signed number in a text node: the node's text, the left edge of its sign and
#: the left edge of its first digit, as drawn.
SIGNS_JS = r"""() => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walker.nextNode())) {
    const re = /[+\-\u2212](?=\d)/g; let m;
    while ((m = re.exec(n.data))) {
      const edge = i => { const r = document.createRange(); r.setStart(n, i);
                          r.setEnd(n, i + 1); return r.getBoundingClientRect().left; };
      out.push([n.data, edge(m.index), edge(m.index + 1)]);
    }
  }
  return out;
}"""


def test_signs_are_drawn_left_of_their_numbers_in_hebrew(page: Any) -> None:
    text = hebrew_review_page()
    page.set_content(text)
    signs = page.evaluate(SIGNS_JS)
    assert len(signs) >= 20
    wrong = [s for s in signs if s[1] > s[2]]
    assert wrong == [], wrong[:3]
    # the same page, its numbers' isolates taken off: signs drawn on the right
    page.set_content(text.replace(LRI, "").replace(PDI, "").replace("\u2068", ""))
    assert any(s[1] > s[2] for s in page.evaluate(SIGNS_JS))
