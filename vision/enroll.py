"""Enrollment: learn a set's creatures from one photo of its pieces laid out as a layout says.

The layout may be anything the user describes (touching rows, a block, a scatter with gaps)
at any turn and place on the table. The tile map finds the tops in the photo; the layout is
matched to them by the similarity (turn, scale, shift) that puts the most layout cells on
found tops of the right colour, refined to a homography (the camera's perspective). A layout
cell with no top found is taken where the placement puts it if the map shows a face of the
cell's colour there (a dark tile on a dark mat gives no clear centre). Each
matched top's crop, turned through all six sixths and slightly jittered, gives the creature
embeddings that become the profile's examples, and its plain crop the set's art
(``vision.set_art``). A piece the photo does not show (hidden by glare,
say) is left out, named in the profile's note, as long as most of the layout was found and every
creature of each colour has an example. A top whose print does not show (its middle flat and
pale: a lamp's glare, a face washed out by light) is learnt from the same view taken darker where
the camera gave one (``Photo.darker``), else left out where the photos show another of its
creature; a creature with no other top stops enrollment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.layout import DEFAULT_LAYOUT, Layout, layout_position, parse_layout
from rules.pieces import Bug, Colour, Piece
from vision.creatures import CreatureEmbedder, turned
from vision.features import jittered_crop, rectified_crop
from vision.images import ImageReadError, read_image
from vision.lattice import Lattice, plane_points
from vision.profile import CLASSES, CreatureProfile
from vision.set_art import MIDDLE, SetArt, printless
from vision.tile_size import SHARP_PITCH, closer_advice, nearer
from vision.tilemaps import (BLACK_TOP, SMALL_PITCH, WHITE_TOP, Peak, TileMapper, TileMaps, cell_of, disc_window,
                             median_pitch, tile_tops)

MATCH_RADIUS = 0.35  # pitches: a layout cell mapped this close to a found top is that top
LOCAL_REACH = 0.45  # a cell left without a top is looked for this share of the way to its nearest other cell
NEIGHBOURS = 3  # each found top is paired with this many nearest others to propose a placement
JITTERED = 2  # jittered crops per turn of each enrolled top
MIN_FOUND = 0.85  # share of the layout's pieces a photo must show
MIN_PLACED = 0.6  # share of them whose tops must be found before the placement is trusted to find the others
RECOVER_SHARE = 0.6  # a cell with no top found counts as shown if its face looks this surely of its colour
FACE_REACH = 0.3  # pitches round a centre whose mean colour (face and art together) is the top's colour
NEARER_BY = 0.5  # ... or if that colour is this many times nearer its colour's found tops' than the table's
MIN_CONTRAST = 8.0  # ... and the table's at least this far (Lab units) from it
SURE_TABLE = 0.9  # map cells this surely table give the table's colour
TOP_THRESHOLD = 0.15  # centre heat of a top here: lower than in play, as the layout's shape vets every top
CLOSER = 2  # a photo whose tiles are too small to find is looked at again this many times as large
MAX_CLOSER_SIDE = 4096  # pixels: ... unless that makes it larger than this
PALE = 200  # a top's flat middle this light (mean of its darkest channel) is a face washed out (glare, light);
# a flat middle of a deeper colour is a large print (twemoji's pink Ladybug: 149)


class TooFar(CalibrationError):
    """A photo that failed because its tiles look small: ``nearer`` is the share of its present
    distance the camera should come to (e.g. 0.7: 30 % closer), with a tenth to spare. Where the
    layout could look at most ``room`` times larger and still fit in the photo, and coming that
    near needs more, the advice says so: a loose scatter through the wide lens has no distance that
    both frames it and shows its tiles large enough."""

    def __init__(self, message: str, pitch: float, wanted: float, need: str, room: float = np.inf) -> None:
        self.nearer = nearer(pitch, wanted)
        advice = closer_advice(pitch, wanted)
        if self.nearer * room < 1:
            advice = (f"coming that near ({100 * self.nearer:.0f} % of the distance), the layout no longer fits in "
                      "view: lay the pieces closer together (touching, as the documented layout), or use the normal "
                      "lens rather than the wide one")
        super().__init__(f"{message}: the tiles are only {int(pitch)} pixels apart, and tiles {wanted:.0f} or more "
                         f"pixels apart {need}: {advice}")


@dataclass(frozen=True)
class Photo:
    """One enrollment photo (an image or its file) and, from a camera whose exposure can be set,
    the same view taken darker (``vision.glare.DARKER``), where glare stays under the sensor's white."""

    image: np.ndarray | str | os.PathLike[str]
    darker: np.ndarray | None = None


