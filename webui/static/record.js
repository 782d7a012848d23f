// The game record in words: times, and the move list with the illegal attempts.
// Shared by the live page and the replay.
"use strict";

const RECORD = (() => {
  const WHO = { w: "White", b: "Black", arbiter: "the arbiter" };

  // Seconds as M:SS, or H:MM:SS from an hour on; "" when unknown.
  function time(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(Number(seconds))) return "";
    const s = Math.max(0, Math.floor(Number(seconds)));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = String(s % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  }

  function isOver(state) { return ["WhiteWins", "BlackWins", "Draw"].includes(state); }

  function resolution(e) {
    const who = WHO[e.by] || "";
    if (e.resolution === "pending") return "on the table now";
    if (e.resolution === "taken back") return who ? `taken back by ${who}` : "taken back";
    if (e.resolution === "overridden") return "allowed by the arbiter";
    if (e.resolution === "corrected") return who ? `corrected by ${who}` : "corrected";
    return e.resolution || "";
  }

  // One sentence for an illegal attempt: "White: wG1 bS1\ (No moving before the Queen), taken back by White".
  function attempt(e) {
    const what = [e.uhp, e.rule ? `(${e.rule})` : ""].filter(Boolean).join(" ");
    return `${WHO[e.colour] || ""} tried ${what}${e.resolution ? ", " + resolution(e) : ""}`;
  }

  function span(parent, cls, content) {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = content;
    parent.appendChild(s);
    return s;
  }

  // Fill the <ol> `container` with the entries: "13. wS1 -bQ  0:12"; opts.onPick(ply): make
  // entries clickable (the ply after which to show the position).
  function list(container, items, opts = {}) {
    container.textContent = "";
    for (const e of items) {
      const li = document.createElement("li");
      if (e.kind === "illegal") {
        li.className = "illegal";
        li.dataset.after = e.after_ply;
        const no = span(li, "no", "✗");
        no.title = "illegal attempt";
        span(li, "what", attempt(e));
        if (e.message) li.title = e.message;
      } else {
        li.className = "move " + (e.colour === "w" ? "white" : "black") + (e.mark ? " marked" : "");
        li.dataset.ply = e.ply;
        span(li, "no", e.ply + ".");
        span(li, "uhp", e.uhp);
        if (e.mark) span(li, "mark", e.mark === "override" ? "allowed by the arbiter" : e.mark);
        const t = [time(e.emt), e.clk !== null && e.clk !== undefined ? time(e.clk) + " left" : ""].filter(Boolean).join(" · ");
        if (t) span(li, "time", t).title = "thinking time" + (e.clk !== null && e.clk !== undefined ? " · time left" : "");
      }
      if (opts.onPick) {
        const ply = e.kind === "illegal" ? e.after_ply : e.ply;
        li.classList.add("pick");
        li.tabIndex = 0;
        li.addEventListener("click", () => opts.onPick(ply));
        li.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.onPick(ply); } });
      }
      container.appendChild(li);
    }
  }

  // Mark the move of `ply` as the one shown; return its item (null at the start).
  function mark(container, ply) {
    let current = null;
    for (const li of container.querySelectorAll("li.move")) {
      const on = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", on);
      if (on) { li.setAttribute("aria-current", "step"); current = li; } else li.removeAttribute("aria-current");
    }
    return current;
  }

  // Scroll `item` into view inside its list only (the page itself stays where it is);
  // no item: the list's end.
  function reveal(container, item) {
    if (!item) { container.scrollTop = container.scrollHeight; return; }
    const top = item.offsetTop; // the list is positioned: offsets are inside it
    if (top < container.scrollTop || top + item.offsetHeight > container.scrollTop + container.clientHeight) {
      container.scrollTop = top - container.clientHeight / 2;
    }
  }

  return { time, isOver, attempt, list, mark, reveal, WHO };
})();
