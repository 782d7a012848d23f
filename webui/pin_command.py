"""``hivecam pin``: say how the control PIN is set, or replace a forgotten one.

    hivecam pin                 # where the PIN comes from and how to recover it
    hivecam pin --reset         # a new random PIN, printed; every device logs in again

Run it on the hivecam machine as the user hivecam runs as (it owns the data folder); a
running server uses the new PIN at once.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from webui.auth import PIN_ENV, Control
from webui.serve_command import DEFAULT_DATA


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data folder of hivecam serve")
    parser.add_argument("--reset", action="store_true", help="replace the PIN with a new random one and print it")


def run(args: argparse.Namespace) -> int:
    data: Path = args.data
    if not (data / "control.json").exists():
        print(f"hivecam pin: {data} holds no PIN yet: 'hivecam serve --data {data}' makes one on its first start "
              "and prints it", file=sys.stderr)
        return 2
    owner = data.stat().st_uid
    if owner != os.getuid():
        print(f"hivecam pin: {data} belongs to another user: run this as that user "
              f"(sudo -u '#{owner}' hivecam pin ...)", file=sys.stderr)
        return 2
    control = Control(data)
    if not args.reset:
        print(control.recovery())
        return 0
    print(f"hivecam: new control PIN {control.reset_pin()} (in use at once; every device logs in again)")
    if control.from_env or os.environ.get(PIN_ENV):
        print(f"note: {PIN_ENV} is set, and hivecam serve takes that PIN again when it starts", file=sys.stderr)
    return 0
