// The projector mode of the cardlab viewer: a "present" control that takes the viewer full
// screen for a class, and leaves with Esc or the same control.
//
// This file is not a module of its own: cardlab/view/assets.py puts it after evaluate.js in
// the viewer's module (it uses button from common.js). Present mode is a class on the
// viewer's root, `cardlab-presenting`, which present.css lays out for a screen: the table as
// large as the screen allows, what a class does not need hidden (docs/viewer.md). The
// Fullscreen API is asked for on top of it; where a browser refuses (a sandboxed frame, a
// policy), the class alone makes the viewer fill the window, and Esc still leaves. It is a
// state of this view only: nothing goes to the model, a saved notebook or the kernel.

function presentView(root) {
  const ENTER = ["⤢ present", "present: the table full screen, for a class (Esc leaves)"];
  const LEAVE = ["✕ leave", "leave present mode (Esc)"];
  const control = button("cardlab-button cardlab-present", ENTER[0], ENTER[1]);
  let presenting = false;
  let scrolled = [];  // the scroll positions of the page around the viewer, put back on leaving

  // the viewer's own document or shadow root: a notebook's HTML export draws it in a shadow
  // root (export.js), where document.fullscreenElement is the shadow's host, not the viewer
  const isFull = () => root.getRootNode().fullscreenElement === root;

  function label([text, name]) {
    control.textContent = text;
    control.title = name;
    control.setAttribute("aria-label", name);
  }

  function remember() {
    scrolled = [];
    for (let node = root.parentElement; node; node = node.parentElement) {
      if (node.scrollTop || node.scrollLeft) scrolled.push([node, node.scrollTop, node.scrollLeft]);
    }
    scrolled.push([null, window.scrollY, window.scrollX]);
  }

  function restore() {
    for (const [node, top, left] of scrolled) {
      if (node) {
        node.scrollTop = top;
        node.scrollLeft = left;
      } else window.scrollTo(left, top);
    }
  }

  function enter() {
    if (presenting) return;
    remember();
    presenting = true;
    root.classList.add("cardlab-presenting");
    root.dataset.present = "window";
    label(LEAVE);
    // requestFullscreen needs the click's user activation: it is asked for at once, and
    // what it refuses leaves the class alone in charge
    if (root.requestFullscreen && document.fullscreenEnabled) {
      const asked = root.requestFullscreen({ navigationUI: "hide" });
      if (asked && asked.catch) asked.catch(() => {});
    }
  }

  function leave() {
    if (!presenting) return;
    presenting = false;
    root.classList.remove("cardlab-presenting");
    delete root.dataset.present;
    label(ENTER);
    const exited = isFull() ? document.exitFullscreen() : null;
    if (exited && exited.then) exited.then(restore, restore);
    else restore();
  }

  // the browser leaves full screen by itself on Esc (a page never sees that key then): the
  // viewer leaves present mode with it
  function onFullscreen() {
    if (isFull()) root.dataset.present = "fullscreen";
    else if (presenting) leave();
  }

  function onKey(event) {
    if (event.key === "Escape" && presenting) {
      event.preventDefault();
      leave();
    }
  }

  control.addEventListener("click", () => (presenting ? leave() : enter()));
  root.addEventListener("keydown", onKey);
  document.addEventListener("fullscreenchange", onFullscreen);

  function dispose() {
    leave();
    document.removeEventListener("fullscreenchange", onFullscreen);
    root.removeEventListener("keydown", onKey);
  }

  return { control, enter, leave, dispose, isOn: () => presenting };
}
