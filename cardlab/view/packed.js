// The widget's movie travels packed: gzip, then base64, in the `packed` trait
// (cardlab/view/widget.py). Unpacked, the movie of the 19-hand Ted's Game example is about
// 450 kB of JSON; packed about 65 kB. A saved notebook keeps the widget's state, so packing is
// what keeps a notebook that shows a replay small.
//
// `packedModel(model)` stands in front of the widget's model so that viewer.js reads the
// movie as it always has: `get("movie")` gives the unpacked movie (null until the first one
// is unpacked: the viewer draws nothing yet), and "change:movie" fires once a new one is
// unpacked. Every other key, and set, save_changes and send, go to the model itself. A model
// with `offline` set (export.js draws a saved widget with no kernel) gets no what-if controls.
//
// Not a module of its own: cardlab/view/assets.py puts it after viewer.js and evaluate.js in
// the widget's module, whose entry is `renderPacked`.

async function unpackMovie(text) {
  if (!text) return null;
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function packedModel(model) {
  let movie = null;
  let asked = 0;  // the newest movie asked for: an older one unpacked later is dropped
  const handlers = [];
  const onPacked = () => {
    const mine = ++asked;
    unpackMovie(model.get("packed")).then((unpacked) => {
      if (mine !== asked) return;
      // drawn from a notebook's saved state (export.js): no kernel answers a what-if there
      if (unpacked && model.get("offline")) unpacked.explore = false;
      movie = unpacked;
      for (const f of handlers.slice()) f();
    }, (error) => console.error("cardlab: the movie could not be unpacked", error));
  };
  const wrapper = {
    get: (key) => (key === "movie" ? movie : model.get(key)),
    set: (key, value) => model.set(key, value),
    save_changes: () => model.save_changes(),
    send: (message) => model.send(message),
    on: (event, f) => {
      if (event === "change:movie") handlers.push(f);
      else model.on(event, f);
    },
    off: (event, f) => {
      if (event !== "change:movie") model.off(event, f);
      else if (handlers.includes(f)) handlers.splice(handlers.indexOf(f), 1);
    },
    stop: () => model.off("change:packed", onPacked),
  };
  model.on("change:packed", onPacked);
  onPacked();
  return wrapper;
}

function renderPacked({ model, el: host }) {
  const packed = packedModel(model);
  const cleanup = render({ model: packed, el: host });
  return () => {
    packed.stop();
    cleanup();
  };
}
