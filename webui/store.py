"""The game log: every game, its moves and every event, in SQLite.

Durability: WAL journal with ``synchronous=FULL``. A commit happens only when the referee
reports something (a few per move, never per frame), so the extra fsync costs nothing that
matters, and FULL makes a commit survive a power cut, not just a crash of the process
(NORMAL in WAL mode may lose the last commits on power loss). The live page shows an
event only after ``save`` returned, so what a viewer saw is always on disk.
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from rules.gametype import RuleOptions
from rules.pieces import Colour
from rules.move import GameState, Outcome, Termination
from rules.record import GameRecord, IllegalAttempt
from rules.setup import Setup
from webui.text import is_plain_text

log = logging.getLogger("hivecam.store")

OPTIONS = ("queen_may_open", "repetition_draw")
MAX_ILLEGAL_MOVE_LIMIT = 99
MAX_GAME_ID = 2 ** 63 - 1  # SQLite's largest integer

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    game_type TEXT NOT NULL,
    options TEXT NOT NULL,
    tags TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT 'NotStarted',
    ending TEXT,
    warnings TEXT NOT NULL DEFAULT '{}',
    moves INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    uhp TEXT NOT NULL,
    timestamp TEXT,
    mark TEXT,
    comment TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
"""
# Changes since the first schema, in order: a log is brought up to date when it is opened
# (``PRAGMA user_version`` counts those done), so a log of an older hivecam keeps every game.
MIGRATIONS = (
    """CREATE TABLE attempts (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        uhp TEXT NOT NULL,
        colour TEXT NOT NULL,
        rule TEXT NOT NULL,
        message TEXT NOT NULL,
        timestamp REAL,
        resolution TEXT NOT NULL,
        resolved_by TEXT,
        PRIMARY KEY (game_id, seq)
    )""",
    "ALTER TABLE games ADD COLUMN setup TEXT",  # a game picked up from the table: its Position text
    "ALTER TABLE games ADD COLUMN demo INTEGER NOT NULL DEFAULT 0",  # 1: a demo game, kept but not listed
)


class DamagedGame(ValueError):
    """A game of the log holds values hivecam never writes (edited by hand, or damaged)."""


@dataclass(frozen=True)
class StoredGame:
    """A game as logged: the record (moves replayed and checked), warnings and settings."""

    record: GameRecord
    warnings: dict[Colour, int]
    illegal_move_limit: int | None


