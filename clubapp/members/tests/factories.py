"""factory_boy factories of the members app."""

from __future__ import annotations

import datetime as dt
import io
from zoneinfo import ZoneInfo

import factory
from django.utils import timezone
from PIL import Image
from stdnum.cn import ric

from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.models import Card, Member, Table, Visit, name_pinyin

SHANGHAI = ZoneInfo("Asia/Shanghai")
# A Monday, 10:00 in the room: open (9:00-12:00).
MONDAY_10 = dt.datetime(2026, 11, 30, 10, 0, tzinfo=SHANGHAI)


def at(day: int, hour: int, minute: int = 0, *, month: int = 11) -> dt.datetime:
    """A moment of November 2026 in the room's time zone (30th = Monday, 25th = Wednesday)."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


def image_bytes(
    fmt: str = "JPEG", size: tuple[int, int] = (800, 1000), exif: bool = False
) -> bytes:
    image = Image.new("RGB", size, "#c9a27e")
    out = io.BytesIO()
    kwargs = {}
    if exif:
        data = Image.Exif()
        data[0x010F] = "SecretCam"  # Make
        data[0x9003] = "2026:01:01 10:00:00"  # DateTimeOriginal
        data[0x0112] = 1  # Orientation
        kwargs["exif"] = data.tobytes()
    image.save(out, format=fmt, **kwargs)
    return out.getvalue()


def make_id_number(n: int, *, region: str = "320102") -> str:
    """A valid 居民身份证 number: a birth date from n, a sequence, the right check digit."""
    birth = dt.date(1950, 1, 1) + dt.timedelta(days=(37 * n) % 20000)
    body = f"{region}{birth:%Y%m%d}{n % 1000:03d}"
    return body + ric.calc_check_digit(body + "0")


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    room = factory.SubFactory(RoomFactory)
    name = factory.Sequence(lambda n: f"会员{n}")
    name_pinyin = factory.LazyAttribute(lambda o: name_pinyin(o.name))
    phone = factory.Sequence(lambda n: f"139{n:08d}")
    id_number = factory.Sequence(make_id_number)


class CardFactory(factory.django.DjangoModelFactory):
    """A card made directly (no fee): numbers from 9000 up, apart from the counter's."""

    class Meta:
        model = Card

    member = factory.SubFactory(MemberFactory)
    room = factory.SelfAttribute("member.room")
    number = factory.Sequence(lambda n: f"2026-{9000 + n:04d}")
    issued_on = factory.LazyFunction(timezone.localdate)
    valid_until = factory.LazyAttribute(lambda o: o.issued_on + dt.timedelta(days=364))


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    room = factory.SubFactory(RoomFactory)
    number = factory.Sequence(lambda n: n + 1)


class VisitFactory(factory.django.DjangoModelFactory):
    """A non-member's open visit unless told otherwise."""

    class Meta:
        model = Visit

    room = factory.SubFactory(RoomFactory)
    guest_name = "散客"
    checked_in_at = factory.LazyFunction(timezone.now)
    checked_in_by = factory.SubFactory(UserFactory)
