"""Hive PGN: game files in the form Mzinga and hivegame.com write and read.

Both write the tag pairs ``[GameType "Base+MLP"]``, ``[Date "2026.11.22"]``, ``[Event ""]``,
``[Site ""]``, ``[Round ""]``, ``[White ""]``, ``[Black ""]`` and ``[Result "WhiteWins"]``
(a UHP game state), a blank line, then one move per line numbered by half-move
(``1. wS1``, ``2. bG1 -wS1``, ... ``72. pass``) and, once the game is over, its result on
the last line. Mzinga attaches a ``{...}`` line to the move before it, so hivecam writes
each move's thinking time, clock, mark and comment there:
``{[%emt 0:00:12] [%clk 0:14:58] [%mark override] arbiter's call}`` (``%clk``, the time left
after the move, only with a ``[TimeControl "15+10"]`` tag; a move timed by a date-time keeps it
as ``[%time 2026-11-22T18:00:00]``). Older files with ``[%time 83.5]`` (seconds) are still read.
An illegal attempt gets its own comment line after the move it followed:
``{[%illegal wG1 bS1\\] [%player w] [%at 0:03:10] [%rule No moving before the Queen] White's
Queen is not placed; taken back by White}``. Tags ``Time`` (the start, local) and
``TimeControl`` are written when set.
A result the board does not show (a resignation, say) gets ``[Termination "resignation"]``;
older rule options get ``[QueenMayOpen "true"]`` / ``[RepetitionDraw "true"]``; a game picked up
from the table gets ``[SetUp "1"]`` and ``[Position "b 0,0:wQ 1,0:bS1/bB1"]`` (``rules.setup``), its
moves numbered from 1 after the position. A move an
arbiter kept against the rules stays in the game with ``[%mark override]`` in its comment:
hivecam replays it; an engine that knows only the rules will stop there.

Reading also accepts the chess results ``1-0``, ``0-1``, ``1/2-1/2`` and ``*``, moves without
numbers, several numbered moves on one line, a byte-order mark and CRLF line ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .clock import format_clock, move_seconds, parse_clock, times_left
from .gametype import GameType, RuleOptions
from .move import GameState, IllegalMoveError, NotationError, Outcome, Termination
from .pieces import Colour
from .setup import Setup
from .record import DERIVED_TAGS, STANDARD_TAGS, GameRecord, IllegalAttempt, Timestamp

_RESULTS = {
    "WhiteWins": GameState.WHITE_WINS, "1-0": GameState.WHITE_WINS,
    "BlackWins": GameState.BLACK_WINS, "0-1": GameState.BLACK_WINS,
    "Draw": GameState.DRAW, "1/2-1/2": GameState.DRAW,
    "InProgress": GameState.IN_PROGRESS, "NotStarted": GameState.NOT_STARTED, "*": None,
}
_OPTION_TAGS = {"QueenMayOpen": "queen_may_open", "RepetitionDraw": "repetition_draw"}
_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"([0-9]+)\.+(.*)")
_MAX_NUMBER_DIGITS = 9
_COMMAND = re.compile(r"\[%(\w+)\s+([^\]]*)\]")
_MOVE_COMMANDS = ("emt", "clk", "time", "mark")
_BY = {"w": "White", "b": "Black", "arbiter": "the arbiter"}


class PgnError(NotationError):
    """A PGN file that cannot be read; the message names the line and the problem."""


# ------------------------------------------------------------------- writing
def format_pgn(record: GameRecord) -> str:
    """The record as Hive PGN (LF line ends, final newline)."""
    result = record.result
    tags = {"GameType": str(record.game_type), **{t: record.tags.get(t, "") for t in STANDARD_TAGS},
            "Result": result.value}
    if record.declared is not None:
        tags["Termination"] = record.declared.termination.value
    if record.setup is not None:
        tags.update(SetUp="1", Position=str(record.setup))
    for tag, option in _OPTION_TAGS.items():
        if getattr(record.options, option):
            tags[tag] = "true"
    tags.update((name, value) for name, value in record.tags.items() if name not in tags)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    if record.moves or record.comment or record.attempts:
        lines.append("")
    if record.comment:
        lines.append("{" + record.comment + "}")
    lines += _attempt_lines(record, 0)
    for number, (entry, times) in enumerate(zip(record.moves, _move_times(record)), start=1):
        lines.append(f"{number}. {entry.uhp}")
        parts = list(times)
        if entry.mark is not None:
            parts.append(f"[%mark {entry.mark.value}]")
        if entry.comment:
            parts.append(entry.comment)
        if parts:
            lines.append("{" + " ".join(parts) + "}")
        lines += _attempt_lines(record, number)
    if result.is_over:
        lines += ["", result.value]
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _move_times(record: GameRecord) -> list[list[str]]:
    """Each move's time commands: thinking time (whole seconds of the game clock, so they add up
    to the move's time) and, with a time control, the time left; a date-time as it is."""
    control = record.time_control
    lefts = times_left(record, control) if control else None
    commands: list[list[str]] = []
    before = 0
    for index, (entry, seconds) in enumerate(zip(record.moves, move_seconds(record))):
        if isinstance(entry.timestamp, str):
            commands.append([f"[%time {entry.timestamp}]"])
            continue
        if entry.timestamp is None:
            commands.append([])
            continue
        now = int(seconds)
        commands.append([f"[%emt {format_clock(now - before)}]"]
                        + ([f"[%clk {format_clock(lefts[index])}]"] if lefts else []))
        before = now
    return commands


