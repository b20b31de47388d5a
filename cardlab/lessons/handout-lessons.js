// Boots a handout's exercises and quiz (cardlab/lessons/handouts.py), drawn by lessons.js with
// the page's model (cardlab/view/model.js) in place of the widget's. With no kernel to ask,
// an exercise's answer is looked up in the verdicts Python computed (verdicts.js) and a quiz's
// choice in its reveals (what the live quiz reveals); the quiz's last words are Python's too.
// An exercise answers try by try as the widget does (respond, in verdicts.js): a hint first.
// The session's score counts first answers, as in the notebook.

const specs = JSON.parse(document.getElementById("cardlab-lessons").textContent);
const session = { answered: new Set(), right: 0, models: [] };

function score() { return { right: session.right, asked: session.answered.size }; }

function bootQuiz(spec, host) {
  let at = 0;
  let same = 0;
  const state = { mode: "quiz", data: spec.script[0].data, reveal: {}, error: "" };
  const model = pageModel(state, (m, msg) => {
    if (msg.type === "answer" && !Object.keys(state.reveal).length) {
      const reveal = spec.reveals[at][msg.action];
      if (!reveal) { m.set("error", `'${msg.action}' is not one of the choices`); return; }
      if (reveal.same) same += 1;
      m.set("error", "");
      m.set("reveal", reveal);
    } else if (msg.type === "next" && Object.keys(state.reveal).length) {
      at += 1;
      state.reveal = {};
      m.set("data", at < spec.script.length ? spec.script[at].data
        : { done: true, summary: spec.summaries[same] });
    }
  });
  render({ model, el: host });
}

function bootExercise(spec, host) {
  const state = { mode: "exercise", data: spec.data, feedback: {}, score: score(),
    error: spec.error || "" };
  const tries = { misses: 0, done: false };
  const model = pageModel(state, (m, msg) => {
    if (!spec.key) return; // (no key: the exercise could not be made)
    let feedback;
    if (msg.type === "answer") feedback = verdict(spec.key, msg.value);
    else if (msg.type === "show") feedback = spec.key.solution;
    else return;
    if (!feedback.error && !session.answered.has(spec.id)) { // a show me counts as a miss
      session.answered.add(spec.id);
      if (feedback.right && msg.type === "answer") session.right += 1;
    }
    m.set("feedback", msg.type === "show" ? showAnswer(tries, spec.key)
      : respond(tries, feedback, msg.value));
    for (const other of session.models) other.set("score", score());
  });
  session.models.push(model);
  render({ model, el: host });
}

for (const host of document.querySelectorAll(".cardlab-handout-exercise")) {
  const spec = specs[Number(host.dataset.spec)];
  if (spec.mode === "quiz") bootQuiz(spec, host); else bootExercise(spec, host);
}
