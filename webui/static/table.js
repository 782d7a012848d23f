// Start from the table: referee a game already in progress from what the camera sees, once a
// person has answered what the view cannot tell (side to move, which piece is which number).
"use strict";

const TABLE = (() => {
  const $ = id => document.getElementById(id);
  const POSITION = "/api/table-position", START = "/api/start-from-table";
  let questions = [];
  let stacks = [];

  function id(question) { return String(question.id || question.key || question.name); }

  function choicesOf(question) {
    return (question.choices || question.options || []).map(c => typeof c === "object"
      ? { value: String(c.value), label: c.label || String(c.value) } : { value: String(c), label: String(c) });
  }

  // One question as a group of radio buttons; marks its cells on the board while it has focus.
  function ask(question, index) {
    const box = document.createElement("fieldset");
    box.className = "question";
    box.dataset.question = id(question);
    const legend = document.createElement("legend");
    legend.textContent = question.text || question.question || question.prompt || id(question);
    box.appendChild(legend);
    const choices = document.createElement("div");
    choices.className = "choices";
    const first = question.default !== undefined && question.default !== null ? String(question.default) : null;
    for (const choice of choicesOf(question)) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "q" + index;
      input.value = choice.value;
      input.required = true;
      input.checked = choice.value === first;
      label.append(input, " " + choice.label);
      choices.appendChild(label);
    }
    box.appendChild(choices);
    if (question.cells) {
      box.addEventListener("focusin", () => draw(question.cells));
      box.addEventListener("focusout", () => draw([]));
    }
    return box;
  }

  function draw(marked) {
    HIVE.draw($("ft-board"), stacks, { bad: marked || [] });
  }

  function render(data) {
    stacks = data.stacks || [];
    draw([]);
    const count = c => stacks.reduce((n, s) => n + s.pieces.filter(p => HIVE.pieceName(p)[0] === c).length, 0);
    $("ft-summary").textContent = stacks.length
      ? `The camera sees ${count("w")} white and ${count("b")} black pieces.`
      : "The camera sees no pieces: start a new game with an empty table instead (New game).";
    const asked = data.questions || [];
    const side = asked.find(q => id(q) === "to_move") || {};
    questions = [Object.assign({ id: "to_move", text: "Whose turn is it now?", default: data.to_move },
      side, { choices: [{ value: "w", label: "White" }, { value: "b", label: "Black" }] })]
      .concat(asked.filter(q => id(q) !== "to_move"));
    const box = $("ft-questions");
    box.textContent = "";
    questions.forEach((q, i) => box.appendChild(ask(q, i)));
  }

  async function load() {
    const where = $("ft-message");
    CONTROL.say(where, "Reading the table...");
    try {
      render(await API.get(POSITION));
      CONTROL.say(where, "");
    } catch (err) {
      CONTROL.say(where, `The camera's reading is not available (${err.message}). Check the camera, then "Read the table again".`, true);
    }
  }

  async function open() {
    $("from-table").hidden = false;
    $("from-table").scrollIntoView({ block: "start" });
    await load();
  }

  async function start(ev) {
    ev.preventDefault();
    const body = { numbers: {}, white: $("ft-white").value, black: $("ft-black").value,
      time_control: $("ft-time").value.trim(), event: $("ft-event").value, round: $("ft-round").value };
    questions.forEach((q, i) => {
      const chosen = document.querySelector(`input[name=q${i}]:checked`);
      if (!chosen) return;
      if (id(q) === "to_move") body.to_move = chosen.value;
      else body.numbers[id(q)] = chosen.value;
    });
    if (await CONTROL.act(START, body, $("ft-message"), "Refereeing from the table's position.")) {
      $("from-table").hidden = true;
    }
  }

  function init() {
    $("ft-form").addEventListener("submit", start);
    $("ft-reload").addEventListener("click", load);
    $("ft-cancel").addEventListener("click", () => { $("from-table").hidden = true; });
    document.addEventListener("click", ev => { if (ev.target.closest(".open-from-table")) open(); });
  }

  return { init, open };
})();
