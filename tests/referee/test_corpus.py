"""Whole boardspace games, filmed with bumps, hands, fast replies and flicker."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.referee import Referee, RefereeConfig
from rules.referee.synthetic import Pace, add_noise, film, observe
from rules.sgf import load_sgf

GAMES = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "boardspace-sgf"


def games() -> list[Path]:
    if not GAMES.is_dir():
        pytest.skip(f"boardspace corpus not found at {GAMES}")
    return sorted(GAMES.glob("*.sgf"))[::19]


def test_games_are_recorded_move_for_move() -> None:
    rng = random.Random(7)
    for path in games():
        record = load_sgf(path)
        referee = Referee(record.game_type, record.options, RefereeConfig())
        positions = [b.stacks() for b in record.board().replay()
                     if not (b.move_stack and b.move_stack[-1].is_pass)]
        events = []
        for observation in add_noise(map(observe, film(positions, rng, Pace(bump_chance=0.1))), rng):
            events += referee.observe(observation)
        assert [m.uhp for m in referee.record.moves] == [m.uhp for m in record.moves], path.name
        assert not [e for e in events if e.kind in ("illegal", "misread")], path.name
        times = [m.timestamp for m in referee.record.moves]
        assert times == sorted(times)
        if record.declared is None and record.result.is_over:  # decided on the board
            reason = "both queens surrounded" if record.result.value == "Draw" else "queen surrounded"
            over = [(e.state, e.reason) for e in events if e.kind == "game_over"]
            assert over == [(record.result.value, reason)], path.name
