"""What counts as plain text in names, moves and stored tags."""

from __future__ import annotations

LINE_BREAKS = "\n\r\t"


def is_plain_text(text: str, multiline: bool = False) -> bool:
    """Whether ``text`` has printable characters only (and, if ``multiline``, line breaks and
    tabs): no control or format characters, no lone surrogates, no line or paragraph
    separators that would break a PGN line."""
    return text.isprintable() or (multiline and all(c.isprintable() or c in LINE_BREAKS for c in text))
