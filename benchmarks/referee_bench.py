"""The referee against every boardspace game of the shared corpus, filmed with noise.

    python benchmarks/referee_bench.py [--games N] [--seed 1] [--stable 0.3] [--shared ../shared]

Each game is played in front of a simulated 10 fps camera (``rules.referee.synthetic``):
a hand hides the board while each move is made, the hive is now and then knocked (a
rigid transform), some replies come before the board is still (two moves between steady
views), and recognition flickers (a tile misread at low confidence or missed for a
frame or two). Reported:

- games recorded move for move equal to the original with no human input (target 99%),
  and legal moves flagged illegal (target 0); when the referee asks, a simulated person
  answers with the true move, so one question does not spoil the rest of the game;
- one injected illegal move per game, of each kind in turn: flagged with the right rule,
  taken back, and play followed on;
- latency from the board becoming still to the move event: simulated (stable_seconds
  plus frame quantisation) and the processing time of the frame that produced it.

To run it on rendered frames, pass another ``camera`` (shots -> observations) to
``film_game``/``inject``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import Board, Bug, Move, Piece  # noqa: E402
from rules.explain import Rule  # noqa: E402
from rules.hexgrid import Hex, distance, neighbours  # noqa: E402
from rules.movegen import MOVERS, ant_moves, articulation_points, placeable_bugs  # noqa: E402
from rules.observation import Observation  # noqa: E402
from rules.record import GameRecord  # noqa: E402
from rules.referee import Event, NeedsConfirmationEvent, Referee, RefereeConfig  # noqa: E402
from rules.referee.synthetic import Noise, Pace, Shot, add_noise, film, observe  # noqa: E402
from rules.sgf import load_sgf  # noqa: E402

Camera = Callable[[Iterable[Shot]], Iterable[Observation]]
Stacks = Mapping[Hex, Sequence[Piece]]


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


def watch(referee: Referee, shots: Iterable[Shot], camera: Camera, truth: Sequence[str] = ()) -> Run:
    """Feed the camera's view of ``shots`` to ``referee``. When it asks, a person who
    knows the game's MoveStrings ``truth`` picks the right candidate, if there is one."""
    run = Run()
    shots = list(shots)
    occluded = True
    for shot in shots:
        if occluded and not shot.occluded:
            run.still_at.append(shot.timestamp)
        occluded = shot.occluded
    for observation in camera(shots):
        start = time.perf_counter()
        events = referee.observe(observation)
        elapsed = time.perf_counter() - start
        for event in events:
            if event.kind in ("move", "pass"):
                settled = max((t for t in run.still_at if t <= event.time), default=event.time)
                run.latency.append(event.time - settled)
                run.processing.append(elapsed)
        run.events += events
        for event in events:
            if isinstance(event, NeedsConfirmationEvent):
                done = len(referee.record.moves)
                for candidate in event.candidates:
                    if candidate.split("; ") == list(truth[done:done + candidate.count(";") + 1]):
                        run.events += referee.confirm(candidate)
    return run


def positions(board: Board) -> list[dict[Hex, list[Piece]]]:
    """The stacks after each move that changes the board (passes change nothing)."""
    return [b.stacks() for b in board.replay() if not (b.move_stack and b.move_stack[-1].is_pass)]


def film_game(record: GameRecord, config: RefereeConfig, rng: random.Random, pace: Pace,
              camera: Camera) -> tuple[bool, Run, Referee]:
    referee = Referee(record.game_type, record.options, config)
    run = watch(referee, film(positions(record.board()), rng, pace), camera, [m.uhp for m in record.moves])
    equal = [m.uhp for m in referee.record.moves] == [m.uhp for m in record.moves]
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
           pace: Pace, camera: Camera, follow: int = 3) -> tuple[Rule | None, bool]:
    """Resume at the injection point, show the illegal move, take it back, then play on
    ``follow`` moves. Returns the rule flagged (None if none) and whether play went on."""
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
    rest = record.moves[injection.ply:injection.ply + follow]
    for entry in rest:
        board.push(entry.move)
        if not entry.move.is_pass:
            shown.append(board.stacks())
    # no fast replies, and boards left long enough for the warning to be seen and acted on
    calm = replace(pace, fast_chance=0.0, still_frames=(12, 25))
    run = watch(referee, film(shown, rng, calm), camera)
    illegal = [e for e in run.events if e.kind == "illegal"]
    rule = Rule(illegal[0].rule) if illegal else None
    taken_back = any(e.kind == "takeback" for e in run.events)
    went_on = taken_back and [m.uhp for m in referee.record.moves] == [m.uhp for m in record.moves[:injection.ply]
                                                                       + rest]
    return rule, went_on


