"""The game state: stacks on a hex lattice, whose turn, and the moves that change it.

``Board`` is the heart of the engine, in the style of python-chess: ``legal_moves``,
``push``/``pop``, ``parse_uhp``/``uhp`` for notation, ``state`` for the outcome.
Move generation for the creatures lives in ``rules.movegen``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

from . import movegen
from .diagram import ascii_diagram
from .explain import why_illegal
from .gametype import GameType, RuleOptions
from .hexgrid import Hex, neighbours
from .move import PASS, GameState, IllegalMoveError, Move, NotationError, Outcome, Termination
from .pieces import Bug, Colour, Piece
from .uhp import format_game_string, format_move, header_disagreement, parse_move, split_game_string

if TYPE_CHECKING:
    from .setup import Setup

PositionKey = tuple[tuple[tuple[Hex, tuple[int, ...]], ...], int]
"""Every stack (cell and piece indices, bottom first) and the side to move (0 White, 1 Black)."""


@dataclass(frozen=True, slots=True)
class _Undo:
    move: Move
    last_moved: Piece | None
    outcome: Outcome | None
    state: GameState
    key: PositionKey | None


class Board:
    """A Hive position with its history.

    >>> b = Board("Base+MLP")
    >>> b.push_uhp("wS1")
    Move(wS1 None->(0, 0))
    >>> b.push_uhp("bG1 -wS1")
    Move(bG1 None->(-1, 0))
    >>> b.turn, b.turn_number
    (<Colour.WHITE: 'w'>, 2)
    """

    def __init__(self, game_type: GameType | str = "Base+MLP", options: RuleOptions | None = None) -> None:
        self.game_type = GameType.parse(game_type) if isinstance(game_type, str) else game_type
        self.options = options or RuleOptions()
        self._stacks: dict[Hex, list[Piece]] = {}
        self._where: list[Hex | None] = [None] * len(Piece.ALL)
        self._history: list[_Undo] = []
        self._last_moved: Piece | None = None
        self._state = GameState.NOT_STARTED
        self._outcome: Outcome | None = None
        self._seen: Counter[PositionKey] = Counter()
        self._bugs = self.game_type.bugs
        self._in_play = frozenset(self._bugs)
        self.setup: Setup | None = None
        self._start_ply = 0  # plies before the first move: those a set-up position stands for

    @classmethod
    def from_position(cls, setup: "Setup", game_type: GameType | str = "Base+MLP",
                      options: RuleOptions | None = None) -> "Board":
        """A board set up with ``setup``'s stacks and side to move (``ValueError`` for pieces not
        in ``game_type``). Each player is taken to have had the fewest turns that could have put
        their pieces down, which is exact while their Queen is in hand (so the Queen rules hold)."""
        board = cls(game_type, options)
        setup.check_game_type(board.game_type)
        for cell, stack in setup.stacks.items():
            board._stacks[cell] = list(stack)
            for piece in stack:
                board._where[piece.index] = cell
        white = sum(p.colour is Colour.WHITE for p in setup.pieces())
        black = len(setup.pieces()) - white
        if setup.to_move is Colour.WHITE:
            board._start_ply = 2 * max(white, black)
        else:
            board._start_ply = 2 * max(white - 1, black) + 1
        board.setup = setup
        board._outcome = board._judge()
        board._state = board._outcome.state if board._outcome else (
            GameState.IN_PROGRESS if board._stacks else GameState.NOT_STARTED)
        if board.options.repetition_draw:
            board._seen[board.position_key()] += 1
        return board

    # ----------------------------------------------------------------- queries
    @property
    def ply(self) -> int:
        """Moves played so far, passes included."""
        return len(self._history)

    @property
    def start_ply(self) -> int:
        """The plies a set-up position stands for (0 for a game from the empty board)."""
        return self._start_ply

    @property
    def _plies(self) -> int:
        """Plies since the empty board: the set-up position's, then those played here."""
        return self._start_ply + len(self._history)

    @property
    def turn(self) -> Colour:
        """The colour to move."""
        return Colour.WHITE if self._plies % 2 == 0 else Colour.BLACK

    @property
    def turn_number(self) -> int:
        """The full-move number shown in UHP ``White[3]``: both colours share it."""
        return self._plies // 2 + 1

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended on the board (a surrounded Queen, repetition), or None."""
        return self._outcome

    @property
    def move_stack(self) -> list[Move]:
        """Every move played, oldest first."""
        return [u.move for u in self._history]

    @property
    def last_moved(self) -> Piece | None:
        """The piece moved or placed on the previous turn (it may not be moved now)."""
        return self._last_moved

    def stack(self, cell: Hex) -> tuple[Piece, ...]:
        """The pieces on ``cell``, bottom first (empty tuple for an empty cell)."""
        return tuple(self._stacks.get(cell, ()))

    def top(self, cell: Hex) -> Piece | None:
        stack = self._stacks.get(cell)
        return stack[-1] if stack else None

    def height(self, cell: Hex) -> int:
        stack = self._stacks.get(cell)
        return len(stack) if stack else 0

    def stacks(self) -> dict[Hex, list[Piece]]:
        """A copy of every occupied cell's stack, bottom first."""
        return {cell: list(stack) for cell, stack in self._stacks.items()}

    def position_of(self, piece: Piece) -> Hex | None:
        """Where ``piece`` is, or None while it is in its owner's hand."""
        return self._where[piece.index]

    def cell_of(self, piece: Piece) -> Hex:
        """Where ``piece``, known to be on the board, is; ``ValueError`` if it is in hand."""
        cell = self._where[piece.index]
        if cell is None:
            raise ValueError(f"{piece} is not on the board")
        return cell

    def is_covered(self, piece: Piece) -> bool:
        cell = self._where[piece.index]
        return cell is not None and self._stacks[cell][-1] is not piece

    def in_play(self, bug: Bug) -> bool:
        """Whether this game type uses ``bug``."""
        return bug in self._in_play

    def hand(self, colour: Colour) -> list[Piece]:
        """Pieces ``colour`` has not placed yet, in numbering order."""
        return [p for p in Piece.ALL if p.colour is colour and p.bug in self._in_play
                and self._where[p.index] is None]

    def next_in_hand(self, colour: Colour, bug: Bug) -> Piece | None:
        """The piece a placement of ``bug`` by ``colour`` puts down (lowest number first)."""
        if bug not in self._in_play:
            return None
        where = self._where
        return next((piece for piece in Piece.of_kind(colour, bug) if where[piece.index] is None), None)

    def queen_placed(self, colour: Colour) -> bool:
        return self._where[Piece.of_kind(colour, Bug.QUEEN)[0].index] is not None

    def player_turn(self, colour: Colour | None = None) -> int:
        """How many turns ``colour`` (default: the side to move) has begun, this one included."""
        colour = colour or self.turn
        plies = self._plies
        played = (plies + 1) // 2 if colour is Colour.WHITE else plies // 2
        return played + (1 if colour is self.turn else 0)

    def queen_due(self) -> bool:
        """Whether the side to move must place its Queen this turn (its 4th turn)."""
        return self.player_turn() == 4 and not self.queen_placed(self.turn)

    def surrounded(self, colour: Colour) -> bool:
        """Whether ``colour``'s Queen has all six neighbours occupied."""
        cell = self._where[Piece.of_kind(colour, Bug.QUEEN)[0].index]
        return cell is not None and all(n in self._stacks for n in neighbours(cell))

    def surrounded_queens(self) -> tuple[Hex, ...]:
        """Cells of the Queens surrounded on all six sides (the end of the game)."""
        cells = (self._where[Piece.of_kind(colour, Bug.QUEEN)[0].index] for colour in Colour if self.surrounded(colour))
        return tuple(cell for cell in cells if cell is not None)

    # ------------------------------------------------------------------ moves
    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move, each once; ``[PASS]`` when nothing else is possible."""
        if self._state.is_over:
            return []
        moves = movegen.generate(self)
        return moves if moves else [PASS]

    def legal_moves_of(self, piece: Piece) -> list[Move]:
        """The legal moves that move or place ``piece`` (Pillbug throws of it included)."""
        return [m for m in self.legal_moves if m.piece is piece]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    def push(self, move: Move) -> None:
        """Play ``move`` (not checked: use ``push_legal`` or ``is_legal`` for untrusted input)."""
        piece = move.piece
        last = self._last_moved
        if piece is None:
            self._last_moved = None
        else:
            dest = move.dest
            if dest is None:
                raise ValueError(f"{move!r} has a piece but no destination")
            origin = self._where[piece.index]
            if origin is not None:
                stack = self._stacks[origin]
                stack.pop()
                if not stack:
                    del self._stacks[origin]
            move = Move(piece, dest, origin)
            self._stacks.setdefault(dest, []).append(piece)
            self._where[piece.index] = dest
            self._last_moved = piece
        undo = _Undo(move, last, self._outcome, self._state, None)
        self._history.append(undo)
        self._outcome = self._judge()
        if self.options.repetition_draw:
            key = self.position_key()
            self._history[-1] = _Undo(undo.move, undo.last_moved, undo.outcome, undo.state, key)
            self._seen[key] += 1
            if self._seen[key] >= 3 and self._outcome is None:
                self._outcome = Outcome(Termination.REPETITION, None)
        self._state = self._outcome.state if self._outcome else GameState.IN_PROGRESS

    def push_legal(self, move: Move) -> None:
        """Play ``move`` after checking it; raise ``IllegalMoveError`` with the reason."""
        if not self.is_legal(move):
            violation = why_illegal(self, move)
            raise IllegalMoveError(move, violation)
        self.push(move)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        undo = self._history.pop()
        move = undo.move
        if undo.key is not None:
            self._seen[undo.key] -= 1
            if not self._seen[undo.key]:
                del self._seen[undo.key]
        piece, dest = move.piece, move.dest
        if piece is not None and dest is not None:  # push gave every piece move a destination
            stack = self._stacks[dest]
            stack.pop()
            if not stack:
                del self._stacks[dest]
            if move.origin is not None:
                self._stacks.setdefault(move.origin, []).append(piece)
            self._where[piece.index] = move.origin
        self._last_moved = undo.last_moved
        self._outcome = undo.outcome
        self._state = undo.state
        return move

    def _judge(self) -> Outcome | None:
        white, black = self.surrounded(Colour.WHITE), self.surrounded(Colour.BLACK)
        if white and black:
            return Outcome(Termination.BOTH_SURROUNDED, None)
        if white or black:
            return Outcome(Termination.QUEEN_SURROUNDED, Colour.BLACK if white else Colour.WHITE)
        return None

    def position_key(self) -> PositionKey:
        """A hashable description of the position and the side to move (for repetition)."""
        cells = tuple(sorted((cell, tuple(p.index for p in stack)) for cell, stack in self._stacks.items()))
        return (cells, self._plies % 2)

    def repetitions(self) -> int:
        """How many times the current position has occurred (tracked with ``repetition_draw``)."""
        return self._seen.get(self.position_key(), 0)

    # -------------------------------------------------------------- notation
    def parse_uhp(self, text: str) -> Move:
        """Parse a UHP MoveString against this position (not checked for legality)."""
        return parse_move(self, text)

    def uhp(self, move: Move) -> str:
        """The canonical UHP MoveString of ``move`` in this position (before it is played)."""
        return format_move(self, move)

    def push_uhp(self, text: str) -> Move:
        """Parse, check and play a UHP MoveString; return the move."""
        move = self.parse_uhp(text)
        self.push_legal(move)
        return self._history[-1].move

    def game_string(self) -> str:
        """The UHP GameString of this game (one from an empty board: see ``GameRecord.to_game_string``
        for a game from a set-up position)."""
        if self.setup is not None:
            raise ValueError("a game from a set-up position has no GameString of its own moves: "
                             "GameRecord.to_game_string() looks for moves that reach the position")
        return format_game_string(self)

    @classmethod
    def from_game_string(cls, text: str, options: RuleOptions | None = None, strict: bool = True) -> "Board":
        """Replay a UHP GameString; ``NotationError`` for an unreadable or illegal move, and
        (when ``strict``) for a header that disagrees with the moves (see ``rules.uhp``)."""
        parts = split_game_string(text)
        board = cls(parts.game_type, options)
        for number, move_text in enumerate(parts.moves, start=1):
            if not move_text:
                continue
            try:
                board.push_uhp(move_text)
            except (NotationError, IllegalMoveError) as exc:
                raise NotationError(f"GameString move {number} ({move_text[:40]!r}): {exc}") from None
        disagreement = header_disagreement(board, parts) if strict else None
        if disagreement is not None:
            raise NotationError(disagreement)
        return board

    def copy(self) -> "Board":
        """An independent board with the same history."""
        other = self._fresh()
        for move in self.move_stack:
            other.push(move)
        return other

    def replay(self) -> Iterator["Board"]:
        """Boards after each move of this game, from the start (each a fresh copy)."""
        board = self._fresh()
        yield board.copy()
        for move in self.move_stack:
            board.push(move)
            yield board.copy()

    def _fresh(self) -> "Board":
        """A board before this one's first move: empty, or its set-up position."""
        if self.setup is None:
            return Board(self.game_type, self.options)
        return Board.from_position(self.setup, self.game_type, self.options)

    def placement_cells(self, colour: Colour) -> list[Hex]:
        """Empty cells where ``colour`` may place a new piece now."""
        return movegen.placement_cells(self, colour)

    def occupied(self) -> Iterable[Hex]:
        return self._stacks.keys()

    def __repr__(self) -> str:
        if self.setup is not None:
            return f"Board(setup {str(self.setup)!r}, {len(self._history)} moves)"
        return f"Board({self.game_string()!r})"

    def __str__(self) -> str:
        return ascii_diagram(self)

