"""Rules engine speed: perft CPU time, legal-move latency over real positions, parser scaling.

    python benchmarks/rules_bench.py [--runs 3] [--game-type Base+MLP] [--depth 5] [--shared ../shared]

Prints the median CPU time of ``--runs`` perft runs (one core; goal for Base+MLP depth 5:
8 s or less), the p50/p99/max time of one full legal-move list over the 195 championship
positions (goal p99: 5 ms or less), and how long PGN reading takes on text that is large
in the ways that once made it quadratic (it should grow linearly with the size).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import Board, PgnError, parse_pgn  # noqa: E402
from rules.perft import perft  # noqa: E402


def perft_seconds(game_type: str, depth: int, runs: int) -> tuple[int, list[float]]:
    times, count = [], 0
    for _ in range(runs):
        start = time.process_time()
        count = perft(Board(game_type), depth)
        times.append(time.process_time() - start)
    return count, times


def legal_move_latency(shared: Path, repeats: int = 5) -> list[float]:
    """Seconds per full ``legal_moves`` call, the fastest of ``repeats`` for each position."""
    path = shared / "corpus" / "valid-moves" / "Board_ValidMovesFromRealGamesTest.csv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8-sig").splitlines()
            if line.strip() and not line.startswith("#")]
    latencies = []
    for game_string, _ in rows:
        board = Board.from_game_string(game_string)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            board.legal_moves  # noqa: B018 - the call is what is timed
            best = min(best, time.perf_counter() - start)
        latencies.append(best)
    return latencies


def pgn_seconds(size: int) -> dict[str, float]:
    head = '[GameType "Base"]\n\n1. wS1 '
    texts = {"empty comments {}": head + "{}" * (size // 2) + "\n",
             "one move, many words": head + "x " * (size // 2) + "\n",
             "one long comment": head + "{" + "a\n" * (size // 2) + "}\n"}
    out = {}
    for name, text in texts.items():
        start = time.perf_counter()
        try:
            parse_pgn(text)
        except PgnError:
            pass
        out[name] = time.perf_counter() - start
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--game-type", default="Base+MLP")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()

    count, times = perft_seconds(args.game_type, args.depth, args.runs)
    print(f"perft {args.game_type} depth {args.depth}: {count:,} leaves; CPU s per run "
          f"{', '.join(f'{t:.2f}' for t in times)}; median {statistics.median(times):.2f} s")

    latencies = sorted(legal_move_latency(args.shared))
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    print(f"legal_moves over {len(latencies)} real positions: p50 {p50 * 1000:.2f} ms, "
          f"p99 {p99 * 1000:.2f} ms, max {latencies[-1] * 1000:.2f} ms")

    for size in (250_000, 1_000_000):
        timings = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in pgn_seconds(size).items())
        print(f"parse_pgn, {size:,} characters: {timings}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
