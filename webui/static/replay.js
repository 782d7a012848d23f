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
  const moves = game.entries.filter(e => e.kind === "move");
  const last = game.positions.length - 1;
  $("title").textContent = `Game ${id}: ${game.players.w || "White"} – ${game.players.b || "Black"}`;
  $("summary").innerHTML = '<span class="result"></span> · <span class="facts"></span>';
  $("summary").firstChild.textContent = game.result_text;
  const tags = game.tags || {};
  $("summary").lastChild.textContent = [game.game_type, `${moves.length} moves`, tags.TimeControl, tags.Event,
    tags.Round && `round ${tags.Round}`, tags.Date].filter(Boolean).join(" · ");
  $("pgn").href = `/api/games/${id}/pgn`;
  $("gs").href = `/api/games/${id}/gamestring`;
  let at = last;

  function go(n) {
    at = Math.max(0, Math.min(last, n));
    const position = game.positions[at];
    HIVE.draw($("board"), position.stacks, { last: position.last_cells, surrounded: position.surrounded || [] });
    HIVE.handList($("hand-w"), position.hand.w);
    HIVE.handList($("hand-b"), position.hand.b);
    $("where").textContent = at ? `after move ${at}: ${moves[at - 1].uhp}` + (at === last ? ` (${game.result_text})` : "") : (game.setup ? "the set-up position" : "start");
    const item = RECORD.mark($("moves"), at);
    if (item) RECORD.reveal($("moves"), item); else $("moves").scrollTop = 0;
    $("first").disabled = $("prev").disabled = at === 0;
    $("last").disabled = $("next").disabled = at === last;
  }
  RECORD.list($("moves"), game.entries, { onPick: go });
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
