// The move list of the cardlab viewer, like a chess study: each line's moves by hand and
// trick, their notes, and the lines branching off a move nested under it.
//
// This file is not a module of its own: cardlab/view/assets.py puts it after viewer.js in one
// module (it uses el from common.js, and noteIn, moveText and firstStep from viewer.js). Every
// text it shows is the movie's, written in Python.
//
// No future by default. The list writes out what has happened by the step on show, and each
// stretch of later moves stands as one placeholder that counts it ("25 moves to come"), as a
// seat's face-down cards stand as a count:
// - in everyone's view a move is written out once the game has got that far: an earlier hand,
//   or this hand with no more actions made than now. A variation is written as far as the line
//   followed has got, so it unfolds beside the main line; its label shows once its first move
//   would. "show moves to come" (the model's `future`) writes out everything, for a review.
// - in a seat's view the rule is the stricter one the seat's data was checked with: only the
//   moves of the line followed that the seat has seen, as it read them then (a variation's
//   box, with its label, shows as in everyone's view). Nothing more can be shown there
//   (another seat's later cards are hidden from it), so `future` does not apply.
// A hand still to come shows as its number alone ("Hand 2"); its title and note come with its
// deal. A note shows with its move.

const AFTER_CURRENT = 64;  // px of the list kept in sight below the current move

