// The calibration page: enroll the set in front of the camera (needs the control PIN).
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

  $("enroll").addEventListener("click", () => enroll(false));
  $("enroll-reset").addEventListener("click", () => enroll(true));
})();
