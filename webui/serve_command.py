"""``hivecam serve``: camera, vision, referee and the live page in one process.

    hivecam serve                                # Pi camera if there is one, else the demo
    hivecam serve --source usb:0 --host 0.0.0.0  # a USB camera, page open to the LAN
    hivecam serve --source demo --demo-speed 4   # the demo game, four times faster

Games are logged in ``--data`` (default ``$HIVECAM_DATA`` or ``~/.local/share/hivecam``),
in ``games.sqlite3``; the demo keeps its last two games in ``demo.sqlite3`` instead, so demo
games never mix with real ones. After a crash or power cut the server resumes the game it
was following.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import signal
import socket
import ssl
import sys
import threading
from pathlib import Path
from typing import Callable, TypeVar

from werkzeug.serving import make_server

CAMERA_NAME = "camera.json"
LOG_NAME = "games.sqlite3"
DEMO_LOG_NAME = "demo.sqlite3"
DEMO_GAMES_KEPT = 2  # the demo game being played and the one before it (open to replay meanwhile)
T = TypeVar("T")
log = logging.getLogger("hivecam.serve")
DEFAULT_DATA = Path(os.environ.get("HIVECAM_DATA", Path.home() / ".local" / "share" / "hivecam"))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default="auto",
                        help="auto (Pi camera if present, else demo), picamera, usb:N, a video file or URL, "
                             "a folder of images, or demo")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on; 0.0.0.0 opens it to the LAN")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the game log and settings")
    add_board_name(parser)
    parser.add_argument("--profile", help="creature profile of your set (hivecam calibrate enroll; "
                                          "default: DATA/profile.json if present)")
    parser.add_argument("--camera-file", help="camera intrinsics (hivecam calibrate camera; "
                                              "default: DATA/camera.json if present)")
    parser.add_argument("--cert", type=Path, help="serve HTTPS with this certificate (PEM; with --key)")
    parser.add_argument("--key", type=Path, help="the private key of --cert (PEM)")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="an HTTPS reverse proxy on this machine forwards to hivecam: trust its "
                             "X-Forwarded-For/-Proto headers and send the session cookie over HTTPS only")
    parser.add_argument("--loop", action="store_true", help="replay a video file or image folder from the "
                                                            "start when it ends (default: it ends)")
    parser.add_argument("--demo-speed", type=float, default=1.0, help="demo playback speed (default 1)")
    parser.add_argument("--stable-seconds", type=float, default=0.3, help="how long the board must be still")


def add_board_name(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board-name", default=socket.gethostname(),
                        help="this board's name, the Site of its games (default: the host name)")


def camera_present() -> bool:
    """Whether picamera2 is installed and sees at least one camera."""
    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except Exception:  # a broken libcamera install counts as no camera
        return False


def build(args: argparse.Namespace):
    """The service, control, live loop and Flask app of these arguments (not yet started)."""
    from rules.referee import RefereeConfig
    from vision.detect import Detector
    from vision.profile import demo_profile
    from vision.session_light import SessionLight
    from vision.sources import open_source
    from webui.app import create_app
    from webui.auth import Control
    from webui.demo import DemoTable, demo_players, demo_record
    from webui.enrollment import PROFILE_NAME, Enrollment
    from webui.game import GameService, new_record
    from webui.hub import Hub
    from webui.live import CameraSpec, LiveLoop, is_camera
    from webui.store import GameStore

    args.data.mkdir(parents=True, exist_ok=True)
    spec = args.source
    if spec == "auto":
        spec = "picamera" if camera_present() else "demo"
    table = DemoTable(speed=args.demo_speed) if spec == "demo" else None
    store = GameStore(args.data / (LOG_NAME if table is None else DEMO_LOG_NAME))
    if table is None:
        demo = demo_record()
        store.hide_demo_games(demo.tags["White"], demo.tags["Black"], [m.uhp for m in demo.moves])
    profile = load_profile(args.profile, args.data / PROFILE_NAME)
    if profile is None and table is not None:
        profile = demo_profile()  # the demo table's own set, enrolled like a user's
    detector = Detector(profile, load_camera(args.camera_file, args.data / CAMERA_NAME), SessionLight())
    first = new_record(*demo_players(table.record)) if table is not None else None
    service = GameService(store, Hub(), RefereeConfig(stable_seconds=args.stable_seconds), first,
                          site=args.board_name, table_bare=detector.table_bare)
    control = Control(args.data)
    if table is not None:
        source = _continue_demo(service, table)
    elif is_camera(spec):
        source = CameraSpec(spec)  # opened by the live loop, retried until the camera is there
    else:
        source = open_source(spec, loop=args.loop)
    live = LiveLoop(source, detector.detect, service, detector.learn, detector.glare, detector.look_through,
                    detector, detector.expect, detector.look_past)
    enrollment = Enrollment(args.data, live.latest_frame, detector.use_profile, live.darker_frame)
    app = create_app(service, control, live, enrollment, secure_cookies=bool(args.cert or args.behind_proxy))
    if args.behind_proxy:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # the client's own address
    return service, control, live, app, spec


def _continue_demo(service, table):
    """The demo table, at the logged demo game's position if that is the current game,
    else from the start with a new game; each later run of the demo starts a new game,
    which pushes the oldest out of the demo's log (it keeps DEMO_GAMES_KEPT)."""
    from webui.demo import demo_players

    demo = table.record

    def new_demo_game() -> None:
        service.new_game(*demo_players(demo))
        service.store.keep_latest(DEMO_GAMES_KEPT)

    table.on_cycle = new_demo_game
    current = service.referee.record
    played = [m.uhp for m in current.moves]
    if (current.game_type == demo.game_type and not current.result.is_over and
            current.tags.get("White") == demo.tags["White"] and played == [m.uhp for m in demo.moves[:len(played)]]):
        table.seek(len(played))
    else:
        new_demo_game()
    return table.open()


