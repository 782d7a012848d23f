// The live page: state from Server-Sent Events, drawn as it arrives; control when unlocked.
"use strict";

(() => {
  const $ = id => document.getElementById(id);
  const COLOUR = { w: "White", b: "Black" };
  let state = null;
  let flash = null; // a passing message: {title, text, cls, until}
  window.hivecamLatencies = [];

  function banner(s) {
    const p = s.pending;
    if (p && p.kind === "illegal") return {
      cls: "illegal", title: `Illegal move: ${p.rule}`, text: `${p.uhp ? p.uhp + ": " : ""}${p.message}`,
      book: p.book ? `Rulebook: ${p.book} (${p.reference})` : "",
      action: `What to do: ${p.action}. (${COLOUR[p.player]} warnings: ${p.warnings})`, override: true };
    if (p && p.kind === "needs_confirmation") return {
      cls: "confirm", title: "Which move was played?", text: `${p.reason}: tap the move that was made.`, candidates: p.candidates };
    if (p && p.kind === "misread") return { cls: "warn", title: "Check the board", text: p.message };
    if (p && p.kind === "restore") return { cls: "warn", title: "Move taken back", text: `Put the board back: undo ${p.undone.join(", ")}.` };
    if (s.state === "WhiteWins" || s.state === "BlackWins" || s.state === "Draw") {
      const who = s.state === "Draw" ? "Draw" : (s.state === "WhiteWins" ? "White wins" : "Black wins");
      return { cls: "over", title: who, text: s.reason ? `(${s.reason})` : "" };
    }
    if (flash && flash.until > Date.now()) return flash;
    if (s.queen_due) return { cls: "queen", title: `${COLOUR[s.turn]} must place the Queen this turn`, text: "The Queen Bee must be in play by each player's fourth turn." };
    return null;
  }

  function lastCells(s) {
    return s.last_cells ? { origin: s.last_cells.origin, dest: s.last_cells.dest } : null;
  }

  function render(s) {
    state = s;
    const b = banner(s);
    const el = $("banner");
    el.hidden = !b;
    if (b) {
      el.className = "banner " + b.cls;
      $("banner-title").textContent = b.title;
      $("banner-text").textContent = (b.text || "") + (b.action ? " " + b.action : "");
      $("banner-book").textContent = b.book || "";
      const actions = $("banner-actions");
      actions.textContent = "";
      for (const c of b.candidates || []) {
        const button = document.createElement("button");
        button.textContent = c; button.className = "candidate";
        button.addEventListener("click", () => act("/api/game/confirm", { move: c }));
        actions.appendChild(button);
      }
    }
    const bad = s.pending && s.pending.cells ? s.pending.cells : [];
    HIVE.draw($("board"), s.stacks, { last: lastCells(s), bad, ghost: s.attempt });
    $("players").textContent = `${s.players.w || "White"} – ${s.players.b || "Black"} · ${s.game_type}`;
    const over = ["WhiteWins", "BlackWins", "Draw"].includes(s.state);
    $("turn").textContent = over ? "Game over" : `Turn ${s.turn_number}: ${COLOUR[s.turn]} to play`;
    $("turn").className = "turn " + (s.turn === "w" ? "white" : "black");
    $("view-status").textContent = s.view === "occluded" ? "hand over the board" : (s.view === "unstable" ? "pieces moving" : "");
    HIVE.handList($("hand-w"), s.hand.w);
    HIVE.handList($("hand-b"), s.hand.b);
    const list = $("moves");
    list.textContent = "";
    for (const m of s.moves) {
      const li = document.createElement("li");
      li.className = "move " + (m.colour === "w" ? "white" : "black") + (m.mark ? " marked" : "");
      li.innerHTML = `<span class="uhp"></span><span class="time"></span>`;
      li.firstChild.textContent = m.uhp + (m.mark ? ` (${m.mark})` : "");
      li.lastChild.textContent = HIVE.clock(m.time);
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
    $("game-string").value = s.game_string;
    $("game-string-note").textContent = s.game_string_note || "";
    $("game-string-note").hidden = !s.game_string_note;
    $("pgn-link").href = `/api/games/${s.game_id}/pgn`;
    $("gs-link").href = `/api/games/${s.game_id}/gamestring`;
    $("replay-link").href = `/games/${s.game_id}`;
    $("btn-override").disabled = !(s.pending && s.pending.kind === "illegal");
    camera(s.camera);
  }

  function camera(c) {
    const pill = $("camera-status");
    pill.hidden = !c;
    if (!c) return;
    pill.textContent = c.status === "ok" ? "camera live" : `camera: ${c.message}`;
    pill.className = "pill " + ({ ok: "ok", warn: "warn" }[c.status] || "bad");
  }

  function onEvents(events) {
    for (const e of events) {
      if (e.kind === "pass") flash = { cls: "pass", title: `${COLOUR[e.colour]} passes`, text: "No piece can be placed or moved.", until: Date.now() + 6000 };
      if (e.kind === "takeback") flash = { cls: "ok", title: "Taken back", text: "Play on.", until: Date.now() + 2500 };
    }
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.addEventListener("state", m => render(JSON.parse(m.data)));
    source.addEventListener("update", m => {
      const d = JSON.parse(m.data);
      onEvents(d.events);
      render(d.state);
      window.hivecamLatencies.push(Date.now() / 1000 - d.made); // seconds from event to page
    });
    source.addEventListener("camera", m => { if (state) { state.camera = JSON.parse(m.data); camera(state.camera); } });
    source.addEventListener("resync", () => API.get("/api/state").then(render));
    source.onerror = () => camera({ status: "lost", message: "connection to hivecam lost, retrying" });
  }

  function pollCamera() {
    const img = $("camera");
    if (!document.hidden && img.closest("details").open) {
      const next = new Image();
      next.onload = () => { img.src = next.src; };
      next.src = "/api/camera.jpg?t=" + Date.now();
    }
    setTimeout(pollCamera, 1000);
  }

  function message(text, bad) {
    $("control-message").textContent = text;
    $("control-message").className = "message" + (bad ? " bad" : "");
  }

  function showControls(on) {
    $("controls").hidden = !on;
    $("login").hidden = on;
  }

  async function act(url, body = {}) {
    if (!API.session.control) { message("Unlock control with the PIN first.", true); $("pin").focus(); return; }
    try {
      const data = await API.post(url, body);
      if (data.state) render(data.state);
      message("Done.");
    } catch (err) {
      message(err.message, true);
    }
  }

  function wire() {
    $("login").addEventListener("submit", async ev => {
      ev.preventDefault();
      try {
        await API.post("/api/login", { pin: $("pin").value });
        API.control = true; showControls(true); message("Control unlocked.");
      } catch (err) { message(err.message, true); }
      $("pin").value = "";
    });
    $("logout").addEventListener("click", async () => {
      await API.post("/api/logout"); API.control = false; showControls(false); message("Control locked.");
    });
    document.querySelectorAll("[data-action]").forEach(button => button.addEventListener("click", () => {
      const action = button.dataset.action;
      if (action === "resign" && !confirm(`${COLOUR[button.dataset.colour]} resigns?`)) return;
      act(`/api/game/${action}`, button.dataset.colour ? { colour: button.dataset.colour } : {});
    }));
    $("correct").addEventListener("submit", ev => { ev.preventDefault(); act("/api/game/correct", { move: $("correct-move").value }); });
    $("new-game").addEventListener("submit", ev => {
      ev.preventDefault();
      const limit = $("ng-limit").value;
      act("/api/game/new", {
        game_type: $("ng-type").value, white: $("ng-white").value, black: $("ng-black").value,
        queen_may_open: $("ng-queen").checked, repetition_draw: $("ng-repetition").checked,
        illegal_move_limit: limit ? Number(limit) : null,
      });
    });
    $("change-pin").addEventListener("submit", ev => {
      ev.preventDefault();
      act("/api/pin", { current: $("current-pin").value, pin: $("new-pin").value });
      $("current-pin").value = ""; $("new-pin").value = "";
    });
    $("copy-gs").addEventListener("click", async () => {
      const text = $("game-string").value;
      try { await navigator.clipboard.writeText(text); } catch (_) { $("game-string").select(); document.execCommand("copy"); }
      $("copy-gs").textContent = "Copied";
      setTimeout(() => { $("copy-gs").textContent = "Copy GameString"; }, 1500);
    });
  }

  document.addEventListener("DOMContentLoaded", async () => {
    wire();
    connect();
    pollCamera();
    const session = await API.refreshSession();
    showControls(session.control);
    setInterval(() => { if (state && flash && flash.until < Date.now()) { flash = null; render(state); } }, 1000);
  });
})();
