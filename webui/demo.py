"""The built-in demo: a real game played out in front of the synthetic camera.

``demo_game.pgn`` (shipped) is a short boardspace.net game. ``DemoTable`` is a frame source
that shows it as a table would look: a hand carries each piece, the board rests, and once
White tries to jump a Grasshopper before placing the Queen (illegal), holds it there, then
takes it back. The frames are real renders that go through the real vision pipeline.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from rules.board import Board
from rules.move import Move
from rules.gametype import RuleOptions
from rules.hexgrid import Hex
from rules.pgn import parse_pgn
from rules.pieces import Piece
from rules.record import GameRecord
from vision.render.scene import GAP_MM, TILE_SIZES, Conditions, cell_centre_mm, make_camera, render_position
from vision.sources import FrameSource

DEMO_FILE = Path(__file__).with_name("demo_game.pgn")
ILLEGAL_ATTEMPT = (4, "wG1 bS1\\")  # after 4 moves White jumps the Grasshopper: no Queen yet
HAND_SECONDS, STILL_SECONDS, ILLEGAL_SECONDS, END_SECONDS = 0.8, 1.5, 5.0, 12.0
Position = dict[Hex, list[Piece]]


@dataclass(frozen=True)
class Scene:
    """What is on the table for ``seconds``; with a hand reaching to ``hand_at`` carrying ``carried``."""

    position: Position
    seconds: float
    ply: int  # moves recorded before this scene's position
    hand: bool = False
    carried: Piece | None = None
    hand_at: Hex | None = None


def demo_record() -> GameRecord:
    """The shipped game, all its moves."""
    return parse_pgn(DEMO_FILE.read_text(encoding="utf-8"))


def demo_players(record: GameRecord) -> tuple[str, RuleOptions, str, str]:
    """Game type, rule options and player names of the demo: the arguments of a new demo game."""
    return str(record.game_type), record.options, record.tags["White"], record.tags["Black"]


def demo_script(record: GameRecord, attempt: tuple[int, str] | None = ILLEGAL_ATTEMPT) -> list[Scene]:
    """The scenes of ``record`` played by hand, with the illegal ``attempt`` (after that many moves)."""
    board = Board(record.game_type, record.options)
    scenes = [Scene({}, STILL_SECONDS, 0)]
    for index, entry in enumerate(record.moves):
        if attempt is not None and index == attempt[0]:
            scenes += _detour(board, board.parse_uhp(attempt[1]))
        before = board.stacks()
        board.push(entry.move)
        scenes += [Scene(before, HAND_SECONDS, index, True, entry.move.piece, entry.move.dest),
                   Scene(board.stacks(), STILL_SECONDS, index + 1)]
    scenes[-1] = Scene(scenes[-1].position, END_SECONDS, len(record.moves))
    return scenes


def _detour(board: Board, move: Move) -> list[Scene]:
    """Scenes of an illegal move made, left on the board, then taken back."""
    legal, ply = board.stacks(), board.ply
    wrong = {cell: [p for p in stack if p != move.piece] for cell, stack in legal.items()}
    wrong = {cell: stack for cell, stack in wrong.items() if stack}
    wrong.setdefault(move.dest, []).append(move.piece)
    return [Scene(legal, HAND_SECONDS, ply, True, move.piece, move.dest), Scene(wrong, ILLEGAL_SECONDS, ply),
            Scene(wrong, HAND_SECONDS, ply, True, move.piece, move.origin), Scene(legal, STILL_SECONDS, ply)]


class DemoTable(FrameSource):
    """Frames of the demo game in real time (``speed`` times faster); loops after the end,
    calling ``on_cycle`` as each new run starts (to begin a new game)."""

    name = "demo"

    def __init__(self, speed: float = 1.0, fps: float = 10.0, loop: bool = True,
                 on_cycle: Callable[[], None] | None = None) -> None:
        super().__init__()
        if not speed > 0 or not fps > 0:
            raise ValueError("demo speed and fps must be positive")
        self.speed, self.fps, self.loop, self.on_cycle = speed, fps, loop, on_cycle
        self.record = demo_record()
        self.scenes = demo_script(self.record)
        self.ends = np.cumsum([s.seconds for s in self.scenes])
        self._frames: dict[int, np.ndarray] = {}
        self._conditions = Conditions(tilt_deg=12.0, azimuth_deg=30.0, noise=1.5, seed=7, layout_seed=7)
        self._camera = make_camera(self.scenes[-1].position, self._conditions)
        self.cycle = 0
        self._start = 0.0
        self._next = 0.0
        self._offset = 0.0  # demo seconds skipped at the start of this run

    def seek(self, ply: int) -> None:
        """Start (this run) at the board resting after ``ply`` moves, e.g. to continue a logged game."""
        index = next(i for i, s in enumerate(self.scenes) if s.ply == ply and not s.hand)
        self._offset = float(self.ends[index - 1]) if index else 0.0

    def _open(self) -> None:
        self._start = self._next = time.monotonic()

    def _read(self) -> np.ndarray | None:
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + 1.0 / self.fps, time.monotonic() - 1.0)
        elapsed = (time.monotonic() - self._start) * self.speed + self._offset
        if elapsed >= self.ends[-1]:
            if not self.loop:
                return None
            self.cycle += 1
            self._start, self._offset = time.monotonic(), 0.0
            elapsed = 0.0
            if self.on_cycle is not None:
                self.on_cycle()
        return self.frame(int(np.searchsorted(self.ends, elapsed, side="right")))

    def frame(self, index: int) -> np.ndarray:
        """The rendered frame of scene ``index`` (rendered once, then reused)."""
        if index not in self._frames:
            scene = self.scenes[index]
            pitch = TILE_SIZES[self._conditions.tile_size][0] + GAP_MM
            hand_at = tuple(cell_centre_mm(scene.hand_at, pitch)) if scene.hand_at is not None else None
            conditions = Conditions(**{**self._conditions.__dict__, "hand": scene.hand, "seed": index})
            self._frames[index] = render_position(scene.position, conditions, scene.carried, self._camera,
                                                  hand_at)[0]
        return self._frames[index]
