"""The ``Referee``: camera observations in, events and a checked game record out.

Each steady view (see ``stability``) is judged against the recorded position
(``inference.judge``): a legal move, or a pair of moves, is recorded; a change no legal
move makes is announced as illegal and waited on until the players take it back, an
arbiter overrides it or a person corrects the reading; doubt is put to a person, and so is
a move out of turn that the camera more likely caused (see ``doubt``). A view whose new
tile is read unsure is looked at again before a person is asked, and if the next move
comes first, judged together with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence, TypeVar

from ..board import Board
from ..clock import ClockState, clock_state
from ..move import PASS, GameState, Move, Outcome, Termination
from ..explain import Rule, Violation, why_illegal
from ..gametype import GameType, RuleOptions
from ..hexgrid import Hex
from ..observation import Observation, TileSighting
from ..pieces import Colour, Piece
from ..record import GameRecord, IllegalAttempt, Mark
from ..rulebook import citation
from ..setup import setup_of
from .config import RefereeConfig
from .events import (Event, GameOverEvent, IllegalEvent, MisreadEvent, MoveEvent,
                     NeedsConfirmationEvent, PassEvent, QueenDueEvent, RenamedEvent, TakebackEvent,
                     UndoEvent, ViewEvent)
from .apart import set_aside
from .attempts import Attempt, Misread, offender
from .doubt import (MOST_AT_ONCE, NOTHING, RESUMED_REASON, colour_doubt, handless_message, lenient_moves_reason,
                    many_moves_reason, missed_move_message, second_move_message, unconfirmed_message,
                    unseen_move_reason, view_doubt)
from .identity import Renaming, parse_renaming, renamed, suspects
from .inference import Explained, Explanation, judge, nearest_moves, shown_moves
from .scene import Label, Scene, labels, moved, scene_of, tops
from .registration import Transform, best_fit
from .stability import OCCLUDED, STEADY, Signature, Steadiness
from .table import TablePosition, table_position
from .view import Entry, Pending, differences, entries, reading

T = TypeVar("T")
CARRIES = 2  # later still views a question about an unsure read may wait for
BETWEEN_KEPT = 8  # steady views kept since the last accepted one, to tell which of several moves came first


@dataclass(frozen=True)
class _Illegal:
    """An illegal change on the board, waiting to be taken back, overridden or corrected."""

    move: Move
    seen: dict[Hex, Label]  # the view, in game coordinates
    transform: Transform
    event: IllegalEvent


@dataclass(frozen=True)
class _Choice:
    """Explanations waiting for a person to pick one, by candidate string."""

    options: dict[str, Explanation]
    seen: Scene  # observer coordinates (each option has its own registration)
    since: float
    event: NeedsConfirmationEvent
    renamings: dict[str, Renaming] = field(default_factory=dict)  # options that retell the game first


@dataclass(frozen=True)
class _Misread:
    """A view no legal moves explain ("check the board"), waiting for the board to change or a
    person's word."""

    scene: Scene  # the view, in observer coordinates
    transform: Transform  # its best registration
    since: float
    event: MisreadEvent
    candidates: tuple[str, ...]  # single moves that would nearly explain it


@dataclass(frozen=True)
class _Restore:
    """After an undo: the board must be put back; the undone moves are not re-recorded."""

    undone: tuple[Move, ...]


_Pending = _Illegal | _Choice | _Misread | _Restore
WAYS_OUT = {"restore": "put the pieces back as the game has them",
            "confirm": "confirm the move that was played",
            "start_from_table": "start a new game from the position on the table"}


