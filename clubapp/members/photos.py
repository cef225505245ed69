"""The member's 2-inch photo (2寸免冠照片): judged by its content, resized, EXIF removed.

Bad input gives a Chinese message and nothing else (docs/members.md "Photos"):
- the size is judged from the header, before a pixel is decoded: a small PNG can
  declare 40 megapixels and cost ~460 MB to open;
- phone-camera JPEGs with an embedded preview open as MPO: that is a JPEG;
- the EXIF orientation is read defensively and the EXIF itself never written back
  (Pillow's ``exif_transpose`` re-serialises it, and crashes on a mistyped tag).
"""

from __future__ import annotations

import io
from typing import IO

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PHOTO_BYTES = 5 * 1024 * 1024
# 2 inches (35 × 49 mm) at 300 dpi.
PHOTO_SIZE = (413, 579)
# MPO: a phone JPEG carrying a preview or depth picture after the main one.
ALLOWED_FORMATS = {"JPEG", "PNG", "MPO"}
# A 2-inch photo needs 0.24 megapixels; phones save 12 MP (4032 × 3024). Far above that
# is a decompression bomb, refused from the header.
MAX_PIXELS = 24_000_000
# EXIF orientation → the transpose that turns the picture upright.
_UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
_NOT_AN_IMAGE = (
    UnidentifiedImageError,
    OSError,
    SyntaxError,
    ValueError,
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    Image.DecompressionBombError,
)


def _orientation(image: Image.Image) -> int:
    try:
        value = image.getexif().get(0x0112, 1)
        return int(value)
    except Exception:  # a camera's broken EXIF: the picture is taken as it is
        return 1


def photo_process(
    upload: IO[bytes], *, size: int | None = None, box: tuple[int, int] | None = None
) -> ContentFile[bytes]:
    """Return a JPEG of exactly 413 × 579 px with no metadata, or raise ValidationError.

    The name and content type the browser sent are ignored: only Pillow's reading
    of the bytes decides what the file is. With ``box`` (an activity's photo), the
    picture keeps its shape and is only made small enough to fit inside the box.
    """
    target = box or PHOTO_SIZE
    if size is None:
        upload.seek(0, io.SEEK_END)
        size = upload.tell()
    if size > MAX_PHOTO_BYTES:
        raise ValidationError(_("The photo must be at most 5 MB."), code="photo_too_large")
    upload.seek(0)
    data = upload.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        raise ValidationError(_("The photo must be at most 5 MB."), code="photo_too_large")
    try:
        # Image.open reads the header only.
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            width, height = probe.size
        if kind not in ALLOWED_FORMATS:
            raise ValidationError(
                _("The photo must be a JPEG or PNG picture."), code="photo_format"
            )
        if width * height > MAX_PIXELS:
            raise ValidationError(
                _(
                    "The photo has too many pixels (at most 24 megapixels): take it with "
                    "a phone or make it smaller."
                ),
                code="photo_pixels",
            )
        with Image.open(io.BytesIO(data)) as probe:
            probe.verify()
        with Image.open(io.BytesIO(data)) as image:
            orientation = _orientation(image)
            # A JPEG decodes at 1/2, 1/4 or 1/8 scale when that is still twice the photo.
            image.draft("RGB", (target[0] * 2, target[1] * 2))
            picture = image.convert("RGB")
        if orientation in _UPRIGHT:
            picture = picture.transpose(_UPRIGHT[orientation])
        if box is None:
            picture = ImageOps.fit(picture, PHOTO_SIZE, method=Image.Resampling.LANCZOS)
        else:
            picture.thumbnail(box, Image.Resampling.LANCZOS)
    except ValidationError:
        raise
    except _NOT_AN_IMAGE:
        raise ValidationError(
            _("The file is not a valid JPEG or PNG picture."), code="photo_not_image"
        ) from None
    out = io.BytesIO()
    # A fresh image without an exif= argument: nothing of the original metadata is written.
    picture.save(out, format="JPEG", quality=88, optimize=True)
    return ContentFile(out.getvalue(), name="photo.jpg")