def _attempt_lines(record: GameRecord, ply: int) -> list[str]:
    lines = []
    for attempt in record.attempts:
        if attempt.ply != ply:
            continue
        at = "" if attempt.timestamp is None else f" [%at {format_clock(attempt.timestamp)}]"
        ending = attempt.resolution if attempt.by is None else f"{attempt.resolution} by {_BY[attempt.by]}"
        lines.append(f"{{[%illegal {attempt.uhp}] [%player {attempt.colour.value}]{at} [%rule {attempt.rule}] "
                     f"{attempt.message}; {ending}}}")
    return lines


# ------------------------------------------------------------------- reading
@dataclass
class _Entry:
    line: int
    number: int | None
    words: list[str]
    comments: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass
class _Parsed:
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    entries: list[_Entry] = field(default_factory=list)
    game_comments: list[str] = field(default_factory=list)
    result: tuple[str, int] | None = None


def parse_pgn(text: str, options: RuleOptions | None = None) -> GameRecord:
    """Read one Hive PGN game; ``options`` overrides the rule options its tags give."""
    parsed = _scan(text.lstrip("\ufeff"))
    if "GameType" not in parsed.tags:
        raise PgnError("line 1: no [GameType \"...\"] tag, so this is not a Hive PGN game")
    game_type_text, line = parsed.tags["GameType"]
    try:
        game_type = GameType.parse(game_type_text)
    except ValueError as exc:
        raise PgnError(f"line {line}: {exc}") from None
    record = GameRecord(game_type, options or _options(parsed.tags), _setup(parsed.tags, game_type))
    for name, (value, line) in parsed.tags.items():
        if name not in DERIVED_TAGS:
            try:
                record.set_tag(name, value)
            except ValueError as exc:
                raise PgnError(f"line {line}: {exc}") from None
    notes = [c for c in parsed.game_comments if not c.startswith("[%illegal")]
    try:
        record.comment = "\n".join(notes)
    except ValueError as exc:
        raise PgnError(f"line 1: the comment before the moves: {exc}") from None
    _add_attempts(record, [c for c in parsed.game_comments if c.startswith("[%illegal")], "before the first move")
    elapsed = 0
    for ply, entry in enumerate(parsed.entries, start=1):
        elapsed = _append(record, ply, entry, elapsed)
    _settle_result(record, parsed)
    return record


def _setup(tags: dict[str, tuple[str, int]], game_type: GameType) -> Setup | None:
    """The set-up position of ``[SetUp "1"]`` and ``[Position "..."]``, if any."""
    flag, position = tags.get("SetUp"), tags.get("Position")
    if flag is None or flag[0] == "0":
        if position is not None:
            raise PgnError(f"line {position[1]}: [Position] without [SetUp \"1\"]")
        return None
    if flag[0] != "1" or position is None:
        raise PgnError(f"line {flag[1]}: [SetUp] must be \"1\" with a [Position \"...\"] tag (or \"0\")")
    try:
        setup = Setup.parse(position[0])
        setup.check_game_type(game_type)
    except ValueError as exc:
        raise PgnError(f"line {position[1]}: the set-up position: {exc}") from None
    return setup


