"""The ruleset editor on a phone-sized browser (issue 21 item 10): a 100,000-deep
nesting pasted into the parameters is an error beside them, and nothing is saved."""

from __future__ import annotations

import os

import pytest

from clubapp.play.models import RulesetVersion
from clubapp.play.tests.factories import shipped

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_deep_nesting_is_shown_beside_the_parameters(page, live_server, log_in, manager):
    base = shipped()
    before = RulesetVersion.objects.count()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/rulesets/{base.pk}/edit/")
    page.fill("textarea[name=params]", "[" * 100_000 + "]" * 100_000)
    page.click("button.primary")
    field = page.locator(".field.has-error", has=page.locator("textarea[name=params]"))
    text = field.inner_text()
    assert "嵌套过深：100000 层，最多 8 层。" in text and "内容过长" in text
    if os.environ.get("SHOTS"):
        page.screenshot(path=os.path.join(os.environ["SHOTS"], "ruleset_deep.png"))
    assert RulesetVersion.objects.count() == before
