// Drawing a Hive position as SVG: pointy-topped hexes on axial (q, r) cells.
// Shared by the live page, the replay view and the rulings page. No dependencies.
"use strict";

const HIVE = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const SIZE = 30; // centre to corner
  const BUGS = {
    Q: ["Queen", "#d89b00"], A: ["Ant", "#2f6fd6"], G: ["Grasshopper", "#2e9d3a"],
    S: ["Spider", "#8a5a2b"], B: ["Beetle", "#7b4bb7"], M: ["Mosquito", "#6c7a80"],
    L: ["Ladybug", "#d23c3c"], P: ["Pillbug", "#1c9a9a"],
  };

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

  function pieceInfo(name) {
    const bug = BUGS[name[1]] || ["?", "#999"];
    return { colour: name[0], bug: name[1], title: bug[0], ink: bug[1], number: name.slice(2) };
  }

  function key(q, r) { return q + "," + r; }

  // draw(svg, stacks, opts): stacks = [{q, r, pieces: ["wQ", ...]}] bottom to top.
  // opts.last = {origin: [q, r] | null, dest: [q, r]}; opts.marks = [[q, r], ...] (green dots);
  // opts.bad = [[q, r], ...] (red outline); opts.empties = true to draw clickable empty cells
  // around the hive; opts.onCell(q, r, stack) for clicks.
  function draw(svg, stacks, opts = {}) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const cells = new Map(stacks.map(s => [key(s.q, s.r), s]));
    const empties = new Map();
    const around = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
    const extra = (opts.marks || []).concat(opts.bad || []);
    if (opts.last && opts.last.origin) extra.push(opts.last.origin);
    if (opts.empties) {
      for (const s of stacks) for (const [dq, dr] of around) {
        const k = key(s.q + dq, s.r + dr);
        if (!cells.has(k)) empties.set(k, [s.q + dq, s.r + dr]);
      }
      if (!stacks.length) empties.set(key(0, 0), [0, 0]);
    }
    if (opts.ghost) extra.push(opts.ghost.dest);
    for (const [q, r] of extra) if (!cells.has(key(q, r))) empties.set(key(q, r), [q, r]);
    const all = [...stacks.map(s => [s.q, s.r]), ...empties.values()];
    if (!all.length) {
      svg.setAttribute("viewBox", "-100 -60 200 120");
      ["The table is empty:", "waiting for the first piece"].forEach((line, i) => {
        const t = el("text", { x: 0, y: 14 * i - 2, "text-anchor": "middle", class: "hint" }, svg);
        t.textContent = line;
      });
      return;
    }
    const xs = all.map(([q, r]) => centre(q, r)[0]), ys = all.map(([q, r]) => centre(q, r)[1]);
    // frame the hive, but never zoom in further than about 9 x 7 cells
    const pad = SIZE * 1.3, minW = SIZE * Math.sqrt(3) * 9, minH = SIZE * 1.5 * 7;
    const midX = (Math.min(...xs) + Math.max(...xs)) / 2, midY = (Math.min(...ys) + Math.max(...ys)) / 2;
    const w = Math.max(minW, Math.max(...xs) - Math.min(...xs) + 2 * pad);
    const h = Math.max(minH, Math.max(...ys) - Math.min(...ys) + 2 * pad);
    svg.setAttribute("viewBox", `${(midX - w / 2).toFixed(0)} ${(midY - h / 2).toFixed(0)} ${w.toFixed(0)} ${h.toFixed(0)}`);
    const lastDest = opts.last && opts.last.dest ? key(...opts.last.dest) : null;
    const lastOrigin = opts.last && opts.last.origin ? key(...opts.last.origin) : null;
    const marks = new Set((opts.marks || []).map(c => key(...c)));
    const bad = new Set((opts.bad || []).map(c => key(...c)));
    for (const [k, [q, r]] of empties) {
      const [x, y] = centre(q, r);
      const g = el("g", { class: "cell empty", "data-cell": k }, svg);
      el("polygon", { points: corners(x, y, SIZE - 1.5), class: "slot" + (k === lastOrigin ? " origin" : "") + (bad.has(k) ? " bad" : "") }, g);
      if (marks.has(k)) el("circle", { cx: x, cy: y, r: SIZE / 3.2, class: "dest" }, g);
      if (opts.onCell) g.addEventListener("click", () => opts.onCell(q, r, null));
    }
    for (const s of stacks) {
      const [x, y] = centre(s.q, s.r);
      const top = pieceInfo(s.pieces[s.pieces.length - 1]);
      const g = el("g", { class: "cell piece " + (top.colour === "w" ? "white" : "black"), "data-cell": key(s.q, s.r), "data-piece": s.pieces[s.pieces.length - 1] }, svg);
      const title = el("title", {}, g);
      title.textContent = s.pieces.slice().reverse().map(p => pieceInfo(p).colour + " " + pieceInfo(p).title + " " + p).join(" on ");
      el("polygon", { points: corners(x, y, SIZE - 1.5), class: "tile" + (key(s.q, s.r) === lastDest ? " last" : "") + (bad.has(key(s.q, s.r)) ? " bad" : "") }, g);
      el("circle", { cx: x, cy: y, r: SIZE * 0.56, fill: top.ink, class: "glyph" }, g);
      const letter = el("text", { x: x, y: y + 6, "text-anchor": "middle", class: "letter" }, g);
      letter.textContent = top.bug + top.number;
      if (s.pieces.length > 1) {
        el("circle", { cx: x + SIZE * 0.55, cy: y - SIZE * 0.55, r: 9, class: "badge" }, g);
        const h = el("text", { x: x + SIZE * 0.55, y: y - SIZE * 0.55 + 4, "text-anchor": "middle", class: "height" }, g);
        h.textContent = s.pieces.length;
      }
      if (marks.has(key(s.q, s.r))) el("circle", { cx: x, cy: y, r: SIZE / 3.2, class: "dest" }, g);
      if (opts.onCell) g.addEventListener("click", () => opts.onCell(s.q, s.r, s));
    }
    if (opts.ghost) drawGhost(svg, opts.ghost, cells);
  }

  // The illegal move on the table: its piece drawn dashed in red where it was put.
  function drawGhost(svg, ghost, cells) {
    const [x, y] = centre(...ghost.dest);
    const info = pieceInfo(ghost.piece);
    if (ghost.origin) {
      const [ox, oy] = centre(...ghost.origin);
      el("line", { x1: ox, y1: oy, x2: x, y2: y, class: "ghost-path" }, svg);
    }
    const g = el("g", { class: "ghost " + (info.colour === "w" ? "white" : "black"), "data-piece": ghost.piece }, svg);
    const title = el("title", {}, g);
    title.textContent = `${ghost.piece} was put here: illegal`;
    const onTop = cells.has(key(...ghost.dest));
    el("polygon", { points: corners(x, y, onTop ? SIZE * 0.8 : SIZE - 1.5), class: "tile" }, g);
    const letter = el("text", { x: x, y: y + 6, "text-anchor": "middle", class: "letter" }, g);
    letter.textContent = info.bug + info.number;
  }

  function handList(container, pieces, onPick) {
    container.textContent = "";
    if (!pieces.length) { container.textContent = "none"; return; }
    for (const name of pieces) {
      const info = pieceInfo(name);
      const chip = document.createElement(onPick ? "button" : "span");
      chip.className = "chip " + (info.colour === "w" ? "white" : "black");
      chip.style.setProperty("--ink", info.ink);
      chip.textContent = info.bug + info.number;
      chip.title = info.title + " " + name;
      chip.dataset.piece = name;
      if (onPick) chip.addEventListener("click", () => onPick(name));
      container.appendChild(chip);
    }
  }

  function clock(seconds) {
    if (seconds === null || seconds === undefined || isNaN(Number(seconds))) return "";
    const s = Math.floor(Number(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  return { draw, handList, pieceInfo, clock, BUGS };
})();