def _options(tags: dict[str, tuple[str, int]]) -> RuleOptions:
    chosen = {}
    for tag, option in _OPTION_TAGS.items():
        if tag in tags:
            value, line = tags[tag]
            if value.lower() not in ("true", "false"):
                raise PgnError(f"line {line}: [{tag}] must be \"true\" or \"false\", not {value!r}")
            chosen[option] = value.lower() == "true"
    return RuleOptions(**chosen)


def _scan(text: str) -> _Parsed:
    """Tags, moves with their comments, and the result token, with line numbers.

    Linear in the text: each line is walked once by index, never re-sliced per comment.
    """
    parsed = _Parsed()
    comment: list[str] | None = None  # the lines of a comment still open
    comment_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if comment is None and raw.lstrip().startswith("["):
            _scan_text(parsed, raw, number)  # a tag: braces in its value are text
            continue
        pos = 0
        while True:
            if comment is not None:
                close = raw.find("}", pos)
                if close < 0:
                    comment.append(raw[pos:])
                    break
                comment.append(raw[pos:close])
                _attach_comment(parsed, "\n".join(comment).strip())
                comment, pos = None, close + 1
            opening = raw.find("{", pos)
            _scan_text(parsed, raw[pos:] if opening < 0 else raw[pos:opening], number)
            if opening < 0:
                break
            comment, comment_line, pos = [], number, opening + 1
    if comment is not None:
        raise PgnError(f"line {comment_line}: a comment opened with '{{' is never closed")
    return parsed


def _scan_text(parsed: _Parsed, text: str, line: int) -> None:
    text = text.strip()
    if not text:
        return
    if parsed.result is not None:
        raise PgnError(f"line {line}: {text[:40]!r} follows the result {parsed.result[0]!r} "
                       "(one game per file)")
    if text.startswith("["):
        _scan_tag(parsed, text, line)
        return
    current: _Entry | None = None
    for token in text.split():
        numbered = _NUMBER.fullmatch(token)
        if numbered:
            if len(numbered.group(1)) > _MAX_NUMBER_DIGITS:
                raise PgnError(f"line {line}: move number {numbered.group(1)[:12]}... is too large")
            current = _Entry(line, int(numbered.group(1)), [numbered.group(2)] if numbered.group(2) else [])
            parsed.entries.append(current)
        elif token in _RESULTS and (current is None or current.words):
            parsed.result = (token, line)
        elif parsed.result is not None:
            raise PgnError(f"line {line}: {token[:40]!r} follows the result {parsed.result[0]!r}")
        elif current is None:
            current = _Entry(line, None, [token])
            parsed.entries.append(current)
        else:
            current.words.append(token)
    if current is not None and not current.words:
        raise PgnError(f"line {line}: move number {current.number} has no move after it")


def _scan_tag(parsed: _Parsed, text: str, line: int) -> None:
    if parsed.entries:
        raise PgnError(f"line {line}: tag {text!r} after the moves (one game per file)")
    match = _TAG.fullmatch(text)
    if match is None:
        raise PgnError(f"line {line}: {text!r} is not a tag like [White \"name\"]")
    name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
    if name in parsed.tags:
        raise PgnError(f"line {line}: tag {name} appears twice (first on line {parsed.tags[name][1]})")
    parsed.tags[name] = (value, line)


def _attach_comment(parsed: _Parsed, comment: str) -> None:
    if comment:
        (parsed.entries[-1].comments if parsed.entries else parsed.game_comments).append(comment)


