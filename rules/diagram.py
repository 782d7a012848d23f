"""A plain-text picture of a position, for terminals and error messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board


def ascii_diagram(board: "Board") -> str:
    """Rows of stack tops on an offset grid; a stack shows its height, e.g. ``wB1^2``."""
    cells = list(board.occupied())
    if not cells:
        return "(empty board)"
    rows = range(min(r for _, r in cells), max(r for _, r in cells) + 1)
    xs = [2 * q + r for q, r in cells]
    left, right = min(xs), max(xs)
    lines = []
    for r in rows:
        parts = []
        for x in range(left, right + 1):
            if (x - r) % 2:
                parts.append("   ")
                continue
            cell = ((x - r) // 2, r)
            stack = board.stack(cell)
            label = f"{stack[-1]}^{len(stack)}" if len(stack) > 1 else (str(stack[-1]) if stack else ".")
            parts.append(label.center(6)[:6] if stack else "  .   ")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)
