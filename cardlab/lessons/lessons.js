// The exercise and quiz widgets' front-end (anywidget). It draws the kernel's `data` (the
// question, the table as one seat sees it, the choices) and sends the answer; the kernel
// checks it with the engine and answers with `feedback` (exercise) or `reveal` (quiz).
// It knows no rule of any game, and holds no answer before one is given.
// Every text is inserted with textContent. cardlab/view/assets.py puts common.js (el, button,
// cardFace...) before it in one module.

// A card: its face from the table's `cards` (common.js draws it); a button when it is a
// choice, else a plain face.
function card(cards, code, asButton) {
  const face = (cards || {})[code];
  const name = face ? face[4] : code;
  const node = asButton ? button("cardlab-card cardlab-lesson-card", null, name)
    : el("span", "cardlab-card cardlab-lesson-card");
  cardFace(node, code, face);
  if (!asButton) { node.setAttribute("role", "img"); node.setAttribute("aria-label", name); }
  return node;
}

// The table: a box per seat (name, badges, info lines, cards), then the centre.
function drawTable(table, pickCard) {
  const box = el("div", "cardlab-lesson-table");
  const seats = el("div", "cardlab-lesson-seats");
  (table.seats || []).forEach((seat, s) => {
    const div = el("div", "cardlab-lesson-seat");
    div.dataset.seat = seat.name;
    const head = el("div", "cardlab-lesson-seat-name", seat.name);
    (seat.badges || []).forEach((b) => head.append(el("span", "cardlab-lesson-badge", b)));
    div.append(head);
    (seat.info || []).forEach((line) => div.append(el("div", "cardlab-lesson-info", line)));
    const hand = el("div", "cardlab-lesson-hand");
    if (seat.hand && !seat.hand.length) {
      hand.append(el("span", "cardlab-lesson-count", "no cards left"));
    } else if (seat.hand) {
      seat.hand.forEach((code) => {
        const c = pickCard ? pickCard(code, s) : null;
        hand.append(c || card(table.cards, code, false));
      });
    } else {
      const n = seat.count || 0;
      for (let i = 0; i < Math.min(n, 20); i++) hand.append(cardBack("cardlab-lesson-card"));
      hand.append(el("span", "cardlab-lesson-count",
        n ? `${n} card${n === 1 ? "" : "s"}` : "no cards left"));
    }
    div.append(hand);
    seats.append(div);
  });
  box.append(seats);
  const mid = el("div", "cardlab-lesson-centre");
  const lines = [...(table.info || [])];
  for (const key of ["trump", "hat", "call"]) if (table[key]) lines.push(table[key]);
  mid.append(el("div", "cardlab-lesson-info", lines.join(" · ")));
  if (table.call_card) { // Whot: the card on the pile, which the next card must follow
    const call = el("div", "cardlab-lesson-played cardlab-lesson-call");
    call.append(card(table.cards, table.call_card, false),
      el("div", "cardlab-lesson-by", "call card"));
    mid.append(call);
  }
  const tk = table.trick;
  if (tk && tk.c && tk.c.length) {
    const trick = el("div", "cardlab-lesson-trick");
    if (tk.cap) trick.append(el("div", "cardlab-lesson-caption", tk.cap));
    const row = el("div", "cardlab-lesson-row");
    tk.c.forEach(([s, code]) => {
      const slot = el("div", "cardlab-lesson-played");
      const c = pickCard ? pickCard(code, s, true) : null;
      const face = c || card(table.cards, code, false);
      face.dataset.seat = (table.seats[s] || {}).name || "";
      if (tk.w === code) face.classList.add("cardlab-winner");
      slot.append(face, el("div", "cardlab-lesson-by", (table.seats[s] || {}).name || ""));
      row.append(slot);
    });
    trick.append(row);
    if (tk.why) trick.append(el("div", "cardlab-lesson-why", tk.why));
    mid.append(trick);
  }
  box.append(mid);
  return box;
}

// A choice's mark said too, not only drawn: its name, then the mark.
function say(node, words) {
  node.setAttribute("aria-label", `${node.getAttribute("aria-label") || node.textContent}, ${words}`);
}