class Referee:
    """Follows one game from what the camera sees.

    Call ``observe`` for every frame; the other methods carry out a person's decisions.
    Every call returns the events it caused, oldest first. Bad requests (nothing to
    confirm, an unknown candidate, an illegal correction) raise ``ValueError``.
    """

    def __init__(self, game_type: GameType | str = "Base+MLP", options: RuleOptions | None = None,
                 config: RefereeConfig | None = None) -> None:
        self.config = config or RefereeConfig()
        self.record = GameRecord(game_type, options)
        self.board: Board = self.record.board()
        self.warnings: dict[Colour, int] = {Colour.WHITE: 0, Colour.BLACK: 0}
        self._steadiness = Steadiness(self.config.stable_seconds, self.config.flicker_seconds,
                                      self.config.min_confidence)
        self._transform: Transform | None = None
        self._accepted: dict[Hex, Label] | None = None  # last view known to show the position
        self._printed: set[Hex] = set()  # cells whose table's print was taken for a tile (``explained_away``)
        self._pending: _Pending | None = None
        self._judged: Signature | None = None  # signature of the last steady view judged
        self._retry_at: float | None = None  # when to judge the judged view again (misread, unsure read)
        self._deferred: tuple[tuple[Explanation, ...], Scene, float] | None = None  # a question held back
        self._carried: tuple[tuple[Explanation, ...], Scene, float] | None = None  # a question held back
        self._carries = 0  # times the question held back was carried over to a later view
        # past a change of the board, with the view it was about (observer coordinates) and since when
        self._unexplained_since: float | None = None  # when the board stopped making sense
        self._time = 0.0
        self._view: Observation | None = None  # the last steady view judged
        self._hand = False  # the view was occluded since it was last steady
        self._reached = False  # ... since a view last showed the recorded position
        self._quiet_visit: float | None = None  # since the last recorded move, when a hand left the board unchanged
        self._blind_visit = False  # ... and its view showed as many tiles as the position has stacks
        self._visits = 0  # steady views after a hand since the last recorded move
        self._between: list[Scene] = []  # steady views judged since the last accepted one or move, none accepted

    @classmethod
    def resume(cls, record: GameRecord, config: RefereeConfig | None = None,
               warnings: Mapping[Colour, int] | None = None) -> "Referee":
        """A referee continuing ``record`` (e.g. after a crash); the next steady view is
        registered against the recorded position."""
        referee = cls(record.game_type, record.options, config)
        referee.record = record
        referee.board = record.board()
        if warnings:
            referee.warnings.update(warnings)
        return referee

    @classmethod
    def from_position(cls, game_type: GameType | str, options: RuleOptions | None,
                      stacks: Mapping[Hex, Sequence[Piece]], to_move: Colour | str,
                      config: RefereeConfig | None = None, **tags: str) -> "Referee":
        """A referee for a game picked up from the table: ``stacks`` (bottom first, e.g. from
        ``TablePosition.answered``) with ``to_move`` to play. Its move times count from the
        adoption of the position (t = 0)."""
        record = GameRecord(game_type, options, setup_of(stacks, to_move), **tags)
        return cls.resume(record, config)

    # ----------------------------------------------------------- observations
    def observe(self, observation: Observation) -> list[Event]:
        """Take one camera frame; judge the view once it has been steady long enough."""
        scene_of(observation, self.config.min_confidence)  # bad tiles fail now, not when judged
        frame = self._steadiness.feed(set_aside(observation, self.board.stacks()))
        time = self._time = observation.timestamp
        events: list[Event] = [ViewEvent(time, frame.status)] if frame.changed else []
        self._hand = self._hand or frame.status == OCCLUDED
        self._reached = self._reached or frame.status == OCCLUDED
        if frame.status != STEADY and self._deferred is not None:
            events += self._carry_or_ask(*self._deferred)
        if frame.status != STEADY or self._over():
            return events
        seen_before = frame.signature == self._judged
        if seen_before and self._pending is None:
            self._note_visit(changed=False)
        retry = seen_before and self._retry_at is not None and time >= self._retry_at and frame.current
        if seen_before and not retry:
            return events
        self._judged, self._retry_at = frame.signature, None
        view = self._steadiness.judged()
        assert view is not None and frame.since is not None
        self._view = view
        events += self._judge(scene_of(view, self.config.min_confidence), frame.since)
        return events

    def _judge(self, scene: Scene, since: float) -> list[Event]:
        accepted = self._accepted
        events = self._rule(scene, since)
        if self._accepted is accepted:
            self._between = self._between[-BETWEEN_KEPT + 1:] + [scene]
        return events

    def _rule(self, scene: Scene, since: float) -> list[Event]:
        self._deferred = None
        verdict = self._past_unplaced(scene) or judge(self.board, scene, self._accepted, self._transform,
                                                        self.config.allow_mirror)
        if self._carried is not None and isinstance(verdict, Explained):
            verdict = self._as_carried(verdict)
            if self._second_look_differs(verdict):
                return self._ask(*self._carried, "two looks at the new tile name different pieces")
        if not isinstance(verdict, Explained):
            verdict = self._through(scene) or verdict
        renamings = [] if isinstance(verdict, Explained) else self._renamings(scene, verdict.transform)
        if renamings:
            self._unexplained_since = None
            return self._ask_renamed(renamings, scene, since)
        if not isinstance(verdict, Misread):
            self._unexplained_since = None
        if isinstance(verdict, Explained):
            return self._explained(verdict, scene, since)
        if isinstance(verdict, Attempt):
            return self._illegal(verdict, scene, since)
        return self._misread(verdict, scene, since)

    def _explained(self, verdict: Explained, scene: Scene, since: float) -> list[Event]:
        candidates = verdict.candidates
        if self._unconfirmed() and not self._hand and any(e.moves for e in candidates):
            return self._ask(candidates, scene, since, RESUMED_REASON)  # made while hivecam was off, or misread
        if all(self._unseen(e) > MOST_AT_ONCE for e in candidates):
            candidates = self._one_move_for_one_hand(scene) or candidates
        if len(candidates) > 1:
            candidates = self._shown_first(candidates)
        if len(candidates) > 1:
            settled = since + self.config.unsure_wait_seconds
            if any(e.unsure for e in candidates) and self._time < settled:
                self._retry_at = settled  # look again at the latest frame of this view before asking
                self._deferred = (candidates, scene, since)
                self._note_visit(changed=True)  # a move was made, whichever it was
                return []
            return self._ask(candidates, scene, since)
        chosen = candidates[0]
        pending = self._pending
        if isinstance(pending, _Restore) and chosen.moves and chosen.moves[:len(pending.undone)] == pending.undone:
            return []  # the board still shows the undone moves
        played = self._unseen(chosen)
        if self._quiet_visit is not None and played > 1 and not self._each_hand_moved(played):
            return self._ask(candidates, scene, since, unseen_move_reason(self._quiet_visit))
        if played > MOST_AT_ONCE:
            return self._ask(candidates, scene, since, many_moves_reason(played))
        if chosen.lenient and played > 1:
            return self._ask(candidates, scene, since, lenient_moves_reason(played))
        self._pending = None
        self._resolve_attempt("taken back")
        self._accept(scene, chosen.transform)
        self._note_visit(changed=bool(chosen.moves or pending))
        if not chosen.moves:
            return [TakebackEvent(self._time, len(self.record.moves))] if pending else []
        events = self._play(chosen.moves, since)
        self._printed |= self._table_cells()
        return events

    def _past_unplaced(self, scene: Scene) -> Explained | None:
        """The view explained strictly without its tops that no hand put there (first seen after
        the last hand's visit, their spots as before it: the table's print that the tile map took
        for a top once a tile lay beside it, a cloth's flower), nor, where at least one move does
        explain it, its new tops where the record took the table's print for a tile before (the
        print's look changed as a tile beside it moved), if that explains it. Accepted with the
        view, they are named by ``explained_away`` after the move. A tile laid earlier and missed
        till now explains nothing so: the moves since are the other side's."""
        transform = self._transform
        if self._accepted is None or transform is None:  # no view shown the position yet: nothing to go by
            return None
        printed = {cell for cell in scene if self._on_print(transform.apply(cell))}
        unplaced = {cell for cell, read in scene.items() if read.unplaced}
        placed = {cell: read for cell, read in scene.items() if cell not in printed | unplaced}
        if not printed | unplaced or not placed:
            return None
        verdict = judge(self.board, placed, self._accepted, transform, self.config.allow_mirror)
        strict = tuple(e for e in verdict.candidates if not e.lenient and (e.moves or printed <= unplaced)
                       ) if isinstance(verdict, Explained) else ()
        return Explained(strict) if strict else None

    def _on_print(self, cell: Hex) -> bool:
        """Whether the table's print at ``cell`` (game coordinates) was taken for a tile before,
        and no piece lies there now."""
        return cell in self._printed and self.board.top(cell) is None

    def _one_move_for_one_hand(self, scene: Scene) -> tuple[Explanation, ...] | None:
        """For a view that only more than ``MOST_AT_ONCE`` moves explain strictly, after one hand
        came: the one explanation of a single move found leniently, if there is exactly one (a
        tile hidden beside a tall stack, or one sure read wrong, is likelier than three moves in
        one visit: a Beetle climbing a stack hid the Mosquito beside it, which "the Beetle moved,
        the Mosquito climbed the stack and the Beetle onto it" fitted strictly)."""
        if self._carried is not None or not self._each_hand_moved(1):
            return None
        verdict = judge(self.board, scene, self._accepted, self._transform, self.config.allow_mirror,
                        most=MOST_AT_ONCE)
        if not isinstance(verdict, Explained) or len(verdict.candidates) != 1:
            return None
        return verdict.candidates if self._unseen(verdict.candidates[0]) == 1 else None

    def _shown_first(self, candidates: tuple[Explanation, ...]) -> tuple[Explanation, ...]:
        """Of several explanations, the one whose first moves a steady view since the last accepted
        one showed furthest (``shown_moves``), if one did (which Grasshopper was placed first, where
        a Beetle went before it climbed); else all of them."""
        shown = [self._shown(e) for e in candidates]
        best = max(shown)
        return (candidates[shown.index(best)],) if best and shown.count(best) == 1 else candidates

    def _shown(self, explanation: Explanation) -> int:
        """How many of its first moves a steady view since the last accepted one showed
        (``shown_moves``); none of one found leniently (the views between may share its misread:
        "the Queen moved there, misread" fits them as well as the last)."""
        return 0 if explanation.lenient else shown_moves(self.board, explanation, self._between, self._accepted)

    def _unconfirmed(self) -> bool:
        """Whether no view has shown the recorded position yet (a game resumed from its record,
        or picked up from the table)."""
        return self._transform is None and bool(self.board.stacks())

    def _carry_or_ask(self, candidates: tuple[Explanation, ...], scene: Scene, since: float) -> list[Event]:
        """The board changes again while a question about an unsure read is held back: up to
        ``CARRIES`` times since the last move, carry the question over to the next steady view (it
        shows the same moves and more, and the still tile may be read surely by then; see
        ``_through``); after that, ask now."""
        self._deferred = None
        self._carries = 0 if self._carried is None else self._carries
        if self._carries >= CARRIES:
            return self._ask(candidates, scene, since)
        self._carried, self._carries = (candidates, scene, since), self._carries + 1
        return []

    def _through(self, scene: Scene) -> Explained | None:
        """The view explained through the question carried over (``_carry_or_ask``): by the moves
        of one of its candidates, then what the view shows since (where the recorded position
        alone explains nothing: e.g. the unsure tile, placed, has moved on since)."""
        if self._carried is None:
            return None
        candidates, then, _ = self._carried
        found: list[tuple[int, Explanation]] = []  # with the unsure reads of what the view shows since
        for option in candidates:
            verdict = self._after(option.moves, lambda: judge(
                self.board, scene, labels(moved(then, option.transform)), option.transform, self.config.allow_mirror))
            if isinstance(verdict, Explained):
                found += [(e.unsure, Explanation(option.moves + e.moves, e.transform, option.unsure + e.unsure,
                                                 option.lenient or e.lenient))
                          for e in verdict.candidates]
        least = min((unsure for unsure, _ in found), default=None)
        kept = sorted((e for unsure, e in found if unsure == least), key=lambda e: e.unsure)
        return Explained(tuple(kept)) if kept else None

    def _as_carried(self, verdict: Explained) -> Explained:
        """Of the explanations of a view after a carried question, those that begin with one of its
        candidates, if any: the view it was asked about showed those moves made first (two
        placements in either order explain the later view alike, but only one order the view between)."""
        assert self._carried is not None
        options = self._carried[0]
        kept = tuple(e for e in verdict.candidates if any(e.moves[:len(o.moves)] == o.moves for o in options))
        return Explained(kept) if kept else verdict

    def _second_look_differs(self, verdict: Explained) -> bool:
        """Whether the one explanation of a view after a carried question names another piece for
        a move of the read the question put first (the unsure read sure now, but as something
        else: which look is right is for a person to say)."""
        if self._carried is None or len(verdict.candidates) != 1:
            return False
        first, chosen = self._carried[0][0].moves, verdict.candidates[0].moves
        return any(a.origin == b.origin and a.dest == b.dest and a.piece is not b.piece for a, b in zip(first, chosen))

    def _unseen(self, explanation: Explanation) -> int:
        """How many of its moves (passes aside) no steady view showed: all of them, but for those of
        the candidate of a carried question that they begin with, or those a steady view since the
        last accepted one showed (``_shown``)."""
        moves = explanation.moves
        seen = self._shown(explanation)
        for option in self._carried[0] if self._carried is not None else ():
            if moves[:len(option.moves)] == option.moves:
                seen = max(seen, len(option.moves))
        return sum(not m.is_pass for m in moves[seen:])

    def _note_visit(self, changed: bool) -> None:
        """A steady view after a hand: count it, and remember when one left the recorded position
        unchanged, and whether it showed as many tiles as the position has stacks (a move made
        then went wholly unseen) or not (a tile moved and was not yet seen where it went, or a
        change showed that no move explained)."""
        if self._hand and not changed:
            self._quiet_visit = self._time
            self._blind_visit = self._blind_visit or self._shows_as_many_tiles()
        self._visits += self._hand
        self._hand = False

    def _each_hand_moved(self, played: int) -> bool:
        """Whether ``played`` moves since the last recorded one fit the hands seen: as many steady
        views after a hand (this one included), and no quiet visit showing as many tiles as the
        position (a move made then went wholly unseen, and several moves may fit the view without it)."""
        return not self._blind_visit and played == self._visits + self._hand

    def _shows_as_many_tiles(self) -> bool:
        """Whether the last view judged shows as many tiles as the recorded position has stacks
        (registration aside: the observer's lattice is anchored afresh in every frame)."""
        return self._view is None or len(self._view.tiles) == len(self.board.stacks())

    def _ask(self, candidates: tuple[Explanation, ...], scene: Scene, since: float,
             reason: str | None = None) -> list[Event]:
        unsure = any(e.unsure for e in candidates)
        reason = reason or ("a piece was not recognised with confidence" if unsure
                            else "more than one move explains the board")
        return self._put({_describe(self.board, e.moves): e for e in candidates}, scene, since, reason)

    def _put(self, options: dict[str, Explanation], scene: Scene, since: float, reason: str,
             renamings: dict[str, Renaming] | None = None) -> list[Event]:
        """Put ``options`` (candidate text -> explanation) to a person, unless already put; before
        any view has shown the recorded position, with ``NOTHING`` among them (the camera, new to
        this table, may read its print as tiles: the record is right)."""
        if self._unconfirmed() and options:
            options = options | {NOTHING: Explanation((), next(iter(options.values())).transform, 0)}
        self._carried = None
        pending = self._pending
        if isinstance(pending, _Choice) and pending.options.keys() == options.keys():
            return []
        event = NeedsConfirmationEvent(self._time, tuple(options), reason)
        self._pending = _Choice(options, scene, since, event, renamings or {})
        return [event]

    def _renamings(self, scene: Scene, transform: Transform) -> list[tuple[Renaming, Explanation]]:
        """For a view no moves explain (registered by ``transform``): the explanations found once
        a tile of the record is renamed (``identity``), as the view suggests: read as another
        creature since it was recorded, or seen where it could have moved only as another
        creature. Leniently found ones and too many moves at once are left out."""
        found: list[tuple[Renaming, Explanation]] = []
        reference = self._accepted if self._accepted is not None else tops(self.board)
        for old, bug in suspects(self.board, moved(scene, transform), reference):
            try:
                renaming = renamed(self.board, old, bug)
            except ValueError:
                continue
            verdict = judge(renaming.board, scene, self._accepted, transform, self.config.allow_mirror)
            if isinstance(verdict, Explained):
                found += [(renaming, e) for e in verdict.candidates
                          if not e.lenient and sum(not m.is_pass for m in e.moves) <= MOST_AT_ONCE]
        return found

    def _ask_renamed(self, found: list[tuple[Renaming, Explanation]], scene: Scene, since: float) -> list[Event]:
        """Ask whether a tile was recorded as the wrong creature (and which moves followed)."""
        options: dict[str, Explanation] = {}
        renamings: dict[str, Renaming] = {}
        for renaming, explanation in found:
            text = "; ".join(filter(None, (renaming.text, _describe(renaming.board, explanation.moves))))
            options[text], renamings[text] = explanation, renaming
        names = ", ".join(dict.fromkeys(f"{r.old} may be {r.new}" for r, _ in found))
        reason = f"the view makes sense only if a tile was recorded as the wrong creature ({names})"
        return self._put(options, scene, since, reason, renamings)

    def _retell(self, renaming: Renaming) -> list[Event]:
        """Rewrite the record as ``renaming`` tells the game: the moves from the tile's placement on
        are taken back and recorded again as retold, with their times, marks, comments and the
        illegal attempts between them (a renamed move notes what it was recorded as)."""
        told = renaming.board.move_stack
        first = next(i for i, (was, now) in enumerate(zip(self.board.move_stack, told)) if was.piece is not now.piece)
        kept = self.record.moves[first:]
        attempts = [a for a in self.record.attempts if a.ply > first]
        for _ in kept:
            self._pop()
        for entry, move in zip(kept, told[first:]):
            self._restore_attempts(attempts)
            note = f"recorded as {entry.move.piece} at first" if move.piece is not entry.move.piece else ""
            self.record.append(move, entry.timestamp, entry.mark, "; ".join(filter(None, (entry.comment, note))))
            self.board.push(move)
        self._restore_attempts(attempts)
        return [RenamedEvent(self._time, renaming.old.name, renaming.new.name, first + 1)]

    def _restore_attempts(self, attempts: list[IllegalAttempt]) -> None:
        """Put back into the record those of ``attempts`` made right after the moves it holds now."""
        for attempt in attempts:
            if attempt.ply == len(self.record.moves):
                self.record.add_attempt(attempt)

    def _illegal(self, attempt: Attempt, scene: Scene, since: float) -> list[Event]:
        doubted = self._doubted(attempt, scene, since)
        if doubted is not None:
            return doubted
        events: list[Event] = []
        pending = self._pending
        if attempt.before:  # a legal move came first
            events += self._play(attempt.before, since)
            self._accepted = None
            if self._over():
                return events
        elif isinstance(pending, _Illegal) and pending.move == attempt.move:
            return events
        move = attempt.move
        player = offender(self.board, move)
        violation = _violation(self.board, move, player)
        self.warnings[player] += 1
        self._resolve_attempt("taken back")  # an earlier attempt, replaced by this one
        uhp = self.board.uhp(move)
        self.record.add_attempt(IllegalAttempt(len(self.record.moves), uhp, player, violation.rule.value,
                                               violation.message, self._time))
        book = citation(violation.rule, violation.bug)
        event = IllegalEvent(self._time, _attempted(move), uhp, violation.rule.value,
                             violation.message, player.value, self.warnings[player], violation.cells,
                             book.summary, book.reference)
        self._pending = _Illegal(move, labels(moved(scene, attempt.transform)), attempt.transform, event)
        events.append(event)
        limit = self.config.illegal_move_limit
        if limit is not None and self.warnings[player] >= limit:
            events += self._declare(Outcome(Termination.ILLEGAL_MOVES, player.opponent))
        return events

    def _doubted(self, attempt: Attempt, scene: Scene, since: float) -> list[Event] | None:
        """A question instead of a flag, for an illegal move the camera more likely caused (see
        ``doubt``), after the legal moves that came first if any; None when the attempt stands."""
        move, before, seen = attempt.move, attempt.before, moved(scene, attempt.transform)
        misread, (twin, reason) = self._after(before, lambda: (
            view_doubt(self.board, seen, move), colour_doubt(self.board, move)))
        if misread is not None:  # the view too poor to rule by, or another reading as likely
            return self._misread(Misread(misread, _cells(move), 1, attempt.transform), scene, since)
        if twin is not None:
            return self._ask((Explanation((*before, twin), attempt.transform, 1),), scene, since, reason)
        if reason:
            return self._misread(Misread(reason, _cells(move), 1, attempt.transform), scene, since)
        if any(not m.is_pass for m in before):  # the view changed in two places
            message = second_move_message(before, move)
            return self._misread(Misread(message, _cells(move), 1, attempt.transform), scene, since)
        if self._unconfirmed():
            return self._misread(Misread(unconfirmed_message(self.board, move), _cells(move), 1, attempt.transform),
                                 scene, since)
        if not self._reached:
            return self._misread(Misread(handless_message(self.board, move), _cells(move), 1, attempt.transform),
                                 scene, since)
        if offender(self.board, move) is self.board.turn or self._quiet_visit is None:
            return None
        message = missed_move_message(self.board, move, self._quiet_visit)
        return self._misread(Misread(message, _cells(move), 1, attempt.transform), scene, since)

    def _after(self, before: tuple[Move, ...], look: Callable[[], T]) -> T:
        """What ``look`` finds on the board with the moves ``before`` played (then taken back)."""
        for played in before:
            self.board.push(played)
        try:
            return look()
        finally:
            for _ in before:
                self.board.pop()

    def _misread(self, misread: Misread, scene: Scene, since: float) -> list[Event]:
        """Report ``misread`` once the board has made no sense for ``misread_after_seconds``
        (through however many views: the game goes on while a piece is misread)."""
        if self._unexplained_since is None:
            self._unexplained_since = since
        due = self._unexplained_since + self.config.misread_after_seconds
        if self._time < due:  # maybe a piece still in a hand, or flicker: look again later
            self._retry_at = due
            return []
        pending = self._pending
        nearest = nearest_moves(self.board, moved(scene, misread.transform))
        if self._unconfirmed():  # the record may be right, and the camera, new to this table, wrong
            nearest += (NOTHING,)
        if isinstance(pending, _Misread) and pending.event.message == misread.message:
            # said already: keep the reading current without saying it again
            self._pending = _Misread(scene, misread.transform, pending.since, pending.event, nearest)
            return []
        event = MisreadEvent(self._time, misread.message, misread.cells)
        self._pending = _Misread(scene, misread.transform, since, event, nearest)
        return [event]

    # --------------------------------------------------------- a person's word
    def confirm(self, choice: str) -> list[Event]:
        """Pick one candidate of a pending ``needs_confirmation`` or misread (its exact text;
        ``NOTHING``: no move was made, and what the view shows besides is the camera's)."""
        pending, key = self._pending, " ".join(choice.split())
        if isinstance(pending, _Misread):
            if key not in pending.candidates:
                raise ValueError(f"{choice!r} is not one of the candidates: {', '.join(pending.candidates) or 'none'}")
            if key == NOTHING:
                self._pending, self._unexplained_since, self._judged = None, None, None
                self._vouch(pending)
                return []
            return self.correct(choice)
        if not isinstance(pending, _Choice):
            raise ValueError("there is nothing to confirm: no needs_confirmation is pending")
        explanation = pending.options.get(key)
        if explanation is None:
            raise ValueError(f"{choice!r} is not one of the candidates: {', '.join(pending.options)}")
        self._pending = None
        self._resolve_attempt("taken back")
        renaming = pending.renamings.get(key)
        events = self._retell(renaming) if renaming is not None else []
        self._accept(pending.seen, explanation.transform)
        self._judged = None  # the view now may show a move made since the one asked about
        return events + self._play(explanation.moves, pending.since, confirmed=True)

    def override(self) -> list[Event]:
        """Arbiter's ruling: record the pending illegal move anyway (marked override)."""
        pending = self._pending
        if not isinstance(pending, _Illegal):
            raise ValueError("there is no illegal move to override")
        if self._over():
            raise ValueError("the game is over: withdraw the result (undo) before overriding")
        self._pending = None
        self._resolve_attempt("overridden", "arbiter")
        self._transform, self._accepted = pending.transform, pending.seen
        return self._play((pending.move,), self._time, mark=Mark.OVERRIDE)

    def correct(self, moves_uhp: str) -> list[Event]:
        """A person says which legal moves were really played: one MoveString, or several
        separated by ``;`` (recorded, marked correction; forced passes between them are added).

        When a problem is pending, the view that raised it is taken to show the corrected
        moves; otherwise the next steady view must show the position after them. A view
        that made no sense (a misread) is judged again first: if it shows further moves
        (the camera fell behind), they are put to the person to confirm.
        """
        if self._over():
            raise ValueError("the game is over: no move can be recorded")
        moves = self._corrections(moves_uhp)
        pending = self._pending
        self._pending = None
        self._resolve_attempt("corrected", "arbiter")
        self._accepted = None
        if isinstance(pending, _Illegal):
            self._accepted = pending.seen
        elif isinstance(pending, _Choice):
            transform = next(iter(pending.options.values())).transform
            self._accept(pending.seen, transform)
        events = self._play(moves, self._time, mark=Mark.CORRECTION)
        if isinstance(pending, _Misread):
            events += self._rejudge(pending)
        return events

    def _corrections(self, moves_uhp: str, board: Board | None = None) -> tuple[Move, ...]:
        """The legal moves named by ``moves_uhp`` from ``board`` (default: the recorded position),
        with any forced pass between them."""
        texts = [text.strip() for text in moves_uhp.split(";") if text.strip()]
        if not texts:
            raise ValueError("no move given: write a MoveString such as 'wA1 -bQ'")
        board = (board or self.board).copy()
        moves: list[Move] = []
        for index, text in enumerate(texts):
            if moves and board.legal_moves == [PASS] and text.lower() != "pass":
                board.push(PASS)
                moves.append(PASS)
            move = board.parse_uhp(text)
            if not board.is_legal(move):
                after = f" after {'; '.join(texts[:index])}" if index else " here"
                raise ValueError(f"{text!r} is not legal{after}: {why_illegal(board, move).message}")
            board.push(move)
            moves.append(move)
        return tuple(moves)

    def _rejudge(self, misread: _Misread) -> list[Event]:
        """After a correction, what the view that made no sense shows now."""
        verdict = None if self._over() else judge(self.board, misread.scene, None, self._transform,
                                                  self.config.allow_mirror)
        if isinstance(verdict, Explained):
            if len(verdict.candidates) == 1 and not verdict.candidates[0].moves:
                self._accept(misread.scene, verdict.candidates[0].transform)  # it shows the position
                return []
            return self._ask(verdict.candidates, misread.scene, misread.since,
                             "the view shows more moves than were corrected")
        self._vouch(misread)
        return []

    def _vouch(self, misread: _Misread) -> None:
        """A person vouches for the view that made no sense: it shows the position where its
        tiles lie, and what still differs is misread (it stays the camera's while it looks the same)."""
        self._accept(misread.scene, best_fit(labels(misread.scene), tops(self.board),
                                             self._transform or misread.transform, self.config.allow_mirror))

    def replace_last(self, moves_uhp: str) -> list[Event]:
        """A person says the last recorded move was really ``moves_uhp`` (one MoveString, or
        several separated by ``;``): it is taken back and those are recorded instead, marked
        correction, at its time. The next steady view is judged against the new position."""
        if self.record.declared is not None:
            raise ValueError("the game was declared over: undo the result before replacing a move")
        if not self.record.moves:
            raise ValueError("there is no recorded move to replace")
        before = self.board.copy()
        undone = [before.pop()]
        while undone[0].is_pass and before.move_stack:
            undone.insert(0, before.pop())
        moves = self._corrections(moves_uhp, before)
        timestamp = self.record.moves[-len(undone)].timestamp
        for _ in undone:
            self._pop()
        self._pending, self._accepted, self._judged, self._carried = None, None, None, None
        self._resolve_attempt("corrected", "arbiter")
        events: list[Event] = [UndoEvent(self._time, tuple(self._uhps(undone)), len(self.record.moves))]
        return events + self._play(moves, timestamp if isinstance(timestamp, (int, float)) else self._time,
                                   mark=Mark.CORRECTION)

    def rename(self, text: str) -> list[Event]:
        """A person says a tile of the record is another piece of its colour: ``"wG1=wA1"`` (the
        tile recorded as wG1 is an Ant; the numbers follow from the order the tiles were laid).
        The record is retold so; ``ValueError`` if it names no such tile or a move would then
        be illegal. The view is judged again against the retold record."""
        was, now = parse_renaming(text)
        if self._over():
            raise ValueError("the game is over: undo the result before renaming a tile")
        events = self._retell(renamed(self.board, was, now.bug))
        self._judged = None  # the camera's labels stay accepted: the tile may still read as it did
        return events

    def undo(self) -> list[Event]:
        """Take back the last recorded move (with a forced pass before it), or a declared result."""
        if self.record.declared is not None:
            what = self.record.declared.termination.value
            self.record.withdraw_result()
            return [UndoEvent(self._time, (what,), len(self.record.moves))]
        if not self.record.moves:
            raise ValueError("there is no move to take back")
        undone = [self._pop()]
        while undone[0].is_pass and self.record.moves:
            undone.insert(0, self._pop())
        self._pending = _Restore(tuple(undone))
        self._accepted = None
        self._judged = None
        self._carried = None
        return [UndoEvent(self._time, tuple(self._uhps(undone)), len(self.record.moves))]

    def resign(self, colour: Colour | str) -> list[Event]:
        """``colour`` resigns: the opponent wins."""
        loser = Colour(colour) if isinstance(colour, str) else colour
        if self._over():
            raise ValueError("the game is already over")
        return self._declare(Outcome(Termination.RESIGNATION, loser.opponent))

    def agree_draw(self) -> list[Event]:
        if self._over():
            raise ValueError("the game is already over")
        return self._declare(Outcome(Termination.AGREEMENT, None))

    # ----------------------------------------------------------------- state
    def stacks(self) -> dict[Hex, tuple[Piece, ...]]:
        """Every stack of the recorded position (game coordinates), bottom first."""
        return {cell: tuple(stack) for cell, stack in sorted(self.board.stacks().items())}

    def hands(self) -> dict[Colour, tuple[Piece, ...]]:
        """The pieces each player has still to place, in numbering order."""
        return {colour: tuple(self.board.hand(colour)) for colour in Colour}

    def entries(self) -> list[Entry]:
        """The move list: moves (with thinking times and clocks) and illegal attempts, in order."""
        return entries(self.record, self.board)

    def clock_state(self, now: float) -> ClockState:
        """Both clocks at game-clock time ``now`` under the record's ``TimeControl`` tag."""
        return clock_state(self.record, now, self.record.time_control)

    def table_position(self) -> TablePosition:
        """The last steady view as a position to start a game from, with its questions."""
        if self._view is None:
            raise ValueError("the camera has not shown a steady view of the table yet")
        return table_position(self._view, self.record.game_type, self.config.min_confidence)

    def identified(self) -> list[tuple[tuple[float, float], Piece]]:
        """The tops of the last steady view, where the camera saw them (pixels), each with the
        piece the record puts there: while that view shows the recorded position cell for
        cell (whatever its tiles were read as) and nothing is pending; else none. What the
        camera can learn the set from."""
        seen, stacks = self._last_seen(), self.board.stacks()
        if set(seen) != set(stacks):
            return []
        return [(tile.px, stacks[cell][-1]) for cell, tile in seen.items() if tile.px is not None]

    def explained_away(self) -> list[tuple[float, float]]:
        """Where the last steady view saw (pixels) tops at cells the record leaves empty in the view
        it last accepted as showing the position, every piece seen in its place: the table seen
        through a hole of the hive, or its print beside a move, taken for no tile
        (``scene.phantom``, ``_past_unplaced``); none while anything is pending. What the camera
        can learn the table's look from."""
        away = self._table_cells()
        return [tile.px for cell, tile in self._last_seen().items() if tile.px is not None and cell in away]

    def _table_cells(self) -> set[Hex]:
        """The cells (game coordinates) where the view last accepted shows tops the record leaves
        out, every piece seen in its place (none else: a tile hidden, or a tall stack's top beside it)."""
        accepted, stacks = self._accepted, self.board.stacks()
        if accepted is None or not set(stacks) <= set(accepted):
            return set()
        return set(accepted) - set(stacks)

    def _last_seen(self) -> dict[Hex, TileSighting]:
        """The tiles of the last steady view by cell (game coordinates); none while anything is pending."""
        view, transform = self._view, self._transform
        if view is None or transform is None or self._pending is not None:
            return {}
        return {transform.apply(tile.cell): tile for tile in view.tiles}

    def pending(self) -> Pending | None:
        """What the referee waits for, and the ways out of it."""
        pending = self._pending
        if pending is None:
            return None
        if isinstance(pending, _Restore):
            return Pending("restore", "The recorded moves were taken back.", "Put the board back to the "
                           "position shown.", undone=tuple(self._uhps(list(pending.undone))))
        if isinstance(pending, _Illegal):
            return Pending("illegal", pending.event.message, "Take the move back, or the arbiter lets it stand "
                           "(override).", pending.event)
        if isinstance(pending, _Choice):
            return Pending("needs_confirmation", pending.event.reason, "Pick the move that was played.",
                           pending.event, tuple(pending.options))
        seen = moved(pending.scene, pending.transform)
        ways = tuple(w for w in WAYS_OUT if w != "confirm" or pending.candidates)
        advice = [WAYS_OUT[w] for w in ways]
        what_to_do = f"Compare the board with the camera's reading: {', '.join(advice[:-1])}, or {advice[-1]}."
        return Pending("check", f"Check the board: {pending.event.message}.", what_to_do, pending.event,
                       pending.candidates, reading(self.board, seen), differences(self.board, seen), ways)

    @property
    def view(self) -> str | None:
        """What the camera shows now: ``steady``, ``unstable`` (pieces moving) or ``occluded``
        (None before the first frame)."""
        return self._steadiness.status

    # --------------------------------------------------------------- helpers
    def _over(self) -> bool:
        return self.record.result.is_over

    def _accept(self, scene: Scene, transform: Transform) -> None:
        if transform != self._transform:
            self._printed = set()  # the hive moved on the table, or the camera: the print lies elsewhere
        self._transform, self._between, self._reached = transform, [], False
        self._accepted = labels(moved(scene, transform))

    def _play(self, moves: tuple[Move, ...], timestamp: float, mark: Mark | None = None,
              confirmed: bool = False) -> list[Event]:
        """Record ``moves``, then any forced pass, the end of the game or a Queen deadline.
        One move by the side the record expects, or a person's word, ends the doubt of a quiet
        hand visit (several moves at once fit the view whether or not a move went unseen)."""
        if sum(not m.is_pass for m in moves) == 1 or mark is not None or confirmed:
            self._quiet_visit, self._blind_visit = None, False
        self._carried, self._visits, self._between = None, 0, []
        events: list[Event] = []
        for move in moves:
            events.append(self._push(move, timestamp, mark, confirmed))
        if self.board.state is GameState.IN_PROGRESS and self.board.legal_moves == [PASS]:
            events.append(self._push(PASS, timestamp, None, False))
        outcome = self.board.outcome
        if outcome is not None:
            events.append(self._game_over(outcome))
            return events
        colour = self.board.turn
        if self.board.queen_due():
            events.append(QueenDueEvent(self._time, colour.value, "now"))
        elif self.board.player_turn() == 3 and not self.board.queen_placed(colour):
            events.append(QueenDueEvent(self._time, colour.value, "next_turn"))
        return events

    def _push(self, move: Move, timestamp: float, mark: Mark | None, confirmed: bool) -> Event:
        colour = self.board.turn
        entry = self.record.append(move, timestamp=timestamp, mark=mark,
                                   comment="confirmed by hand" if confirmed else "")
        self.board.push(move)
        ply = len(self.record.moves)
        if move.is_pass:
            return PassEvent(self._time, colour.value, ply)
        return MoveEvent(self._time, entry.uhp, ply, colour.value, mark.value if mark else None, confirmed)

    def _resolve_attempt(self, resolution: str, by: str | None = None) -> None:
        """End the record's pending illegal attempt, if any; ``by`` defaults to its player
        (who took it back)."""
        pending = [a for a in self.record.attempts if a.resolution == "pending"]
        if pending:
            self.record.resolve_attempt(resolution, by or pending[-1].colour.value)

    def _pop(self) -> Move:
        self._between = []
        self.record.pop()
        return self.board.pop()

    def _declare(self, outcome: Outcome) -> list[Event]:
        self.record.declare(outcome)
        self._pending = None
        return [self._game_over(outcome)]

    def _game_over(self, outcome: Outcome) -> GameOverEvent:
        winner = outcome.winner.value if outcome.winner else None
        return GameOverEvent(self._time, outcome.state.value, winner, outcome.termination.value)

    def _uhps(self, moves: list[Move]) -> list[str]:
        """MoveStrings of moves just taken back (so playable from the current position)."""
        return _describe(self.board, tuple(moves)).split("; ")


def _describe(board: Board, moves: tuple[Move, ...]) -> str:
    """Candidate text: the MoveStrings of ``moves`` from ``board``'s position, joined by ``"; "``."""
    texts = []
    for move in moves:
        texts.append(board.uhp(move))
        board.push(move)
    for _ in moves:
        board.pop()
    return "; ".join(texts)


def _violation(board: Board, move: Move, player: Colour) -> Violation:
    """The rule ``move`` breaks; a move made by the side not to move breaks turn order."""
    if player is board.turn:
        return why_illegal(board, move)
    return Violation(Rule.NOT_YOUR_TURN, f"It is {board.turn.title}'s turn: {player.title} moved {move.piece} "
                                         "out of turn.", _cells(move))


def _cells(move: Move) -> tuple[Hex, ...]:
    """The cells ``move`` touches: where it came from (unless placed), then where it went."""
    return tuple(c for c in (move.origin, move.dest) if c is not None)


def _attempted(move: Move) -> str:
    piece = move.piece
    assert piece is not None
    name = f"{piece.colour.title} {piece.bug.title} ({piece})"
    if move.origin is None:
        return f"{name} placed at {move.dest}"
    return f"{name} moved from {move.origin} to {move.dest}"
