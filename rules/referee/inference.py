"""Which moves turned the known position into the one the camera now sees.

``judge`` registers a steady scene to the game's coordinates, then looks for the legal
move, or the few moves (up to three: both players were quick, or one moved twice around
a forced pass; the referee asks before recording more than two, ``doubt.MOST_AT_ONCE``), that
explain it:

- a cell must show the top the explanation leaves there, except where neither the view
  nor the position changed since the last accepted view (so a persistent misread of a
  piece that did not move is tolerated);
- an unsure read (low confidence) only says that *a* piece is there: explanations that
  disagree with it are kept, as candidates for a person to choose from;
- the top of a tall stack seen on the next cell, with the stack's own cell empty, is the
  stack's top seen from an angle (a stack that tall cannot vanish in so few moves);
- when several remain, the stack heights the camera reports may settle it;
- only if nothing fits that way (and under a registration most pieces agree with), one sure
  read may be wrong about the creature (or, where it just moved, the colour) of a piece whose
  identity the game already knows (it stayed put, or its origin shows which piece moved: a
  piece cannot turn into another, so that is the camera's mistake), one tile missing
  beside a stack two or more high may be hidden by it (its absence proves nothing), and one tile seen
  where no move put a piece may be no tile: read surely in a hole of the hive, the table seen
  through the hole; read unsure in a bay of it, or anywhere beside the moves that explain the
  rest of the view, the table shaded, or its print.

When nothing legal fits, ``attempts.reconstruct`` names the move someone attempted, or
reports a misread; ``nearest_moves`` then says which legal moves come closest, for a person
to confirm.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..board import Board
from ..move import PASS, Move
from ..hexgrid import Hex, neighbours
from ..pieces import Piece
from .attempts import Attempt, Misread, reconstruct
from .registration import Transform, candidate_transforms
from .scene import Label, Read, Scene, after_move, changed, label, labels, moved, phantom, tops

# The explanations tried, in order: up to three moves between two steady views, fewest
# first; a loose search also follows a piece moved twice around the opponent's forced pass.
# Only if none fits, leniently: up to two moves, with one piece of known identity read as
# another creature, and one tile beside a stack two or more high perhaps hidden by it.
_SEARCHES = [(0, False, False), (1, False, False), (2, False, False), (2, True, False), (3, False, False),
             (3, True, False), (0, False, True), (1, False, True), (2, False, True)]
# ... and only under a registration that this many pieces agree with: in a small hive a turn
# of the view and a misread could explain what really was a move
LENIENT_AGREEING = 4
TALL_STACK = 3  # a stack this high may show its top over the next cell from an oblique camera
HIDING_STACK = 2  # ... and one this high may hide a tile beside it (thick tiles, a tilted camera)
SHOWN_MISFITS = 1  # cells a steady view between may get wrong and still show the moves before it


# ------------------------------------------------------------------ verdicts
@dataclass(frozen=True)
class Explanation:
    """Moves (forced passes included) explaining the scene under ``transform``;
    ``unsure`` counts the unsure reads it takes to be wrong; ``lenient``: found only leniently
    (a sure read taken as wrong, a tile perhaps hidden by a tall stack, or a tile seen taken for
    none: ``scene.phantom``)."""

    moves: tuple[Move, ...]
    transform: Transform
    unsure: int
    lenient: bool = False


@dataclass(frozen=True)
class Explained:
    """The explanations to choose from, best first; one means no doubt."""

    candidates: tuple[Explanation, ...]


Verdict = Explained | Attempt | Misread


# ------------------------------------------------------------------ judging
def judge(board: Board, scene: Scene, accepted: Mapping[Hex, Label] | None,
          current: Transform | None, allow_mirror: bool = False, most: int = 3) -> Verdict:
    """Explain ``scene`` (observer coordinates) from ``board``'s position.

    ``accepted`` is the last view accepted as showing the position (game coordinates),
    or None to compare with the position itself; ``current`` the last registration; ``most``
    the most moves an explanation may have.
    """
    before = tops(board)
    reference = dict(accepted) if accepted is not None else before
    ranked = _ranked_transforms(scene, reference, before, current, allow_mirror)
    views = {transform: _leaning_tops(board, moved(scene, transform)) for transform, _ in ranked}
    for count, loose, lenient in _SEARCHES:
        if count > most:
            continue
        found: list[tuple[int, Explanation]] = []
        for transform, votes in ranked:
            if lenient and votes < LENIENT_AGREEING:
                continue
            seen, hidden = views[transform]
            for moves, unsure in _explanations(board, seen, hidden, reference, before, count, loose, lenient):
                found.append((votes, Explanation(moves, transform, unsure, lenient)))
        if found:
            return Explained(_by_height(board, scene, _choose(found, current)))
    transform = ranked[0][0]
    return reconstruct(board, moved(scene, transform), reference, transform)


def _ranked_transforms(scene: Scene, reference: Mapping[Hex, Label], before: Mapping[Hex, Label],
                       current: Transform | None, allow_mirror: bool) -> list[tuple[Transform, int]]:
    """Transforms worth trying, most plausible first, with their votes: the seen tiles they put
    on a tile of the same label in the accepted view ``reference`` or in the position ``before``."""
    base = current or Transform()
    if not reference:  # nothing known yet: the first piece defines the frame
        turned = Transform(base.turns, base.mirror)
        firsts = [Transform(base.turns, base.mirror, (-q, -r)) for q, r in map(turned.apply, scene)]
        return [(t, 0) for t in dict.fromkeys(firsts or [base])]
    votes = candidate_transforms(labels(scene), reference, allow_mirror)
    if before is not reference:  # the accepted view may hold misreads the position does not
        for transform, count in candidate_transforms(labels(scene), before, allow_mirror).items():
            votes[transform] = max(votes[transform], count)
    if len(reference) == 1:  # a lone piece looks the same however it is turned: keep the frame's turn
        votes = Counter({t: v for t, v in votes.items() if (t.turns, t.mirror) == (base.turns, base.mirror)}) or votes
    if current is not None:
        votes.setdefault(current, 0)
        held = votes[current]
        if held >= max(2, len(reference) - 1):
            # at most one piece differs from where it was: a piece was moved, and the
            # hive was not knocked, unless another registration fits clearly better
            votes = Counter({t: v for t, v in votes.items() if t == current or v > held + 1})
    best = max(votes.values(), default=0)
    keep = [(t, v) for t, v in votes.items() if v >= max(1, best - 2) or t == current]
    keep.sort(key=lambda tv: (-tv[1], tv[0] != current, tv[0].nearness(base)))
    return keep or [(base, 0)]


def _choose(found: list[tuple[int, Explanation]], current: Transform | None) -> tuple[Explanation, ...]:
    """The distinct explanations a person would have to choose from, best first.

    Explanations under the current registration win; otherwise those under the
    transforms with the most votes. Exact ones come first.
    """
    on_current = [e for _, e in found if e.transform == current]
    if on_current:
        pool = on_current
    else:
        top = max(v for v, _ in found)
        pool = [e for v, e in found if v == top]
    pool.sort(key=lambda e: e.unsure)
    distinct: dict[tuple[Move, ...], Explanation] = {}
    for explanation in pool:
        distinct.setdefault(explanation.moves, explanation)
    return tuple(distinct.values())


def _by_height(board: Board, scene: Scene, candidates: tuple[Explanation, ...]) -> tuple[Explanation, ...]:
    """Settle a tie by the stack heights the camera reports, if exactly one candidate
    agrees with them where its moves leave a stack (e.g. which Beetle climbed on which)."""
    if len(candidates) < 2:
        return candidates
    agreeing = []
    for explanation in candidates:
        seen = moved(scene, explanation.transform)
        for move in explanation.moves:
            board.push(move)
        cells = {m.dest for m in explanation.moves if m.dest is not None}
        cells.update(m.origin for m in explanation.moves if m.origin is not None)
        if all(seen[c].height == board.height(c) for c in cells if c in seen):
            agreeing.append(explanation)
        for _ in explanation.moves:
            board.pop()
    return tuple(agreeing) if len(agreeing) == 1 else candidates


def _behind_tall_stacks(board: Board, seen: Scene) -> set[Hex]:
    """Cells beside a stack at least ``HIDING_STACK`` high (known or seen): where a tile may lie out
    of sight. Each explanation then takes only those ``_shaded`` in its own position."""
    tall = {c for c in board.stacks() if board.height(c) >= HIDING_STACK}
    tall.update(c for c, read in seen.items() if read.height >= HIDING_STACK)
    return {n for c in tall for n in neighbours(c)}


def _shaded(board: Board, seen: Scene, cell: Hex) -> bool:
    """Whether ``cell`` lies beside a stack that may hide a tile there: one at least ``HIDING_STACK``
    high in ``board``'s position (the explanation's, its moves made: a climbing Beetle's new stack
    hides what lies behind it, but a height only the camera reports does not excuse a tile gone
    from beside it) or seen at least ``TALL_STACK`` high."""
    return any(board.height(n) >= HIDING_STACK or n in seen and seen[n].height >= TALL_STACK for n in neighbours(cell))


def _leaning_tops(board: Board, seen: Scene) -> tuple[Scene, set[Hex]]:
    """``seen`` with the tops of tall stacks put back where they belong, and the cells they hid.

    From an oblique camera the top of a stack at least ``TALL_STACK`` high can look like a
    tile lying on the next cell, over whatever lies there. Such a stack cannot vanish in the
    few moves looked for, so where its cell shows nothing and exactly one neighbour shows its
    top, that read is the stack's, and the neighbour's own piece is out of sight.
    """
    corrected, hidden = dict(seen), set()
    for cell, stack in board.stacks().items():
        if len(stack) < TALL_STACK or cell in seen:
            continue
        top = label(stack[-1])
        leaning = [n for n in neighbours(cell) if n in corrected and corrected[n].label == top]
        if len(leaning) == 1:
            read = corrected.pop(leaning[0])
            corrected[cell] = Read(read.label, read.sure, len(stack))
            hidden.add(leaning[0])
    return corrected, hidden


def _explanations(board: Board, seen: Scene, hidden: set[Hex], reference: Mapping[Hex, Label],
                  before: Mapping[Hex, Label], count: int, loose: bool = False,
                  lenient: bool = False) -> list[tuple[tuple[Move, ...], int]]:
    """Sequences of ``count`` moves (plus forced passes) that leave what ``seen`` shows
    (after ``_leaning_tops``; ``hidden``: the cells it found covered).

    Each move must touch a cell that changed, except, when ``loose``, one followed by the
    opponent's forced pass and a second move of the same piece (it went on elsewhere).
    When ``lenient``, one sure read may name the wrong creature of the right colour where
    the game knows which piece is there: a piece that stayed, or one that moved (its
    origin says which; a placed piece is known only from its read, so it must match); or
    the wrong colour of the right creature where a piece just moved (glare can wash a black
    face white); one tile unseen beside a stack two or more high may be hidden by it; and one tile
    seen where no move put a piece may be none (``scene.phantom``). Each counts as an unsure read.
    """
    relabels = 1 if lenient else 0
    phantoms: set[Hex] = set()
    behind: set[Hex] = set()  # cells beside tall stacks where one tile may lie out of sight
    if lenient:
        behind = _behind_tall_stacks(board, seen) - hidden
        phantoms = phantom(before, seen, count > 0)
        seen = {c: read for c, read in seen.items() if c not in phantoms}
    changes = changed(seen, reference)
    # cells that may stay as they are (now read as the position has them, or read unsure
    # where there is a piece, or unseen beside a tall stack) need no move; the others do
    firm = {c for c in changes if c in seen and seen[c].label != before.get(c) and (seen[c].sure or c not in before)
            or c not in seen and c in before and c not in hidden | behind}
    if len(firm) > 2 * count + relabels:
        return []

    def fits(cells: set[Hex], played: tuple[Move, ...]) -> int | None:
        placed = {m.dest for m in played if m.origin is None}
        arrived = {m.dest for m in played if m.origin is not None}
        unsure = wrong = unseen = 0
        for cell in cells:
            expected = label(board.top(cell))
            if cell not in changes and expected == before.get(cell):
                continue
            read = seen.get(cell)
            if read is None and expected is None:
                continue
            if read is None and (cell in hidden or cell in behind and _shaded(board, seen, cell)):
                unsure, unseen = unsure + 1, unseen + (cell in behind)  # perhaps there, out of sight behind the stack
                if unseen > 1:  # one tile, not a Beetle's origin as well: it moved
                    return None
                continue
            if read is None or expected is None:
                return None
            if read.label != expected:
                if read.sure:
                    wrong += 1
                    if wrong > relabels or cell in placed or not _relabel_allowed(read.label, expected,
                                                                                  cell in arrived):
                        return None
                unsure += 1
        return unsure

    found: list[tuple[tuple[Move, ...], int]] = []

    def search(remaining: int, played: tuple[Move, ...], covered: set[Hex], follow: Piece | None) -> None:
        if board.state.is_over:
            return
        legal = board.legal_moves
        if legal == [PASS]:
            board.push(PASS)
            search(remaining, played + (PASS,), covered, follow)
            board.pop()
            return
        for move in legal:
            if follow is not None and move.piece is not follow:
                continue
            cells = {c for c in (move.dest, move.origin) if c is not None}
            touches = bool(cells & changes)
            if not touches and not (loose and remaining > 1):
                continue
            now = covered | cells
            if len(firm - now) > 2 * (remaining - 1) + relabels:
                continue
            board.push(move)
            if remaining == 1:
                unsure = fits(changes | now, played + (move,))
                if unsure is not None:
                    found.append((played + (move,), unsure))
            elif touches:
                search(remaining - 1, played + (move,), now, None)
            elif board.legal_moves == [PASS]:
                search(remaining - 1, played + (move,), now, move.piece)
            board.pop()

    if count == 0:
        unsure = fits(changes, ())
        found = [] if unsure is None else [((), unsure)]
    else:
        search(count, (), set(), None)
    return [(moves, unsure + len(phantoms)) for moves, unsure in found]


def _relabel_allowed(read: Label, expected: Label, arrived: bool) -> bool:
    """Whether a sure read may be taken as the camera's mistake for the piece the game knows:
    the wrong creature of the right colour, or, where the piece just moved, the wrong colour
    of the right creature."""
    colour_right, creature_right = read[0] is expected[0], read[1] is expected[1]
    return colour_right or (arrived and creature_right)


NEAREST = 3
"""The most moves offered to confirm when nothing explains the view."""
MISREAD_CELLS = 2
"""The most cells a move offered to confirm may leave differing from the view (misread)."""


def shown_moves(board: Board, explanation: Explanation, views: Sequence[Scene],
                accepted: Mapping[Hex, Label] | None) -> int:
    """How many of ``explanation``'s first moves a steady view judged before it showed: the most
    (short of all) after which one of ``views`` (observer coordinates) differs from what it should
    show in at most ``SHOWN_MISFITS`` cells, and in fewer than a move earlier (a view nothing
    explained for a phantom or a tile missed still shows which move came first). A view should
    show the last ``accepted`` one (game coordinates; None: the position), but the moves' cells."""
    expected = dict(accepted) if accepted is not None else tops(board)

    def misfits() -> list[int]:
        return [_misfits(moved(view, explanation.transform), expected) for view in views]

    shown, before = 0, misfits()
    for count, move in enumerate(explanation.moves[:-1], 1):
        board.push(move)
        after_move(expected, board, move)
        after = misfits()
        if any(a <= SHOWN_MISFITS and a < b for a, b in zip(after, before)):
            shown = count
        before = after
    for _ in explanation.moves[:-1]:
        board.pop()
    return shown


def _misfits(seen: Scene, expected: Mapping[Hex, Label]) -> int:
    """Cells where ``seen`` disagrees with what it should show: a tile missing or extra, or read
    surely as another (an unsure read only says that a piece is there)."""
    wrong = sum(expected.get(c) is None or read.sure and expected[c] != read.label for c, read in seen.items())
    return wrong + sum(c not in seen for c in expected)


def nearest_moves(board: Board, seen: Scene) -> tuple[str, ...]:
    """When no move explains ``seen`` (game coordinates): the legal moves after which the fewest
    cells differ from it (fewer than now, and at most ``MISREAD_CELLS``), as MoveStrings: what a
    person may confirm was played, the rest being misread."""
    if board.state.is_over:
        return ()
    scored: dict[int, list[str]] = {}
    for move in board.legal_moves:
        if move.is_pass:
            continue
        text = board.uhp(move)
        board.push(move)
        scored.setdefault(len(changed(seen, tops(board))), []).append(text)
        board.pop()
    best = min(scored, default=None)
    if best is None or best > MISREAD_CELLS or best >= len(changed(seen, tops(board))):
        return ()
    return tuple(scored[best][:NEAREST])
