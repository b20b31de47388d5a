// The Evaluate part of the cardlab viewer: the advisor's numbers, drawn from the movie.
//
// This file is not a module of its own: cardlab/view/assets.py puts it after viewer.js in one
// module (it uses el, svg and button from common.js, select and fillSelect from viewer.js). The
// movie's line data carry `ev` (step → the values of the decision made at that step, best
// first, with the marks and texts written in Python: cardlab/view/analysis.py), `dec` (each
// decision of the main line: played, best, loss, mark) and `luck` (per seat and hand). A
// seat's movie holds that seat's decisions only. Nothing here computes a value: it places the
// numbers on the legal actions, draws the "where did it turn" chart, lists the costly
// decisions (clickable) and shows luck against skill.

function evaluateView({ goto, send, pick }) {
  const panel = el("div", "cardlab-eval");
  panel.setAttribute("aria-live", "polite");
  const head = el("div", "cardlab-panel-title", "Evaluate");
  const source = el("div", "cardlab-eval-source");
  const list = el("div", "cardlab-eval-actions");
  const ask = button("cardlab-button cardlab-eval-ask", "evaluate this decision",
    "ask the kernel for the values of this decision (200 sampled deals)");
  const message = el("span", "cardlab-eval-message");
  panel.append(head, source, list, ask, message);

  const analysis = el("div", "cardlab-analysis");
  const turn = el("div", "cardlab-turn");
  const [seatWrap, seatSelect] = select("cardlab-turn-seat", "seat");
  const turnHead = el("div", "cardlab-turn-head");
  turnHead.append(el("div", "cardlab-panel-title", "Where did it turn"), seatWrap);
  const turnChart = el("div", "cardlab-turn-chart");
  turn.append(turnHead, turnChart);
  const costly = el("div", "cardlab-costly");
  const luck = el("div", "cardlab-luck");
  analysis.append(turn, costly, luck);

  let chosen = null;   // the seat picked in the chart's menu (null: follow the seat to act)
  let following = 0;   // the seat the chart follows meanwhile: the last one that decided
  let drawnKey = "";
  let asked = null;    // [line, step] of the last request to the kernel
  let current = null;  // what draw() was last given, for the seat menu's redraw

  seatSelect.addEventListener("change", () => {
    chosen = Number(seatSelect.value);
    drawnKey = "";
    if (current) draw(current);
  });
  ask.addEventListener("click", () => {
    if (!current) return;
    asked = [current.lineIndex, current.step];
    message.textContent = "the advisor is sampling deals…";
    send({ type: "evaluate", line: current.lineIndex, step: current.step, seat: current.key });
  });

  function onMessage(msg) {
    if (msg && msg.type === "evaluated") message.textContent = msg.text || "";
  }

  function hasAnalysis(movie) {
    return Object.values(movie.views || {}).some((lines) =>
      lines.some((data) => (data.ev && Object.keys(data.ev).length) || data.evs));
  }

  // The values of the decision at this step on its actions: a tag on each card it may play
  // (best ▲ green, worst ▼ red, the others plain), and every action in the panel's list.
  function drawValues(ctx, entry) {
    for (const box of ctx.seatBoxes) {
      box.hand.classList.remove("cardlab-evaluated");
      for (const tag of box.hand.querySelectorAll(".cardlab-eval-tag")) tag.remove();
      for (const node of box.hand.querySelectorAll(".cardlab-eval-card")) {
        node.classList.remove("cardlab-eval-best", "cardlab-eval-worst", "cardlab-eval-card");
        node.setAttribute("aria-label", node.title);
      }
    }
    list.replaceChildren();
    if (!entry) return;
    const best = new Set(entry.best), worst = new Set(entry.worst);
    const kind = (text) => (best.has(text) ? "best" : worst.has(text) ? "worst" : "other");
    const box = ctx.seatBoxes[entry.p];
    if (box) {
      for (const node of box.hand.querySelectorAll(".cardlab-card[data-code]")) {
        const index = entry.c[node.dataset.code];
        if (index === undefined) continue;
        const [text, , mean, stderr, value, full, mark] = entry.v[index];
        const look = kind(text);
        box.hand.classList.add("cardlab-evaluated");
        node.classList.add("cardlab-eval-card");
        if (look !== "other") node.classList.add("cardlab-eval-" + look);
        // the mark above the number: the tag is no wider than a card
        const label = el("span", "cardlab-eval-tag cardlab-eval-" + look);
        if (mark) label.appendChild(el("span", "cardlab-eval-mark", mark));
        label.appendChild(el("span", "cardlab-eval-number", value));
        label.dataset.mean = String(mean);
        label.dataset.stderr = String(stderr);
        node.appendChild(label);
        node.setAttribute("aria-label", `${node.title}: ${full}` +
          (look === "other" ? "" : ` (${look})`));
      }
    }
    const offered = new Set(ctx.alts);
    for (const [text, shown, mean, stderr, , full] of entry.v) {
      const look = kind(text);
      // in a notebook, each choice is a button (the one played too, so that none stands out
      // as played): it picks that action in the what-if menu
      const choice = offered.has(text);
      const item = el(choice ? "button" : "span", "cardlab-eval-action cardlab-eval-" + look);
      if (choice) {
        item.type = "button";
        item.title = "pick this in the what-if menu";
        item.addEventListener("click", () => pick(text));
      }
      item.dataset.action = text;
      item.dataset.mean = String(mean);
      item.dataset.stderr = String(stderr);
      item.append(el("span", "cardlab-eval-name", shown), el("span", "cardlab-eval-value", full));
      list.appendChild(item);
    }
  }

  // What was played at each decision of the seat against the best choice (one point per
  // decision made so far, or all with "show all results"), hands marked along the bottom.
  function drawTurn(ctx, shown, seat) {
    const movie = ctx.movie;
    const width = 520, height = 220, left = 44, right = 12, top = 22, bottom = 30;
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      class: "cardlab-chart-svg cardlab-turn-svg",
      "aria-label": `${movie.seats[seat]}: the value of each decision as played and of the ` +
        "best choice" });
    if (!shown.length) {
      turnChart.replaceChildren(el("div", "cardlab-empty",
        `no decision of ${movie.seats[seat]} evaluated yet`));
      return;
    }
    const all = shown.flatMap((d) => [d.pv, d.bv]);
    let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
    if (hi === lo) hi = lo + 1;
    const span = Math.max(shown.length - 1, 1);
    const x = (i) => left + (width - left - right) * (shown.length === 1 ? 0.5 : i / span);
    const y = (v) => top + (height - top - bottom) * (hi - v) / (hi - lo);
    const axis = svg("g", { class: "cardlab-axis" });
    for (const v of new Set([lo, 0, hi])) {
      axis.appendChild(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v),
        class: v === 0 ? "cardlab-zero" : "cardlab-grid" }));
      // a zero line too close to an end keeps no label of its own (they would overlap)
      if (v === 0 && lo !== 0 && hi !== 0 &&
          Math.min(y(0) - y(hi), y(lo) - y(0)) < 12) continue;
      const label = svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" });
      label.textContent = String(Math.round(v * 10) / 10);
      axis.appendChild(label);
    }
    let hand = null;
    let free = 0;  // where the next hand's label may start (short hands' labels are left out)
    shown.forEach((d, i) => {
      if (d.h === hand) return;
      hand = d.h;
      const at = i === 0 ? x(0) : (x(i - 1) + x(i)) / 2;
      if (i) axis.appendChild(svg("line", { x1: at, x2: at, y1: top, y2: height - bottom,
        class: "cardlab-grid" }));
      const from = i ? at + 3 : left;
      if (from < free) return;
      free = from + 8 * (movie.word.length + String(d.h).length + 1);
      const label = svg("text", { x: from, y: height - bottom + 16 });
      label.textContent = `${movie.word} ${d.h}`;
      axis.appendChild(label);
    });
    chart.appendChild(axis);
    const here = shown.filter((d) => d.s <= ctx.step).length - 1;
    if (here >= 0) chart.appendChild(svg("line", { x1: x(here), x2: x(here), y1: top,
      y2: height - bottom, class: "cardlab-now" }));
    chart.appendChild(svg("path", { class: "cardlab-turn-best-line", fill: "none",
      d: shown.map((d, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(d.bv).toFixed(1)}`).join("") }));
    chart.appendChild(svg("path", { class: "cardlab-turn-played-line", fill: "none",
      d: shown.map((d, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(d.pv).toFixed(1)}`).join("") }));
    shown.forEach((d, i) => {
      if (d.l > 0) chart.appendChild(svg("line", { x1: x(i), x2: x(i), y1: y(d.bv), y2: y(d.pv),
        class: "cardlab-turn-gap" + (d.m ? " cardlab-turn-costly" : "") }));
      const size = 4;
      chart.appendChild(svg("path", { class: "cardlab-turn-best",
        d: `M${x(i)},${y(d.bv) - size}l${size},${size}l${-size},${size}l${-size},${-size}Z` }));
      const dot = svg("circle", { cx: x(i), cy: y(d.pv), r: d.m ? 4.5 : 3.2,
        class: "cardlab-turn-point" + (d.m ? " cardlab-turn-costly" : ""), "data-step": d.s });
      const tip = svg("title");
      tip.textContent = d.t;
      dot.appendChild(tip);
      chart.appendChild(dot);
      if (d.m) {
        const mark = svg("text", { x: x(i), y: Math.min(y(d.pv), y(d.bv)) - 7,
          "text-anchor": "middle", class: "cardlab-turn-mark" });
        mark.textContent = d.m;
        chart.appendChild(mark);
      }
    });
    const legend = el("div", "cardlab-legend");
    const key = (cls, text) => {
      const item = el("span", "cardlab-legend-item");
      const icon = svg("svg", { viewBox: "0 0 12 12", class: "cardlab-turn-key", "aria-hidden": "true" });
      icon.appendChild(cls === "best" ? svg("path", { d: "M6 1l5 5l-5 5l-5-5Z", class: "cardlab-turn-best" })
        : svg("circle", { cx: 6, cy: 6, r: 4, class: "cardlab-turn-point" }));
      item.append(icon, el("span", null, text));
      return item;
    };
    legend.append(key("played", "what was played"), key("best", "the best choice"),
      el("span", "cardlab-legend-item", "? costly, ?? very costly"));
    turnChart.replaceChildren(chart, legend);
  }

  // Each player's costly decisions (marked ? or ??), made so far: a click goes to the step.
  function drawCostly(ctx, made) {
    const movie = ctx.movie;
    const marked = made.filter((d) => d.m);
    const parts = [el("div", "cardlab-panel-title", "Costly decisions")];
    if (!marked.length) parts.push(el("div", "cardlab-empty", "none so far"));
    movie.seats.forEach((name, seat) => {
      const mine = marked.filter((d) => d.p === seat);
      if (!mine.length) return;
      const group = el("div", "cardlab-costly-seat");
      group.appendChild(el("div", "cardlab-costly-name", `${name} (${mine.length})`));
      for (const d of mine) {
        const item = el("button", "cardlab-costly-item", d.t);
        item.type = "button";
        item.dataset.step = String(d.s);
        item.dataset.seat = name;
        if (ctx.lineIndex === 0 && d.s === ctx.step) {
          item.classList.add("cardlab-current");
          item.setAttribute("aria-current", "step");
        }
        item.addEventListener("click", () => goto(0, d.s));  // the main line's step
        group.appendChild(item);
      }
      parts.push(group);
    });
    costly.replaceChildren(...parts);
  }

  function drawLuck(ctx, rows, seat) {
    const name = ctx.movie.seats[seat];
    const table = el("table", "cardlab-sheet-table cardlab-luck-table");
    const caption = el("caption", null, `${name}: the result against its expectation`);
    table.appendChild(caption);
    const headRow = el("tr");
    for (const word of [ctx.movie.word, "result", "expected", "skill", "luck"]) {
      headRow.appendChild(el("th", null, word));
    }
    const thead = el("thead");
    thead.appendChild(headRow);
    const tbody = el("tbody");
    for (const row of rows) {
      const tr = el("tr");
      tr.appendChild(el("th", null, String(row.h)));
      for (const text of row.t) tr.appendChild(el("td", null, text));
      tbody.appendChild(tr);
    }
    if (!rows.length) {
      const tr = el("tr");
      const cell = el("td", "cardlab-empty", `no ${ctx.movie.word} of ${name} finished yet`);
      cell.colSpan = 5;
      tr.appendChild(cell);
      tbody.appendChild(tr);
    }
    table.append(thead, tbody);
    luck.replaceChildren(el("div", "cardlab-panel-title", "Luck against skill"), table,
      el("div", "cardlab-luck-note",
        "expected: the best value at the first decision; skill: minus the points lost; " +
        "luck: the rest of the result"));
  }

  // ctx: {movie, data (this line's data), ev (its values by step), main (the main line's
  // data), key, lineIndex,
  // step, on, showAll, seatBoxes, alts (the what-if menu's actions), acting (the seats
  // whose box says it is their turn)}
  function draw(ctx) {
    current = ctx;
    const entry = ctx.on ? ctx.ev[String(ctx.step)] || null : null;
    drawValues(ctx, entry);
    panel.hidden = !ctx.on;
    source.textContent = entry ? entry.src : ctx.key === "" ? "no values for this step"
      : `values show at ${ctx.key}'s own decisions`;
    // the kernel evaluates a decision with no record; in a seat's view, the seat's own only
    const own = ctx.key === "" ? null : ctx.movie.seats.indexOf(ctx.key);
    const mine = own === null || ctx.acting.includes(own);
    const askable = ctx.movie.explore && !entry && mine && ctx.data.frames.length - 1 > ctx.step;
    ask.hidden = !(ctx.on && askable);
    if (!asked || asked[0] !== ctx.lineIndex || asked[1] !== ctx.step) message.textContent = "";
    const main = ctx.main;
    analysis.hidden = !ctx.on || !main.dec;
    if (analysis.hidden) return;
    const seats = ctx.movie.seats.map((name, s) => [s, name])
      .filter(([s]) => own === null || s === own);
    const acting = ctx.ev[String(ctx.step)];
    if (acting) following = acting.p;
    const seat = own !== null ? own : chosen !== null ? chosen : following;
    fillSelect(seatSelect, seats, seat);
    seatSelect.disabled = seats.length < 2;
    // a decision's outcome shows once it is made (from the next step), a hand's luck once
    // the hand is over; "show all results" shows the whole line's, as the score chart does
    const onMain = ctx.lineIndex === 0;
    const made = main.dec.filter((d) => ctx.showAll || (onMain && d.s < ctx.step));
    const key = [ctx.key, ctx.lineIndex, ctx.showAll, seat, made.length, ctx.step,
      ctx.movie.seats.length].join("|");
    if (key === drawnKey) return;
    drawnKey = key;
    drawTurn(ctx, made.filter((d) => d.p === seat), seat);
    drawCostly(ctx, made);
    drawLuck(ctx, main.luck.filter((row) => row.p === seat &&
      (ctx.showAll || (onMain && row.s <= ctx.step))), seat);
  }

  function reset() {
    drawnKey = "";
  }

  return { panel, analysis, draw, reset, hasAnalysis, onMessage };
}
