// The rulings page: pick a piece, see every legal destination; pick a cell, read the ruling.
"use strict";

(() => {
  const $ = id => document.getElementById(id);
  let positionText = "";
  let piece = null;
  let tapped = null; // the cell asked about

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
    const p = answer.position;
    const marks = (answer.destinations || []).map(d => d.cell);
    const r = answer.ruling;
    const bad = r && !r.legal && r.cells ? r.cells : [];
    HIVE.draw($("board"), p.stacks, { marks, bad, tapped, selected: piece, empties: true, onCell: pickCell });
    $("turn").textContent = `${HIVE.COLOUR_WORD[p.turn]}'s turn ${p.turn_number}`;
    $("turn").className = "turn " + (p.turn === "w" ? "white" : "black");
    HIVE.handList($("hand-w"), p.hand.w, pickPiece, piece);
    HIVE.handList($("hand-b"), p.hand.b, pickPiece, piece);
    $("selected").textContent = piece ? `Selected: ${HIVE.describe(piece)}` : "";
    $("dests").textContent = !piece ? "Pick a piece." : "Legal moves of " + piece + ": "
      + ((answer.destinations || []).map(d => d.uhp).join(", ") || "none: this piece cannot move now");
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
    tapped = null;
    const answer = await ask({ piece });
    if (answer) show(answer);
  }

  async function pickCell(q, r, stack) {
    const top = stack ? stack.pieces[stack.pieces.length - 1] : null;
    if (!piece || (top && top === piece)) {
      if (top) return pickPiece(top);
      return;
    }
    tapped = [q, r];
    const answer = await ask({ piece, cell: [q, r] });
    if (answer) show(answer);
  }

  async function load(text) {
    positionText = text;
    piece = null;
    tapped = null;
    const answer = await ask({});
    if (answer) show(answer);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("load").addEventListener("submit", ev => { ev.preventDefault(); load($("position").value); });
    $("current").addEventListener("click", () => { $("position").value = ""; load(""); });
    load("");
  });
})();