@dataclass(frozen=True)
class Placement:
    """The layout as seen in one photo: its lattice (layout cells to pixels) and each cell's top."""

    lattice: Lattice
    tops: dict[tuple[int, int], Peak]


def _similarity(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The 3x3 similarity taking two source points onto two destination points."""
    a, b = complex(*(src[1] - src[0])), complex(*(dst[1] - dst[0]))
    scale = b / a
    shift = complex(*dst[0]) - scale * complex(*src[0])
    return np.array([[scale.real, -scale.imag, shift.real], [scale.imag, scale.real, shift.imag], [0, 0, 1.0]])


def _matches(homography: np.ndarray, plane: np.ndarray, centres: np.ndarray, pitch: float) -> np.ndarray:
    """For each layout cell, the index of the found top it lands on (-1: none)."""
    mapped = cv2.perspectiveTransform(plane[None], homography)[0]
    distance = np.linalg.norm(mapped[:, None] - centres[None], axis=2)
    nearest = distance.argmin(axis=1)
    return np.where(distance[np.arange(len(plane)), nearest] < MATCH_RADIUS * pitch, nearest, -1)


def _score(matched: np.ndarray, white: np.ndarray, layout_white: np.ndarray) -> tuple[int, int]:
    """Cells placed on a top, then how many of those tops show the cell's colour (which breaks
    the ties of symmetric layouts; a colour misread alone does not lose a piece)."""
    placed = matched >= 0
    return int(placed.sum()), int((white[matched[placed]] == layout_white[placed]).sum())


def place_layout(found: list[Peak], layout: Layout) -> Placement:
    """The placement of ``layout`` that puts the most cells on found tops (then the most on tops of their colour)."""
    cells = list(layout)
    plane = plane_points(cells)
    layout_white = np.array([layout[c].colour is Colour.WHITE for c in cells])
    centres = np.array([p.centre for p in found])
    white = np.array([p.white >= 0.5 for p in found])
    pitch = median_pitch(found)
    best, best_score = np.eye(3), (-1, -1)
    near_found = np.argsort(np.linalg.norm(centres[:, None] - centres[None], axis=2), axis=1)[:, 1:NEIGHBOURS + 1]
    near_cells = np.argsort(np.linalg.norm(plane[:, None] - plane[None], axis=2), axis=1)[:, 1:7]
    for i in range(len(found)):
        for j in near_found[i]:
            span = np.linalg.norm(centres[j] - centres[i]) / pitch
            for a in range(len(cells)):
                for b in near_cells[a]:
                    if abs(np.linalg.norm(plane[b] - plane[a]) - span) > 0.3 * span:
                        continue
                    homography = _similarity(plane[[a, b]], centres[[i, j]])
                    score = _score(_matches(homography, plane, centres, pitch), white, layout_white)
                    if score > best_score:
                        best, best_score = homography, score
    for _ in range(2):  # refine to the camera's perspective (tops all in one row leave it a similarity)
        matched = _matches(best, plane, centres, pitch)
        if (matched >= 0).sum() >= 5:
            refined = cv2.findHomography(plane[matched >= 0], centres[matched[matched >= 0]])[0]
            best = best if refined is None else refined
    matched = _matched_locally(best, plane, centres, pitch)
    return Placement(Lattice(best), {cells[k]: found[m] for k, m in enumerate(matched) if m >= 0})


def _matched_locally(homography: np.ndarray, plane: np.ndarray, centres: np.ndarray, pitch: float) -> np.ndarray:
    """``_matches``, then each cell left without a top looked for again (within LOCAL_REACH of the
    way to its nearest other cell) where the homography puts it, moved by the smooth (quadratic)
    field of how far the matched cells' tops lie from where it puts them; one cell at a time until
    no more are found: a wide lens bends a spread-out layout's far corners further than a
    homography follows, and each cell found there guides the next one further out."""
    matched = _matches(homography, plane, centres, pitch)
    mapped = cv2.perspectiveTransform(plane[None], homography)[0]
    middle, spread = plane.mean(axis=0), max(float(np.ptp(plane)), 1.0)
    terms = _quadratic_terms((plane - middle) / spread)
    apart = np.linalg.norm(plane[:, None] - plane[None], axis=2)
    room = np.where(np.eye(len(plane), dtype=bool), np.inf, apart).min(axis=1)  # to the nearest other cell, pitches
    for _ in range(len(plane)):
        placed, open_cells = np.flatnonzero(matched >= 0), np.flatnonzero(matched < 0)
        free = np.setdiff1d(np.arange(len(centres)), matched[placed])
        if len(placed) < 2 * terms.shape[1] or not len(open_cells) or not len(free):
            break
        field = np.linalg.lstsq(terms[placed], centres[matched[placed]] - mapped[placed], rcond=None)[0]
        where = mapped[open_cells] + terms[open_cells] @ field
        distance = np.linalg.norm(where[:, None] - centres[None, free], axis=2)
        cell, top = np.unravel_index(int(distance.argmin()), distance.shape)
        if distance[cell, top] >= LOCAL_REACH * room[open_cells[cell]] * pitch:
            break
        matched[open_cells[cell]] = free[top]
    return matched


def _quadratic_terms(points: np.ndarray) -> np.ndarray:
    """(N, 6) terms 1, x, y, x², xy, y² of points (N, 2)."""
    x, y = points.T
    return np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])


def _image(item: np.ndarray | str | os.PathLike[str], index: int) -> np.ndarray:
    if isinstance(item, (str, os.PathLike)):
        try:
            return read_image(item)
        except ImageReadError as exc:
            raise CalibrationError(str(exc)) from None
    if not isinstance(item, np.ndarray) or item.ndim != 3 or item.shape[2] != 3 or item.size == 0:
        raise CalibrationError(f"photo {index + 1}: not a readable colour image")
    return item


def _recovered(frame: np.ndarray, maps: TileMaps, placement: Placement, layout: Layout
               ) -> dict[tuple[int, int], np.ndarray]:
    """Pixel centres of the layout cells with no top found where the placement puts a face of the
    cell's colour all the same: the map's classes say so over the middle of the face, or its colour
    is far nearer the found tops of its colour than the table's and the other colour's tops' (a dark
    tile on a dark mat, or a tile beside a cloth's flowers, may give no clear centre, but the
    layout says where it lies)."""
    missing = [cell for cell in layout if cell not in placement.tops]
    if not missing:  # the usual photo: no colour to compare
        return {}
    recovered = {}
    colours = _colour_likeness(frame, maps, placement, layout)
    for cell in missing:
        centre = placement.lattice.pixel(cell)
        x, y = np.round(cell_of(centre[None])[0]).astype(int)
        face = WHITE_TOP if layout[cell].colour is Colour.WHITE else BLACK_TOP
        window = maps.classes[face, max(y - 1, 0):y + 2, max(x - 1, 0):x + 2]
        if (window.size == 9 and float(window.mean()) >= RECOVER_SHARE) or colours(cell, centre):
            recovered[cell] = centre
    return recovered


def _colour_likeness(frame: np.ndarray, maps: TileMaps, placement: Placement, layout: Layout
                     ) -> Callable[[tuple[int, int], np.ndarray], bool]:
    """Whether the top at a layout cell's centre looks like the found tops of its colour: its mean
    Lab colour NEARER_BY times nearer theirs (median) than the table's and the other colour's, and
    those at least MIN_CONTRAST away."""
    lab = cv2.cvtColor(frame.astype(np.float32) / 255, cv2.COLOR_BGR2Lab)
    pitch = float(np.median([top.pitch for top in placement.tops.values()]))
    rows, cols = maps.heat.shape
    table = cv2.resize(lab, (cols, rows), interpolation=cv2.INTER_AREA)[maps.classes[0] >= SURE_TABLE]
    found = {colour: [_mean_colour(lab, top.centre, FACE_REACH * pitch) for cell, top in placement.tops.items()
                      if layout[cell].colour is colour] for colour in Colour}
    if len(table) == 0 or not all(found.values()):
        return lambda cell, centre: False
    refs = {colour: np.median(found[colour], axis=0) for colour in Colour}
    table_ref = np.median(table, axis=0)

    def looks_like(cell: tuple[int, int], centre: np.ndarray) -> bool:
        colour = _mean_colour(lab, centre, FACE_REACH * pitch)
        own = layout[cell].colour
        others = [table_ref, *(ref for c, ref in refs.items() if c is not own)]
        apart = min(float(np.linalg.norm(colour - other)) for other in others)
        return apart >= MIN_CONTRAST and float(np.linalg.norm(colour - refs[own])) < NEARER_BY * apart

    return looks_like


def _mean_colour(image: np.ndarray, centre: np.ndarray, reach: float) -> np.ndarray:
    """The mean pixel of ``image`` within ``reach`` pixels of ``centre`` (x, y)."""
    window, disc = disc_window((float(centre[0]), float(centre[1])), reach, image.shape)
    inside = image[window][disc]
    return inside.mean(axis=0) if len(inside) else np.full(image.shape[2], np.inf)


def _placed(frame: np.ndarray, layout: Layout, label: str, mapper: TileMapper, scale: float = 1.0
            ) -> tuple[Placement, dict[tuple[int, int], np.ndarray], list[str]]:
    """The layout's placement in one look at a photo (``scale``: photo pixels per pixel of the
    look), the centre of each piece it shows, and the pieces it does not show, each with where it
    was looked for; ``CalibrationError`` naming them if too many are missing to trust the
    placement (``TooFar`` if the tiles seen are small)."""
    maps, found = tile_tops(mapper, frame, TOP_THRESHOLD)
    if not found:
        raise CalibrationError(f"{label}: no tiles found (is the camera looking at the laid-out pieces, "
                               f"near enough that the tiles lie some {SHARP_PITCH:.0f} pixels apart?)")
    placement = place_layout(found, layout)
    centres = {cell: top.centre for cell, top in placement.tops.items()}
    if len(centres) >= MIN_PLACED * len(layout):
        centres |= _recovered(frame, maps, placement, layout)
    absent = [f"{layout[c].name} at {c} (looked near pixel {tuple(int(v) for v in placement.lattice.pixel(c))})"
              for c in layout if c not in centres]
    if len(absent) > (1 - MIN_FOUND) * len(layout):
        message = (f"{label}: {len(absent)} of {len(layout)} layout pieces not found: {_listed(absent)} (is every "
                   f"tile in view, laid out as the layout says, uncovered? {len(found)} tiles seen)")
        pitch = median_pitch(found) * scale
        if pitch < SMALL_PITCH:
            raise TooFar(message, pitch, SMALL_PITCH, "are found reliably")
        raise CalibrationError(message)
    return placement, centres, absent


def _placed_closer(frame: np.ndarray, layout: Layout, label: str, mapper: TileMapper
                   ) -> tuple[np.ndarray, Placement, dict[tuple[int, int], np.ndarray], list[str]]:
    """``_placed`` on the photo and, unless that shows every piece, on the photo CLOSER times as
    large (tiles too small to find well: a far or wide camera): the look that shows the most
    pieces, the photo it used first. If every look fails, the failure reported is the first that
    says how near to come, else the first. ``TooFar`` if the photo's tiles are too small to learn
    from (however large the look)."""
    best, failures = None, []
    for look in _looks(frame):
        try:
            placed = look, *_placed(look, layout, label, mapper, frame.shape[1] / look.shape[1])
        except CalibrationError as exc:
            failures.append(exc)
            continue
        if best is None or len(placed[3]) < len(best[3]):
            best = placed
        if not best[3]:
            break
    if best is None:
        raise next((failure for failure in failures if isinstance(failure, TooFar)), failures[0])
    look, placement, centres, _ = best
    pitch = frame.shape[1] / look.shape[1] * float(np.median(placement.lattice.pitches(np.array(list(centres), float))))
    if pitch < SHARP_PITCH:
        scale = frame.shape[1] / look.shape[1]
        raise TooFar(f"{label}: tiles too small to learn the creatures from", pitch, SHARP_PITCH, "are needed",
                     _room(np.array(list(centres.values()), float) * scale, pitch, frame.shape))
    return best


def _room(centres: np.ndarray, pitch: float, shape: tuple[int, ...]) -> float:
    """How many times larger the tops at ``centres`` (photo pixels, ``pitch`` apart) could look and
    still all fit, whole, in a photo of ``shape`` (the camera aimed at their middle)."""
    span = centres.max(axis=0) - centres.min(axis=0) + pitch  # a tile's width beyond the outer centres
    return float(min(shape[1] / span[0], shape[0] / span[1]))


def _looks(frame: np.ndarray) -> Iterator[np.ndarray]:
    """The photo, then (unless too large already) the photo CLOSER times as large."""
    yield frame
    if max(frame.shape[:2]) * CLOSER <= MAX_CLOSER_SIDE:
        yield cv2.resize(frame, None, fx=CLOSER, fy=CLOSER, interpolation=cv2.INTER_LINEAR)


def _listed(items: list[str], most: int = 8) -> str:
    return f"{'; '.join(items[:most])}{' ...' if len(items) > most else ''}"


def _crops(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    """The top's crop in all six turns (the plain crop first), each also with small errors in
    centre, scale and angle."""
    crops = [rectified_crop(frame, centre, basis)]
    crops += [jittered_crop(frame, centre, basis, rng, 0.03, 0.05, 0.04) for _ in range(JITTERED - 1)]
    return [turned(crop, sixths) for crop in crops for sixths in range(6)]


def enroll(images: Iterable[Photo | np.ndarray | str | os.PathLike[str]], layout: str | None = None,
           note: str = "") -> CreatureProfile:
    """Learn a profile from photos of a set laid out as ``layout`` (text; default ``DEFAULT_LAYOUT``)."""
    cells = parse_layout(DEFAULT_LAYOUT if layout is None else layout)
    photos = list(images)
    if not photos:
        raise CalibrationError("enrollment needs at least one photo of the laid-out pieces")
    mapper, embedder, rng = TileMapper(), CreatureEmbedder(), np.random.default_rng(0)
    seen: list[_Top] = []
    left_out = []
    for index, item in enumerate(photos):
        photo = item if isinstance(item, Photo) else Photo(item)
        frame = _image(photo.image, index)
        label = str(photo.image) if isinstance(photo.image, (str, os.PathLike)) else f"photo {index + 1}"
        look, placement, centres, absent = _placed_closer(frame, cells, label, mapper)
        darker = _darker_look(photo.darker, frame, look, label)
        left_out += [f"{label}: {_listed(absent)}"] if absent else []
        for cell, centre in centres.items():
            basis = placement.lattice.basis(cell)
            crops = _crops(_clearer(look, darker, centre, basis), centre, basis, rng)
            seen.append(_Top(cells[cell], crops[0], embedder.embed(crops), f"{cells[cell].name} in {label}"))
    unseen = [f"{c.title} {b.title}" for c in Colour for b in Bug if all(t.kind != (c, b) for t in seen)]
    if unseen:
        raise CalibrationError(f"no photo shows a {', '.join(unseen)}; pieces not found: {' | '.join(left_out)}")
    learnt, blank = _showing_print(seen)
    notes = [note] if note else []
    notes += [f"pieces not found, left out: {' | '.join(left_out)}"] if left_out else []
    notes += [f"no print showing (glare?), left out: {_listed(blank)} - move the lamp, or turn the block, "
              "for the next photo"] if blank else []
    examples: dict[tuple[Colour, Bug], list[np.ndarray]] = {}
    for top in learnt:
        examples.setdefault(top.kind, []).extend(top.views)
    return CreatureProfile.from_examples({k: np.array(v) for k, v in examples.items()}, "; ".join(notes),
                                         SetArt.learn([t.crop for t in learnt],
                                                      [CLASSES.index(t.kind) for t in learnt], len(CLASSES)))


@dataclass(frozen=True)
class _Top:
    """One piece's top in an enrollment photo: its plain crop, its views' embeddings, where it was."""

    piece: Piece
    crop: np.ndarray
    views: np.ndarray
    where: str

    @property
    def kind(self) -> tuple[Colour, Bug]:
        return self.piece.colour, self.piece.bug


def _darker_look(darker: np.ndarray | None, frame: np.ndarray, look: np.ndarray, label: str) -> np.ndarray | None:
    """A photo's darker view (of the photo ``frame``) at the size of the ``look`` the layout was placed in."""
    if darker is None:
        return None
    if not isinstance(darker, np.ndarray) or darker.shape != frame.shape:
        raise CalibrationError(f"{label}: its darker view is not a colour image of the photo's size")
    if frame is look:
        return darker
    return cv2.resize(darker, (look.shape[1], look.shape[0]), interpolation=cv2.INTER_LINEAR)


