from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from PIL import Image

from clubapp.members.photos import MAX_PHOTO_BYTES, PHOTO_SIZE, photo_process
from clubapp.members.tests.factories import image_bytes


def _open(content) -> Image.Image:
    return Image.open(io.BytesIO(content.read()))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_it_resizes_a_jpeg_or_png_to_413_by_579(fmt):
    result = _open(photo_process(io.BytesIO(image_bytes(fmt, size=(1200, 900)))))
    assert result.format == "JPEG"
    assert result.size == PHOTO_SIZE == (413, 579)


def test_it_removes_exif():
    original = image_bytes("JPEG", exif=True)
    assert Image.open(io.BytesIO(original)).getexif()  # the test photo has some
    result = _open(photo_process(io.BytesIO(original)))
    assert not result.getexif()
    assert "exif" not in result.info


def test_it_refuses_a_file_that_is_not_an_image_whatever_its_name():
    with pytest.raises(ValidationError) as info:
        photo_process(io.BytesIO(b"%PDF-1.4 this is not a photo"))
    assert info.value.code == "photo_not_image"


def test_it_refuses_other_image_formats_judged_by_content():
    with pytest.raises(ValidationError) as info:
        photo_process(io.BytesIO(image_bytes("GIF")))
    assert info.value.code == "photo_format"


def test_it_refuses_a_truncated_image():
    data = image_bytes("PNG")
    with pytest.raises(ValidationError):
        photo_process(io.BytesIO(data[: len(data) // 2]))


def test_it_refuses_more_than_5_mb():
    with pytest.raises(ValidationError) as info:
        photo_process(io.BytesIO(b"\xff\xd8" + b"0" * MAX_PHOTO_BYTES))
    assert info.value.code == "photo_too_large"