# ------------------------------------------------------------------- report
def percentile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="only the first N games (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stable", type=float, default=0.3, help="stable_seconds")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    files = sorted((args.shared / "corpus" / "boardspace-sgf").glob("*.sgf"))
    if args.games:
        files = files[:args.games]
    if not files:
        print(f"no games found under {args.shared / 'corpus' / 'boardspace-sgf'}")
        return 1
    config = RefereeConfig(stable_seconds=args.stable)
    pace, noise = Pace(), Noise()
    rng = random.Random(args.seed)
    camera = noisy_camera(rng, noise)
    equal = clean = false_illegal = moves = 0
    asked: Counter[str] = Counter()
    failures: list[str] = []
    latency: list[float] = []
    processing: list[float] = []
    kinds = list(KINDS)
    flagged: Counter[str] = Counter()
    continued: Counter[str] = Counter()
    injected: Counter[str] = Counter()
    wrong_rules: list[str] = []
    started = time.perf_counter()
    for index, path in enumerate(files):
        record = load_sgf(path)
        same, run, referee = film_game(record, config, rng, pace, camera)
        human = [e for e in run.events if e.kind in ("illegal", "misread", "needs_confirmation")]
        asked.update(e.kind for e in human)
        false_illegal += sum(e.kind == "illegal" for e in run.events)
        moves += len(record.moves)
        equal += same
        clean += same and not human
        if not (same and not human):
            failures.append(f"{path.name}: {'differs' if not same else 'asked'} "
                            f"{[e.to_dict() for e in human][:1]}")
        latency += run.latency
        processing += run.processing
        for offset in range(len(kinds)):  # this game's kind, or the next one it allows
            kind = kinds[(index + offset) % len(kinds)]
            injection = find_injection(record, kind, rng)
            if injection is not None:
                break
        else:
            continue
        rule, went_on = inject(record, injection, config, rng, pace, camera)
        injected[kind] += 1
        flagged[kind] += rule is KINDS[kind][1]
        continued[kind] += went_on
        if rule is not KINDS[kind][1]:
            wrong_rules.append(f"{path.name} ply {injection.ply} {kind}: {injection.move} -> "
                               f"{rule.value if rule else 'not flagged'}")
    seconds = time.perf_counter() - started
    games = len(files)
    print(f"games {games}, moves {moves}, stable_seconds {args.stable}, seed {args.seed}, {seconds:.1f} s")
    print(f"recorded move for move, no human input: {clean}/{games} = {100 * clean / games:.1f}%"
          f"  (equal records {equal}/{games})")
    print(f"legal moves flagged illegal: {false_illegal};  questions asked: {dict(asked) or 0}")
    print("injected illegal moves:")
    print(f"  {'kind':34} {'injected':>8} {'right rule':>10} {'play went on':>12}")
    for kind in kinds:
        print(f"  {kind:34} {injected[kind]:>8} {flagged[kind]:>10} {continued[kind]:>12}")
    print(f"  {'total':34} {sum(injected.values()):>8} {sum(flagged.values()):>10} {sum(continued.values()):>12}")
    print(f"latency board still -> move event (simulated, includes stable_seconds): "
          f"median {statistics.median(latency):.3f} s, p95 {percentile(latency, 0.95):.3f} s, "
          f"max {max(latency):.3f} s")
    print(f"processing of that frame: median {1000 * statistics.median(processing):.2f} ms, "
          f"p95 {1000 * percentile(processing, 0.95):.2f} ms, max {1000 * max(processing):.2f} ms")
    for line in failures[:10] + wrong_rules[:10]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
