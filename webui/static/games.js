// The list of logged games with their downloads and replay links (cards on phones).
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const body = document.getElementById("games");
  const data = await API.get("/api/games");
  document.getElementById("empty").hidden = data.games.length > 0;

  function cell(row, text, label, cls) {
    const td = row.insertCell();
    td.textContent = text;
    if (label) td.dataset.label = label;
    if (cls) td.className = cls;
    return td;
  }

  for (const g of data.games) {
    const row = body.insertRow();
    cell(row, `Game ${g.id}` + (g.id === data.current ? " (live)" : ""), "", "id");
    if (g.problem) {
      cell(row, g.problem, "Problem").colSpan = 6;
      continue;
    }
    cell(row, new Date(g.created * 1000).toLocaleString(), "Started");
    cell(row, `${g.white || "White"} – ${g.black || "Black"}`, "Players");
    cell(row, g.game_type, "Type");
    cell(row, String(g.moves), "Moves");
    cell(row, g.result_text, "Result", "result");
    const files = cell(row, "", "", "files");
    for (const [label, href] of [["Replay", `/games/${g.id}`], ["PGN", `/api/games/${g.id}/pgn`], ["GameString", `/api/games/${g.id}/gamestring`]]) {
      const a = document.createElement("a");
      a.href = href; a.textContent = label;
      if (label !== "Replay") a.setAttribute("download", "");
      files.appendChild(a);
    }
  }
});
