// The stand-in for the widget model where no kernel runs: a standalone page (page.js) and a
// handout (cardlab/lessons/handout-viewers.js, handout-lessons.js). It keeps the model's
// state in `state` and answers as anywidget's model does: get, set, on, off, save_changes,
// send. A handler runs when a value changes. `send` goes to `onSend(model, message)` when the
// page gives one (a handout's exercises answer from the page's data); else nowhere (the
// viewer's what-if controls are hidden on a page).
//
// Not a module of its own: cardlab/view/assets.py puts it, with the boot files, after the
// front-end in a page's one module script.

function pageModel(state, onSend) {
  const handlers = {};
  const model = {
    get: (key) => state[key],
    set: (key, value) => {
      const changed = state[key] !== value;
      state[key] = value;
      if (changed) for (const f of (handlers["change:" + key] || []).slice()) f();
    },
    on: (event, f) => { (handlers[event] = handlers[event] || []).push(f); },
    off: (event, f) => { handlers[event] = (handlers[event] || []).filter((g) => g !== f); },
    save_changes: () => {},
    send: (message) => { if (onSend) onSend(model, message); },
  };
  return model;
}
