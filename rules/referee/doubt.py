"""When what the camera shows is more likely its mistake than the players': ask, do not rule.

The referee asks instead of flagging an illegal move (``Referee._illegal``) in nine cases:

- any illegal move seen with no hand by the board since a view last showed the recorded
  position: tiles move only in hands, and the table's print or a shadow beside a move just made,
  read as a tile after the hand had gone, is likelier (a phantom Beetle beside a Grasshopper just
  landed was ruled as Black moving out of turn);

- any illegal move seen in a view that shows under ``MIN_SHOWN`` of the stacks the move leaves
  alone: a camera that lost that much of the hive places the rest less surely;

- a *placement* out of turn that the side to move could legally have made with the same
  creature on the same cell: only the new tile's colour says otherwise, and had the tile
  really been the other side's, it would also break the placing rule (it touches only the
  side to move's pieces), two rules broken at once against one colour misread;
- a placement out of turn on a cell where the side to move could legally have placed another
  creature: the same two rules against a misread of colour and creature (Black's first Grasshopper
  read as a White Queen, at the opening), reported as a misread to check, as no one creature is
  likelier than another;
- any move out of turn after a hand reached over the board and left it seemingly unchanged
  (``quiet_visit``): the side to move may have played there and the camera not seen it;
- an illegal move seen in the same view as a legal one before it: the view changed in two places
  between two still views, and one move with one tile misread, missed or seen where there is
  none (a dark gap between tiles taken for a black tile) is likelier than a legal move followed
  at once by an illegal one;
- any illegal move onto a piece of the same creature and the other colour, where the camera
  sees no taller stack than before: that piece, its colour misread, with the mover missed where
  it lies, explains the view as well (two quiet camera errors made White's Ant "climb" onto
  Black's, out of turn);
- any illegal move to a cell ``APART`` or more cells from every tile seen and every stack of the
  position: no one plays a tile that far from the hive; a piece set down beside the game, or the
  table's print taken for a tile, is likelier (a flower on a cloth taken for the first tile made
  the real first tile look like a second one, out of turn); once a hive lies in view, such tiles
  are looked past before any judging (``apart.set_aside``);
- a move out of turn while some stacks of the position are out of the camera's sight, where the
  side to move could have played out of sight (placed or moved a piece between unseen cells)
  before it: the camera cannot tell that move from none.

After such a quiet visit, a view that several moves at once explain is asked about too, rather
than recorded: the moves that fit it may be others than were played around a move not seen
(a tile the camera misses makes the turns look right one move short); but not when there were
as many hand visits as moves since the last recorded move and the quiet view showed more or fewer
tiles than the position has stacks (a change showed that no move explained then: the tile that
moved, not yet seen where it went): a placement goes wholly unseen where the quiet view showed
as many. So is any view that only more than ``MOST_AT_ONCE`` moves explain: players rarely make three moves between two still
views, and a stack or tile misread is then likelier than the moves that happen to fit it (a
wrong record makes the next right move look illegal); but after one hand, one move that
explains it leniently (as below) is recorded, if exactly one does (``Referee._one_move_for_one_hand``). So is a view that two moves explain only
leniently (a sure read taken as the camera's mistake, or a tile as hidden or as the table): a tile
misread or missed with one move is as likely (a Black Ant placed and read as a Grasshopper, the Queen
beside it missed, fitted "the Queen moved there, misread" and a Beetle's move seen with it).
"""

from __future__ import annotations

from typing import Mapping

from ..board import Board
from ..hexgrid import Hex, distance, neighbours
from ..move import Move
from ..pieces import Colour
from .apart import APART
from .attempts import offender
from .scene import Read


def view_doubt(board: Board, seen: Mapping[Hex, Read], move: Move) -> str | None:
    """Why the view, more likely than the players, is wrong about the illegal ``move`` (None if nothing
    says so): too little of the hive seen, a look-alike, a tile apart, or a move perhaps out of sight."""
    return (poor_view_message(board, seen, move) or look_alike_message(board, seen, move)
            or apart_message(board, seen, move) or out_of_sight_message(board, seen, move, offender(board, move)))


