// One instance of the oddsmith engine (WebAssembly) in a Web Worker. The page sends the
// compiled module once ({init}), then calls ({id, fn, args}) answered in order ({id, ok} or
// {id, error}). A worker computes one thing at a time; the page cancels by ending it.
"use strict";
importScripts("oddsmith.js");

let ready = null;
onmessage = async (e) => {
  const m = e.data;
  if (m.init) {
    ready = wasm_bindgen({ module_or_path: m.init });
    return;
  }
  try {
    await ready;
    const v = wasm_bindgen[m.fn](...m.args);
    postMessage({ id: m.id, ok: v === undefined ? null : v });
  } catch (err) {
    postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
};
