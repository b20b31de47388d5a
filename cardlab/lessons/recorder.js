// The recording widget's front-end (anywidget): it draws the recorder's `data` and sends each
// click or typed entry to the kernel, which checks it with the engine and answers with new
// data. It knows no rule of any game: the choices, the reasons and the sheet come from Python.
// Every text is inserted with textContent. cardlab/view/assets.py puts common.js (el, svg,
// button, cardFace...) before it in one module.

// Each seat's line differs by colour (recorder.css: .cardlab-rec-s0...), dash AND marker, so
// the chart does not rely on colour alone.
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 3", "10 4", "4 4", "12 3 3 3"];
const MARKERS = ["circle", "square", "triangle", "diamond", "down", "plus", "cross", "bar"];

// A marker shape centred on (x, y); r is its half size.
function marker(kind, x, y, r) {
  const at = (pairs) => "M" + pairs.map(([dx, dy]) => (x + dx * r).toFixed(1) + "," +
    (y + dy * r).toFixed(1)).join("L") + "Z";
  const shapes = {
    square: [[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]],
    triangle: [[0, -1.1], [1, 0.8], [-1, 0.8]], down: [[0, 1.1], [1, -0.8], [-1, -0.8]],
    diamond: [[0, -1.2], [1.1, 0], [0, 1.2], [-1.1, 0]],
    plus: [[-0.35, -1], [0.35, -1], [0.35, -0.35], [1, -0.35], [1, 0.35], [0.35, 0.35],
      [0.35, 1], [-0.35, 1], [-0.35, 0.35], [-1, 0.35], [-1, -0.35], [-0.35, -0.35]],
    cross: [[-1, -0.6], [-0.6, -1], [0, -0.4], [0.6, -1], [1, -0.6], [0.4, 0], [1, 0.6],
      [0.6, 1], [0, 0.4], [-0.6, 1], [-1, 0.6], [-0.4, 0]],
    bar: [[-1.1, -0.45], [1.1, -0.45], [1.1, 0.45], [-1.1, 0.45]],
  };
  return kind in shapes ? svg("path", { d: at(shapes[kind]) })
    : svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r });
}

// A card: its face from the data's `faces` (common.js draws it), a button to click, or
// disabled with nothing to do.
function card(data, code, onClick, extra) {
  const face = (data.faces || {})[code];
  const node = button("cardlab-card" + (extra ? " " + extra : ""), null, face ? face[4] : code);
  cardFace(node, code, face);
  if (onClick) node.addEventListener("click", onClick); else node.disabled = true;
  return node;
}

function render({ model, el: host }) {
  const root = el("div", "cardlab-recorder");
  root.tabIndex = 0;
  keepKeysInside(root);  // no JupyterLab shortcut from a focused card or button (common.js)
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

  // The running totals after each finished hand, as Python sent them (data.chart): a line per
  // seat from 0 at the start; a marker per finished hand, its value in data-value and a title.
  function drawChart(data, out) {
    const chart = data.chart;
    if (!chart || chart.points.length < 2) return; // the sheet says "no hand finished yet"
    const box = el("figure", "cardlab-rec-chart");
    const width = 380, height = 200, left = 42, right = 12, top = 10, bottom = 40;
    const all = chart.points.flat();
    let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
    if (hi === lo) hi = lo + 1;
    const span = chart.points.length - 1;
    const x = (i) => left + (width - left - right) * i / span;
    const y = (v) => top + (height - top - bottom) * (hi - v) / (hi - lo);
    const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      class: "cardlab-rec-chart-svg", "aria-label": chart.title });
    const axis = svg("g", { class: "cardlab-rec-axis" });
    const drawn = [];
    for (const v of new Set([lo, hi, 0])) { // the range first; a label too near is left out
      axis.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v),
        class: v === 0 ? "cardlab-rec-zero" : "cardlab-rec-grid" }));
      if (drawn.some((d) => Math.abs(d - y(v)) < 14)) continue;
      drawn.push(y(v));
      const label = svg("text", { x: left - 5, y: y(v) + 4, "text-anchor": "end" });
      label.textContent = String(v);
      axis.append(label);
    }
    const every = Math.ceil(chart.labels.length / 10); // at most ~10 labels under the axis
    chart.labels.forEach((text, i) => {
      if (i % every && i !== span) return;
      const label = svg("text", { x: x(i), y: height - bottom + 14,
        "text-anchor": i ? "middle" : "start" }); // "start" clear of the total axis's labels
      label.textContent = text;
      axis.append(label);
    });
    const names = [[chart.x, left + (width - left - right) / 2, height - 6, "middle", 0],
      ["total", 11, top + (height - top - bottom) / 2, "middle", -90]];
    for (const [text, tx, ty, anchor, turn] of names) {
      const label = svg("text", { x: tx, y: ty, "text-anchor": anchor,
        class: "cardlab-rec-axis-name", transform: `rotate(${turn} ${tx} ${ty})` });
      label.textContent = text;
      axis.append(label);
    }
    plot.append(axis);
    const legend = el("div", "cardlab-rec-legend");
    data.seats.forEach((name, s) => {
      const colour = "cardlab-rec-s" + (s % 8);
      const line = svg("g", { class: "cardlab-rec-series " + colour, "data-seat": name });
      line.append(svg("path", { class: "cardlab-rec-line-path", fill: "none",
        "stroke-dasharray": DASHES[s % 8],
        d: chart.points.map((row, i) => (i ? "L" : "M") + x(i).toFixed(1) + "," +
          y(row[s]).toFixed(1)).join("") }));
      chart.points.forEach((row, i) => {
        if (!i) return; // the start is no hand: no marker
        // each seat's marker a little smaller, drawn over the last: equal totals stay seen
        const dot = marker(MARKERS[s % 8], x(i), y(row[s]), Math.max(5.5 - 0.8 * s, 2.5));
        dot.setAttribute("class", "cardlab-rec-point");
        dot.dataset.hand = chart.labels[i];
        dot.dataset.value = String(row[s]);
        const tip = svg("title");
        tip.textContent = `${name}, ${chart.x} ${chart.labels[i]}: ${row[s]}`;
        dot.append(tip);
        line.append(dot);
      });
      plot.append(line);
      const key = svg("svg", { viewBox: "0 0 28 10", class: "cardlab-rec-swatch " + colour,
        "aria-hidden": "true" });
      key.append(svg("path", { class: "cardlab-rec-line-path", fill: "none", d: "M1,5L27,5",
        "stroke-dasharray": DASHES[s % 8] }), marker(MARKERS[s % 8], 14, 5, 3.5));
      const item = el("span", "cardlab-rec-legend-item");
      item.append(key, el("span", null, name));
      legend.append(item);
    });
    box.append(el("figcaption", null, chart.title), plot, legend);
    out.append(box);
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
    const bottom = el("div", "cardlab-rec-bottom");
    drawSheet(data, bottom);
    drawChart(data, bottom);
    root.append(bottom);
    if (hadFocus) root.querySelector(".cardlab-rec-input").focus();
  }

  model.on("change:data", draw);
  draw();
  return () => model.off("change:data", draw);
}

export default { render };
