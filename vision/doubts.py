"""Where the tile map is unsure, a second opinion from your set's look and the hive's shape.

The tile map misses some tops (a black tile on a dark mat, a glossy top washed out, a tile half
in shadow: their centre heat stays low, or their patch looks more like table than top) and
takes some gaps for tops (the table seen through a hole in the hive). Its checks, measured on
the styles benchmark's frames of six training styles, one set each enrolled from one photo (the
last traced in a filmed game):

- ``confirmed``: a faint candidate on a free cell next to the hive, near the cell's centre, is a
  top if its rectified crop looks like one of your set's tops (the creature network's embedding
  of it within LOOKS_LIKE cosine similarity of one of the profile's examples). Candidates passing
  were tiles 127 times in 132, three in ten of the tops the tile map had missed; table next to the
  hive and tiles' sides reach about 0.6. A candidate next to one so confirmed is looked at in
  turn (black tiles on a dark flowered cloth, 36 pixels apart: the map kept five of eight at
  0.24-0.41, and only the one touching the two it found was confirmed); nine training styles,
  150 frames each: recall up in five (a-var 95.69 -> 95.80 %), phantoms the same in all. A
  candidate the map nearly took (WARM_TOP) needs only WARM_LIKE: of the candidates next to the
  hive that the stricter bar turned away in nine training styles' frames (seed 1), those at least
  that warm and that alike were tops 11 times in 11 (6 in 7 in frames not tuned on: seed 2, blind styles).
  On the hive's rim (a free cell with at most RIM of its neighbours taken) where tiles lie under
  RIM_PITCH apart, RIM_LIKE will do: of the candidates the map doubted there in nine training
  styles' frames (seed 1, 150 a style), likeness 0.80-0.88 were tops 33 times in 33 from 17 to 40
  pixels apart (blur leaves small tops less alike; under 17, 0 in 2) but 15 in 18 above, whose
  phantoms cost seed 2 more frames than the tops gained; in bays (four or more neighbours taken)
  such candidates were nearly all table seen between the tiles' sides.
- ``first_top``: with no hive yet, the same test on the hottest faint candidates finds the game's
  first tile (a white Beetle alone on a printed mat kept the map's heat at 0.42-0.46, so it was
  seen only once the second tile was laid, and the two placements looked like one view's).
- ``bridges``: the hive is one, so a free cell joining parts of it that fell apart, looking like
  your set's tops (the same test) and not quite cold on the map, holds a top the tile map
  missed. Half the frames with a top missed showed a hive in parts; frames whose tops were all
  found almost never do (2 in 600). A gap that shows table stays: a hive really split is an
  illegal move to be seen (a plain gap between light tiles looked 0.86-0.92 like a plain set's
  tops in one filmed game, but its heat was 0.005-0.013).
- ``arrivals``: a free cell next to the hive (not in a bay) whose spot, last seen bare, a hand
  has passed over and that now lies still and looks otherwise (``vision.bare_table``)
  holds something put there; if its crop, plain or turned a third of a turn either way, looks
  like your set's tops, it is a top the tile map missed (a black Ant laid on a mat's bright blue
  logo kept heat 0.07). Only a camera that saw the table bare knows: not a frame read alone.
- ``holes``: a top nearly enclosed by others, faint and unlike your set's tops is the table seen
  through a hole in the hive: 48 of the 162 phantom tops were such, and 11 of 13,400 real tops.
- ``crowded``: of two tops at one level nearer than tiles can lie, in the lattice's own steps, the
  one off its cell beside one on its own is the table's print beside a tile just laid (world
  referee, seed 4: a cloth's flower 0.66 steps from a black Ant, as hot as it, read as a
  Grasshopper). No frame of the styles benchmark (seed 1, 1,980 frames) has such a pair.
- ``unlike``: a top whose print shows (no glare) yet looks nothing like your set's tops, however
  hot on the map, is the table's print (a mat's logo letter O found at heat 0.76-0.85 beside a
  resumed hive looked 0.48-0.50 like the set, its real tops 0.96-1.00). Styles benchmark, seed 3,
  six training styles enrolled from two photos (5,981 tops reported): under UNLIKE were 8 of the
  28 phantoms and no real top (the least alike, 0.63); the other five styles, enrolled or built-in
  (4,373 tops, 17 phantoms): 1 phantom, and no real top under 0.65. Not judged, from seed 1's
  frames: a top cut by the frame's edge (one looked 0.59 like its set), and tops under
  SHARP_PITCH apart (a blur: whole hives of real tops 20 pixels apart looked 0.43-0.60).

Together they raised whole-position accuracy by 2.5 to 8.6 points per style (200 frames each).
The likeness bars follow the creature network: the one fine-tuned on one-photo episodes scores
table higher (the hole in the test flower 0.76 -> 0.82, a tile there 0.98 -> 0.97), so they went
from 0.85 and 0.8 to 0.88 and 0.85 (six training styles, 200 frames each: whole position -0.6 to
+1.8 points by style, phantoms 0.57-1.21 % -> 0.35-1.08 %; 0.90 and 0.87 were lower).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.geometry import flood
from rules.hexgrid import Hex, neighbours
from vision.creatures import CreatureEmbedder, turned
from vision.features import rectified_crop
from vision.lattice import basis_pitch, hex_round, plane_points
from vision.locate import Located, LocatedTile, place_tops
from vision.profile import CreatureProfile
from vision.tile_size import SHARP_PITCH
from vision.tilemaps import MIN_TOP_SHARE, Peak, TileMaps, cell_of, peak_at

FAINT_TOP = 0.12  # centre heat a doubted candidate must still reach
FIRST_TRIES = 3  # with no hive yet, the hottest doubted candidates looked at as its first tile
LOOKS_LIKE = 0.88  # cosine similarity to the nearest enrolled example that confirms a candidate
WARM_TOP = 0.35  # a candidate this hot (a new top needs vision.still.NEW_TOP, 0.45) ...
WARM_LIKE = 0.84  # ... is confirmed from this likeness
RIM = 3  # a free cell with at most this many of its six neighbours taken lies on the hive's rim; one with more is
# a bay, whose table's look changes with the shade and sides of the tiles round it (two bays, wood, looked 1.00 like
# a black Grasshopper and Ant; of the candidates the map doubted in bays, nearly none were tops)
RIM_LIKE = 0.8  # on the rim, a candidate is confirmed from this likeness ...
RIM_PITCH = 40.0  # ... if tiles lie under this many pixels apart there (blur leaves a real top less alike; larger,
# the table's print by the rim looked as alike as the few tops the map missed)
NEAR_CENTRE = 0.3  # pitches from its cell's centre within which a candidate must lie
MAX_BRIDGES = 4  # tops at most added to join the parts of a hive fallen apart
BRIDGE_HEAT = 0.05  # centre heat a bridge needs: tops missed on a dark mat keep 0.05-0.2, a gap showing table about 0.01
ENCLOSED = 5  # neighbours of six taken that make a top's cell nearly enclosed ...
HOLE_HEAT = 0.6  # ... where a top less hot than this ...
HOLE_LIKENESS = 0.85  # ... and less like your set's tops than this is a hole in the hive
CROWDED = 0.75  # lattice steps: a top nearer than this to another at its level, off its cell ...
OFF_CELL = 0.45  # ... by more than this (pitches; a print between two cells, 0.51-0.55; real tops 20 pixels
# apart lay 0.31-0.33 off), where the other lies on its own cell ...
SOUND_FIT = 0.15  # ... and half the tops lie this near theirs (a lattice that fits), is no tile ...
SHADOWED = 1.5  # ... unless a taller stack lies within this many steps (its side can hide part of the face)
ARRIVAL_TURNS = (2, 4)  # sixths: an arrived top unlike your set's as seen is looked at turned so (the network is
# not turn-blind)
UNLIKE = 0.6  # likeness to your set's tops under which a top showing its print is no tile ...
FACE_REACH = 0.58  # ... if it lies at least this many pitches (a face's corner) inside the frame


def confirmed(frame: np.ndarray, located: Located, doubted: list[Peak], embedder: CreatureEmbedder,
              profile: CreatureProfile) -> list[Peak]:
    """The ``doubted`` candidates of a BGR ``frame`` that are tops after all: on free cells next
    to the ``located`` tops or to candidates so confirmed (a row of black tiles the map hardly
    sees on a dark cloth), near the cell's centre, looking like the set's tops round the candidate
    or round the cell's centre (a faint top's heat can split into two peaks, each about a third
    of a pitch off it: a thin-lined Spider on a printed cloth, seed 2's world referee, looked
    unlike the set's tops round either). A top so confirmed lies where it looked likest."""
    lattice = located.lattice
    if lattice is None or not doubted:
        return []
    taken = {tile.cell for tile in located.tiles}
    placed: dict[Hex, Peak] = {}  # the hottest candidate near the centre of each free cell
    for peak in doubted:
        q, r = hex_round(lattice.axial(peak.centre[None]))[0]
        cell = (int(q), int(r))
        if cell in taken or np.linalg.norm(peak.centre - lattice.pixel(cell)) > NEAR_CENTRE * lattice.pitch(cell):
            continue
        if cell not in placed or peak.score > placed[cell].score:
            placed[cell] = peak
    found: list[Peak] = []
    while True:  # outward from the hive, each cell looked at once
        options = {cell: peak for cell, peak in placed.items() if any(n in taken for n in neighbours(cell))}
        if not options:
            return found
        spots = {cell: (peak.centre, lattice.pixel(cell)) for cell, peak in options.items()}
        likeness = _likeness(frame, [(centre, lattice.basis(cell)) for cell, both in spots.items() for centre in both],
                             embedder, profile).reshape(-1, 2)
        for cell in options:
            del placed[cell]
        new = {cell: replace(peak, centre=spots[cell][int(np.argmax(like))])
               for (cell, peak), like in zip(options.items(), likeness)
               if like.max() >= _bar(peak, _on_rim(cell, taken) and lattice.pitch(cell) < RIM_PITCH)}
        if not new:
            return found
        taken |= set(new)
        found += new.values()