function movesView({ goto }) {
  const list = el("div", "cardlab-moves");
  let entries = [];       // the hand headers and moves, in the order they stand in the list
  let variations = [];    // {node, first}: a variation's box and the entry of its first move
  let placeholders = new Map();  // entry → the placeholder standing before it
  let built = "";

  function reset() {
    built = "";
  }

  function build(movie, key, lang) {
    entries = [];
    variations = [];
    placeholders = new Map();
    list.replaceChildren(buildLine(movie, key, 0, 0, lang, null));
  }

  // The moves of line `index` from move `from`, variations nested under the move they replace;
  // `within` is the variation whose box holds them (null: the main line). Each entry knows
  // when it happens: `hand`, and `made`, the actions of that hand made once it is played.
  function buildLine(movie, key, index, from, lang, within) {
    const data = movie.views[key][index];
    const deal = {};  // hand → the step of its deal in this line
    for (const header of data.hands) deal[header.i] = header.s;
    const box = el("div", "cardlab-line-moves");
    let hand = null;
    let trickNo = null;
    for (let m = from; m < data.moves.length; m++) {
      const move = data.moves[m];
      if (move.h !== hand) {
        hand = move.h;
        trickNo = null;
        const header = data.hands.find((h) => h.i === move.h);
        if (header && index === 0) {
          const head = el("button", "cardlab-hand-head");
          head.type = "button";
          head.dataset.step = String(header.s);
          head.addEventListener("click", () => goto(index, header.s));
          box.appendChild(head);
          let note = null;
          if (header.n !== undefined) {
            note = el("div", "cardlab-move-note", noteIn(header.n, lang));
            box.appendChild(note);
          }
          entries.push({ line: index, step: header.s, hand: header.i, made: 0, node: head,
            note, header, box, within, shown: undefined });
        }
      }
      let trick = null;
      if (move.t !== undefined && move.t !== trickNo) {
        trickNo = move.t;
        trick = el("span", "cardlab-trick-no", `trick ${move.t}`);
        box.appendChild(trick);
      }
      const node = el("button", "cardlab-move");
      node.type = "button";
      node.dataset.step = String(move.s);
      node.dataset.line = String(index);
      node.addEventListener("click", () => goto(index, move.s));
      box.appendChild(node);
      let note = null;
      if (move.n !== undefined) {
        note = el("div", "cardlab-move-note", noteIn(move.n, lang));
        box.appendChild(note);
      }
      entries.push({ line: index, step: move.s, hand: move.h, made: move.s - (deal[move.h] || 0),
        node, note, trick, move, box, within, shown: undefined });
      for (const v of move.v || []) {
        const variation = el("div", "cardlab-variation");
        variation.appendChild(el("div", "cardlab-variation-label",
          "variation: " + movie.views[key][v].label));
        const path = movie.lines[v].path;
        const entry = { node: variation, first: null };
        const at = entries.length;
        variation.appendChild(buildLine(movie, key, v, path[path.length - 1][0], lang, entry));
        entry.first = entries[at];
        variations.push(entry);
        box.appendChild(variation);
      }
    }
    return box;
  }

  // Where the game stands at `step` of line `lineIndex`: its hand and the actions made in it.
  function standing(movie, data, lineIndex, step) {
    const info = movie.lines[lineIndex];
    if (lineIndex !== 0 && info && info.hand !== null) return { hand: info.hand, made: step };
    let here = null;
    for (const header of data.hands) if (header.s <= step) here = header;
    return here ? { hand: here.i, made: step - here.s } : { hand: 0, made: step };
  }

  function draw({ movie, key, lineIndex, step, lang, future }) {
    const stamp = [key, lineIndex, lang, movie.lines.length].join("|");
    if (stamp !== built) {
      built = stamp;
      build(movie, key, lang);
    }
    const seatView = key !== "";
    const now = standing(movie, movie.views[key][lineIndex], lineIndex, step);
    const ahead = future && !seatView;
    const happened = (entry) => ahead || entry.hand < now.hand ||
      (entry.hand === now.hand && entry.made <= now.made);
    for (const variation of variations) {  // in every view, as far as the game has got
      const hidden = !happened(variation.first);
      if (variation.node.hidden !== hidden) variation.node.hidden = hidden;
    }
    for (const entry of entries) {
      const { line: l, step: s, node } = entry;
      if (entry.move) {
        const seen = seatView ? l === lineIndex && firstStep(entry.move) <= step : happened(entry);
        const text = seen ? moveText(entry.move, step) : null;
        if (text !== entry.shown) showMove(movie, entry, text);
      } else {
        const seen = seatView ? l === lineIndex && s <= step : happened(entry);
        if (seen !== entry.shown) {
          entry.shown = seen;
          const word = movie.word.charAt(0).toUpperCase() + movie.word.slice(1);
          node.textContent = seen ? entry.header.t : `${word} ${entry.header.i}`;
          if (entry.note) entry.note.hidden = !seen;
        }
      }
      const current = l === lineIndex && s === step;
      if (current === entry.current) continue;
      entry.current = current;
      node.classList.toggle("cardlab-current", current);
      if (current) node.setAttribute("aria-current", "step");
      else node.removeAttribute("aria-current");
    }
    countLater();
    const here = entries.find((entry) => entry.current);
    // keep the current move in sight inside the list, with a few lines after it (its note,
    // the count of the moves to come); never scroll the page itself
    if (here && (here.node.offsetTop < list.scrollTop || here.node.offsetTop +
        here.node.offsetHeight + AFTER_CURRENT > list.scrollTop + list.clientHeight)) {
      list.scrollTop = Math.max(0, here.node.offsetTop - list.clientHeight / 3);
    }
  }

  function showMove(movie, entry, text) {
    const { node, note, trick, move } = entry;
    entry.shown = text;
    node.hidden = text === null;
    if (trick) trick.hidden = text === null;
    if (note) note.hidden = text === null;
    if (text !== null) {
      node.replaceChildren(el("span", "cardlab-move-seat", movie.seats[move.p] + ":"),
        el("span", "cardlab-move-text", " " + text));
    }
  }

  // One placeholder per stretch of moves not written out: the moves of one line's box in a
  // row, up to the next move written out or the next hand's header.
  function countLater() {
    const open = new Map();  // a line's box → its stretch under way: [first entry, count]
    const stretches = [];
    for (const entry of entries) {
      if (entry.within && entry.within.node.hidden) continue;  // a variation not on show
      const stretch = open.get(entry.box);
      if (entry.move && entry.shown === null) {
        if (stretch) stretch[1] += 1;
        else {
          const begun = [entry, 1];
          open.set(entry.box, begun);
          stretches.push(begun);
        }
      } else if (stretch) open.delete(entry.box);
    }
    const kept = new Map();
    for (const [entry, count] of stretches) {
      let node = placeholders.get(entry);
      if (!node) {
        node = el("div", "cardlab-later");
        entry.box.insertBefore(node, entry.trick || entry.node);
      }
      const text = `${count} move${count === 1 ? "" : "s"} to come`;
      if (node.textContent !== text) node.textContent = text;
      kept.set(entry, node);
    }
    for (const [entry, node] of placeholders) if (!kept.has(entry)) node.remove();
    placeholders = kept;
  }

  return { node: list, draw, reset };
}
