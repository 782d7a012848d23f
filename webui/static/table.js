// Start from the table: referee a game already in progress from what the camera sees, once a
// person has answered what the view cannot tell (whose turn, which piece is which number, what
// lies under a stack).
"use strict";

const TABLE = (() => {
  const $ = id => document.getElementById(id);
  const POSITION = "/api/table-position", START = "/api/game/start-from-table";
  let stacks = [];
  let view = ""; // the reading the answers are for: the server refuses them for another
  let problems = []; // cells the view cannot make a position of: outlined in red

  function cellKey(c) { return `${c.q},${c.r}`; }

  function topAt(c) {
    const s = stacks.find(s => s.q === c.q && s.r === c.r);
    return s ? s.pieces[s.pieces.length - 1] : "";
  }

  function draw(marked) {
    HIVE.draw($("ft-board"), stacks, { tapped: marked || null, bad: problems });
  }

  function element(tag, props = {}, text = "") {
    const node = Object.assign(document.createElement(tag), props);
    if (text) node.textContent = text;
    return node;
  }

  // A field that marks its cell on the board while it has focus.
  function marking(field, cell) {
    field.addEventListener("focus", () => draw(cell));
    field.addEventListener("blur", () => draw(null));
    return field;
  }

  // One question as a fieldset: radios for whose turn, a choice per cell for numbers, a text
  // field for what lies under a stack, a note for what must be fixed on the table.
  function ask(question) {
    const box = element("fieldset", { className: "question" });
    box.dataset.kind = question.kind;
    box.appendChild(element("legend", {}, question.text));
    const choices = box.appendChild(element("div", { className: "choices" }));
    if (question.kind === "to_move") {
      for (const colour of question.choices) {
        const label = choices.appendChild(element("label"));
        label.append(element("input", { type: "radio", name: "to_move", value: colour, required: true,
          checked: colour === question.default }), " " + RECORD.WHO[colour]);
      }
    } else if (question.kind === "numbers") {
      for (const cell of question.cells) {
        const shown = topAt(cell);
        const label = choices.appendChild(element("label", {}, `${HIVE.pieceInfo(shown).bug}${HIVE.pieceInfo(shown).number} on the board is `));
        const select = marking(label.appendChild(element("select", { className: "number" })), cell);
        select.dataset.cell = cellKey(cell);
        for (const name of question.choices) select.appendChild(element("option", { value: name, selected: name === shown }, name));
      }
    } else if (question.kind === "under") {
      const cell = question.cells[0];
      const label = choices.appendChild(element("label", {}, "Pieces under it, bottom first: "));
      const input = marking(label.appendChild(element("input", { className: "under", placeholder: "e.g. wQ", autocomplete: "off" })), cell);
      input.dataset.cell = cellKey(cell);
    } else {
      box.appendChild(element("p", { className: "help" }, "Fix it on the table (its cell is outlined in red), then press \"Read the table again\"."));
    }
    return box;
  }

  function render(data) {
    stacks = data.stacks || [];
    view = data.view || "";
    const questions = data.questions || [];
    problems = questions.filter(q => ["unsure", "unreadable"].includes(q.kind)).flatMap(q => q.cells);
    draw(null);
    const count = c => stacks.reduce((n, s) => n + s.pieces.filter(p => p[0] === c).length, 0);
    $("ft-summary").textContent = stacks.length
      ? `The camera sees ${count("w")} white and ${count("b")} black pieces (${data.game_type}).`
      : "The camera sees no pieces: start a new game with an empty table instead (New game).";
    const box = $("ft-questions");
    box.textContent = "";
    for (const question of questions) box.appendChild(ask(question));
  }

  async function load() {
    const where = $("ft-message");
    CONTROL.say(where, "Reading the table...");
    try {
      render(await API.get(POSITION));
      CONTROL.say(where, "");
    } catch (err) {
      CONTROL.say(where, `${err.message}. Wait until the board is still, then press "Read the table again".`, true);
    }
  }

  async function open() {
    $("from-table").hidden = false;
    $("from-table").scrollIntoView({ block: "start" });
    await load();
  }

  async function start(ev) {
    ev.preventDefault();
    const chosen = document.querySelector("#ft-questions input[name=to_move]:checked");
    const body = { to_move: chosen ? chosen.value : "", numbers: {}, under: {}, view,
      white: $("ft-white").value, black: $("ft-black").value, time_control: $("ft-time").value.trim(),
      event: $("ft-event").value, round: $("ft-round").value };
    document.querySelectorAll("#ft-questions select.number").forEach(s => { body.numbers[s.dataset.cell] = s.value; });
    document.querySelectorAll("#ft-questions input.under").forEach(i => {
      const names = i.value.split(/[\s,;]+/).filter(Boolean);
      if (names.length) body.under[i.dataset.cell] = names;
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