def colour_doubt(board: Board, move: Move) -> tuple[Move | None, str]:
    """Why the colour of the tile ``move`` places is in doubt, when ``move`` is a placement by the
    other side: with the side to move's twin (the same creature on the same cell) to ask about
    when that is legal, else with no twin when the side to move could legally place another piece
    there (a misread to check); (None, "") when nothing puts the tile's colour in doubt."""
    piece, turn = move.piece, board.turn
    if move.origin is not None or piece is None or piece.colour is turn or move.dest is None:
        return None, ""
    in_hand = board.next_in_hand(turn, piece.bug)
    twin = None if in_hand is None else Move(in_hand, move.dest, None)
    if twin is not None and board.is_legal(twin):
        return twin, (f"the new tile's colour is in doubt: {board.uhp(twin)} is legal, "
                      f"{board.uhp(move)} would be out of turn")
    if not any(m.origin is None and m.dest == move.dest for m in board.legal_moves):
        return None, ""
    return None, (f"{board.uhp(move)} would be out of turn, but {turn.title} could have placed a piece there: is "
                  f"the tile read as {piece} one of {turn.title}'s? (check it, or say which move was made)")


def look_alike_message(board: Board, seen: Mapping[Hex, Read], move: Move) -> str | None:
    """Why ``move`` may be a misread (None if nothing says so): it ends on a piece of the same
    creature and the other colour, and the camera sees no taller stack there than before."""
    dest, piece = move.dest, move.piece
    if dest is None or piece is None:
        return None
    under, read = board.top(dest), seen.get(dest)
    if under is None or under.bug is not piece.bug or under.colour is piece.colour:
        return None
    if read is not None and read.height > board.height(dest):
        return None
    return (f"{board.uhp(move)} would put {piece} on {under}, but the camera sees no taller stack there: is it "
            f"{under} with its colour misread? (check the board, or say which move was made)")


def missed_move_message(board: Board, move: Move, quiet_visit: float) -> str:
    """What to tell the players when ``move`` came out of turn after a quiet hand visit."""
    turn, piece = board.turn.title, move.piece
    assert piece is not None
    return (f"{piece.colour.title} moved {piece} on {turn}'s turn, but a hand reached over the board at "
            f"{quiet_visit:.1f} s and nothing seemed to change: perhaps {turn}'s move was not seen")


def handless_message(board: Board, move: Move) -> str:
    """What to tell the players when a view shows ``move``, an illegal one, though no hand came by
    the board since a view last showed the recorded position."""
    return (f"{board.uhp(move)} would break the rules, but no hand came by the board since it last showed the "
            "recorded position: is a tile misread, or a shadow or the table's print read as a tile?")


def unconfirmed_message(board: Board, move: Move) -> str:
    """What to tell the players when a view shows ``move``, an illegal one, before any view has
    shown the recorded position (a game resumed from its record, or picked up from the table)."""
    return (f"{board.uhp(move)} would break the rules, but the camera has not yet seen the recorded position "
            "on the table: is it set up as recorded, or is a tile misread?")


MOST_AT_ONCE = 2  # moves (forced passes aside) one still view may add to the record unasked
MIN_SHOWN = 2 / 3  # share of the stacks a move leaves alone that a view must show to rule the move illegal


def poor_view_message(board: Board, seen: Mapping[Hex, object], move: Move) -> str | None:
    """Why a view is too poor to rule ``move`` illegal by (None if it is not): it shows under
    MIN_SHOWN of the stacks the move leaves alone. A camera that lost that much of the hive
    (dark tiles on a dark mat) places the rest less surely, and a right move may look wrong."""
    others = [cell for cell in board.stacks() if cell not in (move.origin, move.dest)]
    shown = sum(cell in seen for cell in others)
    if shown >= MIN_SHOWN * len(others):
        return None
    return (f"the camera sees only {shown} of the {len(others)} other stacks, too few to judge "
            f"{board.uhp(move)} by (is part of the hive hidden, or too dark against the table?)")


