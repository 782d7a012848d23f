"""Fixtures of the referee tests: a simulated table (see ``table_sim``)."""

from __future__ import annotations

from typing import Callable

import pytest
from table_sim import Table, record_of

from rules import RuleOptions
from rules.referee import Referee, RefereeConfig
from rules.referee.registration import Transform


@pytest.fixture
def table() -> Callable[..., Table]:
    """``table(*moves, game_type=..., options=..., config=...)``: a table whose referee
    has already recorded ``moves``."""

    def make(*moves: str, game_type: str = "Base+MLP", options: RuleOptions | None = None,
             config: RefereeConfig | None = None, transform: Transform = Transform(0, False, (4, -7))) -> Table:
        record = record_of(game_type, *moves, options=options)
        referee = Referee.resume(record, config or RefereeConfig(stable_seconds=0.3))
        tbl = Table(referee, transform)
        if moves:
            tbl.still()
        return tbl

    return make


