"""Members: registration, the recorded 查看身份证号, changes to name, phone, photo."""

from __future__ import annotations

import datetime as dt
import logging
from typing import IO

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables

from clubapp.core.models import Room, UserRoom
from clubapp.core.roles import user_has_role
from clubapp.members.crypto import id_number_digest
from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import IdNumberReveal, Member, name_pinyin
from clubapp.members.permissions import ID_NUMBER_VIEWERS
from clubapp.members.photos import photo_process
from clubapp.members.services.common import clean_text

logger = logging.getLogger(__name__)


def _photo_checked(photo: IO[bytes]) -> ContentFile[bytes]:
    """photo_process, its refusal standing at the form's photo field."""
    try:
        return photo_process(photo)
    except ValidationError as exc:
        raise ValidationError({"photo": exc.error_list}) from None


def _id_duplicate() -> ValidationError:
    return ValidationError(
        {
            "id_number": ValidationError(
                _("This ID card number is already registered as a member."),
                code="id_duplicate",
            )
        }
    )


def _drop_photo(member: Member) -> None:
    if member.photo:
        member.photo.delete(save=False)


@sensitive_variables()
@transaction.atomic
def member_create(
    *,
    room: Room,
    name: str,
    phone: str,
    id_number: str,
    by: User,
    photo: IO[bytes] | None = None,
    user: User | None = None,
) -> Member:
    """Register a member. The ID number is checked (GB 11643) and unique in the room."""
    name = clean_text(name, label=_("name"), max_length=50)
    phone = clean_text(phone, label=_("phone"), max_length=20)
    checked = id_number_check(id_number, today=timezone.localdate())
    if Member.objects.filter(room=room, id_number_hash=id_number_digest(checked.number)).exists():
        raise _id_duplicate()
    processed = _photo_checked(photo) if photo is not None else None
    member = Member(
        room=room,
        name=name,
        name_pinyin=name_pinyin(name),
        phone=phone,
        user=user,
    )
    member.id_number = checked.number  # the property keeps it encrypted and hashed
    if processed is not None:
        member.photo.save(processed.name or "photo.jpg", processed, save=False)
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError:
        # Two desks registering the same person at once: the constraint decides.
        _drop_photo(member)
        raise _id_duplicate() from None
    except Exception:
        _drop_photo(member)  # nothing half-saved: no orphan file either
        raise
    # The number is never logged: the pk identifies the row.
    logger.debug("member %s created by user %s", member.pk, by.pk)
    return member


@sensitive_variables()
@transaction.atomic
def id_number_reveal(*, member: Member, by: User, now: dt.datetime | None = None) -> str:
    """The member's full ID number, for the one who asked, recorded first (查看身份证号).

    Only the roles that may see ID numbers (``permissions.ID_NUMBER_VIEWERS``: the
    managers) may ask; the row (who, which member, when) is written before the number
    is decrypted, in the same transaction, so a number is never shown unrecorded."""
    if not any(user_has_role(by, role) for role in ID_NUMBER_VIEWERS):
        raise PermissionDenied
    IdNumberReveal.objects.create(
        room_id=member.room_id, member=member, by=by, at=now or timezone.now()
    )
    logger.info("ID number of member %s shown to user %s", member.pk, by.pk)
    return member.id_number


@transaction.atomic
def member_update(
    *,
    member: Member,
    name: str,
    phone: str,
    by: User,
    photo: IO[bytes] | None = None,
    user: User | None = None,
) -> Member:
    """Change the name, phone, the linked account and (optionally) the photo.

    The ID number is not editable: a wrong one means a new registration.
    """
    member = Member.objects.select_for_update().get(pk=member.pk)
    member.name = clean_text(name, label=_("name"), max_length=50)
    member.name_pinyin = name_pinyin(member.name)
    member.phone = clean_text(phone, label=_("phone"), max_length=20)
    if user is not None and not UserRoom.objects.filter(user=user, room_id=member.room_id).exists():
        raise ValidationError(_("This account is not one of this room's."), code="user_other_room")
    if user is not None and Member.objects.filter(user=user).exclude(pk=member.pk).exists():
        raise ValidationError(_("This account belongs to another member."), code="user_taken")
    member.user = user
    if photo is not None:
        processed = _photo_checked(photo)
        old = member.photo.name if member.photo else ""
        member.photo.save(processed.name or "photo.jpg", processed, save=False)
        if old:
            storage = member.photo.storage
            transaction.on_commit(lambda: storage.delete(old))
    try:
        with transaction.atomic():
            member.save()
    except Exception:
        if photo is not None:
            _drop_photo(member)
        raise
    logger.debug("member %s updated by user %s", member.pk, by.pk)
    return member