def data_file(data: Path, option: str | None, name: str) -> Path:
    """The file a command-line ``option`` names, else ``name`` in the data folder."""
    return Path(option) if option else data / name


def load_file(load: Callable[[Path], T], option: str | None, default: Path | None = None) -> T | None:
    """What ``load`` reads from the file ``option`` names, else from ``default`` if that file
    exists; None if neither. A named file that is missing or bad is an error."""
    if option:
        return load(Path(option))
    return load(default) if default is not None and default.exists() else None


def load_profile(option: str | None, default: Path | None = None):
    """The creature profile to use (None: the built-in one). The data folder's own profile, if
    an earlier hivecam's creature network enrolled it, stays on disk but is set aside with a
    warning (enroll again on the calibration page); a profile named by ``option`` must load."""
    from vision.profile import CreatureProfile, OtherNetworkError

    try:
        return load_file(CreatureProfile.load, option, default)
    except OtherNetworkError as exc:
        if option:
            raise
        log.warning("%s; reading with the built-in profile until then", exc)
        return None


def load_camera(option: str | None, default: Path | None = None):
    """The camera intrinsics to use (None: an ideal lens)."""
    from calibration.camera import CameraModel

    return load_file(CameraModel.load, option, default)


def _tls(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The TLS settings of ``--cert``/``--key`` (None: plain HTTP)."""
    if cert is None or key is None:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request (the camera polls)
    try:
        service, control, live, app, spec = build(args)
    except (OSError, ValueError, RuntimeError) as exc:  # bad source, profile or data folder
        print(f"hivecam serve: {exc}", file=sys.stderr)
        return 2
    if control.new_pin:  # said before anything else can fail: the PIN is stored already
        log.warning("control PIN %s (made now, shown once; 'hivecam pin --reset' makes a new one, "
                    "or set HIVECAM_PIN to choose your own)", control.new_pin)
    else:
        log.info("control PIN: %s", control.recovery())
    if bool(args.cert) != bool(args.key):
        print("hivecam serve: --cert and --key go together", file=sys.stderr)
        return 2
    try:
        server = make_server(args.host, args.port, app, threaded=True, ssl_context=_tls(args.cert, args.key))
    except (OSError, ssl.SSLError) as exc:
        print(f"hivecam serve: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    server.daemon_threads = True
    live.start()
    port = server.server_port
    log.info("game %d (%d moves), source %s, %s://%s:%d/", service.game_id, len(service.referee.record.moves),
             spec, "https" if args.cert else "http", args.host, port)

    def stop(*_: object) -> None:
        """Tell the open pages that the server (not the camera) is going, then stop serving."""
        log.info("stopping")
        service.hub.publish("server", {"status": "stopping", "message": "the hivecam server is stopping"})
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        service.hub.close()
        live.stop()
        service.store.close()
    return 0