def _append(record: GameRecord, ply: int, entry: _Entry, elapsed: int) -> int:
    """Record ``entry``'s move and the attempts after it; return the game clock after it
    (whole seconds: the thinking times so far)."""
    shown = entry.text if len(entry.text) <= 40 else entry.text[:40] + "..."
    where = f"line {entry.line}: move {ply} ({shown!r})"
    if entry.number is not None and entry.number != ply:
        raise PgnError(f"{where} is numbered {entry.number}; moves are numbered by half-move from 1")
    attempts = [c for c in entry.comments if c.startswith("[%illegal")]
    commands: dict[str, str] = {}
    notes = []
    for comment in entry.comments:
        if comment in attempts:
            continue
        for command, value in _COMMAND.findall(comment):
            if command in _MOVE_COMMANDS:
                if command in commands:
                    raise PgnError(f"{where} has two [%{command}] comments")
                commands[command] = value.strip()
        notes.append(_COMMAND.sub(lambda m: "" if m.group(1) in _MOVE_COMMANDS else m.group(0), comment).strip())
    timestamp: Timestamp | None = None
    try:
        if "emt" in commands:
            elapsed += parse_clock(commands["emt"])
            timestamp = elapsed
        elif "time" in commands:
            timestamp = _parse_timestamp(commands["time"])
        record.append(entry.text, timestamp, commands.get("mark"), "\n".join(n for n in notes if n))
    except IllegalMoveError as exc:
        raise PgnError(f"{where} is illegal: {exc}") from exc
    except ValueError as exc:
        raise PgnError(f"{where}: {exc}") from exc
    _add_attempts(record, attempts, f"after move {ply} (line {entry.line})")
    return elapsed


def _add_attempts(record: GameRecord, comments: list[str], where: str) -> None:
    for comment in comments:
        try:
            record.add_attempt(_attempt(comment, len(record.moves)))
        except ValueError as exc:
            raise PgnError(f"the illegal attempt {where}: {exc}") from None


def _attempt(comment: str, ply: int) -> IllegalAttempt:
    """An ``{[%illegal ...]}`` comment read back (see the module docstring)."""
    commands = {name: value.strip() for name, value in _COMMAND.findall(comment)}
    text, _, ending = _COMMAND.sub("", comment).strip().rpartition("; ")
    resolution, by = ending, None
    for code, name in _BY.items():
        if ending.endswith(f" by {name}"):
            resolution, by = ending[:-len(f" by {name}")], code
    if "player" not in commands or "rule" not in commands:
        raise ValueError("it needs [%player w|b] and [%rule ...]")
    at = commands.get("at")
    return IllegalAttempt(ply, commands["illegal"], Colour(commands["player"]), commands["rule"], text,
                          None if at is None else float(parse_clock(at)), resolution, by)


def _parse_timestamp(value: str) -> Timestamp:
    try:
        return float(value)
    except ValueError:
        return value  # an ISO date-time; GameRecord.append checks it


def _settle_result(record: GameRecord, parsed: _Parsed) -> None:
    """Check the stated result against the moves; adopt one the board cannot show."""
    stated: list[tuple[GameState | None, str, int]] = []
    for token, line in filter(None, [parsed.tags.get("Result"), parsed.result]):
        if token not in _RESULTS:
            raise PgnError(f"line {line}: result {token!r} is not one of {', '.join(_RESULTS)}")
        stated.append((_RESULTS[token], token, line))
    outcomes = {s for s, _, _ in stated if s is not None and s.is_over}
    if len(outcomes) > 1:
        raise PgnError(f"line {stated[-1][2]}: the result {stated[-1][1]!r} contradicts "
                       f"[Result \"{stated[0][1]}\"]")
    termination = parsed.tags.get("Termination")
    board_state = record.result
    if not outcomes:
        if termination is not None:
            raise PgnError(f"line {termination[1]}: [Termination] given, but no finished result")
        return
    outcome, line = next((s, line) for s, _, line in stated if s in outcomes and s is not None)
    if board_state.is_over:
        if outcome is not board_state:
            raise PgnError(f"line {line}: the result {outcome.value} contradicts the moves, "
                           f"which end in {board_state.value}")
        if termination is not None:
            raise PgnError(f"line {termination[1]}: [Termination] given, but the game ended on the board")
        return
    try:
        ending = Termination(termination[0]) if termination else Termination.REPORTED
        record.declare(Outcome.from_state(outcome, ending))
    except ValueError as exc:
        raise PgnError(f"line {termination[1] if termination else line}: {exc}") from None
