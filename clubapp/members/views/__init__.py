"""Pages of the members app: thin views over forms, services and selectors.

One module per concern, as the cash book's (``clubapp.books.views``); the package
names every page, so ``urls.py`` reads ``views.member_list``.
"""

from clubapp.members.views.accounts import (
    member_account,
    member_account_active,
    member_account_reset,
)
from clubapp.members.views.cards import (
    card_issue,
    card_reissue,
    card_renew,
    card_resume,
    card_revoke,
    card_suspend,
    receipt_detail,
)
from clubapp.members.views.members import (
    member_create,
    member_detail,
    member_edit,
    member_id_number_show,
    member_list,
    member_photo,
    my_card,
)
from clubapp.members.views.room import (
    opening_exception_create,
    opening_exception_delete,
    opening_hours_update,
    room_settings,
)
from clubapp.members.views.tables import table_active, table_edit, table_list, table_toggle
from clubapp.members.views.visits import (
    visit_check_in,
    visit_check_out,
    visit_detail,
    visit_guest_check_in,
    visit_list,
)

__all__ = [
    "card_issue",
    "card_reissue",
    "card_renew",
    "card_resume",
    "card_revoke",
    "card_suspend",
    "member_account",
    "member_account_active",
    "member_account_reset",
    "member_create",
    "member_detail",
    "member_edit",
    "member_id_number_show",
    "member_list",
    "member_photo",
    "my_card",
    "opening_exception_create",
    "opening_exception_delete",
    "opening_hours_update",
    "receipt_detail",
    "room_settings",
    "table_active",
    "table_edit",
    "table_list",
    "table_toggle",
    "visit_check_in",
    "visit_check_out",
    "visit_detail",
    "visit_guest_check_in",
    "visit_list",
]
