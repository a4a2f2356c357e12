// One instance of the oddsmith engine (WebAssembly) in a Web Worker. The page sends the
// compiled module once ({init}), then calls ({id, fn, args}) answered in order ({id, ok} or
// {id, error}). A worker computes one thing at a time; the page cancels by ending it.
"use strict";
importScripts("oddsmith.js");

// The charts' font (the report's bundled DejaVuSans.ttf, served beside the wasm rather than
// inside it): fetched and handed to the engine once, by the first call that draws a chart.
const DRAWS = new Set(["charts", "sweep_chart", "report_html"]);
let font = null;

let ready = null;
onmessage = async (e) => {
  const m = e.data;
  if (m.init) {
    ready = wasm_bindgen({ module_or_path: m.init });
    return;
  }
  try {
    await ready;
    if (DRAWS.has(m.fn)) {
      font ??= fetch("DejaVuSans.ttf")
        .then((r) => {
          if (!r.ok) throw new Error(`the charts' font DejaVuSans.ttf: HTTP ${r.status}`);
          return r.arrayBuffer();
        })
        .then((b) => wasm_bindgen.use_font(new Uint8Array(b)));
      await font.catch((err) => { font = null; throw err; });
    }
    const v = wasm_bindgen[m.fn](...m.args);
    postMessage({ id: m.id, ok: v === undefined ? null : v });
  } catch (err) {
    postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
};
