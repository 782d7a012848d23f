// The list of logged games with their downloads and replay links.
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const body = document.getElementById("games");
  const data = await API.get("/api/games");
  for (const g of data.games) {
    const row = document.createElement("tr");
    if (g.problem) {
      row.innerHTML = "<td></td><td colspan=6></td>";
      row.cells[0].textContent = String(g.id);
      row.cells[1].textContent = g.problem;
      body.appendChild(row);
      continue;
    }
    const cells = [
      String(g.id) + (g.id === data.current ? " (live)" : ""),
      new Date(g.created * 1000).toLocaleString(),
      `${g.white || "White"} – ${g.black || "Black"}`, g.game_type, String(g.moves), g.result,
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.appendChild(td);
    }
    const files = document.createElement("td");
    for (const [label, href] of [["Replay", `/games/${g.id}`], ["PGN", `/api/games/${g.id}/pgn`], ["GameString", `/api/games/${g.id}/gamestring`]]) {
      const a = document.createElement("a");
      a.href = href; a.textContent = label; a.style.marginRight = ".6rem";
      if (label !== "Replay") a.setAttribute("download", "");
      files.appendChild(a);
    }
    row.appendChild(files);
    body.appendChild(row);
  }
});