def _bar(peak: Peak, small_rim: bool) -> float:
    """The likeness to your set's tops that confirms a candidate: less on the hive's rim where
    tiles are small (``small_rim``), and less for one the map nearly took."""
    if small_rim:
        return RIM_LIKE
    return WARM_LIKE if peak.score >= WARM_TOP else LOOKS_LIKE


def _on_rim(cell: Hex, taken: set[Hex]) -> bool:
    """Whether free ``cell`` lies on the rim of the hive of ``taken`` cells (no bay: at most RIM taken round it)."""
    return sum(n in taken for n in neighbours(cell)) <= RIM


def first_top(frame: np.ndarray, maps: TileMaps, doubted: list[Peak], embedder: CreatureEmbedder,
              profile: CreatureProfile) -> list[Peak]:
    """With no top located in a BGR ``frame`` (its tile ``maps``): the hottest of the ``doubted``
    candidates (of the FIRST_TRIES hottest) that looks like the set's tops, as the hive's first
    tile (``confirmed`` has no hive for it to lie next to); none if no candidate does."""
    hottest = sorted(doubted, key=lambda peak: -peak.score)[:FIRST_TRIES]
    if not hottest:
        return []
    alone = [place_tops([peak], maps, frame).tiles[0] for peak in hottest]
    likeness = _likeness(frame, [(tile.centre, tile.basis) for tile in alone], embedder, profile)
    return next(([peak] for peak, like in zip(hottest, likeness) if like >= LOOKS_LIKE), [])


