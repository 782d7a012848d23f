"""A modest best-move search for ``hivecam uhp``: negamax with alpha-beta pruning and
iterative deepening, within a depth or time limit.

The evaluation, from the side to move's view, weighs how crowded each Queen Bee is, how
many pieces are pinned (covered, or holding the hive together), how many pieces can move,
and the pieces still in hand. A move that surrounds the opponent's Queen is played at
once. The search always has a legal move ready: if time runs out it returns the best
move of the deepest finished iteration (or, at worst, the best-ordered move).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from . import movegen
from .geometry import articulation_points
from .board import Board
from .hexgrid import Hex, neighbours
from .move import PASS, GameState, Move
from .pieces import Bug, Colour, Piece

WIN = 1_000_000
QUEEN_DANGER = (0, 20, 50, 110, 240, 600)  # by the number of occupied cells around a Queen
PINNED = 12
MOVABLE = 10
PER_MOVE = 1
IN_HAND = 2
MAX_DEPTH = 64


@dataclass(frozen=True)
class SearchResult:
    """The chosen move, its score for the side to move, the deepest finished iteration, and
    how many positions were visited."""

    move: Move
    score: int
    depth: int
    nodes: int


class _OutOfTime(Exception):
    pass


def best_move(board: Board, depth: int | None = None, seconds: float | None = None) -> SearchResult:
    """Search ``board``'s position up to ``depth`` plies and/or for ``seconds``; ``board`` is untouched."""
    if board.state.is_over:
        raise ValueError(f"the game is over ({board.state.value}): there is no move to find")
    if depth is None and seconds is None:
        raise ValueError("give a depth limit, a time limit, or both")
    if depth is not None and depth < 1:
        raise ValueError(f"search depth must be at least 1, not {depth}")
    if seconds is not None and seconds < 0:
        raise ValueError(f"search time cannot be negative ({seconds} s)")
    return _Search(board.copy(), seconds).run(depth or MAX_DEPTH)


def evaluate(board: Board) -> int:
    """A static score of the position for the side to move (positive: better for it)."""
    stacks = board.stacks()
    cut = articulation_points(stacks)
    us = board.turn
    score = _mobility(board)
    board.push(PASS)
    score -= _mobility(board)
    board.pop()
    for colour, sign in ((us, 1), (us.opponent, -1)):
        queen = board.position_of(Piece.get(colour, Bug.QUEEN))
        if queen is not None:
            crowd = sum(n in stacks for n in neighbours(queen))
            score -= sign * QUEEN_DANGER[min(crowd, 5)]
        score += sign * IN_HAND * len(board.hand(colour))
        score -= sign * PINNED * _pinned(stacks, cut, colour)
    return score


def _pinned(stacks: dict[Hex, list[Piece]], cut: set[Hex], colour: Colour) -> int:
    """Pieces of ``colour`` that cannot move for structural reasons: covered or holding the hive."""
    count = 0
    for cell, stack in stacks.items():
        for level, piece in enumerate(stack):
            if piece.colour is colour and (level < len(stack) - 1 or (len(stack) == 1 and cell in cut)):
                count += 1
    return count


def _mobility(board: Board) -> int:
    """Movement options of the side to move: movable pieces, and moves in a smaller measure."""
    moves = [m for m in movegen.generate(board) if m.piece is not None and m.origin is not None
             and m.piece.colour is board.turn]
    return MOVABLE * len({m.piece for m in moves}) + PER_MOVE * min(len(moves), 60)


class _Search:
    def __init__(self, board: Board, seconds: float | None) -> None:
        self.board = board
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.nodes = 0

    def run(self, max_depth: int) -> SearchResult:
        board = self.board
        moves = self._ordered(board.legal_moves)
        winner = GameState.won_by(board.turn)
        for move in moves:
            board.push(move)
            won = board.state is winner
            board.pop()
            if won:
                return SearchResult(move, WIN, 1, self.nodes)
        result = SearchResult(moves[0], 0, 0, self.nodes)
        if len(moves) == 1:
            return result
        for depth in range(1, max_depth + 1):
            best, score = None, -WIN - 1
            try:
                for move in moves:
                    board.push(move)
                    try:
                        value = -self._negamax(depth - 1, -WIN - 1, -score, 1)
                    finally:
                        board.pop()
                    if value > score:
                        best, score = move, value
            except _OutOfTime:
                if depth == 1 and best is not None:
                    result = SearchResult(best, score, 0, self.nodes)
                break
            assert best is not None  # the loop ran: there is more than one move
            result = SearchResult(best, score, depth, self.nodes)
            moves = [best] + [m for m in moves if m != best]
            if abs(score) > WIN - MAX_DEPTH:
                break
        return SearchResult(result.move, result.score, result.depth, self.nodes)

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime
        board = self.board
        state = board.state
        if state.is_over:
            if state is GameState.DRAW:
                return 0
            mover_won = state.winner is board.turn
            return WIN - ply if mover_won else -(WIN - ply)
        if depth == 0:
            return evaluate(board)
        best = -WIN - 1
        for move in self._ordered(board.legal_moves):
            board.push(move)
            try:
                value = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                board.pop()
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best

    def _ordered(self, moves: list[Move]) -> list[Move]:
        """Moves that crowd the opponent's Queen first, those that free it last."""
        board = self.board
        target = board.position_of(Piece.get(board.turn.opponent, Bug.QUEEN))
        if target is None:
            return moves
        around = set(neighbours(target))

        def key(move: Move) -> int:
            if move.piece is None:
                return 0
            return (move.origin in around) - 2 * (move.dest in around)
        return sorted(moves, key=key)
