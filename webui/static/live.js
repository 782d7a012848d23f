// The live page: state from Server-Sent Events, drawn as it arrives.
"use strict";

(() => {
  const $ = id => document.getElementById(id);
  const WHO = RECORD.WHO;
  let state = null;
  let flash = null; // a passing message: {title, text, cls, until}
  let showGame = false; // while checking the board: the game's position alone, to put the pieces back
  let shown = ""; // what the banner says now
  let server = "ok"; // "stopped" when it said it stops, "unreachable" when the stream broke without a word
  window.hivecamLatencies = [];

  // What the banner says now, with what to do and the ways out as buttons; null for none.
  function banner(s) {
    const p = s.pending;
    if (p && p.kind === "illegal") return {
      cls: "illegal", title: `Illegal move: ${p.rule}`, text: `${p.uhp ? p.uhp + ": " : ""}${p.message}`,
      todo: `What to do: ${todo(p, p.action)}. (${WHO[p.player]} warnings: ${p.warnings})`,
      book: p.book ? `Rulebook: ${p.book} (${p.reference})` : "",
      actions: API.session.control ? [{ label: "Arbiter: allow it", run: b => CONTROL.act(CONTROL.ROUTES.override, {}, b) }] : [] };
    if (p && p.kind === "needs_confirmation") return {
      cls: "confirm", title: "Which move was played?", text: `${p.reason}.`,
      todo: `What to do: ${todo(p, "tap the move that was made (needs the control PIN), or put the board back as it was")}.`,
      actions: p.candidates.map(confirmButton) };
    if (p && p.kind === "check") return checkBanner(p);
    if (p && p.kind === "restore") return {
      cls: "warn", title: "Move taken back", text: `${p.undone.join(", ")} ${p.undone.length === 1 ? "was" : "were"} taken out of the record.`,
      todo: `What to do: ${todo(p, "put the pieces back as the board below shows; the game goes on from there")}.` };
    if (RECORD.isOver(s.state)) return { cls: "over", title: s.result_text,
      todo: "To play again: Control, New game." };
    if (flash && flash.until > Date.now()) return flash;
    if (s.queen_due) return { cls: "queen", title: `${WHO[s.turn]} must place the Queen this turn`,
      text: "The Queen Bee must be in play by each player's fourth turn.", todo: "What to do: place the Queen now." };
    return null;
  }

  // The referee's own "what to do" (without its full stop), else the page's.
  function todo(p, otherwise) {
    return (p.what_to_do || otherwise).replace(/\.$/, "");
  }

  function confirmButton(move) {
    const label = move === "nothing" // rules.referee.NOTHING: no move was made, the camera misreads the table
      ? "Nothing was played: the camera misreads the table" : `It was ${move}`;
    return { label, run: b => CONTROL.act(CONTROL.ROUTES.confirm, { move }, b) };
  }

  // The differences in a few lines: pieces only on the table, pieces only in the game, and cells
  // where the two disagree.
  function differences(diffs) {
    const top = pieces => HIVE.pieceName(pieces[pieces.length - 1]);
    const extra = diffs.filter(d => !d.expected.length && d.seen.length).map(d => top(d.seen));
    const gone = diffs.filter(d => d.expected.length && !d.seen.length).map(d => top(d.expected));
    const lines = [];
    if (extra.length) lines.push(`On the table, not in the game: ${extra.join(", ")}.`);
    if (gone.length) lines.push(`In the game, not seen on the table: ${gone.join(", ")}.`);
    for (const d of diffs.filter(d => d.expected.length && d.seen.length)) {
      lines.push(`The game has ${top(d.expected)} where the camera sees ${top(d.seen)}.`);
    }
    return lines;
  }

  // "Check the board": what the camera sees against what the game says, and the ways out.
  function checkBanner(p) {
    const list = differences(p.differences);
    const ways = new Set(p.ways_out);
    const actions = [];
    if (ways.has("restore")) actions.push({
      label: showGame ? "Show what the camera sees" : "Show the game's position",
      run: () => { showGame = !showGame; render(state); } });
    if (ways.has("confirm")) actions.push(...p.candidates.map(confirmButton));
    if (ways.has("start_from_table")) actions.push({ label: "Start from the table", run: () => TABLE.open() });
    return { cls: "warn", title: "Check the board", text: (p.message || "").replace(/^Check the board: /, ""), list, actions,
      todo: `What to do: ${todo(p, "put the pieces back as the game has them, or choose a way out below")}.` };
  }

  // Redrawn only when it changes: screen readers announce it once, its answer line stays.
  function showBanner(b) {
    const said = b ? JSON.stringify([b.cls, b.title, b.text, b.todo, b.book, b.list, (b.actions || []).map(a => a.label)]) : "";
    if (said === shown) return;
    shown = said;
    const box = $("banner");
    box.hidden = !b;
    if (!b) return;
    box.className = "banner " + b.cls;
    $("banner-title").textContent = b.title;
    $("banner-text").textContent = b.text || "";
    $("banner-todo").textContent = b.todo || "";
    $("banner-book").textContent = b.book || "";
    const list = $("banner-list");
    list.textContent = "";
    for (const line of b.list || []) list.appendChild(document.createElement("li")).textContent = line;
    list.hidden = !(b.list && b.list.length);
    const actions = $("banner-actions");
    actions.textContent = "";
    for (const a of b.actions || []) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = a.label;
      button.addEventListener("click", () => a.run($("banner-message")));
      actions.appendChild(button);
    }
    if (b.actions && b.actions.length) {
      const answer = document.createElement("p");
      answer.id = "banner-message";
      answer.className = "message";
      actions.appendChild(answer);
    }
  }

  function drawBoard(s) {
    const p = s.pending || {};
    const checking = p.kind === "check";
    const seen = checking && !showGame ? p.differences.map(d => ({ q: d.q, r: d.r, pieces: d.seen })) : [];
    const bad = checking ? p.differences.filter(d => d.expected.length) : (p.cells || []);
    HIVE.draw($("board"), s.stacks, {
      last: s.last_cells, bad: showGame ? [] : bad, ghost: s.attempt, seen, surrounded: s.surrounded || [] });
    const legend = $("board-legend");
    legend.hidden = !checking;
    legend.textContent = !checking ? "" : showGame
      ? "The game's position: put the pieces like this."
      : "Dashed blue: what the camera sees where it differs from the game; red outline: a piece of the game it does not see there.";
  }

  function statusLine(s) {
    $("players").textContent = `${s.players.w || "White"} – ${s.players.b || "Black"} · ${s.game_type}`
      + (s.clocks && s.clocks.control ? ` · ${s.clocks.control}` : "") + (s.setup ? " · from a set-up position" : "");
    $("turn").textContent = RECORD.isOver(s.state) ? `Game over after move ${s.ply}`
      : `Move ${s.ply + 1} · ${WHO[s.turn]}'s turn ${s.turn_number}`;
    $("turn").className = "turn " + (s.turn === "w" ? "white" : "black");
    $("warnings").textContent = `Warnings: White ${s.warnings.w}, Black ${s.warnings.b}`;
    const camera = s.camera || {};
    const view = $("view-status");
    if (camera.status && camera.status !== "ok" && camera.status !== "starting") {
      view.textContent = `Camera: ${camera.message}`;
      view.className = "view bad";
    } else {
      view.textContent = s.view === "occluded" ? "hand over the board" : (s.view === "unstable" ? "pieces moving" : "");
      view.className = "view";
    }
  }

  function render(s) {
    if (!(s.pending && s.pending.kind === "check")) showGame = false; // a new check starts with the camera's reading
    state = s;
    showBanner(banner(s));
    drawBoard(s);
    statusLine(s);
    CLOCKS.show($("clocks"), s.clocks);
    HIVE.handList($("hand-w"), s.hand.w);
    HIVE.handList($("hand-b"), s.hand.b);
    RECORD.list($("moves"), s.entries);
    RECORD.reveal($("moves"), null);
    $("game-string").value = s.game_string;
    $("game-string-note").textContent = s.game_string_note || "";
    $("game-string-note").hidden = !s.game_string_note;
    $("pgn-link").href = `/api/games/${s.game_id}/pgn`;
    $("gs-link").href = `/api/games/${s.game_id}/gamestring`;
    $("replay-link").href = `/games/${s.game_id}`;
    CONTROL.update(s);
    pill();
  }

  // The header's pill: the server first (is the page connected at all?), then the camera.
  function pill() {
    const el = $("camera-status");
    const c = state && state.camera;
    $("connection").hidden = server === "ok";
    $("connection").textContent = {
      ok: "",
      stopped: "The hivecam server has stopped (shut down or restarting). The page reconnects when it is back; "
        + "until then it shows the game as it was last seen.",
      unreachable: "The hivecam server is unreachable (the Pi is off, or the network is down); retrying every few "
        + "seconds. The page shows the game as it was last seen.",
    }[server];
    if (server !== "ok") {
      el.hidden = false;
      el.textContent = `server ${server}`;
      el.className = "pill bad";
      return;
    }
    el.hidden = !c;
    if (!c) return;
    el.textContent = c.status === "ok" ? "camera live" : `camera: ${c.message}`;
    el.className = "pill " + ({ ok: "ok", warn: "warn", starting: "warn" }[c.status] || "bad");
  }

  function onEvents(events) {
    for (const e of events) {
      if (e.kind === "pass") flash = { cls: "pass", title: `${WHO[e.colour]} passes`, text: "No piece can be placed or moved.", until: Date.now() + 6000 };
      if (e.kind === "takeback") flash = { cls: "ok", title: "Taken back", text: "Play on.", until: Date.now() + 2500 };
      if (e.kind === "renamed") flash = { cls: "ok", title: "Record retold", text: `The tile recorded as ${e.old} is ${e.new}: the moves from move ${e.ply} on were checked again.`, until: Date.now() + 6000 };
    }
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.onopen = () => { server = "ok"; pill(); };
    source.addEventListener("server", () => { server = "stopped"; pill(); });
    source.addEventListener("state", m => render(JSON.parse(m.data)));
    source.addEventListener("update", m => {
      const d = JSON.parse(m.data);
      onEvents(d.events);
      render(d.state);
      window.hivecamLatencies.push(Date.now() / 1000 - d.made); // seconds from event to page
    });
    source.addEventListener("camera", m => { if (state) { state.camera = JSON.parse(m.data); statusLine(state); pill(); } });
    source.addEventListener("resync", () => API.get("/api/state").then(render));
    source.onerror = () => { if (server === "ok") server = "unreachable"; pill(); };
  }

  function pollCamera() {
    const img = $("camera");
    if (server === "ok" && !document.hidden && img.closest("details").open) {
      const next = new Image();
      next.onload = () => { img.src = next.src; };
      next.src = "/api/camera.jpg?t=" + Date.now();
    }
    setTimeout(pollCamera, 1000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    CONTROL.init(render);
    TABLE.init();
    if (matchMedia("(min-width: 900px)").matches) document.querySelector("details.camera").open = true; // room beside the board
    connect();
    pollCamera();
    $("copy-gs").addEventListener("click", async () => {
      const text = $("game-string").value;
      try { await navigator.clipboard.writeText(text); } catch (_) { $("game-string").select(); document.execCommand("copy"); }
      $("copy-gs").textContent = "Copied";
      setTimeout(() => { $("copy-gs").textContent = "Copy GameString"; }, 1500);
    });
    setInterval(() => { if (state && flash && flash.until < Date.now()) { flash = null; render(state); } }, 1000);
  });
})();
