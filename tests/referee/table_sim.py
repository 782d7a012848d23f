"""A simulated table for driving the referee: a real position, how the hive lies under
the camera (a rigid transform of its coordinates), and a 10 fps clock."""

from __future__ import annotations

from rules import Move, Piece, RuleOptions
from rules.observation import Observation, TileSighting
from rules.record import GameRecord
from rules.referee import Event, Referee
from rules.referee.registration import Transform
from rules.referee.synthetic import sightings

FRAME = 0.1  # seconds between frames


class Table:
    """What is physically on the table, fed to a referee frame by frame."""

    def __init__(self, referee: Referee, transform: Transform = Transform(0, False, (4, -7))) -> None:
        self.referee = referee
        self.board = referee.board.copy()
        self.transform = transform
        self.time = 10.0

    # --- the players' hands
    def play(self, *moves: str) -> None:
        """Make legal moves on the table (checked by the engine, not by the referee)."""
        for text in moves:
            self.board.push_uhp(text)

    def force(self, piece: str, dest: tuple[int, int]) -> Move:
        """Put ``piece`` on game cell ``dest`` whatever the rules say; return the move."""
        p = Piece.parse(piece)
        move = Move(p, dest, self.board.position_of(p))
        self.board.push(move)
        return move

    def take_back(self) -> None:
        self.board.pop()

    def bump(self, transform: Transform) -> None:
        self.transform = transform

    # --- the camera
    def frame(self, tiles: tuple[TileSighting, ...] | None = None, occluded: bool = False) -> list[Event]:
        self.time = round(self.time + FRAME, 6)
        if tiles is None:
            tiles = () if occluded else sightings(self.board.stacks(), self.transform)
        return self.referee.observe(Observation(tiles, occluded, self.time))

    def still(self, frames: int = 5, tiles: tuple[TileSighting, ...] | None = None) -> list[Event]:
        """Unoccluded frames of the table (or of ``tiles``)."""
        events: list[Event] = []
        for _ in range(frames):
            events += self.frame(tiles)
        return events

    def hand(self, frames: int = 4) -> list[Event]:
        """Frames with a hand over the board."""
        events: list[Event] = []
        for _ in range(frames):
            events += self.frame(occluded=True)
        return events

    def turn(self, *moves: str) -> list[Event]:
        """A hand comes in, the moves are made, the hand leaves and the board is still."""
        events = self.hand()
        self.play(*moves)
        return events + self.still()

    def seen(self) -> list[TileSighting]:
        return list(sightings(self.board.stacks(), self.transform))


def kinds(events: list[Event], skip_view: bool = True) -> list[str]:
    """Event kinds, without the view status changes unless asked."""
    return [e.kind for e in events if not (skip_view and e.kind in ("occluded", "unstable", "steady"))]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def uhps(referee: Referee) -> list[str]:
    return [m.uhp for m in referee.record.moves]


def table_uhps(table: Table) -> list[str]:
    """The canonical MoveStrings of the moves made on the table (by the engine)."""
    return table.board.game_string().split(";")[3:]


def record_of(game_type: str, *moves: str, options: RuleOptions | None = None) -> GameRecord:
    record = GameRecord(game_type, options)
    for move in moves:
        record.append(move)
    return record
