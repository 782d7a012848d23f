"""Illegal attempts in the record: checked when kept, resolved once, forgotten with the move before them."""

from __future__ import annotations

import pytest

from rules import Colour, GameRecord, IllegalAttempt


def attempt(ply: int, **changes: object) -> IllegalAttempt:
    fields = dict(ply=ply, uhp="bQ wS1-", colour=Colour.BLACK, rule="No Queen on the first turn",
                  message="The Queen may not be placed on the first turn.", timestamp=4.0)
    fields.update(changes)
    return IllegalAttempt(**fields)  # type: ignore[arg-type]


def test_an_attempt_is_resolved_once_by_someone() -> None:
    record = GameRecord("Base")
    record.append("wS1")
    record.add_attempt(attempt(1))
    assert record.resolve_attempt("taken back", "b").by == "b"
    with pytest.raises(ValueError, match="no pending illegal attempt"):
        record.resolve_attempt("overridden", "arbiter")


@pytest.mark.parametrize("changes, message", [
    ({"resolution": "forgiven", "by": "w"}, "resolution 'forgiven' is not one of pending, taken back"),
    ({"resolution": "taken back"}, "resolved by one of w, b, arbiter"),
    ({"by": "w"}, "resolved by one of w, b, arbiter (none while pending), not 'w'"),
    ({"resolution": "overridden", "by": "referee"}, "not 'referee'"),
    ({"message": "a {brace}"}, "may not contain '{'"),
    ({"timestamp": -1.0}, "must be a finite number of seconds"),
])
def test_bad_attempts_are_refused(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        attempt(0, **changes)


def test_an_attempt_follows_the_moves_recorded_so_far() -> None:
    record = GameRecord("Base")
    with pytest.raises(ValueError, match="follows move 0, not 3"):
        record.add_attempt(attempt(3))


def test_taking_back_a_move_forgets_the_attempts_after_it() -> None:
    record = GameRecord("Base")
    record.append("wS1")
    record.add_attempt(attempt(1))
    record.append("bG1 -wS1")
    record.add_attempt(attempt(2, uhp="wQ bG1"))
    record.pop()
    assert [a.ply for a in record.attempts] == [1]
