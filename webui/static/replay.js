// Step through a logged game, position by position (arrow keys work too).
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const $ = id => document.getElementById(id);
  const id = $("title").dataset.game;
  let game;
  try { game = await API.get(`/api/games/${id}`); } catch (err) { $("title").textContent = err.message; return; }
  $("title").textContent = `Game ${id}: ${game.players.w || "White"} – ${game.players.b || "Black"} (${game.game_type}, ${game.result})`;
  $("pgn").href = `/api/games/${id}/pgn`;
  $("gs").href = `/api/games/${id}/gamestring`;
  let at = game.positions.length - 1;
  const items = game.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${m.uhp}  ${HIVE.clock(m.time)}`;
    li.className = "move";
    li.style.cursor = "pointer";
    li.addEventListener("click", () => go(i + 1));
    $("moves").appendChild(li);
    return li;
  });
  function go(n) {
    at = Math.max(0, Math.min(game.positions.length - 1, n));
    HIVE.draw($("board"), game.positions[at].stacks, {});
    $("where").textContent = at ? `after move ${at}: ${game.moves[at - 1].uhp}` : "start";
    items.forEach((li, i) => { li.style.fontWeight = i === at - 1 ? "700" : ""; });
  }
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(at - 1);
  $("next").onclick = () => go(at + 1);
  $("last").onclick = () => go(game.positions.length - 1);
  document.addEventListener("keydown", e => { if (e.key === "ArrowLeft") go(at - 1); if (e.key === "ArrowRight") go(at + 1); });
  go(at);
});
