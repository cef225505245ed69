"""Writes of the members app: members, cards, visits, fees, the room's settings.

Every function is keyword-only and atomic, and raises ``ValidationError`` with a
Chinese message on bad input, having saved nothing. Fees go to the cash book
through ``clubapp.books.services.income_record`` only.
"""

from clubapp.members.selectors import guest_hours
from clubapp.members.services.accounts import (
    member_account_create,
    member_account_reset,
    member_account_set_active,
)
from clubapp.members.services.cards import (
    card_issue,
    card_reissue,
    card_renew,
    card_resume,
    card_revoke,
    card_suspend,
    renewal_end,
)
from clubapp.members.services.hours import (
    opening_exception_create,
    opening_exception_delete,
    opening_hours_set,
)
from clubapp.members.services.members import id_number_reveal, member_create, member_update
from clubapp.members.services.tables import (
    table_create,
    table_rename,
    table_set_active,
    table_set_in_play,
    table_set_occupied,
)
from clubapp.members.services.visits import visit_check_in, visit_check_out

__all__ = [
    "card_issue",
    "card_reissue",
    "card_renew",
    "card_resume",
    "card_revoke",
    "card_suspend",
    "guest_hours",
    "id_number_reveal",
    "member_account_create",
    "member_account_reset",
    "member_account_set_active",
    "member_create",
    "member_update",
    "opening_exception_create",
    "opening_exception_delete",
    "opening_hours_set",
    "renewal_end",
    "table_create",
    "table_rename",
    "table_set_active",
    "table_set_in_play",
    "table_set_occupied",
    "visit_check_in",
    "visit_check_out",
]
