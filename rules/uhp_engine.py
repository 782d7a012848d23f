"""``hivecam uhp``: a Universal Hive Protocol engine on stdin/stdout, so UHP viewers such as
MzingaViewer can play against hivecam or use its referee.

Every reply ends with ``ok``; errors are ``err <message>``, rejected moves
``invalidmove <why>`` (a MoveString that cannot be read in this position, or the rule broken).
GameStrings are read as other engines read them: the moves are the truth, a stale header is
ignored (see ``rules.uhp`` for strict and lenient reading). Replies that start, change or report the game print
its GameString. Defaults: 2024 rules (no Queen on the first turn), no repetition draw.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace

from . import search
from .board import Board
from .gametype import GameType, RuleOptions
from .move import IllegalMoveError, NotationError

ENGINE_ID = "id hivecam v0.1.0"
CAPABILITIES = "Mosquito;Ladybug;Pillbug"
DEPTH_SEARCH_SECONDS = 30.0  # safety limit on 'bestmove depth N', so a viewer never waits forever
DEFAULT_SEARCH_SECONDS = 5.0  # for a bare 'bestmove'
_TIME = re.compile(r"^(\d+):([0-5]?\d):([0-5]?\d(?:\.\d+)?)$")

# UHP option name -> RuleOptions field (all bool)
OPTIONS = {"QueenMayOpen": "queen_may_open", "RepetitionDraw": "repetition_draw"}


class UhpError(Exception):
    """A command the engine cannot carry out (printed as ``err``)."""


class UhpEngine:
    """The protocol state machine: feed it lines, get reply lines back (each reply ends in ``ok``)."""

    def __init__(self, options: RuleOptions | None = None) -> None:
        self.options = options or RuleOptions()
        self.board: Board | None = None
        self.finished = False

    def greeting(self) -> list[str]:
        """What the engine prints when it starts: its ``info`` reply."""
        return [ENGINE_ID, CAPABILITIES, "ok"]

    def handle_bytes(self, raw: bytes) -> list[str]:
        """Like ``handle`` for a raw input line: one that is not UTF-8 gets ``err``, never a crash."""
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return [f"err input byte {exc.start + 1} of this line (0x{raw[exc.start]:02x}) is not UTF-8 "
                    "text; the line was ignored", "ok"]
        return self.handle(line)

    def handle(self, line: str) -> list[str]:
        """Carry out one command line and return the reply lines (empty after ``exit``)."""
        words = line.split()
        if not words:
            return []
        command, args = words[0].lower(), words[1:]
        if command == "exit":
            self.finished = True
            return []
        try:
            reply = self._dispatch(command, args, line.strip()[len(words[0]):].strip())
        except IllegalMoveError as exc:
            reply = [f"invalidmove {exc.violation.message}"]
        except (UhpError, NotationError, ValueError) as exc:
            reply = [f"err {_one_line(str(exc))}"]
        except Exception as exc:  # an engine bug must not kill the viewer's session
            reply = [f"err internal error: {type(exc).__name__}: {_one_line(str(exc))}"]
        return reply + ["ok"]

    # ----------------------------------------------------------------- commands
    def _dispatch(self, command: str, args: list[str], rest: str) -> list[str]:
        if command == "info":
            return self.greeting()[:-1]
        if command == "newgame":
            return self._newgame(rest)
        if command == "play":
            if not rest:
                raise UhpError("play needs a MoveString, e.g. 'play wS1'")
            return self._play(rest)
        if command == "pass":
            return self._play("pass")
        if command == "validmoves":
            board = self._game_in_progress()
            return [";".join(board.uhp(m) for m in board.legal_moves)]
        if command == "bestmove":
            return self._bestmove(args)
        if command == "undo":
            return self._undo(args)
        if command == "options":
            return self._options(args)
        raise UhpError(f"unknown command {command!r}; commands: info, newgame, play, pass, "
                       "validmoves, bestmove, undo, options, exit")

    def _newgame(self, rest: str) -> list[str]:
        if not rest:
            self.board = Board(GameType(), self.options)
        elif ";" in rest:  # the moves are the truth; a stale header is ignored
            self.board = Board.from_game_string(rest, self.options, strict=False)
        else:
            self.board = Board(GameType.parse(rest), self.options)
        return [self.board.game_string()]

    def _play(self, text: str) -> list[str]:
        board = self._game_in_progress()
        try:
            move = board.parse_uhp(text)
        except NotationError as exc:  # a move that names no piece or cell it may go to
            return [f"invalidmove {_one_line(str(exc))}"]
        board.push_legal(move)  # IllegalMoveError names the rule broken
        return [board.game_string()]

    def _bestmove(self, args: list[str]) -> list[str]:
        board = self._game_in_progress()
        if not args:
            result = search.best_move(board, seconds=DEFAULT_SEARCH_SECONDS)
        elif len(args) == 2 and args[0].lower() == "depth":
            if not args[1].isdigit() or int(args[1]) < 1:
                raise UhpError(f"bestmove depth needs a whole number of plies >= 1, not {args[1]!r}")
            result = search.best_move(board, depth=int(args[1]), seconds=DEPTH_SEARCH_SECONDS)
        elif len(args) == 2 and args[0].lower() == "time":
            result = search.best_move(board, seconds=_parse_time(args[1]))
        else:
            raise UhpError("usage: bestmove time hh:mm:ss | bestmove depth N")
        return [board.uhp(result.move)]

    def _undo(self, args: list[str]) -> list[str]:
        board = self._require_game()
        if len(args) > 1 or (args and not args[0].isdigit()):
            raise UhpError("usage: undo [N], N a whole number of moves")
        count = int(args[0]) if args else 1
        if not 1 <= count <= board.ply:
            raise UhpError(f"cannot undo {count} move{'s' * (count != 1)}: "
                           f"{board.ply} move{'s' * (board.ply != 1)} played")
        for _ in range(count):
            board.pop()
        return [board.game_string()]

    def _options(self, args: list[str]) -> list[str]:
        if not args:
            return [self._option_line(name) for name in OPTIONS]
        verb = args[0].lower()
        if verb == "get" and len(args) == 2:
            return [self._option_line(self._option_name(args[1]))]
        if verb == "set" and len(args) == 3:
            name = self._option_name(args[1])
            value = {"true": True, "false": False}.get(args[2].lower())
            if value is None:
                raise UhpError(f"option {name} is a bool: True or False, not {args[2]!r}")
            options = replace(self.options, **{OPTIONS[name]: value})
            if self.board is not None:  # replay the game under the new rules, or refuse
                try:
                    self.board = Board.from_game_string(self.board.game_string(), options)
                except NotationError as exc:
                    raise UhpError(f"cannot set {name} to {value}: the current game breaks it ({exc})")
            self.options = options
            return [self._option_line(name)]
        raise UhpError("usage: options | options get Name | options set Name Value")

    # ------------------------------------------------------------------ helpers
    def _option_name(self, text: str) -> str:
        for name in OPTIONS:
            if name.lower() == text.lower():
                return name
        raise UhpError(f"unknown option {text!r}; options: {', '.join(OPTIONS)}")

    def _option_line(self, name: str) -> str:
        value = getattr(self.options, OPTIONS[name])
        default = getattr(RuleOptions(), OPTIONS[name])
        return f"{name};bool;{value};{default}"

    def _require_game(self) -> Board:
        if self.board is None:
            raise UhpError("no game in progress; start one with 'newgame'")
        return self.board

    def _game_in_progress(self) -> Board:
        board = self._require_game()
        if board.state.is_over:
            raise UhpError(f"the game is over ({board.state.value}); start another with 'newgame'")
        return board


def _parse_time(text: str) -> float:
    match = _TIME.match(text)
    if match is None:
        raise UhpError(f"bestmove time must be hh:mm:ss, not {text!r}")
    hours, minutes, seconds = match.groups()
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--queen-may-open", action="store_true",
                        help="older rules: allow the Queen Bee on a player's first turn")
    parser.add_argument("--repetition-draw", action="store_true",
                        help="a position occurring a third time is a draw (Mzinga does not apply this)")


def run(args: argparse.Namespace) -> int:
    engine = UhpEngine(RuleOptions(queen_may_open=args.queen_may_open,
                                   repetition_draw=args.repetition_draw))
    _write(engine.greeting())
    for raw in sys.stdin.buffer:  # bytes, so that undecodable input is answered, not fatal
        _write(engine.handle_bytes(raw))
        if engine.finished:
            break
    return 0


def _write(lines: list[str]) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()
