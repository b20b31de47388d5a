// The recording widget's front-end (anywidget): it draws the recorder's `data` and sends each
// click or typed entry to the kernel, which checks it with the engine and answers with new
// data. It knows no rule of any game: the choices, the reasons and the sheet come from Python.
// Every text is inserted with textContent.

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function button(cls, text, label) {
  const node = el("button", cls, text);
  node.type = "button";
  if (label) { node.title = label; node.setAttribute("aria-label", label); }
  return node;
}

function themeIsDark() {
  const body = document.body;
  if (body && body.dataset && body.dataset.jpThemeLight !== undefined) {
    return body.dataset.jpThemeLight === "false";
  }
  return !!(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
}

// A card face: [rank, mark, colour, hat, name] from the data's `faces`.
function card(data, code, onClick, extra) {
  const face = (data.faces || {})[code] || [code, "", "", 0, code];
  const node = button("cardlab-card cardlab-c-" + face[2] + (extra ? " " + extra : ""), null,
    face[4]);
  node.dataset.code = code;
  // a word for a mark (Whot's WHOT) is set smaller than a symbol
  node.append(el("span", "cardlab-rank", face[0]),
    el("span", "cardlab-mark" + (face[1].length > 1 ? " cardlab-word" : ""), face[1]));
  if (face[3]) node.classList.add("cardlab-hat-card");
  if (onClick) node.addEventListener("click", onClick); else node.disabled = true;
  return node;
}

function render({ model, el: host }) {
  const root = el("div", "cardlab-recorder");
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "game recorder");
  root.cardlabModel = model;
  host.append(root);
  let selected = null; // the slot the next picked card goes to (null: the first with room)

  const send = (message) => model.send(message);

  function slotBox(data, slot, label, cards, full, words) {
    const box = el("div", "cardlab-rec-slot");
    box.dataset.slot = slot;
    if (slot === selected) box.classList.add("cardlab-selected");
    const head = button("cardlab-rec-slot-name", label, "deal the next cards to " + label);
    head.setAttribute("aria-pressed", String(slot === selected));
    head.addEventListener("click", () => { selected = slot === selected ? null : slot; draw(); });
    const row = el("div", "cardlab-hand");
    for (const code of cards) {
      row.append(card(data, code, () => send({ type: "unpick", text: code }), "cardlab-small"));
    }
    if (full) box.classList.add("cardlab-full");
    box.append(head);
    if (cards.length || !words) box.append(row); // Bob's Hat's trump box holds words only
    return box;
  }

  function drawDraft(data, out) {
    const slots = el("div", "cardlab-rec-seats");
    if (data.phase === "setup") {
      data.rows.forEach((row, r) => {
        const line = el("div", "cardlab-rec-round");
        line.append(el("span", "cardlab-rec-label", "round " + (r + 1)));
        row.forEach((code, s) => line.append(slotBox(data, "row:" + r + ":" + s, data.seats[s],
          code ? [code] : [], !!code)));
        slots.append(line);
      });
    } else {
      data.hands.forEach((hand, s) => {
        const label = data.seats[s] + " (" + hand.length + "/" + data.sizes[s] + ")";
        slots.append(slotBox(data, "seat:" + s, label, hand, hand.length >= data.sizes[s]));
      });
      const extra = data.extra;
      const box = slotBox(data, extra.slot, extra.label, extra.cards, false,
        extra.choices.length > 0);
      for (const word of extra.choices) {
        const pick = button("cardlab-rec-trump", word, "trump: " + word);
        pick.dataset.word = word;
        pick.setAttribute("aria-pressed", String(extra.word === word));
        pick.addEventListener("click", () => send({ type: "pick", slot: "trump", text: word }));
        box.append(pick);
      }
      slots.append(box);
    }
    out.append(slots);
    const deck = el("div", "cardlab-rec-deck");
    deck.setAttribute("aria-label", "the deck: click a card to deal it");
    out.append(el("div", "cardlab-rec-label", "The deck" + (selected ? " (to " +
      (slots.querySelector('[data-slot="' + selected + '"] .cardlab-rec-slot-name') || {})
        .textContent + ")" : "")), deck);
    const given = new Set();
    slots.querySelectorAll("[data-code]").forEach((n) => given.add(n.dataset.code));
    for (const code of data.deck) {
      if (given.has(code)) continue;
      deck.append(card(data, code, () => send({ type: "pick", slot: selected, text: code }),
        "cardlab-small"));
    }
  }

  function drawTable(data, out) {
    const seats = el("div", "cardlab-rec-seats");
    data.hands.forEach((hand, s) => {
      const box = el("div", "cardlab-rec-seat");
      box.dataset.seat = data.seats[s];
      if (s === data.to_act) box.classList.add("cardlab-to-act");
      const name = el("div", "cardlab-rec-slot-name", data.seats[s] +
        (s === data.to_act ? " ▶ to act" : "") + " · " + (data.totals[s] ?? 0));
      const row = el("div", "cardlab-hand");
      const legal = new Set(data.legal.map((pair) => pair[0]));
      for (const code of hand) {
        const play = "play " + code;
        const cls = s === data.to_act && legal.has(play) ? "cardlab-small cardlab-legal"
          : "cardlab-small";
        row.append(card(data, code, data.phase === "play"
          ? () => send({ type: "enter", text: code, seat: data.seats[s] }) : null, cls));
      }
      box.append(name, row);
      seats.append(box);
    });
    const centre = el("div", "cardlab-rec-centre");
    for (const [label, text, codes] of data.centre || []) {
      const line = el("div", "cardlab-rec-line");
      line.append(el("span", "cardlab-rec-label", label));
      for (const code of codes) line.append(card(data, code, null, "cardlab-small"));
      if (text) line.append(el("span", "cardlab-rec-text", text));
      centre.append(line);
    }
    const choices = el("div", "cardlab-rec-choices");
    for (const [text, label] of data.legal || []) {
      if (text.startsWith("play ") && !text.includes(" call ") && !text.endsWith(" card")) {
        continue; // a plain play is the card itself, clicked in the hand
      }
      const choice = button("cardlab-rec-choice", label);
      choice.dataset.text = text;
      choice.addEventListener("click", () => send({ type: "enter", text }));
      choices.append(choice);
    }
    out.append(seats, centre, choices);
  }

  function drawSheet(data, out) {
    const table = el("table", "cardlab-rec-sheet");
    const head = el("tr");
    head.append(el("th", null, data.word));
    for (const name of data.seats) head.append(el("th", null, name));
    table.append(el("caption", null, "Score sheet"), head);
    for (const [number, kind, values] of data.sheet) {
      const row = el("tr", "cardlab-rec-" + kind);
      row.append(el("th", null, kind === "score" ? String(number) : kind));
      for (const v of values) row.append(el("td", null, v));
      table.append(row);
    }
    if (!data.sheet.length) {
      const row = el("tr");
      const cell = el("td", null, "no " + data.word + " finished yet");
      cell.colSpan = data.seats.length + 1;
      row.append(cell);
      table.append(row);
    }
    out.append(table);
  }

  function draw() {
    const data = model.get("data") || {};
    if (!data.seats) return;
    if (selected && selected.startsWith("seat:")) { // a seat dealt in full: on to the next
      const s = Number(selected.slice(5));
      if (!data.hands || data.phase !== "deal" || data.hands[s].length >= data.sizes[s]) {
        selected = null;
      }
    }
    if (selected && data.phase !== "setup" && data.phase !== "deal") selected = null;
    root.classList.toggle("cardlab-dark", themeIsDark());
    root.dataset.phase = data.phase;
    root.dataset.entries = String(data.entries);
    const keep = root.querySelector(".cardlab-rec-input");
    const typed = keep ? keep.value : "";
    const hadFocus = keep && document.activeElement === keep;
    root.replaceChildren();
    const head = el("div", "cardlab-rec-head");
    head.append(el("strong", "cardlab-rec-title", "Recording " + data.title),
      el("span", "cardlab-rec-file", data.file + " · " + data.entries + " entries saved"));
    const status = el("div", "cardlab-rec-status", data.status);
    const message = el("div", "cardlab-rec-message", data.message);
    message.setAttribute("role", "alert");
    message.hidden = !data.message;
    const said = el("div", "cardlab-rec-said", data.said);
    said.setAttribute("aria-live", "polite");
    said.hidden = !data.said || !!data.message;
    root.append(head, status, message, said);

    const body = el("div", "cardlab-rec-body");
    if (data.phase === "setup" || data.phase === "deal") drawDraft(data, body);
    else drawTable(data, body);
    root.append(body);

    const entry = el("form", "cardlab-rec-entry");
    const input = el("input", "cardlab-rec-input");
    input.type = "text";
    input.value = typed;
    input.setAttribute("aria-label", "type a card code or an action");
    const example = data.phase === "play" && data.legal.length ? data.legal[0][0]
      : (data.deck || [])[0];
    input.placeholder = (data.phase === "play" ? "type an action" : "type a card code") +
      (example ? ", e.g. " + example : "");
    const enter = button("cardlab-rec-enter", "Enter");
    enter.type = "submit";
    entry.append(input, enter);
    entry.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      send(data.phase === "play" || data.phase === "over" ? { type: "enter", text }
        : { type: "pick", slot: selected, text });
    });
    if (data.phase === "setup" || data.phase === "deal") {
      const submit = button("cardlab-rec-submit", data.phase === "deal" ? "Deal" : "Enter the draw");
      submit.addEventListener("click", () => { selected = null; send({ type: "submit" }); });
      entry.append(submit);
      if (data.phase === "setup") {
        const round = button("cardlab-rec-another", "Another round",
          "another round of the draw, for the players tied for lowest");
        round.addEventListener("click", () => send({ type: "round" }));
        entry.append(round);
      }
    }
    const undo = button("cardlab-rec-undo", "Undo", "take back the last entry");
    undo.addEventListener("click", () => send({ type: "undo" }));
    entry.append(undo);
    root.append(entry);

    if (data.moves.length) {
      const moves = el("ol", "cardlab-rec-moves");
      moves.setAttribute("aria-label", "this " + data.word + "'s entries");
      for (const text of data.moves) moves.append(el("li", null, text));
      root.append(moves);
    }
    drawSheet(data, root);
    if (hadFocus) root.querySelector(".cardlab-rec-input").focus();
  }

  model.on("change:data", draw);
  draw();
  return () => model.off("change:data", draw);
}

export default { render };