@dataclass(frozen=True)
class GameSummary:
    """One row of the list of past games."""

    id: int
    created: float
    game_type: str
    white: str
    black: str
    result: str
    moves: int
    problem: str = ""  # why the game cannot be shown (a damaged row), else ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class GameStore:
    """All games in one SQLite file; safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the log at ``path``. A file that is not a sound SQLite database is
        never overwritten: it is renamed aside (``quarantined`` says where) and a new log begins.
        Every value is checked when read: a damaged game is reported (``DamagedGame``, or its
        ``problem`` in the list) and left as it is, never served half-read."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.quarantined: Path | None = None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.quarantined = self._set_aside(exc)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            problem = db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(problem)
            db.executescript(SCHEMA)
            _migrate(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _set_aside(self, error: sqlite3.DatabaseError) -> Path:
        """Rename the damaged log and its WAL files to ``NAME.corrupt-TIME``; return the new name."""
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.exists():
                source.rename(aside.with_name(aside.name + suffix))
        log.error("%s is damaged (%s): kept as %s, a new game log begins", self.path, error, aside)
        return aside

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock, atomic(self._db):
            yield

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, record: GameRecord, illegal_move_limit: int | None = None) -> int:
        """Store a new, empty game; return its id."""
        options = {"queen_may_open": record.options.queen_may_open,
                   "repetition_draw": record.options.repetition_draw, "illegal_move_limit": illegal_move_limit}
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created, game_type, options, tags, result, setup) VALUES (?, ?, ?, ?, ?, ?)",
                (time.time(), str(record.game_type), json.dumps(options), json.dumps(record.tags),
                 record.result.value, None if record.setup is None else str(record.setup)))
            return int(cursor.lastrowid)

    def save(self, game_id: int, record: GameRecord, warnings: dict[Colour, int],
             events: Iterable[dict[str, Any]]) -> None:
        """Write ``events`` and the record's moves, result and warnings in one transaction."""
        rows = [(game_id, e["kind"], json.dumps(e)) for e in events]
        moves = [(game_id, ply, m.uhp, None if m.timestamp is None else str(m.timestamp),
                  m.mark.value if m.mark else None, m.comment) for ply, m in enumerate(record.moves, start=1)]
        attempts = [(game_id, seq, a.ply, a.uhp, a.colour.value, a.rule, a.message, a.timestamp, a.resolution, a.by)
                    for seq, a in enumerate(record.attempts)]
        with self._transaction():
            self._db.executemany("INSERT INTO events (game_id, kind, data) VALUES (?, ?, ?)", rows)
            self._db.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, len(moves)))
            self._db.executemany("INSERT OR REPLACE INTO moves VALUES (?, ?, ?, ?, ?, ?)", moves)
            self._db.execute("DELETE FROM attempts WHERE game_id = ?", (game_id,))
            self._db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", attempts)
            self._db.execute(
                "UPDATE games SET result = ?, ending = ?, warnings = ?, moves = ?, tags = ? WHERE id = ?",
                (record.result.value, record.declared.termination.value if record.declared else None,
                 json.dumps({c.value: n for c, n in warnings.items()}), len(moves), json.dumps(record.tags),
                 game_id))

    def keep_latest(self, count: int) -> None:
        """Delete every game but the ``count`` most recent (the demo's own log keeps the game being
        played and the one before it, so a finished demo game stays open to replay while the next plays)."""
        with self._transaction():
            kept = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id DESC LIMIT ?", (count,))]
            marks = ",".join("?" * len(kept))
            for table in ("events", "moves", "attempts"):
                self._db.execute(f"DELETE FROM {table} WHERE game_id NOT IN ({marks})", kept)
            self._db.execute(f"DELETE FROM games WHERE id NOT IN ({marks})", kept)

    def latest(self) -> int | None:
        """The id of the most recent game (not a demo game), or None."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games WHERE demo = 0").fetchone()
        return row[0]

    def hide_demo_games(self, white: str, black: str, moves: Sequence[str]) -> int:
        """Mark the games between ``white`` and ``black`` whose moves begin ``moves`` as demo
        games: kept in the log, but neither listed nor resumed (older hivecams logged the demo
        with the real games). Return how many were marked."""
        with self._lock:
            rows = self._db.execute("SELECT id, tags FROM games WHERE demo = 0").fetchall()
        found = []
        for game_id, tags in rows:
            try:
                names = _tags(tags)
            except (ValueError, TypeError):
                continue  # a damaged game is listed with its problem, as before
            if (names.get("White"), names.get("Black")) != (white, black):
                continue
            played = self._played(game_id)
            if played == list(moves[:len(played)]):
                found.append(game_id)
        with self._transaction():
            self._db.executemany("UPDATE games SET demo = 1 WHERE id = ?", [(game_id,) for game_id in found])
        if found:
            log.info("%s: %d demo game(s) of an older hivecam kept but no longer listed", self.path, len(found))
        return len(found)

    def _played(self, game_id: int) -> list[str]:
        with self._lock:
            return [uhp for (uhp,) in self._db.execute("SELECT uhp FROM moves WHERE game_id = ? ORDER BY ply",
                                                       (game_id,)).fetchall()]

    def has(self, game_id: int) -> bool:
        """Whether the log holds game ``game_id`` (damaged or not)."""
        if not 1 <= game_id <= MAX_GAME_ID:
            return False
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def load(self, game_id: int) -> StoredGame:
        """A stored game; ``KeyError`` if there is none with this id, ``DamagedGame`` if its
        stored values do not make a game."""
        with self._lock:
            return read_game(self._db, game_id)

    def games(self, limit: int = 200) -> list[GameSummary]:
        """Past games, newest first; a damaged one says its ``problem``."""
        with self._lock:
            rows = self._db.execute("SELECT id, created, game_type, tags, result, moves FROM games WHERE demo = 0 "
                                    "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        summaries = []
        for game_id, created, game_type, tags, result, moves in rows:
            try:
                names = _tags(tags)
                summaries.append(GameSummary(game_id, _number(created, "created"), _text(game_type, "game_type"),
                                             names.get("White", ""), names.get("Black", ""),
                                             GameState(result).value, _count(moves, "moves")))
            except (ValueError, TypeError) as exc:
                summaries.append(GameSummary(game_id, 0.0, "", "", "", "", 0, f"damaged in the log ({exc})"))
        return summaries

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Every event stored for a game, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT data FROM events WHERE game_id = ? ORDER BY id", (game_id,)).fetchall()
        return [json.loads(data) for (data,) in rows]


def read_game(db: sqlite3.Connection, game_id: int) -> StoredGame:
    """Game ``game_id`` of the log ``db``; ``KeyError`` if there is none, ``DamagedGame`` if
    its stored values do not make a game."""
    version = _version(db)  # a log of an older hivecam read without changing it (doctor)
    setup = "setup" if version >= 2 else "NULL"
    game = db.execute(f"SELECT game_type, options, tags, result, ending, warnings, {setup} FROM games WHERE id = ?",
                      (game_id,)).fetchone()
    if game is None:
        raise KeyError(game_id)
    moves = db.execute("SELECT uhp, timestamp, mark, comment FROM moves WHERE game_id = ? ORDER BY ply",
                       (game_id,)).fetchall()
    attempts = db.execute("SELECT ply, uhp, colour, rule, message, timestamp, resolution, resolved_by FROM attempts "
                          "WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall() if version >= 1 else []
    try:
        return _stored_game(*game, moves, attempts)
    except (ValueError, TypeError) as exc:
        raise DamagedGame(f"game {game_id} in the log is damaged ({exc}); it is kept as it is") from None


def damaged_games(db: sqlite3.Connection, limit: int = 200) -> list[str]:
    """What is wrong with each damaged game among the latest ``limit`` of the log ``db``."""
    problems = []
    for (game_id,) in db.execute("SELECT id FROM games ORDER BY id DESC LIMIT ?", (limit,)).fetchall():
        try:
            read_game(db, game_id)
        except DamagedGame as exc:
            problems.append(str(exc))
    return problems


@contextmanager
def atomic(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction on ``db``, all or nothing (the connection otherwise commits each statement)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.commit()


def _migrate(db: sqlite3.Connection) -> None:
    """Apply the ``MIGRATIONS`` this log has not had yet, each in its own transaction."""
    for version, change in enumerate(MIGRATIONS, start=1):
        if _version(db) < version:
            with atomic(db):
                db.execute(change)
                db.execute(f"PRAGMA user_version = {version}")
            log.info("%s: game log brought to schema version %d", db.execute("PRAGMA database_list").fetchone()[2],
                     version)


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _stored_game(game_type: Any, options: Any, tags: Any, result: Any, ending: Any, warnings: Any, setup: Any,
                 moves: list[tuple[Any, ...]], attempts: list[tuple[Any, ...]]) -> StoredGame:
    """The game these stored values make; ``ValueError`` or ``TypeError`` says what is wrong."""
    settings = _json_object(options, "options")
    unknown = set(settings) - {*OPTIONS, "illegal_move_limit"}
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r}")
    limit = settings.pop("illegal_move_limit", None)
    if limit is not None and not (type(limit) is int and 1 <= limit <= MAX_ILLEGAL_MOVE_LIMIT):
        raise ValueError(f"illegal_move_limit {limit!r}")
    if not all(type(settings[name]) is bool for name in settings):
        raise ValueError("options must be true or false")
    position = None if setup is None else Setup.parse(_text(setup, "setup"))
    record = GameRecord(_text(game_type, "game_type"), RuleOptions(**settings), position, **_tags(tags))
    tried = [_attempt(*row) for row in attempts]
    for uhp, timestamp, mark, comment in moves:
        _add_attempts(record, tried)
        record.append(_text(uhp, "move"), timestamp=_timestamp(timestamp), mark=mark, comment=_text(comment, "comment"))
    _add_attempts(record, tried)
    if tried:
        raise ValueError(f"an illegal attempt after move {tried[0].ply}, which was never recorded")
    if ending is not None:
        record.declare(Outcome.from_state(GameState(result), Termination(ending)))
    elif GameState(result) != record.result:
        raise ValueError(f"result {result!r} does not follow from the moves")
    marks = _json_object(warnings, "warnings")
    return StoredGame(record, {Colour(c): _count(n, "warnings") for c, n in marks.items()}, limit)


def _attempt(ply: Any, uhp: Any, colour: Any, rule: Any, message: Any, timestamp: Any, resolution: Any,
             by: Any) -> IllegalAttempt:
    if timestamp is not None:
        timestamp = _number(timestamp, "attempt timestamp")
    return IllegalAttempt(_count(ply, "attempt ply"), _text(uhp, "attempt"), Colour(colour), _text(rule, "rule"),
                          _text(message, "message"), timestamp, _text(resolution, "resolution"),
                          None if by is None else _text(by, "resolved by"))


def _add_attempts(record: GameRecord, tried: list[IllegalAttempt]) -> None:
    """Move the attempts made after the moves recorded so far from ``tried`` into ``record``."""
    while tried and tried[0].ply == len(record.moves):
        record.add_attempt(tried.pop(0))


def _json_object(text: Any, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} nests too deep") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def _tags(text: Any) -> dict[str, str]:
    tags = _json_object(text, "tags")
    for name, value in tags.items():
        if not isinstance(value, str) or not is_plain_text(value) or not is_plain_text(name):
            raise ValueError(f"tag {name!r} is not one line of plain text")
    return tags


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not is_plain_text(value, multiline=what == "comment"):
        raise ValueError(f"{what} {value!r} is not plain text")
    return value


def _number(value: Any, what: str) -> float:
    if not isinstance(value, (int, float)):
        raise ValueError(f"{what} {value!r} is not a number")
    return float(value)


def _count(value: Any, what: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{what} {value!r} is not a count")
    return value


def _timestamp(text: Any) -> float | str | None:
    """Stored move times: seconds as a number, or ISO text as it was."""
    if text is None:
        return None
    _text(text, "timestamp")
    try:
        seconds = float(text)
    except ValueError:
        return text
    if not math.isfinite(seconds):
        raise ValueError(f"timestamp {text!r} is not a time")
    return seconds
