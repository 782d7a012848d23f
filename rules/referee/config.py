"""Settings of the referee that a tournament director or the page may change."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RefereeConfig:
    """How cautious the referee is.

    ``stable_seconds``: the view must stay unchanged and unoccluded this long before it
    is judged. ``flicker_seconds``: a view interrupted for no longer than this (a tile
    misread or missed for a frame or two) is still the same view. ``illegal_move_limit``: the illegal move (counted per player) that loses
    the game, e.g. 3 in tournaments; None only warns. ``min_confidence``: reads below it
    are unsure (only their presence counts unless a person confirms). ``allow_mirror``:
    also try mirror-image registrations (a camera seeing the table through a mirror).
    ``misread_after_seconds``: how long the steady views must go unexplained by any move,
    legal or illegal (e.g. a piece missing: lifted by a hand the camera did not flag, or
    hidden while play goes on), before the view is reported as a misread.
    ``unsure_wait_seconds``: how long a steady view whose moves a person would have to pick
    because a read is unsure is looked at again first (the camera's read of a still tile firms
    up over its frames); if the board changes before then, the question waits for the next
    steady view, to be judged with the move made meanwhile (twice at most: ``referee.CARRIES``).
    """

    stable_seconds: float = 0.3
    flicker_seconds: float = 0.45
    illegal_move_limit: int | None = None
    min_confidence: float = 0.6
    allow_mirror: bool = False
    misread_after_seconds: float = 2.0
    unsure_wait_seconds: float = 1.0

    def __post_init__(self) -> None:
        if not self.stable_seconds >= 0:
            raise ValueError(f"stable_seconds must be 0 or more, not {self.stable_seconds!r}")
        if not self.flicker_seconds >= 0:
            raise ValueError(f"flicker_seconds must be 0 or more, not {self.flicker_seconds!r}")
        if self.illegal_move_limit is not None and self.illegal_move_limit < 1:
            raise ValueError(f"illegal_move_limit must be 1 or more (or None), not {self.illegal_move_limit!r}")
        if not 0 <= self.min_confidence <= 1:
            raise ValueError(f"min_confidence must be between 0 and 1, not {self.min_confidence!r}")
        if not self.misread_after_seconds >= 0:
            raise ValueError(f"misread_after_seconds must be 0 or more, not {self.misread_after_seconds!r}")
        if not self.unsure_wait_seconds >= 0:
            raise ValueError(f"unsure_wait_seconds must be 0 or more, not {self.unsure_wait_seconds!r}")