def second_move_message(before: tuple[Move, ...], move: Move) -> str:
    """Why an illegal ``move`` seen after the legal moves ``before`` in one view is asked about."""
    legal = " and ".join(str(m.piece) for m in before if not m.is_pass)
    return (f"two changes at once: {legal} moved by the rules, but {move.piece} would break them; a tile may "
            "have been misread or missed (check the board, or say which move was made)")


def many_moves_reason(count: int) -> str:
    """Why a view that only ``count`` (more than MOST_AT_ONCE) moves explain is asked about."""
    return (f"{count} moves at once: players rarely make that many between two still views, so a tile may "
            "have been misread")


def lenient_moves_reason(count: int) -> str:
    """Why a view that ``count`` moves explain only if the camera erred somewhere is asked about."""
    return (f"{count} moves at once, and only if a tile was misread or missed: a misread with fewer moves is as "
            "likely")


def unseen_move_reason(quiet_visit: float) -> str:
    """Why several moves seen at once after a quiet hand visit are asked about."""
    return (f"several moves at once, and a hand reached over the board at {quiet_visit:.1f} s and nothing "
            "seemed to change: perhaps a move was not seen")


NOTHING = "nothing"  # the candidate saying no move was played: the view's differences are the camera's


RESUMED_REASON = ("the board shows moves the record lacks, and no hand was seen making them since the game was "
                  f"resumed: made while hivecam was off, or the table's print read as tiles (then: {NOTHING})")
"""Why a view that shows moves no hand was seen making, before any view showed the recorded position,
is asked about."""


def apart_message(board: Board, seen: Mapping[Hex, object], move: Move) -> str | None:
    """Why ``move`` may be no move at all (None if nothing says so): it ends ``APART`` or more
    cells from every other tile the camera sees and every stack of the position (of which there
    must be some: the first tile lies apart from nothing)."""
    dest = move.dest
    if dest is None:
        return None
    others = (set(seen) | set(board.stacks())) - {dest, move.origin}
    if not others or any(distance(dest, cell) < APART for cell in others):
        return None
    return (f"{board.uhp(move)} would put {move.piece} apart from the hive, touching nothing: a piece set down "
            "beside the game, or the table's print taken for a tile? (check the board, or say which move was made)")


def out_of_sight_message(board: Board, seen: Mapping[Hex, object], move: Move, offender: Colour) -> str | None:
    """Why ``move``, out of turn, may follow a move the camera could not see (None if nothing says
    so): some stacks are out of sight, and the side to move could have played between unseen
    cells beside them, after which ``move`` is legal."""
    turn, piece = board.turn, move.piece
    unseen = {cell for cell in board.stacks() if cell not in seen}
    if offender is turn or piece is None or not unseen:
        return None
    if not any(_legal_after(board, hidden, move) for hidden in _out_of_sight(board, seen, unseen)):
        return None
    return (f"{piece.colour.title} moved {piece} on {turn.title}'s turn, but {len(unseen)} of the hive's stacks "
            f"are out of the camera's sight: perhaps {turn.title} moved there first (check the board, or say "
            "which move was made)")


def _out_of_sight(board: Board, seen: Mapping[Hex, object], unseen: set[Hex]) -> list[Move]:
    """The legal moves between cells the camera does not see, ending beside an unseen stack."""
    return [m for m in board.legal_moves if m.dest is not None and m.dest not in seen and m.origin not in seen
            and unseen & {m.dest, *neighbours(m.dest)}]


def _legal_after(board: Board, first: Move, move: Move) -> bool:
    board.push(first)
    try:
        return board.is_legal(move)
    finally:
        board.pop()
