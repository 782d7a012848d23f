"""Will it keep up on a Raspberry Pi? Vision + referee on one core at 1280x720.

    python benchmarks/pi_budget.py [--seconds-of-game 60]

Plays the built-in demo game (rendered 1280x720 frames, hands included) through the real
pipeline, ``Detector.detect`` then ``Referee.observe``, pinned to one CPU core with OpenCV
single-threaded, as fast as it goes. Reports frames per second, resident memory, and the
still-board -> page latency budget: the board must stay still ``stable_seconds``, then the
next frame is taken (at most one frame interval later) and processed, and the event goes
out over SSE (measured by ``webui_load.py``: ~10 ms here). Pi figures scale the per-frame
time by the assumed factors: Pi 5 about 1.6x and Pi 4 about 3x slower than one core here.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.referee import Referee, RefereeConfig  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.profile import demo_profile  # noqa: E402
from vision.session_light import SessionLight  # noqa: E402
from vision.sources import PICAMERA_FPS  # noqa: E402  (frames the Pi camera offers; the loop takes the newest)
from webui.demo import DemoTable  # noqa: E402

FACTORS = {"this machine (1 core)": 1.0, "Raspberry Pi 5 (assumed 1.6x)": 1.6, "Raspberry Pi 4 (assumed 3x)": 3.0}
SSE_SECONDS = 0.010


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds-of-game", type=float, default=60.0, help="how much of the demo to play")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    table = DemoTable()
    config = RefereeConfig()
    referee = Referee(table.record.game_type, table.record.options, config)
    detector = Detector(demo_profile(), light=SessionLight())  # as hivecam serve runs the demo
    frames, clock = [], 0.0
    for index, scene in enumerate(table.scenes):  # 10 fps of game time, rendered up front
        for _ in range(max(1, round(scene.seconds * PICAMERA_FPS))):
            frames.append((index, clock))
            clock += 1 / PICAMERA_FPS
        if clock >= args.seconds_of_game:
            break
    for index in {i for i, _ in frames}:
        table.frame(index)
    times, moves = [], 0
    for index, stamp in frames:
        start = time.perf_counter()
        events = referee.observe(detector.detect(table.frame(index), stamp))
        times.append(time.perf_counter() - start)
        moves += sum(e.kind == "move" for e in events)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    per_frame = statistics.mean(times)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"{len(frames)} frames of 1280x720 ({clock:.0f} s of game, {moves} moves recorded), one core, "
          f"vision + referee: mean {per_frame * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms per frame; "
          f"peak resident memory {rss_mb:.0f} MB (renderer included)")
    print(f"{'':32} {'frames/s':>9} {'still board -> page':>20}")
    for name, factor in FACTORS.items():
        frame_time = per_frame * factor
        fps = 1 / frame_time
        interval = max(frame_time, 1 / PICAMERA_FPS)
        latency = config.stable_seconds + interval + p95 * factor + SSE_SECONDS
        print(f"{name:32} {fps:9.1f} {latency * 1000:17.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
