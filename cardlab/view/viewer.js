// The cardlab viewer: draws a "movie" built by cardlab/view/movie.py (anywidget ESM).
//
// The movie holds, per view (everyone or one seat) and per line, the frames of every step and
// the move list; every text in it was written in Python. This module only lays them out, and
// steps, jumps and switches views in the browser. It restates no rule of any game. Every
// string that came from a replay is inserted with textContent, never as markup.
//
// The same module runs in JupyterLab (anywidget gives `model`) and in the standalone page
// (model.js gives a small model with get/set/on/off/save_changes/send). cardlab/view/assets.py
// makes it one module: common.js (el, svg, button, cardFace...) first, then this file, then
// moves.js (the move list) and evaluate.js (the advisor's numbers), then the export line.

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
  "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "12 3 3 3", "3 6", "6 6"];
const SPEEDS = [["0.5", "slow"], ["1", "1 step/s"], ["2", "2 steps/s"], ["4", "fast"]];

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A frame is sent as the keys that changed since the one before (null deletes a key).
function patch(base, delta) {
  const out = Object.assign({}, base);
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = patch(out[key], value);
    else out[key] = value;
  }
  return out;
}

function noteIn(note, lang) {
  if (note === undefined || note === null) return "";
  if (typeof note === "string") return note;
  if (typeof note[lang] === "string") return note[lang];
  const first = Object.values(note).find((v) => typeof v === "string");
  return first || "";
}

// A move's text as the viewing seat reads it at `step` (a text may change later).
function moveText(move, step) {
  if (typeof move.x === "string") return move.x;
  let text = null;
  for (const [from, value] of move.x) if (from <= step) text = value;
  return text;
}

// An action text as people read it: card codes by their names (the movie's card table).
function readable(movie, text) {
  return text.split(" ").map((word) => {
    if (movie.cards[word]) return movie.cards[word][4];
    return word.replace(/,/g, ", ").replace(/-(?=[a-z])/g, " ");
  }).join(" ");
}

function firstStep(move) {
  return typeof move.x === "string" ? move.s : Math.max(move.s, move.x[0][0]);
}

// One line of one view, made ready to draw: whole frames and a note per step. A seat's
// frames may be stored as what differs from everyone's frame at the same step (`base`).
function prepare(line, base) {
  const frames = [];
  let cur = {};
  line.frames.forEach((delta, i) => {
    cur = base ? patch(base.frames[i], delta) : patch(cur, delta);
    frames.push(cur);
  });
  const notes = new Array(frames.length).fill(null);
  for (const hand of line.hands) if (hand.n !== undefined) notes[hand.s] = hand.n;
  for (const move of line.moves) if (move.n !== undefined) notes[move.s] = move.n;
  // the values of decisions (evaluate.js): a seat's line beside everyone's lists the steps
  // of its own and shares everyone's entries
  const ev = line.ev || {};
  if (base && line.evs) for (const s of line.evs) ev[s] = base.ev[s];
  return { data: line, frames, notes, ev };
}

function card(movie, code, extra) {
  const face = movie.cards[code];
  const node = cardFace(el("span", "cardlab-card" + (extra ? " " + extra : "")), code, face);
  if (face) {
    node.title = face[4];
    node.setAttribute("aria-label", face[4]);
    node.setAttribute("role", "img");
  }
  return node;
}

function select(cls, label) {
  const wrap = el("label", "cardlab-field");
  wrap.appendChild(el("span", "cardlab-field-label", label));
  const box = el("select", cls);
  wrap.appendChild(box);
  return [wrap, box];
}

function fillSelect(box, options, value) {
  const key = JSON.stringify(options);
  if (box.dataset.options !== key) {
    box.replaceChildren();
    for (const [val, text] of options) {
      const option = el("option", null, text);
      option.value = String(val);
      box.appendChild(option);
    }
    box.dataset.options = key;
  }
  box.value = String(value);
}

