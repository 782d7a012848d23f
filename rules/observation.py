"""What the camera saw in one frame: the contract between ``vision`` and the referee.

Coordinates are the observer's own lattice coordinates (axial, as in ``rules.hexgrid``);
they need not match the game's: the referee registers them. JSON form::

    {"tiles": [{"q": 0, "r": 0, "colour": "w", "bug": "Q", "confidence": 0.98,
                "height_hint": 1, "px": [640.0, 360.0]}],
     "occluded": false, "timestamp": 12.5}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .pieces import Bug, Colour


@dataclass(frozen=True)
class TileSighting:
    """The top of one stack as seen: where, whose, which creature, and how sure; ``unplaced``:
    first seen after the last hand's visit at a spot that looks as it did before (no hand put it
    there: the table's print, or a tile missed till now)."""

    q: int
    r: int
    colour: Colour
    bug: Bug
    confidence: float = 1.0
    height_hint: int = 1
    px: tuple[float, float] | None = None
    unplaced: bool = False

    @property
    def cell(self) -> tuple[int, int]:
        return (self.q, self.r)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "q": self.q, "r": self.r, "colour": self.colour.value, "bug": self.bug.value,
            "confidence": round(float(self.confidence), 4), "height_hint": self.height_hint,
        }
        if self.px is not None:
            data["px"] = [round(float(self.px[0]), 1), round(float(self.px[1]), 1)]
        if self.unplaced:
            data["unplaced"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TileSighting":
        try:
            px = data.get("px")
            return cls(
                q=int(data["q"]), r=int(data["r"]), colour=Colour(data["colour"]),
                bug=Bug(data["bug"]), confidence=float(data.get("confidence", 1.0)),
                height_hint=int(data.get("height_hint", 1)),
                px=(float(px[0]), float(px[1])) if px is not None else None,
                unplaced=_flag(data.get("unplaced", False)),
            )
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise ValueError(f"malformed tile sighting {data!r}: {exc}") from exc


@dataclass(frozen=True)
class Observation:
    """Every visible stack top in one frame, and whether the view was blocked."""

    tiles: tuple[TileSighting, ...] = ()
    occluded: bool = False
    timestamp: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"tiles": [t.to_dict() for t in self.tiles], "occluded": self.occluded,
                "timestamp": self.timestamp}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Observation":
        if not isinstance(data, dict) or not isinstance(data.get("tiles", []), list):
            raise ValueError("an observation is a JSON object with a 'tiles' list")
        return cls(
            tiles=tuple(TileSighting.from_dict(t) for t in data.get("tiles", [])),
            occluded=bool(data.get("occluded", False)),
            timestamp=float(data.get("timestamp", 0.0)),
        )


def _flag(value: Any) -> bool:
    """A JSON boolean (a string such as "false" is no flag)."""
    if not isinstance(value, bool):
        raise ValueError(f"not a boolean: {value!r}")
    return value