// What the feedback shows, by its stage (cardlab/lessons/tries.py, Tries): "hint" after a
// first miss (the rule, not the answer: only the card tried is marked), "answer" after a
// second miss or on show me (the right choice marked too), "right" for a right answer.
function renderExercise(model, root) {
  const data = model.get("data") || {};
  const kind = data.kind || "";
  root.dataset.kind = kind;
  const table = data.table || {};
  // kept on the root across redraws, so the feedback shows beside what was picked
  if (!root.cardlabPicked) root.cardlabPicked = new Set();
  const picked = root.cardlabPicked;
  const feedback = model.get("feedback") || {};
  const stage = feedback.error ? "" : feedback.stage || "";
  const told = stage === "answer" || stage === "right"; // the answer is known
  const send = (value) => model.send({ type: "answer", value });
  // after an answer: the card tried, if wrong, and once told the right one
  const markChoice = (b, value) => {
    if (told && value === feedback.correct) b.classList.add("cardlab-ok");
    else if (stage && !feedback.right && value === feedback.given) b.classList.add("cardlab-no");
    if (b.classList.contains("cardlab-ok")) say(b, "the answer");
    else if (b.classList.contains("cardlab-no")) say(b, "not this one");
  };
  root.append(el("div", "cardlab-lesson-prompt", data.prompt || ""));
  const choiceCodes = new Set((data.choices || []).map((c) => c[0]));
  let pick = null;
  if (kind === "trick-winner") {
    pick = (code, s, inTrick) => {
      if (!inTrick) return null;
      const b = card(table.cards, code, true);
      b.classList.add("cardlab-choice");
      b.dataset.value = code;
      markChoice(b, code);
      b.addEventListener("click", () => send(code));
      return b;
    };
  } else if (kind === "legal-plays") {
    pick = (code, s, inTrick) => {
      if (inTrick || !choiceCodes.has(code)) return null;
      const b = card(table.cards, code, true);
      b.classList.add("cardlab-choice");
      b.dataset.value = code;
      b.setAttribute("aria-pressed", picked.has(code) ? "true" : "false");
      const reason = (feedback.reasons || {})[code];
      if (told) {
        const ok = (feedback.correct || []).includes(code);
        b.classList.add(ok ? "cardlab-ok" : "cardlab-no");
        say(b, ok ? "may be played" : "may not be played");
        if (reason) b.title = reason;
      }
      b.addEventListener("click", () => {
        if (picked.has(code)) picked.delete(code); else picked.add(code);
        b.setAttribute("aria-pressed", picked.has(code) ? "true" : "false");
      });
      return b;
    };
  }
  root.append(drawTable(table, pick));
  const controls = el("div", "cardlab-lesson-controls");
  if (kind === "forbidden-bid") {
    (data.choices || []).forEach(([value, label]) => {
      const b = button("cardlab-choice", label, `bid ${label}`);
      b.dataset.value = String(value);
      markChoice(b, value);
      b.addEventListener("click", () => send(value));
      controls.append(b);
    });
  } else if (kind === "legal-plays") {
    const check = button("cardlab-check", "Check");
    check.addEventListener("click", () => send([...picked]));
    controls.append(check);
  } else if (kind === "hand-score") {
    const label = el("label", "cardlab-lesson-label", "Score ");
    const input = el("input", "cardlab-answer");
    input.type = "text";
    input.inputMode = "numeric";
    input.setAttribute("aria-label", "the score");
    input.value = root.cardlabTyped || ""; // what was typed stays after the feedback
    input.addEventListener("input", () => { root.cardlabTyped = input.value; });
    label.append(input);
    const check = button("cardlab-check", "Check");
    const go = () => send(input.value);
    check.addEventListener("click", go);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    controls.append(label, check);
  }
  if (kind && !told) { // the answer, on request
    const show = button("cardlab-show", "Show me");
    show.addEventListener("click", () => model.send({ type: "show" }));
    controls.append(show);
  }
  if (controls.childNodes.length) root.append(controls);
  const fb = el("div", "cardlab-lesson-feedback");
  fb.setAttribute("role", "status");
  if (feedback.error) {
    fb.classList.add("cardlab-lesson-error");
    fb.textContent = feedback.error;
  } else if (stage) {
    const shown = stage === "answer" && feedback.given === null;
    fb.classList.add(feedback.right ? "cardlab-right" : shown ? "cardlab-shown"
      : stage === "hint" ? "cardlab-hint" : "cardlab-wrong");
    fb.dataset.stage = stage;
    fb.textContent = (feedback.right ? "✔ " : shown ? "" : "✘ ") + feedback.text;
  }
  fb.hidden = !fb.textContent;
  root.append(fb);
  const score = model.get("score") || {};
  root.append(el("div", "cardlab-lesson-score",
    `Score this session: ${score.right || 0} right of ${score.asked || 0}`));
}

