"""The referee against every boardspace game of the shared corpus, filmed with noise.

    python benchmarks/referee_bench.py [--camera simulated|rendered] [--games N] [--every K]
        [--first I] [--workers W] [--seed 1] [--stable 0.3] [--min-confidence 0.6] [--lamp] [--world]
        [--no-learn] [--photos 1|2] [--whole-view] [--shared ../shared]

Each game is played in front of a 10 fps camera: a hand hides the board while each move
is made, the hive is now and then knocked, and some replies come before the board is
still (two moves between steady views). The camera is either

- ``simulated`` (``rules.referee.synthetic``): perfect reads plus flicker (a tile misread
  at low confidence or missed for a frame or two), the knock a rigid lattice transform;
- ``rendered`` (``rendered_camera``): every frame drawn at 1280x720 by ``vision.render``
  under one random camera pose and set of conditions per game, the moving piece carried
  by a hand, and read by ``vision.detect`` (with a ``SessionLight``, as ``hivecam serve``
  runs it) through the view a Pi camera turns to when the hive looks small (``vision.zoom``;
  ``--whole-view``: always the whole view); films are lean (~0.1-0.2 s of CPU a frame). ``--lamp`` switches a lamp of
  random colour and brightness on halfway through each game. ``--world`` films each game in
  the wide physical world (``vision.render.world``), the art styles in turn (the blind ones
  included), the set enrolled first from one photo of the documented layout on that table
  (``--photos 2``: and a second of the block turned half round, as the calibration page asks).

Reported:

- games recorded move for move equal to the original (up to a turn of the whole board:
  a camera has no north) with no human input (target 99%), and legal moves flagged
  illegal, in the games and in the play after each injected move (target 0); when the
  referee asks, a simulated person answers with the true move, and when none is offered
  or it reports a misread, types the moves made since the record (if the record is right
  so far), so one
  question does not spoil the rest of the game ("equal records": right in the end). After
  each move recorded, the rendered camera's detector learns the set from the tops the
  record names (``Referee.identified``; ``--no-learn`` turns that off);
- one injected illegal move per game, of each kind in turn: flagged with the right rule,
  taken back, and play followed on;
- latency from the board becoming still to the move event: simulated (stable_seconds
  plus frame quantisation), the processing time of the frame that produced it
  (recognition included when rendered), and their sum;
- rendered: frames drawn and the time per frame (recognition + referee over every frame of the
  films: median and p95, as the live loop spends it), and the peak memory.

Games are seeded by their index in the corpus, so ``--every``/``--first``/``--workers``
pick and spread games without changing what each game sees; Ctrl-C reports the games
played so far.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import sys
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rules import Board, Bug, Move, Piece  # noqa: E402
from rules.explain import Rule  # noqa: E402
from rules.hexgrid import Hex, distance, neighbours, rotate  # noqa: E402
from rules.movegen import MOVERS, ant_moves, articulation_points, placeable_bugs  # noqa: E402
from rules.observation import Observation  # noqa: E402
from rules.record import GameRecord  # noqa: E402
from rules.referee import NOTHING, Event, MisreadEvent, NeedsConfirmationEvent, Referee, RefereeConfig  # noqa: E402
from rules.referee.identity import parse_renaming, renamed  # noqa: E402
from rules.referee.registration import Transform  # noqa: E402
from rules.referee.synthetic import Noise, Pace, Shot, add_noise, film, observe  # noqa: E402
from rules.sgf import load_sgf  # noqa: E402

Camera = Callable[[Iterable[Shot]], Iterable[Observation]]


def noisy_camera(rng: random.Random, noise: Noise = Noise()) -> Camera:
    """A perfect camera plus recognition flicker."""
    return lambda shots: add_noise(map(observe, shots), rng, noise)


@dataclass
class Run:
    """What happened when a referee watched a stream of frames."""

    events: list[Event] = field(default_factory=list)
    still_at: list[float] = field(default_factory=list)  # when each still board was first seen
    latency: list[float] = field(default_factory=list)  # board still -> move event (simulated s)
    processing: list[float] = field(default_factory=list)  # wall-clock s of the frame with the event
    judging: list[float] = field(default_factory=list)  # ... of which the referee's
    frames: list[float] = field(default_factory=list)  # wall-clock s of every frame (recognition + referee)


def same_game(recorded: Sequence[Move], original: Sequence[Move]) -> bool:
    """Equal move for move, up to one turn and shift of the whole board (a camera has
    no north: the record takes its orientation from the camera's lattice)."""
    if len(recorded) != len(original) or not original:
        return len(recorded) == len(original)
    for turns in range(6):
        q, r = rotate(recorded[0].dest, turns)
        q0, r0 = original[0].dest
        turn = Transform(turns, False, (q0 - q, r0 - r))
        if all(a.piece is b.piece and (a.dest is None) == (b.dest is None)
               and (a.dest is None or turn.apply(a.dest) == b.dest) for a, b in zip(recorded, original)):
            return True
    return False


def watch(referee: Referee, shots: Iterable[Shot], camera: Camera, truth: Sequence[Move] = (),
          learn: bool = True) -> Run:
    """Feed the camera's view of ``shots`` to ``referee``. When it asks, a person who
    knows the game's moves ``truth`` picks the right candidate, if there is one; when none is
    right, or it reports a misread, that person types the moves made on the table since the
    record (if the record is right so far). After each move recorded, a camera that can ``learn`` the
    set is shown the tops the record names (unless ``learn`` is off). The processing time
    of a frame includes its recognition (``extra["detect_seconds"]``)."""
    run = Run()
    shots = list(shots)
    occluded = True
    for shot in shots:
        if occluded and not shot.occluded:
            run.still_at.append(shot.timestamp)
        occluded = shot.occluded
    plies = [0] + [i + 1 for i, move in enumerate(truth) if not move.is_pass]  # moves made by each position
    teach = getattr(camera, "learn", None) if learn else None
    expect = getattr(camera, "expect", None)
    look_past = getattr(camera, "look_past", None) if learn else None
    if expect is not None:
        expect(referee.record.game_type.bugs)  # as ``hivecam referee`` and the page tell vision
    position, previous = -1, None
    for shot, observation in zip(shots, camera(shots)):
        if shot.stacks is not previous:
            position, previous = position + 1, shot.stacks
        start = time.perf_counter()
        events = referee.observe(observation)
        judging = time.perf_counter() - start
        run.frames.append(judging + observation.extra.get("detect_seconds", 0.0))
        for event in events:
            if event.kind in ("move", "pass"):
                settled = max((t for t in run.still_at if t <= event.time), default=event.time)
                run.latency.append(event.time - settled)
                run.processing.append(judging + observation.extra.get("detect_seconds", 0.0))
                run.judging.append(judging)
        answered: list[Event] = []
        asked = list(events)
        while asked:  # an answer may raise a further question
            event = asked.pop(0)
            reply: list[Event] = []
            made = plies[min(position, len(plies) - 1)]
            if isinstance(event, NeedsConfirmationEvent):
                reply = _answer(referee, event, truth) or (_correct(referee, truth, made) if truth else [])
            elif isinstance(event, MisreadEvent) and truth:
                reply = _correct(referee, truth, made)
            answered += reply
            asked += reply
        run.events += events + answered
        if teach is not None and any(e.kind == "move" for e in events + answered):
            teach(referee.identified())
            if look_past is not None:
                look_past(referee.explained_away())
    return run


def _correct(referee: Referee, truth: Sequence[Move], made: int) -> list[Event]:
    """The events of a person correcting a misread with the moves made on the table since the
    record (the first ``made`` of ``truth``), if the record is ``truth`` so far (up to a turn of
    the board; after ``_rename`` if need be) and moves were made. Each is typed as the legal move
    that goes on as ``truth`` does."""
    events = _rename(referee, truth)
    recorded = [entry.move for entry in referee.record.moves]
    if len(recorded) >= made or not same_game(recorded, truth[:len(recorded)]):
        return events
    board, texts = referee.board.copy(), []
    for move in truth[len(recorded):made]:
        typed = next(m for m in board.legal_moves if same_game(recorded + [m], truth[:len(recorded) + 1]))
        if not move.is_pass:  # forced passes are added by the referee
            texts.append(board.uhp(typed))
        board.push(typed)
        recorded.append(typed)
    return events + referee.correct("; ".join(texts))


def _rename(referee: Referee, truth: Sequence[Move]) -> list[Event]:
    """The events of a person renaming the tile the record names as the wrong creature (the
    page's rename), where the record retold so is ``truth`` so far; none otherwise."""
    recorded = [entry.move for entry in referee.record.moves]
    old, new = next(((move.piece, true.piece) for move, true in zip(recorded, truth)
                     if move.piece is not true.piece and move.origin is None), (None, None))
    if old is None or new is None or old.colour is not new.colour:
        return []
    try:
        told = renamed(referee.board, old, new.bug)
    except ValueError:
        return []
    if not same_game(told.board.move_stack, truth[:len(recorded)]):
        return []
    return referee.rename(told.text)


def _answer(referee: Referee, question: NeedsConfirmationEvent, truth: Sequence[Move]) -> list[Event]:
    """The events of confirming the candidate of ``question`` that goes on as ``truth`` does (none if none does)."""
    for candidate in question.candidates:
        if _is_true(referee, candidate, truth):
            return referee.confirm(candidate)
    return []


def _is_true(referee: Referee, candidate: str, truth: Sequence[Move]) -> bool:
    """Whether the MoveStrings ``candidate`` continue the referee's record as ``truth`` goes on
    (after the game is retold, where the candidate begins by renaming a tile: ``wG1=wA1``; none
    for ``NOTHING``)."""
    board = referee.board.copy()
    texts = [] if candidate == NOTHING else candidate.split("; ")
    if texts and "=" in texts[0]:
        old, new = parse_renaming(texts.pop(0))
        board = renamed(board, old, new.bug).board
    moves = list(board.move_stack) + [board.push_uhp(text) for text in texts]
    return same_game(moves, truth[:len(moves)])


def positions(board: Board) -> list[dict[Hex, list[Piece]]]:
    """The stacks after each move that changes the board (passes change nothing)."""
    return [b.stacks() for b in board.replay() if not (b.move_stack and b.move_stack[-1].is_pass)]


def film_game(record: GameRecord, config: RefereeConfig, rng: random.Random, pace: Pace,
              camera: Camera, learn: bool = True) -> tuple[bool, Run, Referee]:
    referee = Referee(record.game_type, record.options, config)
    truth = [m.move for m in record.moves]
    run = watch(referee, film(positions(record.board()), rng, pace), camera, truth, learn)
    equal = same_game([m.move for m in referee.record.moves], truth)
    return equal, run, referee


# ------------------------------------------------------------ illegal moves
def _lifted(board: Board, cell: Hex) -> dict[Hex, list[Piece]]:
    stacks = board.stacks()
    stacks[cell].pop()
    if not stacks[cell]:
        del stacks[cell]
    return stacks


def _movable(board: Board) -> Iterator[tuple[Piece, Hex]]:
    """Pieces of the side to move on top of their stack, not moved last turn."""
    for cell, stack in board.stacks().items():
        piece = stack[-1]
        if piece.colour is board.turn and piece is not board.last_moved:
            yield piece, cell


def _hive_split(board: Board) -> Iterator[Move]:
    if not board.queen_placed(board.turn):
        return
    cut = articulation_points(board.stacks())
    for piece, cell in _movable(board):
        if cell in cut and len(board.stack(cell)) == 1 and piece.bug in MOVERS:
            for dest in MOVERS[piece.bug](_lifted(board, cell), cell):
                yield Move(piece, dest, cell)


def _gate(board: Board) -> Iterator[Move]:
    cut = articulation_points(board.stacks())
    stacks = board.stacks()
    for piece, cell in _movable(board):
        if cell in cut or len(stacks[cell]) > 1 or piece.bug not in (Bug.QUEEN, Bug.ANT, Bug.PILLBUG):
            continue
        around = neighbours(cell)
        for i, dest in enumerate(around):
            if dest not in stacks and around[i - 1] in stacks and around[(i + 1) % 6] in stacks:
                yield Move(piece, dest, cell)


def _touching_opponent(board: Board) -> Iterator[Move]:
    if board.player_turn() < 2:
        return
    stacks = board.stacks()
    for piece in placeable_bugs(board, board.turn):
        for cell in {n for c, s in stacks.items() if s[-1].colour is board.turn for n in neighbours(c)}:
            tops = [stacks[n][-1].colour for n in neighbours(cell) if n in stacks]
            if cell not in stacks and board.turn.opponent in tops:
                yield Move(piece, cell, None)


def _queen_late(board: Board) -> Iterator[Move]:
    if board.queen_due():
        for piece in board.hand(board.turn):
            if piece.bug is not Bug.QUEEN and board.next_in_hand(board.turn, piece.bug) is piece:
                for cell in board.placement_cells(board.turn):
                    yield Move(piece, cell, None)


def _before_queen(board: Board) -> Iterator[Move]:
    # in a hive of two or three, a piece moved round the others may look just like the
    # whole hive turned (and the benchmark turns it now and then)
    if board.queen_placed(board.turn) or board.queen_due() or len(board.stacks()) < 4:
        return
    cut = articulation_points(board.stacks())
    for piece, cell in _movable(board):
        if cell not in cut and piece.bug in MOVERS:
            for dest in MOVERS[piece.bug](_lifted(board, cell), cell):
                yield Move(piece, dest, cell)


def _pillbug_just_moved(board: Board) -> Iterator[Move]:
    last = board.last_moved
    if last is None or not board.queen_placed(board.turn):
        return
    origin = board.position_of(last)
    stacks = board.stacks()
    if origin is None or len(stacks[origin]) > 1 or origin in articulation_points(stacks):
        return
    for cell in neighbours(origin):
        stack = stacks.get(cell)
        if stack and len(stack) == 1 and stack[0].bug is Bug.PILLBUG and stack[0].colour is board.turn:
            for dest in neighbours(cell):
                if dest not in stacks:
                    yield Move(last, dest, origin)


def _wrong_movement(board: Board) -> Iterator[Move]:
    if not board.queen_placed(board.turn):
        return
    cut = articulation_points(board.stacks())
    for piece, cell in _movable(board):
        if cell in cut or len(board.stack(cell)) > 1 or piece.bug not in (Bug.QUEEN, Bug.BEETLE, Bug.PILLBUG):
            continue
        for dest in ant_moves(_lifted(board, cell), cell):
            if distance(cell, dest) >= 2:
                yield Move(piece, dest, cell)


KINDS: dict[str, tuple[Callable[[Board], Iterator[Move]], Rule]] = {
    "hive split": (_hive_split, Rule.ONE_HIVE),
    "gate": (_gate, Rule.FREEDOM_TO_MOVE),
    "placement touching the opponent": (_touching_opponent, Rule.PLACE_TOUCHING_OPPONENT),
    "queen too late": (_queen_late, Rule.QUEEN_BY_FOURTH_TURN),
    "moving before the queen": (_before_queen, Rule.MOVE_BEFORE_QUEEN),
    "pillbug on the piece just moved": (_pillbug_just_moved, Rule.PILLBUG_JUST_MOVED),
    "wrong bug movement": (_wrong_movement, Rule.BUG_MOVEMENT),
}


@dataclass(frozen=True)
class Injection:
    kind: str
    ply: int  # moves of the game before the illegal one
    move: Move


def find_injection(record: GameRecord, kind: str, rng: random.Random) -> Injection | None:
    """An illegal move of ``kind`` somewhere in the game (a random position that has one)."""
    finder, _ = KINDS[kind]
    boards = [b for b in record.boards() if not b.state.is_over]
    rng.shuffle(boards)
    for board in boards:
        legal = set(board.legal_moves)
        options = [m for m in finder(board) if m not in legal]
        if options:
            return Injection(kind, board.ply, rng.choice(options))
    return None


def inject(record: GameRecord, injection: Injection, config: RefereeConfig, rng: random.Random,
           pace: Pace, camera: Camera, follow: int = 3, hold: tuple[int, int] = (12, 25)
           ) -> tuple[Rule | None, bool, int]:
    """Resume at the injection point (the position left still as long as the referee may wait, as
    a resumed game's table lies before play goes on), show the illegal move (left until the
    referee could flag it), take it back, then play on ``follow`` moves, each board left still for
    ``hold`` frames. Returns the rule flagged once the illegal move is made (None if none),
    whether play went on, and how many illegal moves were flagged before it was made or after
    it was taken back (legal moves flagged illegal)."""
    prefix = GameRecord(record.game_type, record.options)
    for entry in record.moves[:injection.ply]:
        prefix.append(entry.move)
    referee = Referee.resume(prefix, config)
    board = prefix.board()
    shown = [board.stacks()]
    board.push(injection.move)
    shown.append(board.stacks())
    board.pop()
    shown.append(board.stacks())
    end = injection.ply + follow
    while end < len(record.moves) and record.moves[end].move.is_pass:  # the referee records a forced pass at once
        end += 1
    rest = record.moves[injection.ply:end]
    for entry in rest:
        board.push(entry.move)
        if not entry.move.is_pass:
            shown.append(board.stacks())
    # no fast replies, and boards left long enough for the warning to be seen and acted on
    calm = replace(pace, fast_chance=0.0, still_frames=hold)
    shots = list(film(shown, rng, calm, waited={0, 1}))
    made = next(s.timestamp for s in shots if s.stacks is shown[1])  # the hand begins the illegal move
    run = watch(referee, shots, camera)
    before = sum(e.kind == "illegal" and e.time < made for e in run.events)  # a legal board flagged
    illegal = [e for e in run.events if e.kind == "illegal" and e.time >= made]
    rule = Rule(illegal[0].rule) if illegal else None
    taken_back = any(e.kind == "takeback" for e in run.events)
    after = next((i for i, e in enumerate(run.events) if e.kind == "takeback"), len(run.events))
    went_on = taken_back and [m.uhp for m in referee.record.moves] == [m.uhp for m in record.moves[:injection.ply]
                                                                       + rest]
    return rule, went_on, before + sum(e.kind == "illegal" for e in run.events[after:])


# ------------------------------------------------------------------- games
# rendered frames cost ~0.1 s each: a lean film (a hand frame or two, the board still just
# long enough to settle at 10 fps, stable_seconds 0.3) and injections held a little longer;
# the last board and the illegal one stay 2.5 s, past the referee's longest wait
# (stable_seconds 0.3 then misread_after_seconds 2.0), as players leave them until it speaks
RENDERED_PACE = Pace(hand_frames=(1, 2), still_frames=(4, 6), end_frames=25)
RENDERED_HOLD = (5, 8)


@dataclass(frozen=True)
class Options:
    camera: str  # "simulated" or "rendered"
    seed: int
    config: RefereeConfig
    lamp: bool = False  # rendered: a lamp of random colour comes on halfway through each game
    world: bool = False  # rendered: the wide world, each game in the next art style, the set enrolled first
    learn: bool = True  # rendered: the detector learns the set from the tops the record names
    photos: int = 1  # wide world: enrollment photos (the block turned half round between them)
    zoom: bool = True  # rendered: the camera turns to a larger view of a hive that looks small (``vision.zoom``)


@dataclass
class GameResult:
    """One game filmed and one illegal move injected into it."""

    name: str
    moves: int
    equal: bool
    asked: list[str]  # kinds of the events that wanted a person
    false_illegal: int  # in the film and after the injected move was taken back
    latency: list[float]
    processing: list[float]
    judging: list[float]
    frame_seconds: list[float]  # every frame of the film: recognition + referee
    first_question: str = ""
    kind: str | None = None  # of the injected move (None: the game allows none)
    right_rule: bool = False
    went_on: bool = False
    wrong_rule: str = ""
    style: str = ""
    enrollment_failed: str = ""
    nearer: bool = False  # filmed from a camera brought nearer, as enrollment asked
    views: int = 0  # times the camera turned to another view (``vision.zoom``)
    darker: int = 0  # darker frames taken to read tops under glare (``vision.glare``)
    frames: int = 0
    render_seconds: float = 0.0
    detect_seconds: float = 0.0
    raised: int = 0
    cut: int = 0
    seconds: float = 0.0


def play_game(index: int, path: Path, options: Options) -> GameResult:
    """Film game ``index`` of the corpus and inject its illegal move (seeded by the index)."""
    started = time.perf_counter()
    rng = random.Random(options.seed * 1_000_003 + index)
    style = None
    if options.camera == "rendered":
        from rendered_camera import WORLD_STYLES, RenderedCamera  # numpy, OpenCV and the renderer only when asked

        style = WORLD_STYLES[index % len(WORLD_STYLES)] if options.world else None
        camera: Camera = RenderedCamera(rng.randrange(1 << 30), options.lamp, style, options.photos, options.zoom)
        pace, hold = RENDERED_PACE, RENDERED_HOLD
    else:
        camera, pace, hold = noisy_camera(rng), Pace(), (12, 25)
    record = load_sgf(path)
    same, run, _ = film_game(record, options.config, rng, pace, camera, options.learn)
    human = [e for e in run.events if e.kind in ("illegal", "misread", "needs_confirmation")]
    result = GameResult(path.name, len(record.moves), same, [e.kind for e in human],
                        sum(e.kind == "illegal" for e in run.events), run.latency, run.processing, run.judging,
                        run.frames, str(human[0].to_dict()) if human else "")
    kinds = list(KINDS)
    for offset in range(len(kinds)):  # this game's kind, or the next one it allows
        kind = kinds[(index + offset) % len(kinds)]
        injection = find_injection(record, kind, rng)
        if injection is not None:
            rule, result.went_on, false_illegal = inject(record, injection, options.config, rng, pace, camera,
                                                         hold=hold)
            result.false_illegal += false_illegal
            result.kind, result.right_rule = kind, rule is KINDS[kind][1]
            if not result.right_rule:
                result.wrong_rule = (f"ply {injection.ply} {kind}: {injection.move} -> "
                                     f"{rule.value if rule else 'not flagged'}")
            break
    stats = getattr(camera, "stats", None)
    if stats is not None:
        result.frames, result.raised, result.cut = stats.frames, stats.raised, stats.cut
        result.render_seconds, result.detect_seconds = stats.render_seconds, stats.detect_seconds
        result.enrollment_failed, result.nearer, result.views = stats.enrollment_failed, stats.nearer, stats.views
        result.darker = stats.darker
    result.style = style or ""
    result.seconds = time.perf_counter() - started
    return result


def _play(job: tuple[int, Path, Options]) -> GameResult:
    return play_game(*job)


def progress(done: int, total: int, result: GameResult) -> str:
    clean = result.equal and not result.asked
    injected = (f"{result.kind}: {'right rule' if result.right_rule else 'WRONG RULE'}, "
                f"{'went on' if result.went_on else 'DID NOT GO ON'}") if result.kind else "no injection"
    frames = (f", {result.frames} frames" if result.frames else "") + (", camera brought nearer" if result.nearer else "")
    return (f"[{done}/{total}] {result.name}: {result.moves} moves, "
            f"{'exact' if clean else 'equal, asked' if result.equal else 'DIFFERS'}, "
            + (f"questions {dict(Counter(result.asked))}, " if result.asked else "")
            + f"{result.false_illegal} legal flagged illegal; {injected}{frames}, {result.seconds:.1f} s"
            + (f"\n    first question: {result.first_question}" if result.first_question else ""))


# ------------------------------------------------------------------- report
LATE = 0.5  # s from the board becoming still to its event: the bound


def percentile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report(results: list[GameResult], args: argparse.Namespace, seconds: float) -> None:
    games = len(results)
    clean = sum(r.equal and not r.asked for r in results)
    equal = sum(r.equal for r in results)
    asked = Counter(kind for r in results for kind in r.asked)
    latency = [x for r in results for x in r.latency]
    processing = [x for r in results for x in r.processing]
    total = [x + y for r in results for x, y in zip(r.latency, r.processing)]
    print(f"camera {args.camera}; games {games} (every {args.every} from game {args.first}, "
          f"first {args.games or 'all'}), moves {sum(r.moves for r in results)}, "
          f"stable_seconds {args.stable}, min_confidence {args.min_confidence}, seed {args.seed}, "
          f"workers {args.workers}, {seconds:.1f} s")
    print(f"recorded move for move, no human input: {clean}/{games} = {100 * clean / games:.1f}%"
          f"  (equal records {equal}/{games})")
    print(f"legal moves flagged illegal: {sum(r.false_illegal for r in results)};  "
          f"questions asked: {dict(asked) or 0}")
    print("injected illegal moves:")
    print(f"  {'kind':34} {'injected':>8} {'right rule':>10} {'play went on':>12}")
    for kind in KINDS:
        mine = [r for r in results if r.kind == kind]
        print(f"  {kind:34} {len(mine):>8} {sum(r.right_rule for r in mine):>10} {sum(r.went_on for r in mine):>12}")
    mine = [r for r in results if r.kind]
    print(f"  {'total':34} {len(mine):>8} {sum(r.right_rule for r in mine):>10} {sum(r.went_on for r in mine):>12}")
    print(f"latency board still -> move event (simulated, includes stable_seconds): "
          f"median {statistics.median(latency):.3f} s, p95 {percentile(latency, 0.95):.3f} s, "
          f"max {max(latency):.3f} s")
    print(f"processing of that frame{' (recognition + referee)' if args.camera == 'rendered' else ''}: "
          f"median {1000 * statistics.median(processing):.2f} ms, "
          f"p95 {1000 * percentile(processing, 0.95):.2f} ms, max {1000 * max(processing):.2f} ms")
    if args.camera == "rendered":
        judging = [x for r in results for x in r.judging]
        print(f"  of which the referee: median {1000 * statistics.median(judging):.2f} ms, "
              f"p95 {1000 * percentile(judging, 0.95):.2f} ms, max {1000 * max(judging):.2f} ms")
    print(f"total board still -> event (simulated + processing): median {statistics.median(total):.3f} s, "
          f"p95 {percentile(total, 0.95):.3f} s, max {max(total):.3f} s")
    late = [(x + y, r.name) for r in results for x, y in zip(r.latency, r.processing) if x + y > LATE]
    print(f"events later than {LATE} s after the board became still: {len(late)} of {len(total)}"
          + (f"; the latest {max(late)[0]:.3f} s in {max(late)[1]}" if late else ""))
    frames = sum(r.frames for r in results)
    if frames:
        every = [x for r in results for x in r.frame_seconds]
        print(f"every frame of the films (recognition + referee): median {1000 * statistics.median(every):.1f} ms, "
              f"p95 {1000 * percentile(every, 0.95):.1f} ms, max {1000 * max(every):.1f} ms")
        print(f"frames rendered and recognised: {frames}; per frame: render "
              f"{1000 * sum(r.render_seconds for r in results) / frames:.1f} ms, recognition "
              f"{1000 * sum(r.detect_seconds for r in results) / frames:.1f} ms; camera raised to see the "
              f"whole hive in {sum(r.raised for r in results)} films, hive cut off in {sum(r.cut for r in results)}; "
              f"camera brought nearer as enrollment asked in {sum(r.nearer for r in results)} games; the view "
              f"turned (zoom) {sum(r.views for r in results)} times in {sum(r.views > 0 for r in results)} games; "
              f"darker frames taken for tops under glare: {sum(r.darker for r in results)} in "
              f"{sum(r.darker > 0 for r in results)} games")
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(f"peak RSS of one process: {peak / 1024:.0f} MB")
    if args.world:
        world_report(results)
    for r in results:
        if not (r.equal and not r.asked):
            print(f"  {r.name}: {'differs' if not r.equal else 'asked'} {r.first_question}")
    for r in results:
        if r.wrong_rule:
            print(f"  {r.name} {r.wrong_rule}")


def world_report(results: list[GameResult]) -> None:
    """Per art style of the wide world: games recorded move for move with no human input, legal moves
    flagged illegal, and enrollments that failed."""
    print(f"  {'style':14} {'games':>5} {'exact':>5} {'false illegal':>13} {'enrollment failed':>17}")
    for style in dict.fromkeys(r.style for r in results):
        mine = [r for r in results if r.style == style]
        print(f"  {style:14} {len(mine):>5} {sum(r.equal and not r.asked for r in mine):>5} "
              f"{sum(r.false_illegal for r in mine):>13} {sum(bool(r.enrollment_failed) for r in mine):>17}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--camera", choices=("simulated", "rendered"), default="simulated",
                        help="observations from the simulated camera, or rendered frames through vision.detect")
    parser.add_argument("--games", type=int, default=0, help="only the first N games chosen (0: all)")
    parser.add_argument("--every", type=int, default=1, help="only every Nth game of the corpus")
    parser.add_argument("--first", type=int, default=0, help="... starting from this one (0-based)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stable", type=float, default=0.3, help="stable_seconds")
    parser.add_argument("--min-confidence", type=float, default=RefereeConfig.min_confidence,
                        help="min_confidence: reads below it are put to the (simulated) person")
    parser.add_argument("--lamp", action="store_true",
                        help="rendered: switch a lamp of random colour on halfway through each game")
    parser.add_argument("--world", action="store_true",
                        help="rendered: film in the wide world, each game in the next art style (blind ones "
                             "included), the set enrolled first from one photo")
    parser.add_argument("--photos", type=int, default=1, choices=(1, 2),
                        help="--world: enrollment photos (2: the block turned half round between them, as the "
                             "calibration page asks)")
    parser.add_argument("--no-learn", action="store_true",
                        help="rendered: the detector does not learn the set from the game record")
    parser.add_argument("--whole-view", action="store_true",
                        help="rendered: every frame shows the whole view (a camera that cannot crop its sensor)")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    files = sorted((args.shared / "corpus" / "boardspace-sgf").glob("*.sgf"))
    jobs = list(enumerate(files))[args.first::args.every]
    if args.games:
        jobs = jobs[:args.games]
    if not jobs:
        print(f"no games found under {args.shared / 'corpus' / 'boardspace-sgf'}")
        return 1
    if args.world and args.camera != "rendered":
        parser.error("--world films rendered frames: add --camera rendered")
    config = RefereeConfig(stable_seconds=args.stable, min_confidence=args.min_confidence)
    options = Options(args.camera, args.seed, config, args.lamp, args.world, not args.no_learn, args.photos,
                      not args.whole_view)
    started = time.perf_counter()
    results: list[GameResult] = []
    work = [(index, path, options) for index, path in jobs]
    try:
        with multiprocessing.Pool(args.workers) if args.workers > 1 else nullcontext() as pool:
            for result in (pool.imap(_play, work) if pool else map(_play, work)):
                results.append(result)
                print(progress(len(results), len(work), result), flush=True)
    except KeyboardInterrupt:  # report the games played so far (imap keeps them in order)
        print(f"INTERRUPTED: partial report of the first {len(results)} of {len(work)} games chosen")
    if results:
        report(results, args, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