def _clearer(look: np.ndarray, darker: np.ndarray | None, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The view to learn the top at ``centre`` from: the ``darker`` one where no print shows in
    ``look`` (glare) and some does there."""
    if darker is None or not _blank(rectified_crop(look, centre, basis)):
        return look
    return look if printless([rectified_crop(darker, centre, basis)])[0] else darker


def _blank(crop: np.ndarray) -> bool:
    """Whether a top's crop shows no print: its middle flat (``vision.set_art.printless``) and pale."""
    return bool(printless([crop])[0]) and float(crop[MIDDLE, MIDDLE].min(axis=2).mean()) >= PALE


def _showing_print(seen: list[_Top]) -> tuple[list[_Top], list[str]]:
    """The tops to learn from: those showing no print (``_blank``: a lamp's glare, a face washed out
    by light) left out, as the detector reads such tops only as guesses (a blank face learnt as an
    Ant's look reads other blank tops as Ants, and real Ants as something else);
    and where each left-out top was. ``CalibrationError`` naming them if that leaves a creature
    (``seen`` holds tops of every one) with no top to learn from."""
    blank = [_blank(top.crop) for top in seen]
    shown = {top.kind for top, out in zip(seen, blank) if not out}
    hidden = [kind for kind in CLASSES if kind not in shown]
    if hidden:
        where = [top.where for top in seen if top.kind in hidden]
        raise CalibrationError(f"no print shows on any {', '.join(f'{c.title} {b.title}' for c, b in hidden)} "
                               f"({_listed(where)}: a lamp's glare, or light washing the face out): move the lamp, "
                               "or turn the block, and take another photo")
    return [top for top, out in zip(seen, blank) if not out], [top.where for top, out in zip(seen, blank) if out]


def layout_picture(layout: str = DEFAULT_LAYOUT, style: str = "a") -> np.ndarray:
    """A top-down picture of ``layout`` with each tile's name written under it (BGR, 1280x720)."""
    from vision.render.scene import Conditions, render_position

    position = layout_position(layout)
    frame, truth = render_position(position, Conditions(height_mm=330, style=style, shadow=0.15, jitter=0.0))
    scale = truth.tile_px / 120
    for tile in truth.tiles:
        name = position[tile.cell][0].name
        (w, _), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        at = (int(tile.px[0] - w / 2), int(tile.px[1] + truth.tile_px * 0.40))
        for colour, thickness in (((255, 255, 255), 5), ((0, 0, 200), 2)):
            cv2.putText(frame, name, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    return frame
