// Step through a logged game, position by position (arrow keys work too).
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const $ = id => document.getElementById(id);
  const id = $("title").dataset.game;
  let game;
  try { game = await API.get(`/api/games/${id}`); } catch (err) {
    $("error").hidden = false;
    $("error").textContent = `${err.message}. See the list of games.`;
    return;
  }
  const moves = RECORD.entries(game).filter(e => e.kind === "move");
  const last = game.positions.length - 1;
  $("title").textContent = `Game ${id}: ${game.players.w || "White"} – ${game.players.b || "Black"}`;
  $("summary").innerHTML = '<span class="result"></span> · <span class="facts"></span>';
  $("summary").firstChild.textContent = RECORD.result(game.result, game.reason);
  const tags = game.tags || {};
  $("summary").lastChild.textContent = [game.game_type, `${moves.length} moves`, tags.TimeControl, tags.Event,
    tags.Round && `round ${tags.Round}`, tags.Date].filter(Boolean).join(" · ");
  $("pgn").href = `/api/games/${id}/pgn`;
  $("gs").href = `/api/games/${id}/gamestring`;
  let at = last;

  // The last move's cells: where its piece stands after it, and where it stood before.
  function lastMove(n) {
    if (!n || !moves[n - 1] || moves[n - 1].uhp === "pass") return null;
    const piece = moves[n - 1].uhp.split(" ")[0];
    const find = stacks => { const s = stacks.find(s => s.pieces.includes(piece)); return s ? [s.q, s.r] : null; };
    return { origin: find(game.positions[n - 1].stacks), dest: find(game.positions[n].stacks) };
  }

  function go(n) {
    at = Math.max(0, Math.min(last, n));
    const position = game.positions[at];
    HIVE.draw($("board"), position.stacks, { last: lastMove(at), surrounded: position.surrounded || [] });
    if (position.hand) {
      HIVE.handList($("hand-w"), position.hand.w);
      HIVE.handList($("hand-b"), position.hand.b);
    }
    $("where").textContent = at ? `after move ${at}: ${moves[at - 1].uhp}` + (at === last ? ` (${RECORD.result(game.result)})` : "") : "start";
    const item = RECORD.mark($("moves"), at);
    if (item) RECORD.reveal($("moves"), item); else $("moves").scrollTop = 0;
    $("first").disabled = $("prev").disabled = at === 0;
    $("last").disabled = $("next").disabled = at === last;
  }
  RECORD.list($("moves"), RECORD.entries(game), { onPick: go });
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(at - 1);
  $("next").onclick = () => go(at + 1);
  $("last").onclick = () => go(last);
  document.addEventListener("keydown", e => {
    if (e.target.closest("input, textarea")) return;
    if (e.key === "ArrowLeft") go(at - 1);
    if (e.key === "ArrowRight") go(at + 1);
  });
  go(at);
});
