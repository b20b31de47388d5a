// Boots every viewer of a handout (cardlab/lessons/handouts.py): each on its movie, embedded
// once per replay and view as JSON, standing where the lesson showed it, with the page's
// model (cardlab/view/model.js) in place of the widget's. The reader steps on from there. The
// move list writes out the moves to come where the host says so (data-future).

const movies = {};
for (const s of document.querySelectorAll("script.cardlab-movie")) {
  movies[s.dataset.movie] = JSON.parse(s.textContent);
}
for (const host of document.querySelectorAll(".cardlab-handout-viewer")) {
  const movie = movies[host.dataset.movie];
  const state = { movie, step: Number(host.dataset.step), seat: host.dataset.seat,
    line: Number(host.dataset.line), lang: movie.lang, show_all: false, big: false,
    evaluate: false, future: host.dataset.future !== undefined };
  render({ model: pageModel(state), el: host });
}
