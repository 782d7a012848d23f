"""Tiles lying apart from the hive: ``APART`` or more cells from every tile of it.

No one plays a tile that far from the hive, and the hive is one group of touching tiles. A
group of tiles that far from the rest is a piece set down beside the game (pieces not yet
played, lying on the table), or the table's print taken for tiles; once the game has a hive,
the referee looks past such groups rather than take them for moves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from ..hexgrid import Hex, distance
from ..observation import Observation

APART = 3  # cells from every tile and stack beyond which a tile is not played into the hive
HIVE_FROM = 2  # stacks the position needs before groups apart from the hive are looked past


def groups(cells: list[Hex]) -> list[set[Hex]]:
    """``cells`` gathered into groups whose members lie under ``APART`` cells from another member."""
    found: list[set[Hex]] = []
    for cell in cells:
        near = [group for group in found if any(distance(cell, other) < APART for other in group)]
        merged = {cell}.union(*near)
        found = [group for group in found if all(group is not n for n in near)] + [merged]
    return found


def set_aside(observation: Observation, stacks: Mapping[Hex, object]) -> Observation:
    """``observation`` without the groups of tiles lying apart from the hive: the group whose size
    is nearest the number of ``stacks`` of the position, if it alone is that near and it can be the
    whole hive (it shows all the stacks but one: a Beetle may have climbed since; a camera that lost
    part of the hive may see it fall apart). Only once the position has ``HIVE_FROM`` stacks: with
    fewer, a lone first tile and the table's print look alike."""
    if len(stacks) < HIVE_FROM or not observation.tiles:
        return observation
    found = sorted(groups([t.cell for t in observation.tiles]), key=lambda g: abs(len(g) - len(stacks)))
    if len(found) < 2 or len(found[0]) < len(stacks) - 1:
        return observation
    if abs(len(found[0]) - len(stacks)) == abs(len(found[1]) - len(stacks)):
        return observation
    return replace(observation, tiles=tuple(t for t in observation.tiles if t.cell in found[0]))
