// The rulings page: pick a piece, see every legal destination; pick a cell, read the ruling.
"use strict";

(() => {
  const $ = id => document.getElementById(id);
  let positionText = "";
  let current = null; // last answer of /api/rulings
  let piece = null;

  async function ask(body) {
    try {
      const answer = await API.post("/api/rulings", Object.assign({ position: positionText }, body));
      $("error").textContent = "";
      return answer;
    } catch (err) {
      $("error").textContent = err.message;
      return null;
    }
  }

  function show(answer) {
    current = answer;
    const p = answer.position;
    const marks = (answer.destinations || []).map(d => d.cell);
    const bad = answer.ruling && !answer.ruling.legal && answer.ruling.cells ? answer.ruling.cells : [];
    HIVE.draw($("board"), p.stacks, { marks, bad, empties: true, onCell: pickCell });
    $("turn").textContent = `Turn ${p.turn_number}: ${p.turn === "w" ? "White" : "Black"} to play`;
    $("turn").className = "turn " + (p.turn === "w" ? "white" : "black");
    HIVE.handList($("hand-w"), p.hand.w, pickPiece);
    HIVE.handList($("hand-b"), p.hand.b, pickPiece);
    document.querySelectorAll(".chip").forEach(c => c.classList.toggle("selected", c.dataset.piece === piece));
    $("selected").textContent = piece ? `Selected: ${piece}` : "";
    $("dests").textContent = piece ? ((answer.destinations || []).map(d => d.uhp).join(", ") || "none: this piece cannot move now") : "Pick a piece.";
    const r = answer.ruling;
    $("ruling").hidden = !r;
    if (r) {
      $("ruling").className = "ruling " + (r.legal ? "legal" : "illegal");
      $("verdict").textContent = (r.legal ? "Legal: " : "Not legal: ") + (r.move || "");
      $("rule").textContent = r.rule || "";
      $("why").textContent = r.message;
      $("book").textContent = r.book ? `${r.book} (${r.reference})` : "";
    }
  }

  async function pickPiece(name) {
    piece = name;
    const answer = await ask({ piece });
    if (answer) show(answer);
  }

  async function pickCell(q, r, stack) {
    const top = stack ? stack.pieces[stack.pieces.length - 1] : null;
    if (!piece || (top && top === piece)) {
      if (top) return pickPiece(top);
      return;
    }
    const answer = await ask({ piece, cell: [q, r] });
    if (answer) show(answer);
  }

  async function load(text) {
    positionText = text;
    piece = null;
    const answer = await ask({});
    if (answer) show(answer);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("load").addEventListener("submit", ev => { ev.preventDefault(); load($("position").value); });
    $("current").addEventListener("click", () => { $("position").value = ""; load(""); });
    load("");
  });
})();
