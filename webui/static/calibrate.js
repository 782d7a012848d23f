// The calibration page: the enrollment layout drawn as a board; enroll the set in front of the
// camera (needs the control PIN).
"use strict";

(() => {
  const $ = id => document.getElementById(id);

  function say(text, bad = false) {
    $("enroll-message").textContent = text;
    $("enroll-message").className = "message" + (bad ? " bad" : "");
  }

  async function unlocked() {
    const session = await API.refreshSession();
    if (session.control) return true;
    if (!$("pin").value) { say("Enter the control PIN first.", true); $("pin").focus(); return false; }
    await API.post("/api/login", { pin: $("pin").value });
    $("pin").value = "";
    return true;
  }

  async function enroll(reset) {
    $("enroll").disabled = true;
    say("Learning your set from the camera view...");
    try {
      if (await unlocked()) say((await API.post("/api/calibrate/enroll", { reset })).message);
    } catch (error) {
      say(error.message, true);
    } finally {
      $("enroll").disabled = false;
    }
  }

  // Row r of the layout holds cells (0, r), (1, r), ...: axial cells, so each row sits half a tile right.
  function drawLayout() {
    const svg = $("layout");
    const stacks = svg.dataset.rows.split("/").flatMap((row, r) => row.split(" ").map((name, q) => ({ q, r, pieces: [name] })));
    HIVE.draw(svg, stacks);
  }

  document.addEventListener("DOMContentLoaded", () => {
    drawLayout();
    $("enroll").addEventListener("click", () => enroll(false));
    $("enroll-reset").addEventListener("click", () => enroll(true));
  });
})();
