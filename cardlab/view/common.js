// The helpers every cardlab front-end shares: the viewer (viewer.js), the exercises and the
// quiz (cardlab/lessons/lessons.js) and the recorder (cardlab/lessons/recorder.js).
//
// This file is not a module of its own: cardlab/view/assets.py puts it first in each
// front-end's one ES module (anywidget's `_esm` is one module string, and a standalone page
// loads no other file). Every text is inserted with textContent, never as markup.

const SVG = "http://www.w3.org/2000/svg";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  return node;
}

// A button that submits no form; `label`, when given, names it for a screen reader and is
// its tooltip.
function button(cls, text, label) {
  const node = el("button", cls, text);
  node.type = "button";
  if (label) {
    node.title = label;
    node.setAttribute("aria-label", label);
  }
  return node;
}

// No JupyterLab shortcut fires while focus is inside a cardlab widget (`root`): Lab matches
// a shortcut from the focused element upwards and stops at an element marked
// data-lm-suppress-shortcuts, so a mark on the root alone covers the root itself only (a
// focused button matched Lab's "… :focus" selectors first, and `j` moved Lab's active cell).
// So every element that takes focus inside is marked when it gets it: controls drawn later
// (the Evaluate panel's, an exercise's after its feedback) are covered too. The widget's own
// keys go on as before; Lab's work again as soon as focus leaves the widget.
function keepKeysInside(root) {
  root.setAttribute("data-lm-suppress-shortcuts", "");
  root.addEventListener("focusin", (event) => {
    if (event.target instanceof Element) {
      event.target.setAttribute("data-lm-suppress-shortcuts", "");
    }
  });
}

// JupyterLab says its theme on the body (data-jp-theme-light); a page follows the system's.
function themeIsDark() {
  const body = document.body;
  if (body && body.dataset && body.dataset.jpThemeLight !== undefined) {
    return body.dataset.jpThemeLight === "false";
  }
  return !!(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
}

// A card's face drawn into `node` (a span, or a button for a card to click): the face is
// [rank, mark, colour, hat, name] as Python wrote it (cardlab/view/texts.py, card_faces).
// Rank and a printed mark, so a colour reads without colour too; a word for a mark (Whot's
// WHOT) is set smaller; a hat card carries a little hat. cards.css draws it. A code with no
// face shows the code.
function cardFace(node, code, face) {
  node.classList.add("cardlab-card");
  node.dataset.code = code;
  if (!face) {
    node.appendChild(el("span", "cardlab-rank", code));
    return node;
  }
  const [rank, mark, colour, hat] = face;
  node.classList.add("cardlab-c-" + colour);
  node.appendChild(el("span", "cardlab-rank", rank));
  node.appendChild(el("span", "cardlab-mark" + (mark.length > 2 ? " cardlab-word" : ""), mark));
  if (hat) {
    node.classList.add("cardlab-hat-card");
    const icon = svg("svg", { viewBox: "0 0 13 10", class: "cardlab-hatmark",
      "aria-hidden": "true" });
    icon.appendChild(svg("path", { d: "M2 7.5C2 2.5 4 1 6.5 1S11 2.5 11 7.5Z" }));
    icon.appendChild(svg("rect", { x: 1, y: 7, width: 11.5, height: 2.2, rx: 1.1 }));
    node.appendChild(icon);
  }
  return node;
}

// A card face down: a seat's hidden card.
function cardBack(cls) {
  const node = el("span", "cardlab-card cardlab-back" + (cls ? " " + cls : ""));
  node.setAttribute("aria-hidden", "true");
  return node;
}
