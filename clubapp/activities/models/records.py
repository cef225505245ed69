"""活动记录: what happened (篇三 五.5 做好活动记录).

A record (``ActivityRecord``) is a name for its versions: every ``RecordVersion``
is append-only, with its attendees and photos; a correction is a new version, and
the record reads as its last. Who wrote each version, and when, is kept.
"""

from __future__ import annotations

import uuid
from pathlib import PurePosixPath
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models.common import ActivityKind, Game
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


def photo_upload_to(instance: Any, filename: str) -> str:
    # A random name, like the members' photos: the file name tells nothing.
    suffix = PurePosixPath(filename).suffix.lower() or ".jpg"
    return f"activities/photos/{uuid.uuid4().hex}{suffix}"


class ActivityRecord(models.Model):
    room = room_field()
    created_at = models.DateTimeField(_("created at"))
    created_by = by_field(_("created by"))

    class Meta:
        verbose_name = _("activity record")
        verbose_name_plural = _("activity records")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["room", "created_at"], name="activities_record_room_created")
        ]

    def __str__(self) -> str:
        return f"#{self.pk}"


class RecordVersion(AppendOnlyModel):
    room = room_field()
    record = models.ForeignKey(
        ActivityRecord, on_delete=models.PROTECT, related_name="versions", verbose_name=_("record")
    )
    number = models.PositiveSmallIntegerField(_("version"))
    date = models.DateField(_("date"))
    starts = models.TimeField(_("from"))
    ends = models.TimeField(_("to"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=20, choices=ActivityKind.choices)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    title = models.CharField(_("title"), max_length=100)
    led_by = models.CharField(_("led by"), max_length=60)
    #: people who came and are not members picked from the day's visits
    others = models.PositiveSmallIntegerField(_("other attendance"), default=0)
    notes = models.TextField(_("notes"), blank=True)
    planned = models.ForeignKey(
        "activities.PlannedActivity",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="records",
        verbose_name=_("planned activity"),
    )
    #: why this version corrects the last (empty for version 1)
    reason = models.CharField(_("reason for the correction"), max_length=200, blank=True)
    written_by = by_field(_("written by"))
    written_at = models.DateTimeField(_("written at"))

    class Meta:
        verbose_name = _("record version")
        verbose_name_plural = _("record versions")
        ordering = ["record", "number"]
        indexes = [models.Index(fields=["room", "date"], name="activities_recver_room_date")]
        constraints = [
            models.UniqueConstraint(
                fields=["record", "number"], name="activities_record_version_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(ends__isnull=True) | models.Q(ends__gt=models.F("starts")),
                name="activities_record_ends_after_start",
            ),
            models.CheckConstraint(
                condition=~models.Q(title="") & ~models.Q(led_by=""),
                name="activities_record_title_and_leader",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.title} v{self.number}"


class RecordAttendee(AppendOnlyModel):
    """A member who took part, picked from the visits of the record's day."""

    room = room_field()
    version = models.ForeignKey(
        RecordVersion, on_delete=models.PROTECT, related_name="attendees", verbose_name=_("version")
    )
    member = models.ForeignKey(
        "members.Member", on_delete=models.PROTECT, related_name="+", verbose_name=_("member")
    )
    visit = models.ForeignKey(
        "members.Visit", on_delete=models.PROTECT, related_name="+", verbose_name=_("visit")
    )

    class Meta:
        verbose_name = _("attendee")
        verbose_name_plural = _("attendees")
        constraints = [
            models.UniqueConstraint(fields=["version", "member"], name="activities_attendee_once")
        ]

    def __str__(self) -> str:
        return str(self.member_id)


class RecordPhoto(AppendOnlyModel):
    """A photo of the activity, checked and re-encoded like a member's photo. A new
    version keeps the earlier photos by pointing at the same file."""

    room = room_field()
    version = models.ForeignKey(
        RecordVersion, on_delete=models.PROTECT, related_name="photos", verbose_name=_("version")
    )
    image = models.ImageField(_("photo"), upload_to=photo_upload_to)
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        verbose_name = _("activity photo")
        verbose_name_plural = _("activity photos")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "position"], name="activities_photo_position_unique"
            )
        ]

    def __str__(self) -> str:
        return self.image.name