function checkbox(cls, label) {
  const wrap = el("label", "cardlab-field cardlab-check");
  const box = el("input", cls);
  box.type = "checkbox";
  wrap.appendChild(box);
  wrap.appendChild(el("span", "cardlab-field-label", label));
  return [wrap, box];
}

function render({ model, el: host }) {
  const root = el("div", "cardlab-viewer");
  root.tabIndex = 0;
  keepKeysInside(root);  // no JupyterLab shortcut from any control inside (common.js)
  root.setAttribute("role", "application");
  root.setAttribute("aria-label", "card table viewer");
  root.cardlabModel = model;
  host.appendChild(root);

  // -- the fixed parts ---------------------------------------------------------------------
  const head = el("div", "cardlab-head");
  const title = el("div", "cardlab-title");
  const subtitle = el("div", "cardlab-subtitle");
  head.append(title, subtitle);

  const controls = el("div", "cardlab-controls");
  const first = button("cardlab-button cardlab-first", "|◀", "first step (Home)");
  const prev = button("cardlab-button cardlab-prev", "◀", "previous step (←)");
  const next = button("cardlab-button cardlab-next", "▶", "next step (→)");
  const last = button("cardlab-button cardlab-last", "▶|", "last step (End)");
  // jumps by trick and by hand (the keys ↑/↓ and Page Up/Down); the hand's word is the game's
  const prevTrick = button("cardlab-button cardlab-prev-trick", "◀ trick", "previous trick (↑)");
  const nextTrick = button("cardlab-button cardlab-next-trick", "trick ▶", "next trick (↓)");
  const prevHand = button("cardlab-button cardlab-prev-hand", "◀ hand", "previous hand (Page Up)");
  const nextHand = button("cardlab-button cardlab-next-hand", "hand ▶", "next hand (Page Down)");
  const autoplay = button("cardlab-button cardlab-autoplay", "▶ play",
    "autoplay (pause keeps the place)");
  const [speedWrap, speed] = select("cardlab-speed", "speed");
  fillSelect(speed, SPEEDS, "1");
  const slider = el("input", "cardlab-slider");
  slider.type = "range";
  slider.min = "0";
  slider.setAttribute("aria-label", "step");
  const counter = el("span", "cardlab-counter");
  controls.append(first, prev, next, last, prevTrick, nextTrick, prevHand, nextHand, autoplay,
    slider, counter);

  const options = el("div", "cardlab-options");
  const [seatWrap, seatSelect] = select("cardlab-seat-select", "seen by");
  const [langWrap, langSelect] = select("cardlab-lang-select", "notes");
  const [lineWrap, lineSelect] = select("cardlab-line-select", "line");
  const [allWrap, showAll] = checkbox("cardlab-show-all", "show all results");
  const [bigWrap, bigBox] = checkbox("cardlab-big", "big");
  const [evalWrap, evalBox] = checkbox("cardlab-evaluate", "evaluate");
  options.append(seatWrap, langWrap, lineWrap, speedWrap, allWrap, bigWrap, evalWrap);
  // the advisor's numbers (evaluate.js): values on the actions, the chart, costly decisions
  const advice = evaluateView({ goto: (index, step) => setState({ line: index, step }),
    send: (msg) => model.send(msg), pick: (text) => {
      whatSelect.value = text;
      say(`${readable(movie, text)}: "try it" plays it from here`);
      whatSelect.focus();
    } });

  const main = el("div", "cardlab-main");
  const stage = el("div", "cardlab-stage");
  const table = el("div", "cardlab-table");
  const centre = el("div", "cardlab-centre");
  const info = el("div", "cardlab-info");
  const trump = el("div", "cardlab-trump");
  const hat = el("div", "cardlab-hat");
  const call = el("div", "cardlab-call");
  const trick = el("div", "cardlab-trick");
  const caption = el("div", "cardlab-trick-caption");
  const why = el("div", "cardlab-why");
  const facts = el("div", "cardlab-facts");
  facts.append(info, trump, hat);
  centre.append(facts, call, caption, trick, why);
  table.appendChild(centre);
  const status = el("div", "cardlab-status");
  status.setAttribute("aria-live", "polite");
  const explain = el("div", "cardlab-explain");
  const note = el("div", "cardlab-note");
  const result = el("div", "cardlab-result");
  stage.append(table, status, advice.panel, explain, result, note);
  const side = el("div", "cardlab-side");
  const sideHead = el("div", "cardlab-side-head");
  const [futureWrap, futureBox] = checkbox("cardlab-future-toggle", "show moves to come");
  sideHead.append(el("div", "cardlab-panel-title", "Moves"), futureWrap);
  // the move list (moves.js): what has happened by this step; later moves are counted
  const moves = movesView({ goto: (index, step) => setState({ line: index, step }) });
  side.append(sideHead, moves.node);
  main.append(stage, side);

  const whatif = el("div", "cardlab-whatif-row");
  const [whatWrap, whatSelect] = select("cardlab-whatif", "what if, instead:");
  const tryButton = button("cardlab-button cardlab-try", "try it",
    "play this instead; bots finish the hand");
  const message = el("span", "cardlab-message");
  whatif.append(whatWrap, tryButton, message);

  const bottom = el("div", "cardlab-bottom");
  const sheetBox = el("div", "cardlab-sheet");
  const chartBox = el("div", "cardlab-chart");
  bottom.append(sheetBox, chartBox);
  root.append(head, controls, options, main, whatif, bottom, advice.analysis);
  // the projector mode (present.js): its control at the end of the title's row
  const presenter = presentView(root);
  head.appendChild(presenter.control);

  // -- state ---------------------------------------------------------------------------------
  let movie = null;
  let prepared = {};       // view key → line index → prepared line
  let seatBoxes = [];
  let timer = null;
  let drawn = "";
  // where the what-if message was given ([line, step]): it belongs there, and goes when the
  // viewer moves ("Brad: hat −10 is what was played here" must not stay over step 0)
  let said = null;

  const get = (key) => model.get(key);
  const viewKey = () => get("seat") || "";
  const hasView = (key) => !!(movie && movie.views && movie.views[key]);

  function line(key = viewKey(), index = get("line") || 0) {
    if (!hasView(key)) return null;
    const lines = movie.views[key];
    const i = Math.min(Math.max(index, 0), lines.length - 1);
    prepared[key] = prepared[key] || [];
    if (!prepared[key][i] || prepared[key][i].data !== lines[i]) {
      const base = lines[i].base !== undefined ? line(lines[i].base, i) : null;
      prepared[key][i] = prepare(lines[i], base);
    }
    return prepared[key][i];
  }

  function say(text) {
    message.textContent = text;
    said = [get("line") || 0, get("step")];
  }

  function setState(changes) {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
    draw();
  }

  function goto(step) {
    const current = line();
    if (!current) return;
    const top = current.frames.length - 1;
    setState({ step: Math.min(Math.max(step, 0), top) });
  }

  function jump(steps, direction) {
    // the next (or previous) start among `steps`; going back from inside a stretch goes to
    // its own start first, as a chess study's "previous" does
    const here = get("step");
    if (direction > 0) {
      const target = steps.find((s) => s > here);
      if (target !== undefined) goto(target);
      else goto(line().frames.length - 1);
    } else {
      const before = steps.filter((s) => s < here);
      goto(before.length ? before[before.length - 1] : 0);
    }
  }
  // by trick and by hand through the line on show (the buttons and ↑/↓, Page Up/Down)
  const byTrick = (direction) => line() && jump(line().data.tricks.map((t) => t[2]), direction);
  const byHand = (direction) => line() && jump(line().data.hands.map((h) => h.s), direction);

  function stopAutoplay() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    autoplay.textContent = "▶ play";
    autoplay.classList.remove("cardlab-playing");
    autoplay.setAttribute("aria-pressed", "false");
  }

  function startAutoplay() {
    const current = line();
    if (!current) return;
    if (get("step") >= current.frames.length - 1) goto(0);
    autoplay.textContent = "⏸ pause";
    autoplay.classList.add("cardlab-playing");
    autoplay.setAttribute("aria-pressed", "true");
    const every = 1000 / Number(speed.value || "1");
    timer = setInterval(() => {
      const now = line();
      if (!now || get("step") >= now.frames.length - 1) stopAutoplay();
      else goto(get("step") + 1);
    }, every);
  }

  // -- drawing -------------------------------------------------------------------------------
  function buildSeats() {
    for (const box of seatBoxes) box.node.remove();
    seatBoxes = [];
    const key = viewKey();
    const place = movie.places[key] || movie.places[""] || Object.values(movie.places)[0];
    table.style.setProperty("--cl-grid", String(place.size));
    table.dataset.size = String(place.size);
    centre.style.gridArea = place.size === 3 ? "2 / 2" : "2 / 2 / 4 / 4";
    movie.seats.forEach((name, s) => {
      const node = el("div", "cardlab-seat");
      node.dataset.seat = name;
      const [row, col] = place.cells[s];
      // a seat alone in its row (top or bottom) gets the whole width for its hand
      const edge = row === 1 || row === place.size;
      const alone = edge && place.cells.filter(([r]) => r === row).length === 1;
      node.style.gridArea = alone ? `${row} / 1 / ${row + 1} / -1` : `${row} / ${col}`;
      node.dataset.row = String(row);
      node.dataset.col = String(col);
      const top = el("div", "cardlab-seat-top");
      const label = el("span", "cardlab-seat-name", name);
      const badges = el("span", "cardlab-badges");
      top.append(label, badges);
      const lines = el("div", "cardlab-seat-info");
      const hand = el("div", "cardlab-hand");
      node.append(top, lines, hand);
      table.insertBefore(node, centre);
      seatBoxes.push({ node, badges, lines, hand, key: "" });
    });
    table.dataset.view = key;
  }

  function drawSeat(box, data) {
    const key = JSON.stringify(data);
    if (box.key === key) return;
    box.key = key;
    box.node.classList.toggle("cardlab-acting", (data.b || []).includes("turn"));
    box.badges.replaceChildren(...(data.b || []).map((kind) =>
      el("span", "cardlab-badge cardlab-badge-" + kind, movie.badges[kind] || kind)));
    box.lines.replaceChildren(...(data.i || []).map((text) => el("span", "cardlab-line", text)));
    const legal = new Set(data.lg || []);
    if (Array.isArray(data.h)) {
      box.hand.removeAttribute("role");
      box.hand.removeAttribute("aria-label");
      box.hand.replaceChildren(...data.h.map((code) =>
        card(movie, code, legal.has(code) ? "cardlab-legal" : "")));
      if (!data.h.length) box.hand.appendChild(el("span", "cardlab-empty", "no cards"));
    } else {
      const count = Number(data.h || 0);
      const nodes = [];
      for (let k = 0; k < count; k++) nodes.push(cardBack());
      box.hand.replaceChildren(...nodes);
      box.hand.setAttribute("role", "img");  // an aria-label needs a role (axe)
      box.hand.setAttribute("aria-label", `${count} cards face down`);
    }
  }

  function drawCentre(frame, place) {
    info.textContent = (frame.info || []).join(" · ");
    trump.replaceChildren();
    trump.hidden = !frame.tr;
    if (frame.tr) {
      if (frame.tr.c) trump.appendChild(card(movie, frame.tr.c, "cardlab-small"));
      trump.appendChild(el("span", null, frame.tr.t));
    }
    hat.hidden = !frame.hat;
    hat.textContent = frame.hat || "";
    call.replaceChildren();
    call.hidden = !frame.call;
    if (frame.call) {
      if (frame.call.c) call.appendChild(card(movie, frame.call.c, "cardlab-big-card"));
      call.appendChild(el("span", null, frame.call.t));
    }
    const tk = frame.tk;
    trick.replaceChildren();
    trick.hidden = !tk;
    caption.textContent = tk && tk.cap ? tk.cap : "";
    why.textContent = tk && tk.why ? tk.why : "";
    why.hidden = !(tk && tk.why);
    if (!tk) return;
    trick.dataset.size = String(place.size);
    const compact = place.size === 3 && !place.cells.some(([r, c]) => r !== 2 && c !== 2);
    trick.dataset.rows = compact ? "2" : String(place.size);
    for (const [seat, code] of tk.c) {
      const classes = [seat === tk.l ? "cardlab-leader" : "", code === tk.w ? "cardlab-won" : ""];
      const slot = el("div", "cardlab-slot");
      const [row, col] = place.cells[seat];
      // with no one in the corners, the side players' cards sit between the top and bottom
      // ones: the trick is two cards high
      slot.style.gridArea = !compact ? `${row} / ${col}`
        : row === 2 ? `1 / ${col} / 3 / ${col + 1}` : `${row === 3 ? 2 : 1} / ${col}`;
      const node = card(movie, code, classes.filter(Boolean).join(" "));
      node.dataset.seat = movie.seats[seat];
      slot.appendChild(node);
      const who = el("span", "cardlab-who", movie.seats[seat] + (seat === tk.l ? " (led)" : ""));
      slot.appendChild(who);
      trick.appendChild(slot);
    }
  }

  function drawSheet(rows, hand) {
    const tableNode = el("table", "cardlab-sheet-table");
    const headRow = el("tr");
    headRow.appendChild(el("th", null, movie.word));
    for (const name of movie.seats) headRow.appendChild(el("th", null, name));
    const thead = el("thead");
    thead.appendChild(headRow);
    const tbody = el("tbody");
    for (const [number, kind, label, values] of rows) {
      const tr = el("tr", "cardlab-row-" + kind + (number === hand ? " cardlab-current" : ""));
      tr.appendChild(el("th", null, label));
      for (const value of values) tr.appendChild(el("td", null, value));
      tbody.appendChild(tr);
    }
    tableNode.append(thead, tbody);
    if (!rows.length) {
      const empty = el("tr");
      const cell = el("td", "cardlab-empty", `no ${movie.word} finished yet`);
      cell.colSpan = movie.seats.length + 1;
      empty.appendChild(cell);
      tbody.appendChild(empty);
    }
    sheetBox.replaceChildren(el("div", "cardlab-panel-title", "Score sheet"), tableNode);
  }

  function drawChart(points, marker) {
    const width = 520, height = 240, left = 44, right = 12, top = 14, bottom = 34;
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      class: "cardlab-chart-svg", "aria-label": "total score after each " + movie.word });
    const all = points.flat();
    let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
    if (hi === lo) hi = lo + 1;
    const span = Math.max(points.length - 1, 1);
    const x = (i) => left + (width - left - right) * i / span;
    const y = (v) => top + (height - top - bottom) * (hi - v) / (hi - lo);
    const axis = svg("g", { class: "cardlab-axis" });
    for (const v of [lo, 0, hi]) {
      axis.appendChild(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v),
        class: v === 0 ? "cardlab-zero" : "cardlab-grid" }));
      const label = svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" });
      label.textContent = String(v);
      axis.appendChild(label);
    }
    points.forEach((_, i) => {
      if (points.length > 12 && i % Math.ceil(points.length / 12)) return;
      const label = svg("text", { x: x(i), y: height - bottom + 16, "text-anchor": "middle" });
      label.textContent = i === 0 ? "start" : String(i);
      axis.appendChild(label);
    });
    const word = svg("text", { x: width - right, y: height - 4, "text-anchor": "end" });
    word.textContent = `after each ${movie.word}`;
    axis.appendChild(word);
    chart.appendChild(axis);
    if (marker !== null && marker < points.length) {
      chart.appendChild(svg("line", { x1: x(marker), x2: x(marker), y1: top,
        y2: height - bottom, class: "cardlab-now" }));
    }
    movie.seats.forEach((name, s) => {
      const colour = PALETTE[s % PALETTE.length];
      const d = points.map((row, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(row[s]).toFixed(1)}`);
      chart.appendChild(svg("path", { d: d.join(""), fill: "none", stroke: colour,
        "stroke-width": 2.2, "stroke-dasharray": DASHES[s % DASHES.length] }));
      points.forEach((row, i) => chart.appendChild(svg("circle",
        { cx: x(i), cy: y(row[s]), r: 3, fill: colour })));
    });
    const legend = el("div", "cardlab-legend");
    movie.seats.forEach((name, s) => {
      const item = el("span", "cardlab-legend-item");
      const swatch = svg("svg", { viewBox: "0 0 24 8", class: "cardlab-swatch", "aria-hidden": "true" });
      swatch.appendChild(svg("line", { x1: 0, x2: 24, y1: 4, y2: 4,
        stroke: PALETTE[s % PALETTE.length], "stroke-width": 3,
        "stroke-dasharray": DASHES[s % DASHES.length] }));
      item.append(swatch, el("span", null, name));
      legend.appendChild(item);
    });
    chartBox.replaceChildren(el("div", "cardlab-panel-title", "Total score"),
      ...(points.length < 2 ? [el("div", "cardlab-empty", `no ${movie.word} finished yet`)]
        : [chart, legend]));
  }

  // Drawing may take away the control that has focus: a step button disabled at an end, a
  // move that goes back into the future, a list rebuilt. Focus then stays in the viewer
  // rather than falling to the page, where the next key would go to JupyterLab.
  function draw() {
    const focused = document.activeElement;
    const inside = focused !== root && root.contains(focused);
    drawNow();
    const now = document.activeElement;
    if (inside && (now === focused || now === document.body || now === null) &&
        (!focused.isConnected || focused.disabled || focused.closest("[hidden]"))) {
      // a move that went back into the future hands focus on to the move now current
      const here = moves.node.contains(focused) ? moves.node.querySelector("[aria-current]") : null;
      (here || root).focus({ preventScroll: true });
    }
  }

  function drawNow() {
    if (!movie) return;
    const key = viewKey();
    root.classList.toggle("cardlab-dark", themeIsDark());
    root.classList.toggle("cardlab-big-mode", !!get("big"));
    bigBox.checked = !!get("big");
    showAll.checked = !!get("show_all");
    evalBox.checked = !!get("evaluate");
    evalWrap.hidden = !(movie.explore || advice.hasAnalysis(movie));  // nothing to show
    // a seat's view shows only what that seat has seen: no moves to come to show there
    futureBox.checked = !!get("future") && key === "";
    futureBox.disabled = key !== "";
    futureWrap.title = key === "" ? "write out the moves after this step too, for a review"
      : "a seat's view shows only the moves that seat has seen";
    const seats = movie.choices || Object.keys(movie.views);
    fillSelect(seatSelect, seats.map((k) => [k, k === "" ? "everyone (all hands)" : `${k}'s view`]), key);
    seatSelect.disabled = seats.length < 2;
    fillSelect(langSelect, movie.langs.map((l) => [l, l]), get("lang") || movie.lang);
    langSelect.disabled = movie.langs.length < 2;
    root.dataset.seat = key;
    if (!hasView(key)) {
      status.textContent = `getting ${key ? key + "'s" : "everyone's"} view from the kernel…`;
      return;
    }
    const current = line();
    const lineIndex = Math.min(get("line") || 0, movie.views[key].length - 1);
    const top = current.frames.length - 1;
    const step = Math.min(Math.max(get("step") || 0, 0), top);
    const evaluating = !!get("evaluate") && !evalWrap.hidden;
    const stamp = [key, lineIndex, step, get("lang"), get("show_all"), movie.lines.length,
      get("big"), evaluating, !!get("future")].join("|");
    root.dataset.step = String(step);
    root.dataset.line = String(lineIndex);
    fillSelect(lineSelect, movie.views[key].map((l, i) => [i, l.label]), lineIndex);
    lineSelect.disabled = movie.views[key].length < 2;
    slider.max = String(top);
    slider.value = String(step);
    counter.textContent = `step ${step} of ${top}`;
    first.disabled = prev.disabled = prevTrick.disabled = prevHand.disabled = step === 0;
    next.disabled = last.disabled = nextTrick.disabled = nextHand.disabled = step === top;
    prevTrick.hidden = nextTrick.hidden = !current.data.tricks.length;  // a game with no tricks
    if (said && (said[0] !== lineIndex || said[1] !== step)) {
      message.textContent = "";
      said = null;
    }
    if (stamp === drawn) return;
    drawn = stamp;
    if (table.dataset.view !== key || seatBoxes.length !== movie.seats.length) buildSeats();
    const frame = current.frames[step];
    const place = movie.places[key] || movie.places[""];
    movie.seats.forEach((_, s) => drawSeat(seatBoxes[s], (frame.seats || {})[String(s)] || {}));
    advice.draw({ movie, data: current.data, ev: current.ev, main: movie.views[key][0], key,
      lineIndex, step,
      on: evaluating, showAll: !!get("show_all"), seatBoxes,
      alts: movie.explore ? (frame.alt || []) : [],
      acting: movie.seats.map((_, s) => s).filter((s) =>
        (((frame.seats || {})[String(s)] || {}).b || []).includes("turn")) });
    drawCentre(frame, place);
    status.textContent = frame.st || "";
    explain.textContent = frame.ex || "";
    explain.hidden = !frame.ex;
    result.textContent = frame.res || "";
    result.hidden = !frame.res;
    const noteText = noteIn(current.notes[step], get("lang") || movie.lang);
    note.textContent = noteText;
    note.hidden = !noteText;
    const final = current.data.final;
    const all = !!get("show_all");
    const sheetRows = all ? final.sheet : (frame.sheet || []);
    const points = all ? final.pts : (frame.pts || []);
    const marker = all ? (frame.pts || []).length - 1 : null;
    // the sheet and the chart change only when a hand ends: redrawn only then
    if (sheetBox.cardlabRows !== sheetRows || sheetBox.cardlabHand !== frame.hn) {
      drawSheet(sheetRows, frame.hn);
      sheetBox.cardlabRows = sheetRows;
      sheetBox.cardlabHand = frame.hn;
    }
    if (chartBox.cardlabPoints !== points || chartBox.cardlabMarker !== marker) {
      drawChart(points.length ? points : [movie.seats.map(() => 0)], marker);
      chartBox.cardlabPoints = points;
      chartBox.cardlabMarker = marker;
    }
    moves.draw({ movie, key, lineIndex, step, lang: get("lang"), future: !!get("future") });
    const alts = movie.explore ? (frame.alt || []) : [];
    whatif.hidden = !movie.explore;
    fillSelect(whatSelect, alts.map((t) => [t, readable(movie, t)]), alts[0] || "");
    whatSelect.disabled = tryButton.disabled = !alts.length;
  }

  // -- events --------------------------------------------------------------------------------
  first.addEventListener("click", () => goto(0));
  prev.addEventListener("click", () => goto(get("step") - 1));
  next.addEventListener("click", () => goto(get("step") + 1));
  last.addEventListener("click", () => goto(line() ? line().frames.length - 1 : 0));
  prevTrick.addEventListener("click", () => byTrick(-1));
  nextTrick.addEventListener("click", () => byTrick(1));
  prevHand.addEventListener("click", () => byHand(-1));
  nextHand.addEventListener("click", () => byHand(1));
  autoplay.addEventListener("click", () => (timer === null ? startAutoplay() : stopAutoplay()));
  speed.addEventListener("change", () => { if (timer !== null) { stopAutoplay(); startAutoplay(); } });
  slider.addEventListener("input", () => goto(Number(slider.value)));
  seatSelect.addEventListener("change", () => setState({ seat: seatSelect.value }));
  langSelect.addEventListener("change", () => setState({ lang: langSelect.value }));
  lineSelect.addEventListener("change", () => {
    const index = Number(lineSelect.value);
    const target = movie.lines[index];
    // a variation starts where it branches off; the main line keeps the place in its hand
    const data = movie.views[viewKey()][index];
    let step = 0;
    if (target && target.path.length) step = target.path[target.path.length - 1][0] + 1;
    else if (data.hands.length) {
      const from = movie.lines[get("line") || 0];
      const hand = from && from.hand ? data.hands.find((h) => h.i === from.hand) : null;
      step = hand ? hand.s : 0;
    }
    setState({ line: index, step });
  });
  showAll.addEventListener("change", () => setState({ show_all: showAll.checked }));
  bigBox.addEventListener("change", () => setState({ big: bigBox.checked }));
  evalBox.addEventListener("change", () => setState({ evaluate: evalBox.checked }));
  futureBox.addEventListener("change", () => setState({ future: futureBox.checked }));
  tryButton.addEventListener("click", () => {
    if (!whatSelect.value) return;
    say("the bots are playing the hand out…");
    model.send({ type: "explore", line: get("line") || 0, step: get("step"),
      action: whatSelect.value, seat: viewKey() });
  });
  // The keys work from every control inside the viewer, and none reaches JupyterLab there
  // (keepKeysInside, above). A bound key's default (scrolling the notebook) is prevented; a
  // select keeps ↑/↓, which choose its option. The slider steps with ←/→ as the viewer does
  // (its own handling would step twice).
  const KEYS = {
    ArrowRight: () => goto(get("step") + 1),
    ArrowLeft: () => goto(get("step") - 1),
    ArrowDown: () => byTrick(1),
    ArrowUp: () => byTrick(-1),
    PageDown: () => byHand(1),
    PageUp: () => byHand(-1),
    Home: () => goto(0),
    End: () => goto(line().frames.length - 1),
  };
  root.addEventListener("keydown", (event) => {
    const action = KEYS[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.tagName === "SELECT" && /^Arrow(Up|Down)$/.test(event.key)) return;
    if (!line()) return;
    event.preventDefault();
    action();
  });

  function onMovie() {
    const given = get("movie");
    movie = given && given.views ? given : null;  // an empty model draws nothing yet
    prepared = {};
    drawn = "";
    moves.reset();
    sheetBox.cardlabRows = chartBox.cardlabPoints = undefined;
    advice.reset();
    if (movie) {
      title.textContent = movie.title;
      subtitle.textContent = movie.subtitle;
      prevHand.textContent = `◀ ${movie.word}`;
      nextHand.textContent = `${movie.word} ▶`;
      for (const [node, way, keyName] of [[prevHand, "previous", "Page Up"],
        [nextHand, "next", "Page Down"]]) {
        node.title = `${way} ${movie.word} (${keyName})`;
        node.setAttribute("aria-label", node.title);
      }
      table.dataset.view = "\u0000";
    }
    draw();
  }
  const onChange = () => draw();
  const onMessage = (msg) => {
    if (msg && msg.type === "explored") say(msg.text || "");
    advice.onMessage(msg);
  };
  model.on("change:movie", onMovie);
  for (const key of ["step", "seat", "line", "lang", "show_all", "big", "evaluate", "future"]) {
    model.on("change:" + key, onChange);
  }
  model.on("msg:custom", onMessage);
  onMovie();

  return () => {
    stopAutoplay();
    presenter.dispose();
    model.off("change:movie", onMovie);
    for (const key of ["step", "seat", "line", "lang", "show_all", "big", "evaluate", "future"]) {
      model.off("change:" + key, onChange);
    }
    model.off("msg:custom", onMessage);
  };
}

export default { render };
