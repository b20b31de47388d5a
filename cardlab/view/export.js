// The box a notebook shows after each viewer (cardlab/view/page.py, export_box), for the
// notebook's HTML export: `jupyter nbconvert --to html` draws widgets with a widget manager
// loaded from a CDN, so offline a viewer would be blank there.
//
// Where the widget itself is drawn (JupyterLab, where it is tested), its stylesheet
// (viewer.css) comes with it and hides the box, and this script does nothing. Where it is not, the script draws
// the viewer from the widget's own saved state, which the export holds in
// <script type="application/vnd.jupyter.widget-state+json">: the widget's module (`_esm`),
// stylesheet (`_css`), packed movie and position. So a saved notebook holds each of them
// once, and the export opens each viewer where its cell put it. The module is imported from
// that state, as anywidget imports it; nothing is fetched. A box whose widget has no saved
// state (a notebook saved without it) shows its line of text instead.
//
// A classic script that runs where it stands (document.currentScript), wrapped in a
// function by page.py, so pageModel (model.js, before it) is no global of the page.

const box = document.currentScript && document.currentScript.closest(".cardlab-export");
const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';

function savedState(id) {
  for (const node of document.querySelectorAll(STATE)) {
    try {
      const models = JSON.parse(node.textContent).state || {};
      if (models[id] && models[id].state) return models[id].state;
    } catch (error) {
      // not widget state cardlab can read: look on
    }
  }
  return null;
}

function showText() {
  const text = box.querySelector(".cardlab-export-text");
  if (!text) return;
  text.hidden = false;
  text.style.display = "";
}

function drawSaved() {
  if (getComputedStyle(box).display === "none") return;  // the live widget is drawn
  const state = savedState(box.dataset.cardlabModel);
  if (!state || typeof state._esm !== "string" || !state.packed) {
    showText();
    return;
  }
  // The viewer inside a shadow root: its stylesheet (which hides .cardlab-export) stays
  // inside, and the export's own styles stay out.
  const host = document.createElement("div");
  host.className = "cardlab-export-viewer";
  box.append(host);
  const shadow = host.attachShadow({ mode: "open" });
  const style = document.createElement("style");
  style.textContent = typeof state._css === "string" ? state._css : "";
  const el = document.createElement("div");
  shadow.append(style, el);
  const url = URL.createObjectURL(new Blob([state._esm], { type: "text/javascript" }));
  import(url).then((viewer) => {
    URL.revokeObjectURL(url);
    // no kernel answers here: the viewer offers no what-if and asks for no evaluation
    viewer.default.render({ model: pageModel(Object.assign({}, state, { offline: true })), el });
  }, (error) => {
    console.error("cardlab: the saved viewer could not be drawn", error);
    host.remove();
    showText();
  });
}

if (box) {
  // the saved state comes after the outputs, at the end of the export's page
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawSaved);
  else drawSaved();
}