def bridges(frame: np.ndarray, located: Located, embedder: CreatureEmbedder, profile: CreatureProfile
            ) -> list[Peak]:
    """Tops for free cells that join the parts of a hive fallen apart, look like your set's tops
    and keep some heat (the hive is one, so such a gap most likely hides tops the tile map missed,
    black tiles on a dark mat; a gap showing table is a hive really split, an illegal move to be
    seen, and a plain gap between tiles can look like a plain top): one at a time, up to
    MAX_BRIDGES, the cell touching the most parts, the likest first."""
    lattice = located.lattice
    cells: set[Hex] = {tile.cell for tile in located.tiles}
    likeness: dict[Hex, float] = {}
    added: list[Peak] = []
    while lattice is not None and len(added) < MAX_BRIDGES:
        part = _parts(cells)
        joins = {free: len({part[n] for n in neighbours(free) if n in part})
                 for cell in cells for free in neighbours(cell) if free not in cells}
        peaks = {free: peak_at(located.maps, lattice.pixel(free), lattice.pitch(free))
                 for free, count in joins.items() if count > 1}
        warm = [free for free, peak in peaks.items() if peak.score >= BRIDGE_HEAT]
        asked = [free for free in warm if free not in likeness]
        if asked:
            places = [(lattice.pixel(free), lattice.basis(free)) for free in asked]
            likeness.update(zip(asked, _likeness(frame, places, embedder, profile).tolist()))
        best = [free for free in warm if likeness[free] >= LOOKS_LIKE]
        if not best:
            break
        cell = max(best, key=lambda free: (joins[free], likeness[free]))
        cells.add(cell)
        added.append(peaks[cell])
    return added


