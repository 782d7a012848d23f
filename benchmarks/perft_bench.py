"""Perft to depth 5 (or --depth) for all eight game types, checked against Mzinga's tables.

    python benchmarks/perft_bench.py [--depth 5] [--shared ../shared]

Prints, per game type and depth, the count, whether it matches the table, the time and the
leaf nodes per second. Exits non-zero on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import ALL_GAME_TYPES, Board  # noqa: E402
from rules.perft import perft  # noqa: E402


def table(shared: Path, game_type: str) -> dict[int, int]:
    path = shared / "corpus" / "perft" / f"Board_{game_type.replace('+', '')}_PerftTest.csv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8-sig").splitlines()
            if line.strip() and not line.startswith("#")]
    return {int(depth): int(count) for _, depth, count in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    failures = 0
    total_nodes, total_seconds = 0, 0.0
    print(f"{'game type':10} {'depth':>5} {'count':>12} {'expected':>12} {'ok':>3} {'seconds':>8} {'nodes/s':>10}")
    for game_type in map(str, ALL_GAME_TYPES):
        expected = table(args.shared, game_type)
        for depth in range(1, args.depth + 1):
            start = time.perf_counter()
            count = perft(Board(game_type), depth)
            seconds = time.perf_counter() - start
            ok = count == expected.get(depth)
            failures += not ok
            if depth == args.depth:
                total_nodes += count
                total_seconds += seconds
            print(f"{game_type:10} {depth:5} {count:12} {expected.get(depth, '?'):>12} {'yes' if ok else 'NO':>3} "
                  f"{seconds:8.2f} {count / max(seconds, 1e-9):10,.0f}", flush=True)
    print(f"depth {args.depth} overall: {total_nodes:,} leaves in {total_seconds:.1f} s "
          f"({total_nodes / total_seconds:,.0f} leaves/s); mismatches: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
