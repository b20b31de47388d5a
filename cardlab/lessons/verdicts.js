// The verdict on an answer, looked up in the verdicts Python computed for the exercise
// (Exercise.verdicts in cardlab/lessons/exercises.py, written with the very words of its
// `check`), and what a student is shown of it try by try (`respond`, as Tries in
// cardlab/lessons/tries.py): a handout (handout-lessons.js) checks answers with it where no
// kernel runs. It knows no rule of any game and writes no feedback of its own, but for a
// guard against an answer the page never offers.
//
// Not a module of its own: cardlab/lessons/handouts.py puts it in the page's module script.

// A sentence that Python gave in two halves, around what the answer puts in it.
function around([before, after], middle) {
  return before + middle + after;
}

// Names said as a list, with the key's words: "a, b and c" (exercises.py, _listed).
function listed(names, key) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(key.names) + key.last + names[names.length - 1];
}

// The verdict on a set of cards: each card offered says the slip its choice (or its absence)
// makes, and the rule its choice breaks; none, and the set is the right one.
function setVerdict(key, value) {
  const cards = Object.fromEntries(key.cards.map((row) => [row[0], row]));
  if (!Array.isArray(value) || value.some((code) => !cards[code])) {
    return { error: "the answer is a list of the cards offered" }; // the page offers no other
  }
  const found = { chose: [], left: [] };
  for (const code of value) if (cards[code][2]) found[cards[code][2]].push(cards[code][1]);
  for (const [code, name, , left] of key.cards) {
    if (left && !value.includes(code)) found[left].push(name);
  }
  if (!found.chose.length && !found.left.length) return key.right;
  const said = Object.entries(key.slips).filter(([kind]) => found[kind].length)
    .map(([kind, halves]) => around(halves, listed(found[kind], key)));
  const parts = [...new Set(value.map((code) => cards[code][4]).filter((rule) => rule))];
  if (found.left.length) parts.push(key.left[found.left.length]);
  return Object.assign({}, key.wrong, { text: around(key.wrong.text, said.join(key.and)),
    hint: around(key.wrong.hint, parts.join(key.parts)) });
}

// The verdict on a typed number, read as Python reads it (key.number): its digits without
// leading zeros look it up; any other number fills the wrong answer's sentence and hint.
function numberVerdict(key, value) {
  const text = String(value).trim();
  if (!new RegExp("^(?:" + key.number + ")$").test(text)) {
    return { error: around(key.bad, String(value)) };
  }
  const digits = text.replace(/^[^0-9]/, "").replace(/^0+(?=[0-9])/, "");
  const negative = !/^[0-9+]/.test(text) && digits !== "0";
  const found = key.answers[(negative ? "-" : "") + digits];
  if (found) return found;
  const said = key.signs[negative ? 0 : digits === "0" ? 1 : 2] + digits;
  return Object.assign({}, key.wrong, { text: around(key.wrong.text, said),
    hint: around(key.wrong.hint, said) });
}

// The verdict on `value` (a choice, a list of card codes or the text typed), from the key.
function verdict(key, value) {
  if (key.cards) return setVerdict(key, value);
  if (key.number) return numberVerdict(key, value);
  return key.answers[String(value)] || { error: `'${value}' is not one of the choices` };
}

// What a student is shown of `feedback`, the verdict on `given`, at this try (`tries`:
// {misses, done}, kept per exercise): a right answer's verdict; a first miss's hint alone;
// a second miss's whole verdict, and every verdict once the exercise is done.
function respond(tries, feedback, given) {
  if (feedback.error) return feedback;
  if (feedback.right) {
    tries.done = true;
    return Object.assign({}, feedback, { stage: "right", given });
  }
  tries.misses += 1;
  if (tries.misses === 1 && !tries.done) {
    return { stage: "hint", right: false, text: feedback.hint, given };
  }
  tries.done = true;
  return Object.assign({}, feedback, { stage: "answer", given });
}

// The answer, on show me.
function showAnswer(tries, key) {
  tries.done = true;
  return Object.assign({}, key.solution, { stage: "answer", given: null });
}
