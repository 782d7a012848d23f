// Drawing a Hive position as SVG: pointy-topped hexes on axial (q, r) cells.
// Shared by the live page, the replay view, the rulings page and the calibration layout.
"use strict";

const HIVE = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const SIZE = 30; // centre to corner
  const BUGS = {
    Q: ["Queen", "#d89b00"], A: ["Ant", "#2f6fd6"], G: ["Grasshopper", "#2e9d3a"],
    S: ["Spider", "#8a5a2b"], B: ["Beetle", "#7b4bb7"], M: ["Mosquito", "#6c7a80"],
    L: ["Ladybug", "#d23c3c"], P: ["Pillbug", "#1c9a9a"],
  };
  const COLOUR_WORD = { w: "White", b: "Black" };
  const UNDER_SHOWN = 4; // pieces under the top drawn as small discs in the cell; more are counted

  function centre(q, r) {
    return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
  }

  function corners(x, y, size) {
    const points = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k - 30);
      points.push((x + size * Math.cos(a)).toFixed(1) + "," + (y + size * Math.sin(a)).toFixed(1));
    }
    return points.join(" ");
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, cls, content) {
    const t = el("text", { x, y, "text-anchor": "middle", class: cls }, parent);
    t.textContent = content;
    return t;
  }

  // A piece as "wQ", "bA2", or as the camera reads it: {colour, creature, name} (the name null
  // when the view cannot tell which number it is).
  function pieceName(piece) {
    if (typeof piece === "string") return piece;
    return piece.name || String(piece.colour) + String(piece.creature);
  }

  function pieceInfo(piece) {
    const name = pieceName(piece);
    const bug = BUGS[name[1]] || ["piece", "#999"];
    return { name, colour: name[0], bug: name[1] || "?", title: bug[0], ink: bug[1], number: name.slice(2) };
  }

  function describe(piece) {
    const info = pieceInfo(piece);
    return `${COLOUR_WORD[info.colour] || ""} ${info.title} ${info.name}`.trim();
  }

  function key(q, r) { return q + "," + r; }
  function cellOf(c) { return Array.isArray(c) ? c : [c.q, c.r]; }
  function keys(cells) { return new Set((cells || []).map(c => key(...cellOf(c)))); }

  // draw(svg, stacks, opts): stacks = [{q, r, pieces: ["wQ", ...]}] bottom to top; cells below are
  // [q, r] or {q, r}.
  // opts.last = {origin, dest}: the last move (orange); opts.marks: green dots (legal destinations);
  // opts.bad: red outlines; opts.surrounded: Queens surrounded at the end; opts.tapped: the cell
  // asked about; opts.selected: the piece picked (a name); opts.ghost = {piece, origin, dest}: an
  // illegal move on the table; opts.seen = [{q, r, pieces}]: what the camera sees where it differs
  // from the game (dashed blue); opts.empties: draw clickable empty cells around the hive;
  // opts.onCell(q, r, stack) for clicks.
  function draw(svg, stacks, opts = {}) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const cells = new Map(stacks.map(s => [key(s.q, s.r), s]));
    const empties = emptyCells(stacks, cells, opts);
    const all = [...stacks.map(s => [s.q, s.r]), ...empties.values()];
    if (!all.length) {
      frame(svg, -100, -40, 200, 80);
      text(svg, 0, -2, "hint", "The table is empty:");
      text(svg, 0, 12, "hint", "waiting for the first piece");
      return;
    }
    fit(svg, all);
    const look = {
      lastDest: opts.last && opts.last.dest ? key(...cellOf(opts.last.dest)) : null,
      lastOrigin: opts.last && opts.last.origin ? key(...cellOf(opts.last.origin)) : null,
      marks: keys(opts.marks), bad: keys(opts.bad), surrounded: keys(opts.surrounded),
      tapped: opts.tapped ? key(...cellOf(opts.tapped)) : null, selected: opts.selected, onCell: opts.onCell,
    };
    for (const [k, [q, r]] of empties) drawEmpty(svg, k, q, r, look);
    for (const s of stacks) drawStack(svg, s, look);
    for (const s of opts.seen || []) drawSeen(svg, s, cells);
    if (opts.ghost) drawGhost(svg, opts.ghost, cells);
  }

  // The empty cells to draw: around the hive when asked (to tap), and every cell an option names.
  function emptyCells(stacks, cells, opts) {
    const empties = new Map();
    const around = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
    if (opts.empties) {
      for (const s of stacks) for (const [dq, dr] of around) {
        const k = key(s.q + dq, s.r + dr);
        if (!cells.has(k)) empties.set(k, [s.q + dq, s.r + dr]);
      }
      if (!stacks.length) empties.set(key(0, 0), [0, 0]);
    }
    const named = [...(opts.marks || []), ...(opts.bad || []), ...(opts.seen || [])];
    if (opts.last && opts.last.origin) named.push(opts.last.origin);
    if (opts.ghost) named.push(opts.ghost.dest);
    if (opts.tapped) named.push(opts.tapped);
    for (const c of named) {
      const [q, r] = cellOf(c);
      if (!cells.has(key(q, r))) empties.set(key(q, r), [q, r]);
    }
    return empties;
  }

  function drawEmpty(svg, k, q, r, look) {
    const [x, y] = centre(q, r);
    const g = el("g", { class: "cell empty" + (k === look.tapped ? " tapped" : ""), "data-cell": k }, svg);
    el("polygon", { points: corners(x, y, SIZE - 1.5), class: "slot" + (k === look.lastOrigin ? " origin" : "") + (look.bad.has(k) ? " bad" : "") }, g);
    if (look.marks.has(k)) el("circle", { cx: x, cy: y, r: SIZE / 3.2, class: "dest" }, g);
    if (look.onCell) g.addEventListener("click", () => look.onCell(q, r, null));
  }

  // A stack: its top piece, and the pieces under it as small discs (no hovering needed).
  function drawStack(svg, s, look) {
    const k = key(s.q, s.r);
    const [x, y] = centre(s.q, s.r);
    const top = pieceInfo(s.pieces[s.pieces.length - 1]);
    const cls = ["cell", "piece", top.colour === "w" ? "white" : "black"];
    if (k === look.tapped) cls.push("tapped");
    if (look.selected === top.name) cls.push("selected");
    const g = el("g", { class: cls.join(" "), "data-cell": k, "data-piece": top.name, "data-height": s.pieces.length }, svg);
    el("title", {}, g).textContent = s.pieces.slice().reverse().map(describe).join(", on ");
    const tile = ["tile"];
    if (k === look.lastDest) tile.push("last");
    if (look.bad.has(k)) tile.push("bad");
    if (look.surrounded.has(k)) tile.push("surrounded");
    el("polygon", { points: corners(x, y, SIZE - 1.5), class: tile.join(" ") }, g);
    if (look.surrounded.has(k)) el("circle", { cx: x, cy: y, r: SIZE + 2, class: "ring" }, g);
    if (s.pieces.length > 1) {
      el("circle", { cx: x, cy: y - 6, r: 13, fill: top.ink }, g);
      text(g, x, y - 1, "letter", top.bug + top.number);
      drawUnder(g, x, y, s.pieces.slice(0, -1));
    } else {
      el("circle", { cx: x, cy: y, r: SIZE * 0.56, fill: top.ink }, g);
      text(g, x, y + 6, "letter", top.bug + top.number);
    }
    if (look.marks.has(k)) el("circle", { cx: x, cy: y, r: SIZE / 3.2, class: "dest" }, g);
    if (look.onCell) g.addEventListener("click", () => look.onCell(s.q, s.r, s));
  }

  function frame(svg, x, y, w, h) {
    svg.setAttribute("viewBox", `${x.toFixed(0)} ${y.toFixed(0)} ${w.toFixed(0)} ${h.toFixed(0)}`);
    svg.style.aspectRatio = `${w.toFixed(0)} / ${h.toFixed(0)}`;
  }

  // Frame the cells with a margin; never zoom in further than about 5 x 4 cells.
  function fit(svg, all) {
    const xs = all.map(([q, r]) => centre(q, r)[0]), ys = all.map(([q, r]) => centre(q, r)[1]);
    const padX = SIZE * 1.2, padY = SIZE * 1.35, minW = SIZE * Math.sqrt(3) * 5, minH = SIZE * 1.5 * 4;
    const midX = (Math.min(...xs) + Math.max(...xs)) / 2, midY = (Math.min(...ys) + Math.max(...ys)) / 2;
    const w = Math.max(minW, Math.max(...xs) - Math.min(...xs) + 2 * padX);
    const h = Math.max(minH, Math.max(...ys) - Math.min(...ys) + 2 * padY);
    frame(svg, midX - w / 2, midY - h / 2, w, h);
  }

  // The pieces under the top: small discs in the lower part of the cell, bottom one first.
  function drawUnder(g, x, y, under) {
    const shown = under.length > UNDER_SHOWN ? under.slice(-(UNDER_SHOWN - 1)) : under;
    const items = shown.map(p => pieceInfo(p));
    if (under.length > UNDER_SHOWN) items.unshift({ more: under.length - shown.length });
    const step = 14.5, left = x - step * (items.length - 1) / 2;
    items.forEach((info, i) => {
      const cx = left + i * step, cy = y + 15;
      const disc = el("g", { class: "under " + (info.more ? "white" : info.colour === "w" ? "white" : "black") }, g);
      el("circle", { cx, cy, r: 7, stroke: info.more ? "#777" : info.ink }, disc);
      const label = text(disc, cx, cy + 3.5, "", info.more ? "+" + info.more : info.bug);
      label.setAttribute("fill", info.more || info.colour === "w" ? "#1d1d1b" : "#fff");
    });
  }

  // What the camera sees on a cell where it differs from the game: the piece drawn with a
  // dashed blue outline (smaller when the game has a piece there), or "empty?" where it sees none.
  function drawSeen(svg, s, cells) {
    const [q, r] = cellOf(s);
    const [x, y] = centre(q, r);
    const pieces = s.pieces || [];
    const onTile = cells.has(key(q, r));
    if (!pieces.length) {
      const g = el("g", { class: "seen", "data-cell": key(q, r) }, svg);
      el("title", {}, g).textContent = "the camera sees nothing here";
      text(g, x, y + SIZE * 0.75, "tag", "empty?");
      return;
    }
    const last = pieces[pieces.length - 1], top = pieceInfo(last);
    const height = Math.max(pieces.length, Number(last.height) || 1); // the camera sees the top, and guesses the height
    const g = el("g", { class: "seen " + (top.colour === "w" ? "white" : "black"), "data-cell": key(q, r) }, svg);
    el("title", {}, g).textContent = "the camera sees " + describe(last) + (height > 1 ? ` on ${height - 1} more` : "");
    const size = onTile ? SIZE * 0.72 : SIZE - 1.5;
    el("polygon", { points: corners(x, y, size), class: "tile" }, g);
    el("circle", { cx: x, cy: y, r: size * 0.56, fill: top.ink }, g);
    text(g, x, y + 5, "letter", top.bug + top.number + (height > 1 ? "+" + (height - 1) : ""));
  }

  // The illegal move on the table: its piece drawn dashed in red where it was put.
  function drawGhost(svg, ghost, cells) {
    const [x, y] = centre(...cellOf(ghost.dest));
    const info = pieceInfo(ghost.piece);
    if (ghost.origin) {
      const [ox, oy] = centre(...cellOf(ghost.origin));
      el("line", { x1: ox, y1: oy, x2: x, y2: y, class: "ghost-path" }, svg);
    }
    const g = el("g", { class: "ghost " + (info.colour === "w" ? "white" : "black"), "data-piece": info.name }, svg);
    el("title", {}, g).textContent = `${info.name} was put here: illegal`;
    const onTop = cells.has(key(...cellOf(ghost.dest)));
    el("polygon", { points: corners(x, y, onTop ? SIZE * 0.8 : SIZE - 1.5), class: "tile" }, g);
    text(g, x, y + 6, "letter", info.bug + info.number);
  }

  // Pieces in hand as chips; buttons when onPick(name) is given; selected: the picked name.
  function handList(container, pieces, onPick, selected) {
    container.textContent = "";
    if (!pieces || !pieces.length) { container.textContent = "none"; return; }
    for (const name of pieces) {
      const info = pieceInfo(name);
      const chip = document.createElement(onPick ? "button" : "span");
      chip.className = "chip " + (info.colour === "w" ? "white" : "black") + (name === selected ? " selected" : "");
      chip.style.setProperty("--ink", info.ink);
      chip.textContent = info.bug + info.number;
      chip.title = describe(name);
      chip.dataset.piece = name;
      if (onPick) {
        chip.type = "button";
        chip.setAttribute("aria-label", describe(name));
        chip.setAttribute("aria-pressed", String(name === selected));
        chip.addEventListener("click", () => onPick(name));
      }
      container.appendChild(chip);
    }
  }

  return { draw, handList, pieceInfo, pieceName, describe, COLOUR_WORD };
})();
