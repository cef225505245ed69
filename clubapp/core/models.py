"""Room-wide settings.

One deployment serves one room today. Keeping its settings in one row of one
model (and not in settings.py) means several rooms on one PostgreSQL later is
a foreign key to Room, not a rewrite.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

DEFAULT_ROOM_SLUG = "main"


class RoomManager(models.Manager["Room"]):
    def get_by_natural_key(self, slug: str) -> Room:
        return self.get(slug=slug)


class Room(models.Model):
    slug = models.SlugField(_("code"), max_length=50, unique=True, default=DEFAULT_ROOM_SLUG)
    name = models.CharField(_("name"), max_length=100)
    address = models.CharField(_("address"), max_length=200, blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)

    objects = RoomManager()

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="core_room_name_not_blank"),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)
