"""Perft: count the leaf nodes of the move tree, to check the engine and time it."""

from __future__ import annotations

import argparse
import time

from .board import Board


def perft(board: Board, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (moves as a set of piece+destination; pass only when forced)."""
    if depth == 0:
        return 1
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_type", help="Base, Base+M, ..., Base+MLP, or a whole UHP GameString")
    parser.add_argument("depth", type=int, help="deepest ply to count (each depth up to it is printed)")


def run(args: argparse.Namespace) -> int:
    """Print the count at each depth; a bad game type, GameString or depth raises ``ValueError``."""
    if args.depth < 0:
        raise ValueError(f"depth must be 0 or more, not {args.depth}")
    text = args.game_type
    board = Board.from_game_string(text) if ";" in text else Board(text)
    for depth in range(args.depth + 1):
        start = time.perf_counter()
        count = perft(board, depth)
        seconds = time.perf_counter() - start
        rate = count / seconds if seconds > 0 else float("inf")
        print(f"depth {depth}: {count}  ({seconds:.3f} s, {rate:,.0f} nodes/s)", flush=True)
    return 0
