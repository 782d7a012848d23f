// The players' clocks: the server sends each side's time at every update; between updates
// the page counts the running side on by itself.
"use strict";

const CLOCKS = (() => {
  let data = null, since = 0, root = null;

  // clocks: {w: {used, left}, b: {...}, running, flagged, control} or null (no clocks: hidden).
  function show(container, clocks) {
    const first = !root;
    root = container;
    data = clocks || null;
    since = performance.now();
    container.hidden = !data;
    paint();
    if (first) setInterval(paint, 250);
  }

  function paint() {
    if (!data || !root) return;
    const elapsed = (performance.now() - since) / 1000;
    for (const box of root.querySelectorAll(".clock")) {
      const colour = box.dataset.colour;
      const mine = data[colour] || {};
      const running = data.running === colour && !data.flagged;
      const used = (Number(mine.used) || 0) + (running ? elapsed : 0);
      const control = mine.left !== null && mine.left !== undefined;
      const left = control ? Number(mine.left) - (running ? elapsed : 0) : null;
      const flagged = data.flagged === colour || (control && left <= 0);
      box.classList.toggle("running", running && !flagged);
      box.classList.toggle("flagged", flagged);
      box.querySelector(".time").textContent = RECORD.time(control ? Math.max(0, left) : used);
      box.querySelector(".used").textContent = control ? `used ${RECORD.time(used)}` : "";
      box.querySelector(".flag").textContent = flagged ? "flag fell" : (running ? "to play" : "");
      box.title = `${RECORD.WHO[colour]}: ${RECORD.time(used)} used` + (control ? `, ${RECORD.time(Math.max(0, left))} left (${data.control})` : "");
    }
  }

  return { show };
})();
