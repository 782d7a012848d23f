"""``hivecam referee``: referee a game without the web page, from any frame source.

    hivecam referee --source game.mp4 --events events.jsonl --pgn game.pgn

Every event is appended to ``--events`` as one JSON line the moment it happens; the PGN
is rewritten (atomically) after each recorded move and at the end. Video files and image
folders are timed by ``--fps``; live cameras and the demo (``--source demo``) by the clock.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path

from calibration.files import write_atomic
from webui.serve_command import add_board_name, load_camera, load_profile


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True,
                        help="picamera, usb:N, a video file or URL, a folder, demo (the built-in game, in real time)")
    parser.add_argument("--events", type=Path, help="JSON-lines file to append every event to")
    parser.add_argument("--pgn", type=Path, help="Hive PGN file of the game (rewritten after each move)")
    parser.add_argument("--game-type", default="Base+MLP", help="(the demo has its own)")
    parser.add_argument("--white", default="")
    parser.add_argument("--black", default="")
    parser.add_argument("--profile", help="creature profile of your set")
    parser.add_argument("--camera-file", help="camera intrinsics")
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate of a video file or image folder")
    parser.add_argument("--loop", action="store_true", help="replay a video file or folder when it ends")
    parser.add_argument("--stable-seconds", type=float, default=0.3)
    parser.add_argument("--illegal-move-limit", type=int, default=None)
    add_board_name(parser)


def _write_pgn(path: Path, record) -> None:
    from rules.pgn import format_pgn

    write_atomic(path, format_pgn(record).encode("utf-8"))


def run(args: argparse.Namespace) -> int:
    from calibration.errors import CalibrationError
    from rules.referee import Referee, RefereeConfig
    from vision.detect import Detector
    from vision.session_light import SessionLight
    from vision.sources import CaptureSource, FolderSource, SourceError, open_source

    try:
        config = RefereeConfig(stable_seconds=args.stable_seconds, illegal_move_limit=args.illegal_move_limit)
        profile = load_profile(args.profile)
        if args.source == "demo":  # the shipped demo game played once in real time, as ``hivecam serve`` shows it
            from vision.profile import demo_profile
            from webui.demo import DemoTable, demo_players  # the renderer loads only for the demo

            profile = profile or demo_profile()  # the demo table's own set, enrolled like a user's
            source = DemoTable(loop=False).open()
            game_type, options, white, black = demo_players(source.record)
        else:
            source = open_source(args.source, fps=0, loop=args.loop)
            game_type, options, white, black = args.game_type, None, "", ""
        detector = Detector(profile, load_camera(args.camera_file), SessionLight())
        detector.table_bare()  # the game starts on a bare table: what shows there is its print
        referee = Referee(game_type, options, config)
        detector.expect(referee.record.game_type.bugs)  # no Mosquito is read in a Base game
        referee.record.set_tag("White", args.white or white)
        referee.record.set_tag("Black", args.black or black)
        referee.record.set_tag("Site", args.board_name)
        referee.record.set_start(datetime.now())
    except (OSError, ValueError, SourceError) as exc:
        print(f"hivecam referee: {exc}", file=sys.stderr)
        return 2
    timed_by_frames = isinstance(source, FolderSource) or (isinstance(source, CaptureSource) and source.finite)
    events_file = args.events.open("a", encoding="utf-8") if args.events else None
    start, frames, warned = time.monotonic(), 0, ""
    try:
        while (frame := source.read()) is not None:
            if source.warning != warned:
                warned = source.warning
                print(f"hivecam referee: {source.name}: {warned}", file=sys.stderr, flush=True)
            timestamp = frames / args.fps if timed_by_frames else time.monotonic() - start
            frames += 1
            events = referee.observe(detector.detect(frame, timestamp))
            if any(e.kind == "move" for e in events):
                detector.learn(referee.identified())  # a second Ant is then read like the first
                detector.look_past(referee.explained_away())  # the table seen through a hole is no tile
            for event in events:
                line = json.dumps(event.to_dict())
                print(line, flush=True)
                if events_file:
                    events_file.write(line + "\n")
                    events_file.flush()
            if args.pgn and any(e.kind in ("move", "pass", "game_over") for e in events):
                _write_pgn(args.pgn, referee.record)
    except (SourceError, CalibrationError) as exc:  # a dead camera, frames the calibration does not fit
        print(f"hivecam referee: {exc}", file=sys.stderr)
        return 2
    finally:
        source.close()
        if events_file:
            events_file.close()
        if args.pgn:
            _write_pgn(args.pgn, referee.record)
    print(f"hivecam referee: {len(referee.record.moves)} moves, {referee.record.result.value}", file=sys.stderr)
    return 0
