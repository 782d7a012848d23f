"""Two styles-benchmark runs on the same frames, frame by frame: which frames a change got right
or wrong, and why those went wrong.

    python benchmarks/vision_bench.py --sections styles --frames 150 --photos 2 --log var/before.jsonl
    python benchmarks/vision_bench.py --sections styles --frames 150 --photos 2 --tilemap CANDIDATE.onnx \\
        --log var/after.jsonl
    python benchmarks/compare_runs.py var/before.jsonl var/after.jsonl

Whole-position scores of two runs differ by a few frames per style, and a style's 120-odd
frames leave a few points of chance either way; what a change did shows in the frames it
flips. Per section (the frames both runs scored: a section whose enrollment failed in one run
is named): frames right before and after, frames newly right and newly wrong; then, over all
sections, what went wrong in the newly wrong frames (after) and in the newly right ones (before),
and the frames without a hand that each run got wrong by each cause. Not part of pytest.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def load(path: Path) -> dict[tuple[str, int], dict]:
    """A ``vision_bench.py --log`` file's outcomes by (section, frame)."""
    outcomes = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            outcome = json.loads(line)
            outcomes[(str(outcome["section"]), int(outcome["frame"]))] = outcome
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{number}: not a vision_bench --log line ({exc})") from None
    return outcomes


def why(outcome: dict) -> str:
    """What went wrong in a frame, as one label."""
    return "hand not flagged" if outcome["hand"] else "+".join(outcome.get("causes", ())) or "right"


def report(before: dict[tuple[str, int], dict], after: dict[tuple[str, int], dict]) -> None:
    shared = [key for key in before if key in after]
    sections = list(dict.fromkeys(section for section, _ in [*before, *after]))
    print(f"{'section':40s} {'frames':>6s} {'before':>7s} {'after':>7s} {'gained':>6s} {'lost':>5s}")
    for section in sections:
        keys = [key for key in shared if key[0] == section]
        if not keys:
            print(f"{section:40s} only in the {'first' if any(k[0] == section for k in before) else 'second'} run")
            continue
        right = [sum(run[key]["right"] for key in keys) for run in (before, after)]
        gained = sum(after[key]["right"] and not before[key]["right"] for key in keys)
        lost = sum(before[key]["right"] and not after[key]["right"] for key in keys)
        print(f"{section:40s} {len(keys):6d} {right[0]:7d} {right[1]:7d} {gained:6d} {lost:5d}")
    lost_why = Counter(why(after[key]) for key in shared if before[key]["right"] and not after[key]["right"])
    gained_why = Counter(why(before[key]) for key in shared if after[key]["right"] and not before[key]["right"])
    print("newly wrong, why (after):", dict(lost_why.most_common()))
    print("newly right, why (before):", dict(gained_why.most_common()))
    for name, run in (("before", before), ("after", after)):
        causes = Counter(cause for key in shared if not run[key]["hand"] for cause in run[key].get("causes", ()))
        print(f"frames wrong by cause, {name}:", dict(sorted(causes.items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    report(load(args.before), load(args.after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
