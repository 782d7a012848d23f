"""The current game: one referee, its log on disk and the live pages, behind one lock.

Everything that changes the game (a camera observation or a person's decision) goes
through ``GameService``: the referee judges it, the events and the record are saved,
and only then are they published to the pages.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from datetime import datetime
from typing import Any, Callable

from rules.gametype import GameType, RuleOptions
from rules.observation import Observation
from rules.pieces import Bug, Colour, Piece
from rules.record import GameRecord
from rules.referee import Event, Referee, RefereeConfig, TablePosition
from rules.setup import Setup
from webui import pagedata
from webui.hub import Hub
from webui.store import GameStore

log = logging.getLogger("hivecam.game")


class GameService:
    """Owns the referee of the current game; every method is thread-safe."""

    def __init__(self, store: GameStore, hub: Hub, config: RefereeConfig | None = None,
                 first: GameRecord | None = None, site: str = "hivecam",
                 table_bare: Callable[[list[tuple[float, float]]], None] | None = None) -> None:
        """Resume the latest game of ``store``; with none, start ``first`` (default Base+MLP).
        ``site`` (the board's name) is the ``Site`` of every game begun here; ``table_bare`` (e.g.
        ``Detector.table_bare``) is told when a new game begins on the empty board, with where the
        last game's tiles lay in the camera's last steady view (they may not be cleared away yet)."""
        self.store, self.hub, self.site, self.table_bare = store, hub, site, table_bare
        self.config = config or RefereeConfig()
        self._lock = threading.RLock()
        self.camera: dict[str, Any] = {"status": "starting", "message": "opening the camera"}
        self.notices: list[str] = []  # what the pages must say about the log (set aside, damaged games)
        if store.quarantined is not None:
            self.notices.append(f"The game log was damaged and has been set aside as {store.quarantined}; "
                                "a new log began. The games in the old one are not shown.")
        latest = store.latest()
        if latest is not None:
            try:
                self._resume(latest)
                return
            except (ValueError, KeyError) as exc:  # a log row that no longer replays (edited by hand?)
                log.error("game %d cannot be resumed (%s): it stays in the log; a new game begins", latest, exc)
                self.notices.append(f"Game {latest} could not be resumed ({exc}); a new game began.")
        self._start(first or new_record("Base+MLP", RuleOptions()))

    # ----------------------------------------------------------------- games
    def _start(self, record: GameRecord) -> None:
        """Referee ``record`` (empty, or a set-up position) as a new game of the log; its clock starts now."""
        record.set_tag("Site", record.tags.get("Site") or self.site)
        self.referee = Referee.resume(record, self.config)
        self.game_id = self.store.create(self.referee.record, self.config.illegal_move_limit)
        self._set_clock(0.0)
        start = f"from the position on the table ({record.setup})" if record.setup else "from the empty board"
        log.info("game %d: new %s game, %s, %s", self.game_id, record.game_type, _players(record), start)

    def _resume(self, game_id: int) -> None:
        stored = self.store.load(game_id)
        self.config = replace(self.config, illegal_move_limit=stored.illegal_move_limit)
        self.referee = Referee.resume(stored.record, self.config, stored.warnings)
        self.game_id = game_id
        times = [m.timestamp for m in stored.record.moves if isinstance(m.timestamp, (int, float))]
        self._set_clock(max(times, default=0.0))

    def _set_clock(self, seconds: float) -> None:
        """Let the game clock read ``seconds`` now. It runs on the monotonic clock: a Pi has no
        real-time clock and its wall time jumps when the network sets it."""
        self._clock_zero = time.monotonic() - seconds

    def new_game(self, game_type: str, options: RuleOptions, white: str = "", black: str = "",
                 illegal_move_limit: int | None = None, setup: Setup | None = None, **tags: str) -> dict[str, Any]:
        """Start a new game (the current one stays in the log as it is), from ``setup`` if given;
        ``tags`` such as ``Event`` and ``Round`` go into its record."""
        record = new_record(game_type, options, white, black, setup, **tags)
        with self._lock:
            self.config = replace(self.config, illegal_move_limit=illegal_move_limit)
            left = [centre for centre, _ in self.referee.identified()]
            self._start(record)
            if self.table_bare is not None and setup is None:
                self.table_bare(left)
            self._publish([{"kind": "new_game", "time": 0.0, "game_id": self.game_id}], time.time())
            return self.snapshot()

    def record_key(self) -> tuple[int, int]:
        """The current game and the number of moves recorded in it: changes with every move."""
        with self._lock:
            return self.game_id, len(self.referee.record.moves)

    def creatures(self) -> tuple[Bug, ...]:
        """The creatures of the current game's type (a Base game has no Mosquito)."""
        with self._lock:
            return self.referee.record.game_type.bugs

    def identified(self) -> list[tuple[tuple[float, float], Piece]]:
        """The tops of the camera's last steady view that the record names (``Referee.identified``)."""
        with self._lock:
            return self.referee.identified()

    def explained_away(self) -> list[tuple[float, float]]:
        """Where the camera's last steady view saw tiles the record took for the table
        (``Referee.explained_away``)."""
        with self._lock:
            return self.referee.explained_away()

    def table_position(self) -> TablePosition:
        """The position on the table in the camera's last steady view, with its questions;
        ``ValueError`` before the camera has shown one."""
        with self._lock:
            return self.referee.table_position()

    def start_from_table(self, answer: Callable[[TablePosition], Setup], game_type: str, options: RuleOptions,
                         white: str = "", black: str = "", illegal_move_limit: int | None = None,
                         **tags: str) -> dict[str, Any]:
        """A new game from the position on the table, as ``answer`` (the person's answers to its
        questions) makes it a set-up; ``ValueError`` when there is none or the answers do not fit."""
        with self._lock:
            setup = answer(self.referee.table_position())
            return self.new_game(game_type, options, white, black, illegal_move_limit, setup, **tags)

    def clock(self) -> float:
        """Seconds of play watched in the current game (observation timestamps, move times);
        after a restart it goes on from the last recorded move."""
        return time.monotonic() - self._clock_zero

    def stamp(self) -> tuple[int, float]:
        """The current game and its clock, read together: what a frame is taken for."""
        with self._lock:
            return self.game_id, self.clock()

    # ---------------------------------------------------------------- inputs
    def observe(self, observation: Observation, game_id: int | None = None) -> list[dict[str, Any]]:
        """Feed one camera observation; return (and save, then publish) the events it caused.

        An observation stamped for another game (a frame taken before a new game began) is
        dropped: its timestamp belongs to that game's clock.
        """
        with self._lock:
            if game_id is not None and game_id != self.game_id:
                return []
            made = time.time()
            return self._commit(self.referee.observe(observation), made)

    def act(self, action: Callable[[Referee], list[Event]]) -> list[dict[str, Any]]:
        """Carry out a person's decision, e.g. ``act(lambda r: r.confirm("wS1"))``.

        ``ValueError`` (nothing to confirm, an illegal correction, ...) leaves the game unchanged.
        """
        with self._lock:
            made = time.time()
            data = self._commit(action(self.referee), made)
            if not data:  # settled without an event ("nothing" was played): the pages still change
                self._publish([], made)
            return data

    def _commit(self, events: list[Event], made: float) -> list[dict[str, Any]]:
        if not events:
            return []
        data = [e.to_dict() for e in events]
        ref = self.referee
        self.store.save(self.game_id, ref.record, ref.warnings, data)
        for event in data:
            _log_event(self.game_id, event)
        self._publish(data, made)
        return data

    def _publish(self, events: list[dict[str, Any]], made: float) -> None:
        """Send events to the pages; ``made`` (epoch seconds) is when they happened, so a page
        on the same machine can measure how long they took to arrive."""
        self.hub.publish("update", {"events": events, "state": self.snapshot(), "made": made})

    def set_camera(self, status: str, message: str) -> None:
        """Record and announce the camera's state (``ok``, ``reconnecting``, ``ended``, ...); a
        change of status is logged (not each retry)."""
        with self._lock:
            if self.camera == {"status": status, "message": message}:
                return
            if self.camera["status"] != status:
                log.log(logging.INFO if status in ("ok", "ended") else logging.WARNING, "camera: %s", message)
            self.camera = {"status": status, "message": message}
            self.hub.publish("camera", self.camera)

    # ----------------------------------------------------------------- views
    def snapshot(self) -> dict[str, Any]:
        """The whole game as the page shows it (``pagedata.live_state``)."""
        with self._lock:
            return pagedata.live_state(self.referee, self.game_id, self.camera, self.clock())

    def record(self, game_id: int) -> GameRecord:
        """A game of the log as stored (the current one is saved after every change)."""
        with self._lock:
            return self.store.load(game_id).record


