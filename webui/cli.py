"""The ``hivecam`` command line: one subcommand per job, each defined in its own module.

A subcommand's module is imported only when that subcommand runs, so ``hivecam perft``
never loads OpenCV. Each module provides ``configure(parser)`` and ``run(args) -> int``.
Bad input that a command does not answer itself (a ``ValueError``, notation errors included,
or an ``OSError``) is answered here: one line on stderr, exit status 2, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("webui.serve_command", "run camera, vision, referee and the live web page (demo without a camera)"),
    "referee": ("webui.referee_command", "referee a game headless from any frame source"),
    "detect": ("vision.detect_command", "recognise the tiles in one image and print them as JSON"),
    "render": ("vision.render_command", "render synthetic camera frames of a position or a whole game"),
    "calibrate": ("calibration.command", "print the calibration board, calibrate the camera, enrol your Hive set"),
    "pin": ("webui.pin_command", "say how the control PIN is set, or replace a forgotten one (--reset)"),
    "doctor": ("webui.doctor", "check camera, calibration, profile and disk, and say what to fix"),
    "uhp": ("rules.uhp_engine", "a Universal Hive Protocol engine on stdin/stdout"),
    "perft": ("rules.perft", "count move-generation leaf nodes (engine correctness and speed)"),
}


def _usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: hivecam COMMAND [options]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += ["", "Run 'hivecam COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hivecam`` console script."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"hivecam: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, summary = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"hivecam {name}", description=summary)
    module.configure(parser)
    args = parser.parse_args(rest)
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except (ValueError, OSError) as exc:
        print(f"hivecam {name}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