def arrivals(frame: np.ndarray, located: Located, arrived: np.ndarray, embedder: CreatureEmbedder,
             profile: CreatureProfile) -> list[Peak]:
    """Tops for the free cells next to the ``located`` tops of a BGR ``frame`` (no bays: at most
    RIM tops round them) whose centre lies on an ``arrived`` map cell
    (``vision.bare_table.BareTable.arrived``: a still spot unlike the bare table it was) and that
    look like your set's tops, plain or else turned (ARRIVAL_TURNS). The tile map's colour of such
    a top counts only where its patch looks like a top (else the creature read decides)."""
    lattice = located.lattice
    if lattice is None or not arrived.any():
        return []
    taken = {tile.cell for tile in located.tiles}
    free = {cell for tile in located.tiles for cell in neighbours(tile.cell) if cell not in taken}
    open_cells = sorted(cell for cell in free if _on_rim(cell, taken))
    cells = np.array(open_cells, np.float64).reshape(-1, 2)
    rows, cols = arrived.shape
    centres = lattice.pixels(cells)
    x, y = np.clip(np.round(cell_of(centres)), 0, [cols - 1, rows - 1]).astype(int).T
    hit = arrived[y, x]
    if not hit.any():
        return []
    places = list(zip(centres[hit], lattice.bases(cells[hit])))
    likeness = _likeness(frame, places, embedder, profile)
    unsure = np.flatnonzero(likeness < LOOKS_LIKE)
    if len(unsure):
        likeness[unsure] = _likeness(frame, [places[i] for i in unsure], embedder, profile, ARRIVAL_TURNS)
    spots = [peak_at(located.maps, centre, float(basis_pitch(basis[None])[0]))
             for (centre, basis), like in zip(places, likeness) if like >= LOOKS_LIKE]
    return [spot if spot.share >= MIN_TOP_SHARE else replace(spot, white=0.5) for spot in spots]


def _parts(cells: set[Hex]) -> dict[Hex, int]:
    """Each cell's connected group (an index), neighbours counting as connected."""
    board = {cell: [] for cell in cells}
    part: dict[Hex, int] = {}
    for cell in cells:
        if cell not in part:
            group = max(part.values(), default=-1) + 1
            part.update(dict.fromkeys(flood(board, cell, lambda _, c: [n for n in neighbours(c) if n in board]), group))
    return part


