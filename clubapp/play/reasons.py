"""What a payment or ledger line is for, and why a 包牌 seat was proposed, by name: the
one table of the points ledger's reasons, for the play pages (the ``reason_name``
filter) and the reports (settlement sheet, ledger export).

A reversal's lines carry ``void:<reason>``: the line of the voided hand it takes back,
named with the room's word for voiding a hand, 作废 (作废这把, 申请作废, 第 1 把已作废).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: HAND_RECORD.md's payment reasons (win, kong, flower_kong, penalty), then the
#: grounds of a proposed 包牌 seat (scoring.liability)
REASON_NAMES: dict[str, Promise] = {
    "win": gettext_lazy("win"),
    "kong": gettext_lazy("kong"),
    "flower_kong": gettext_lazy("flower kong"),
    "penalty": gettext_lazy("penalty"),
    "kuaizhao": gettext_lazy("fed three of the sets"),
    "qingyise_fourth": gettext_lazy("fed the fourth set of a one-suit hand"),
    "dagang_kaihua": gettext_lazy("fed the kong it won after"),
    "robbing_kong": gettext_lazy("the kong robbed"),
    "worksite": gettext_lazy("fed three sets"),
}

#: the prefix of a reversal's reasons
VOID_PREFIX = "void:"


def reason_name(code: str) -> str:
    """``win`` → ``胡牌``; a reversal's ``void:win`` → ``作废 胡牌``; an unknown code as
    it is."""
    if code.startswith(VOID_PREFIX):
        return _("void %(reason)s") % {"reason": reason_name(code[len(VOID_PREFIX) :])}
    name = REASON_NAMES.get(code)
    return str(name) if name is not None else code