def new_record(game_type: str, options: RuleOptions, white: str = "", black: str = "", setup: Setup | None = None,
               **tags: str) -> GameRecord:
    """A game record with no moves yet (from ``setup`` if given), its date and start time now (local time)."""
    record = GameRecord(GameType.parse(game_type), options, setup, White=white, Black=black, **tags)
    record.set_start(datetime.now())
    return record


def _players(record: GameRecord) -> str:
    return f"{record.tags.get('White') or 'White'} - {record.tags.get('Black') or 'Black'}"


def _log_event(game_id: int, event: dict[str, Any]) -> None:
    """One log line for what matters in the game's history (not views or reminders)."""
    line = _event_line(event)
    if line is not None:
        level = logging.WARNING if event["kind"] in ("illegal", "misread", "needs_confirmation") else logging.INFO
        log.log(level, "game %d: %s", game_id, line)


def _event_line(event: dict[str, Any]) -> str | None:
    kind = event["kind"]
    if kind == "move":
        decided = {"override": ", kept by the arbiter against the rules",
                   "correction": ", entered by a person"}.get(event["mark"] or "", "")
        return f"move {event['ply']} {event['uhp']}{decided}{', confirmed by a person' if event['confirmed'] else ''}"
    if kind == "pass":
        return f"move {event['ply']} pass ({'White' if event['colour'] == 'w' else 'Black'} cannot move)"
    if kind == "illegal":
        return (f"illegal move by {'White' if event['player'] == 'w' else 'Black'}: {event['attempted']} "
                f"({event['rule']}; warning {event['warnings']})")
    if kind == "takeback":
        return "the illegal move was taken back"
    if kind == "undo":
        return f"taken back by a person: {', '.join(event['undone'])}"
    if kind == "renamed":
        return f"the tile recorded as {event['old']} was {event['new']}: the record is retold from move {event['ply']}"
    if kind == "game_over":
        return f"game over: {event['state']} ({event['reason']})"
    if kind == "misread":
        return f"the camera's view makes no sense: {event['message']}"
    if kind == "needs_confirmation":
        return f"a person must choose ({event['reason']}): {' or '.join(event['candidates'])}"
    return None


def colour_of(text: str) -> Colour:
    """``w``/``b`` (or ``white``/``black``) as a Colour; ``ValueError`` otherwise."""
    value = {"w": "w", "white": "w", "b": "b", "black": "b"}.get(str(text).strip().lower())
    if value is None:
        raise ValueError(f"colour must be 'w' or 'b', not {text!r}")
    return Colour(value)
