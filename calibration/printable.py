"""Encode a grey page image for printing at an exact physical size: PNG with dpi, or PDF.

The PDF writer is deliberately minimal: one page whose MediaBox is the image's physical
size, one Flate-compressed DeviceGray image drawn over the whole page.
"""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np

POINTS_PER_INCH = 72.0
METRES_PER_INCH = 0.0254
_PNG_SIGNATURE_AND_HEADER = 8 + 25  # signature, then the IHDR chunk (length, type, 13 bytes, crc)


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_bytes(image: np.ndarray, dpi: float) -> bytes:
    """A PNG of ``image`` whose pHYs chunk records ``dpi`` so viewers print it to scale."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("PNG encoding failed")
    raw = encoded.tobytes()
    per_metre = round(dpi / METRES_PER_INCH)
    physical = _png_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    return raw[:_PNG_SIGNATURE_AND_HEADER] + physical + raw[_PNG_SIGNATURE_AND_HEADER:]


def page_size_points(image: np.ndarray, dpi: float) -> tuple[float, float]:
    """Physical width and height of ``image`` printed at ``dpi``, in PDF points (1/72 inch)."""
    height, width = image.shape[:2]
    return width * POINTS_PER_INCH / dpi, height * POINTS_PER_INCH / dpi


def pdf_bytes(image: np.ndarray, dpi: float) -> bytes:
    """A one-page PDF showing the grey ``image`` at exactly ``dpi`` (page size = image size)."""
    if image.ndim != 2 or image.dtype != np.uint8:
        raise ValueError("pdf_bytes expects a 2-D uint8 grey image")
    height, width = image.shape
    page_w, page_h = page_size_points(image, dpi)
    pixels = zlib.compress(np.ascontiguousarray(image).tobytes(), 9)
    drawing = f"q {page_w:.4f} 0 0 {page_h:.4f} 0 0 cm /Board Do Q".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.4f} {page_h:.4f}] "
         "/Resources << /XObject << /Board 4 0 R >> >> /Contents 5 0 R >>").encode("ascii"),
        (f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n").encode("ascii")
        + pixels + b"\nendstream",
        f"<< /Length {len(drawing)} >>\nstream\n".encode("ascii") + drawing + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    out += b"".join(f"{offset:010d} 00000 n \n".encode("ascii") for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode("ascii")
    return bytes(out)
