"""kill -9 in the middle of a game: the restarted server continues it with every move."""

from __future__ import annotations

import signal

from webhelpers import get_json, start_server, wait_for


def test_kill_9_then_restart_continues_the_game(tmp_path):
    process, base = start_server(tmp_path, "--source", "demo", "--demo-speed", "3")
    try:
        state = wait_for(lambda: _with_moves(base, 6), 90, "six recorded moves")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    seen = [m["uhp"] for m in state["moves"]]  # every move a page had been shown before the kill

    # The demo plays in wall-clock time and starts a new game when it loops; at full speed the
    # 17 moves left take about 50 s, so a slow machine cannot see it loop before 3 more moves.
    process, base = start_server(tmp_path, "--source", "demo", "--demo-speed", "1")
    try:
        after = get_json(base + "/api/state")
        assert after["game_id"] == state["game_id"]
        assert [m["uhp"] for m in after["moves"]][:len(seen)] == seen
        assert [m["time"] for m in after["moves"]][:len(seen)] == [m["time"] for m in state["moves"]]
        more = wait_for(lambda: _with_moves(base, len(seen) + 3), 90, "the game to go on after the restart")
        assert more["game_id"] == state["game_id"]
        games = get_json(base + "/api/games")["games"]
        assert games[0]["id"] == state["game_id"] and games[0]["moves"] >= len(seen) + 3
    finally:
        process.terminate()
        process.wait(10)


def _with_moves(base: str, count: int) -> dict | None:
    """The game state once it has ``count`` moves, else None."""
    state = get_json(base + "/api/state")
    return state if len(state["moves"]) >= count else None