def holes(frame: np.ndarray, located: Located, embedder: CreatureEmbedder, profile: CreatureProfile
          ) -> list[LocatedTile]:
    """The ``located`` tops of a BGR ``frame`` that are holes in the hive, not tops: nearly
    enclosed, faint, and unlike your set's tops (the table through a gap, taken for a top by a
    tile map that sees tiles all round it)."""
    cells = {tile.cell for tile in located.tiles}
    suspects = [tile for tile in located.tiles if tile.score < HOLE_HEAT
                and sum(n in cells for n in neighbours(tile.cell)) >= ENCLOSED]
    if not suspects:
        return []
    likeness = _likeness(frame, [(tile.centre, tile.basis) for tile in suspects], embedder, profile)
    return [tile for tile, like in zip(suspects, likeness) if like < HOLE_LIKENESS]


def crowded(located: Located) -> list[LocatedTile]:
    """The ``located`` tops that lie nearer to another top at their level than tiles can, off their
    cell where that one lies on its own (a cloth's printed flower beside a tile just laid, taken
    for a top, was as hot as the tile). Distances are in the lattice's own steps there (a tilted
    camera brings neighbours along its tilt nearer in pixels), and only where the lattice fits
    the tops (one bent by a hive in two parts can be half as large again as the tiles). A top
    beside a taller stack is left be: the stack's side can hide part of its face, and what shows
    of it lies off its cell (a white Ant by a four-high stack, 0.31 off its cell, 0.7 steps from a
    neighbour)."""
    tops = located.tiles
    if len(tops) < 3 or np.median([tile.offset for tile in tops]) > SOUND_FIT:
        return []
    return [tile for tile in tops if tile.offset > OFF_CELL and any(
        other is not tile and other.level == tile.level and other.offset <= SOUND_FIT
        and _steps(other, tile.centre) < CROWDED for other in tops) and not any(
        other.level > tile.level and _steps(other, tile.centre) < SHADOWED for other in tops)]


def unlike(shape: tuple[int, ...], tops: list[LocatedTile], views: np.ndarray, printless: np.ndarray,
           profile: CreatureProfile) -> np.ndarray:
    """(N,) which ``tops`` of a frame of ``shape``, embedded as ``views`` (N, EMBEDDING), are no
    tiles: they lie at least SHARP_PITCH apart (smaller tops are a blur, unlike any), their whole
    face lies in the frame (a crop beyond its edge is filled out with the edge's pixels), their
    print shows (not ``printless``, (N,)), and they look less than UNLIKE like your set's tops."""
    if not tops:
        return np.zeros(0, bool)
    centres = np.array([top.centre for top in tops])
    pitch = basis_pitch(np.array([top.basis for top in tops]))
    reach = FACE_REACH * pitch[:, None]
    whole = np.all((centres >= reach) & (centres <= np.array([shape[1] - 1, shape[0] - 1]) - reach), axis=1)
    return (pitch >= SHARP_PITCH) & whole & ~np.asarray(printless, bool) & (profile.resemblance(views) < UNLIKE)


def _steps(tile: LocatedTile, point: np.ndarray) -> float:
    """How far ``point`` (pixels) lies from ``tile``'s centre, in the lattice's steps at that tile."""
    return float(np.linalg.norm(plane_points(np.linalg.solve(tile.basis.T, np.asarray(point, float) - tile.centre))))


def _likeness(frame: np.ndarray, places: list[tuple[np.ndarray, np.ndarray]], embedder: CreatureEmbedder,
              profile: CreatureProfile, turns: tuple[int, ...] = (0,)) -> np.ndarray:
    """How like your set's tops (cosine similarity to the profile's nearest example) the top of a
    BGR ``frame`` at each of ``places`` (centre, lattice steps) looks: the likest of its crop's
    ``turns`` (sixths)."""
    crops = [turned(rectified_crop(frame, centre, basis), sixths) for centre, basis in places for sixths in turns]
    return profile.resemblance(embedder.embed(crops)).reshape(len(places), len(turns)).max(axis=1)
