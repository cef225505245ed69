"""The member's 2-inch photo (2寸免冠照片): judged by its content, resized, EXIF removed."""

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
ALLOWED_FORMATS = {"JPEG", "PNG"}
# Refuse decompression bombs well before Pillow's own limit: 2 inch photos are small.
MAX_PIXELS = 40_000_000


def photo_process(upload: IO[bytes], *, size: int | None = None) -> ContentFile[bytes]:
    """Return a JPEG of exactly 413 × 579 px with no metadata, or raise ValidationError.

    The name and content type the browser sent are ignored: only Pillow's reading
    of the bytes decides what the file is.
    """
    if size is None:
        upload.seek(0, io.SEEK_END)
        size = upload.tell()
    if size > MAX_PHOTO_BYTES:
        raise ValidationError(_("The photo may not be larger than 5 MB."), code="photo_too_large")
    upload.seek(0)
    data = upload.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        raise ValidationError(_("The photo may not be larger than 5 MB."), code="photo_too_large")
    try:
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            width, height = probe.size
            probe.verify()
        if kind not in ALLOWED_FORMATS:
            raise ValidationError(_("The photo must be a JPEG or PNG image."), code="photo_format")
        if width * height > MAX_PIXELS:
            raise ValidationError(_("The photo has too many pixels."), code="photo_pixels")
        with Image.open(io.BytesIO(data)) as opened:
            # Honour the camera's orientation before the EXIF that says it is dropped.
            image = ImageOps.exif_transpose(opened).convert("RGB")
            image = ImageOps.fit(image, PHOTO_SIZE, method=Image.Resampling.LANCZOS)
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise ValidationError(
            _("The file is not a valid JPEG or PNG image."), code="photo_not_image"
        ) from None
    out = io.BytesIO()
    # A fresh image without an exif= argument: nothing of the original metadata is written.
    image.save(out, format="JPEG", quality=88, optimize=True)
    return ContentFile(out.getvalue(), name="photo.jpg")
