// Boots the standalone page (cardlab/view/page.py): the viewer (viewer.js) on the movie the
// page embeds as JSON, with the page's model (model.js) in place of the widget's, standing at
// the first step of the main line, with the moves to come shown or not as the page was made
// (cardlab html --future).

const movie = JSON.parse(document.getElementById("cardlab-movie").textContent);
const state = { movie, step: 0, seat: movie.start || "", line: 0, lang: movie.lang,
  show_all: false, big: false, evaluate: false, future: !!movie.future };
render({ model: pageModel(state), el: document.getElementById("cardlab-root") });
document.querySelector(".cardlab-viewer").focus();