function renderQuiz(model, root) {
  const data = model.get("data") || {};
  const reveal = model.get("reveal") || {};
  const error = model.get("error");
  if (data.done) {
    root.append(el("div", "cardlab-lesson-prompt", data.summary || ""));
    return;
  }
  const head = el("div", "cardlab-lesson-prompt", data.prompt || "");
  head.append(el("span", "cardlab-lesson-progress", data.progress || ""));
  root.append(head);
  root.append(drawTable(data.table || {}, null));
  const revealed = Object.keys(reveal).length > 0;
  const controls = el("div", "cardlab-lesson-controls cardlab-quiz-choices");
  (data.choices || []).forEach(([value, label]) => {
    const b = button("cardlab-choice", label);
    b.dataset.value = value;
    if (revealed) {
      b.disabled = true;
      if (value === reveal.chosen) b.classList.add("cardlab-chosen");
      if (value === reveal.played) b.classList.add("cardlab-played");
    } else {
      b.addEventListener("click", () => model.send({ type: "answer", action: value }));
    }
    controls.append(b);
  });
  root.append(controls);
  if (error) root.append(el("div", "cardlab-lesson-feedback cardlab-lesson-error", error));
  if (revealed) {
    const box = el("div", "cardlab-quiz-reveal");
    box.setAttribute("role", "status");
    box.append(el("div", "cardlab-quiz-text", reveal.text || ""));
    if (reveal.values && reveal.values.length) {
      const t = el("table", "cardlab-quiz-values");
      const hr = el("tr");
      ["action", "expected", "±"].forEach((h) => hr.append(el("th", null, h)));
      t.append(hr);
      reveal.values.forEach(([text, label, mean, se]) => {
        const tr = el("tr");
        tr.dataset.action = text;
        const marks = [];
        if (text === reveal.chosen) marks.push("you");
        if (text === reveal.played) marks.push(data.seat || "played");
        if (text === reveal.best) marks.push("best");
        tr.append(el("td", null, label + (marks.length ? `  (${marks.join(", ")})` : "")),
          el("td", null, Number(mean).toFixed(1).replace("-", "\u2212")),
          el("td", null, Number(se).toFixed(1)));
        if (text === reveal.chosen || text === reveal.played) tr.classList.add("cardlab-mine");
        t.append(tr);
      });
      box.append(t);
      box.append(el("div", "cardlab-quiz-source", reveal.source || ""));
    }
    const next = button("cardlab-quiz-next", "Next decision");
    next.addEventListener("click", () => model.send({ type: "next" }));
    box.append(next);
    root.append(box);
  }
}

function render({ model, el: host }) {
  const root = el("div", "cardlab-lesson");
  keepKeysInside(root);  // no JupyterLab shortcut from a focused choice or box (common.js)
  root.setAttribute("role", "region");
  root.cardlabModel = model;
  host.append(root);
  const draw = () => {
    // the control that had focus gets it back after the redraw (a keyboard keeps its place)
    const active = root.contains(document.activeElement) ? document.activeElement : null;
    const again = active && (active.dataset.value !== undefined
      ? `[data-value="${CSS.escape(active.dataset.value)}"]`
      : active.classList.length ? "." + CSS.escape(active.classList[0]) : null);
    root.replaceChildren();
    root.classList.toggle("cardlab-dark", themeIsDark());
    const mode = model.get("mode");
    root.dataset.mode = mode;
    root.setAttribute("aria-label", mode === "quiz" ? "quiz" : "exercise");
    const error = model.get("error");
    const empty = mode === "quiz" ? !Object.keys(model.get("data") || {}).length
      : !Object.keys(model.get("data") || {}).length;
    if (error && empty) {
      root.append(el("div", "cardlab-lesson-feedback cardlab-lesson-error", error));
      return;
    }
    if (mode === "quiz") renderQuiz(model, root); else renderExercise(model, root);
    const back = again && root.querySelector(again);
    if (back) back.focus();
  };
  draw();
  const names = ["data", "feedback", "score", "error", "reveal"];
  names.forEach((n) => model.on("change:" + n, draw));
  return () => names.forEach((n) => model.off("change:" + n, draw));
}

export default { render };
