"""Photos from real phones and from attackers (issue 11 item 7): a mistyped EXIF tag,
a small PNG declaring 40 megapixels, a phone JPEG that Pillow opens as MPO."""

from __future__ import annotations

import io
import struct

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image, ImageFile

from clubapp.members.models import Member
from clubapp.members.photos import PHOTO_SIZE, photo_process
from clubapp.members.tests.factories import make_id_number

ORIENTATION_ROTATED = (0x0112, 3, 1, 6)


def _exif(entries) -> bytes:
    """A little-endian EXIF block with the given (tag, type, count, value) entries."""
    body = b"II*\x00" + struct.pack("<IH", 8, len(entries))
    for tag, kind, count, value in entries:
        packed = value if isinstance(value, bytes) else struct.pack("<I", value)
        body += struct.pack("<HHI", tag, kind, count) + packed.ljust(4, b"\0")
    return b"Exif\x00\x00" + body + b"\x00\x00\x00\x00"


def _jpeg(exif: bytes = b"", size=(600, 800)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "#c9a27e").save(out, "JPEG", exif=exif)
    return out.getvalue()


@pytest.mark.parametrize(
    "mistyped",
    [
        (0x011A, 2, 4, b"abc\0"),  # XResolution written as text
        (0x010F, 5, 1, struct.pack("<II", 1, 0)),  # Make written as a number
        (0x0128, 2, 2, b"x\0"),  # ResolutionUnit written as text
        (0x011B, 10, 1, struct.pack("<ii", -1, 0)),  # YResolution negative
    ],
)
@pytest.mark.filterwarnings("ignore:Truncated File Read:UserWarning")
def test_a_mistyped_exif_tag_is_dropped_not_a_crash(mistyped):
    # A rotated phone photo whose camera wrote one tag with the wrong type.
    result = Image.open(
        io.BytesIO(photo_process(io.BytesIO(_jpeg(_exif([ORIENTATION_ROTATED, mistyped])))).read())
    )
    assert result.size == PHOTO_SIZE
    assert not result.getexif()


def _png_declaring(width: int, height: int) -> bytes:
    """A valid PNG of ``width`` × ``height`` black pixels, compressed to almost nothing."""
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG", optimize=True)
    return out.getvalue()


def test_a_small_png_of_40_megapixels_is_refused_before_decoding(monkeypatch):
    data = _png_declaring(8000, 5000)
    assert len(data) < 200_000  # a "116 KB" file
    loads = []
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: loads.append(self) or None)
    with pytest.raises(ValidationError) as info:
        photo_process(io.BytesIO(data))
    assert info.value.code == "photo_pixels"
    assert "像素" in info.value.messages[0]
    assert loads == []  # refused from the header, never decoded


def test_an_mpo_phone_jpeg_is_accepted():
    out = io.BytesIO()
    first = Image.new("RGB", (900, 1200), "#c9a27e")
    preview = Image.new("RGB", (160, 120), "#000000")
    first.save(out, "MPO", save_all=True, append_images=[preview])
    assert Image.open(io.BytesIO(out.getvalue())).format == "MPO"
    result = Image.open(io.BytesIO(photo_process(io.BytesIO(out.getvalue())).read()))
    assert result.format == "JPEG" and result.size == PHOTO_SIZE


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (lambda: _png_declaring(8000, 5000), "像素"),
        (lambda: b"GIF89a" + b"\0" * 100, "JPEG"),
    ],
)
def test_a_refused_photo_stands_at_the_photo_field_and_saves_nothing(
    client, manager, room, settings, content, message
):
    client.force_login(manager)
    upload = SimpleUploadedFile("me.png", content(), content_type="image/png")
    response = client.post(
        reverse("members:member_create"),
        {"name": "钱大伯", "phone": "13800000002", "id_number": make_id_number(5), "photo": upload},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert message in " ".join(form.errors.get("photo", []))
    assert not form.non_field_errors()
    assert Member.objects.count() == 0
    assert not any(settings.MEDIA_ROOT.rglob("*.*"))
