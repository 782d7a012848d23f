// Control of the live game, behind the PIN: each control answers right next to itself.
"use strict";

const CONTROL = (() => {
  const $ = id => document.getElementById(id);
  const ROUTES = {
    override: "/api/game/override", undo: "/api/game/undo", draw: "/api/game/draw", resign: "/api/game/resign",
    confirm: "/api/game/confirm", replaceLast: "/api/game/replace-last", addMissed: "/api/game/add-missed", newGame: "/api/game/new",
    rename: "/api/game/rename",
  };
  let onState = () => {};
  let ready = Promise.resolve(); // the page's first look at the session: unlocking waits for it

  function say(where, text, bad = false) {
    where.textContent = text;
    where.className = "message" + (bad ? " bad" : "");
  }

  // The answer line of a control: the .message of its form or fieldset.
  function answerOf(node) {
    return node.closest("form, fieldset").querySelector(".message");
  }

  function unlocked() { return Boolean(API.session.control); }

  // While control is locked: say so where the person pressed, and at the PIN field (brought
  // into view); true when locked.
  function needUnlock(where) {
    if (unlocked()) return false;
    for (const line of new Set([where, $("login-message")])) say(line, "Unlock control with the PIN first.", true);
    $("pin").focus({ preventScroll: true });
    $("control").scrollIntoView({ block: "nearest" });
    return true;
  }

  // POST a control action; the answer goes to `where`. Returns the answer, or null.
  async function act(url, body, where, done = "Done.") {
    if (needUnlock(where)) return null;
    try {
      const data = await API.post(url, body);
      if (data.state) onState(data.state);
      say(where, done);
      return data;
    } catch (err) {
      say(where, err.message, true);
      return null;
    }
  }

  function show(on) {
    $("controls").hidden = !on;
    $("login").hidden = on;
    $("pin-help").hidden = on;
  }

  function wire() {
    $("login").addEventListener("submit", async ev => {
      ev.preventDefault();
      try {
        await ready; // else that older answer ("locked") would land after this one
        await API.post("/api/login", { pin: $("pin").value });
        API.control = true;
        show(true);
        say($("login-message"), "Control unlocked.");
      } catch (err) { say($("login-message"), err.message, true); }
      $("pin").value = "";
    });
    $("logout").addEventListener("click", async () => {
      await ready;
      await API.post("/api/logout");
      API.control = false;
      show(false);
      say($("login-message"), "Control locked.");
    });
    document.querySelectorAll("#controls [data-action]").forEach(button => button.addEventListener("click", () => {
      const action = button.dataset.action, colour = button.dataset.colour;
      if (action === "resign" && !confirm(`${RECORD.WHO[colour]} resigns?`)) return;
      act(ROUTES[action], colour ? { colour } : {}, answerOf(button));
    }));
    $("replace-last").addEventListener("submit", async ev => {
      ev.preventDefault();
      if (await act(ROUTES.replaceLast, { move: $("replace-move").value.trim() }, answerOf(ev.target), "Replaced.")) $("replace-move").value = "";
    });
    $("rename-tile").addEventListener("submit", async ev => {
      ev.preventDefault();
      if (await act(ROUTES.rename, { tile: $("rename-text").value.trim() }, answerOf(ev.target), "Renamed.")) $("rename-text").value = "";
    });
    $("add-missed").addEventListener("submit", async ev => {
      ev.preventDefault();
      if (await act(ROUTES.addMissed, { move: $("missed-moves").value.trim() }, answerOf(ev.target), "Added.")) $("missed-moves").value = "";
    });
    $("new-game").addEventListener("submit", ev => {
      ev.preventDefault();
      const limit = $("ng-limit").value;
      act(ROUTES.newGame, {
        game_type: $("ng-type").value, white: $("ng-white").value, black: $("ng-black").value,
        time_control: $("ng-time").value.trim(), event: $("ng-event").value, round: $("ng-round").value,
        queen_may_open: $("ng-queen").checked, repetition_draw: $("ng-repetition").checked,
        illegal_move_limit: limit ? Number(limit) : null,
      }, answerOf(ev.target), "A new game has begun.");
    });
    $("change-pin").addEventListener("submit", ev => {
      ev.preventDefault();
      act("/api/pin", { current: $("current-pin").value, pin: $("new-pin").value }, answerOf(ev.target), "PIN changed; other devices are locked.");
      $("current-pin").value = ""; $("new-pin").value = "";
    });
  }

  // Keep the controls in step with the game: what can be done now, and what "last move" is.
  function update(state) {
    const pending = state.pending;
    $("btn-override").disabled = !(pending && pending.kind === "illegal");
    const entries = state.entries.filter(e => e.kind === "move");
    const last = entries[entries.length - 1];
    $("replace-current").textContent = last ? `(${last.ply}. ${last.uhp})` : "(none yet)";
  }

  function init(stateHandler) {
    onState = stateHandler;
    ready = API.refreshSession().then(session => {
      show(session.control);
      $("pin-recovery").textContent = session.pin_help || "";
    }, () => show(false)); // no answer: locked, and unlocking asks again
    wire();
  }

  return { init, act, update, say, ROUTES };
})();
