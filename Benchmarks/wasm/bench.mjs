// Times the WebAssembly engine under node on one DSL scene: loading it (parse, decode,
// resolve), then its scripted run with every frame written as JSON lines, as
// `scenec run -o FILE` does after loading (`scenec_measure_script`: each line made and let
// go). Prints one JSON object; the best of `runs`.
//
// Usage: node Benchmarks/wasm/bench.mjs ENGINE.wasm SCENE.scene [RUNS]
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [enginePath, scenePath, runsText = "3"] = process.argv.slice(2);
const module = await WebAssembly.compile(readFileSync(enginePath));
const text = new TextEncoder().encode(readFileSync(scenePath, "utf8"));
let best = null;
for (let run = 0; run < Number(runsText); run++) {
  // A fresh instance each run, as a page would start.
  const instance = await WebAssembly.instantiate(module, {});
  const e = instance.exports;
  // The input first: making room may grow the memory, which detaches an older view.
  const at = e.scenec_input(text.length);
  new Uint8Array(e.memory.buffer, at, text.length).set(text);
  const t0 = performance.now();
  if (e.scenec_load(text.length, 3) !== 0) throw new Error("the scene did not load");
  const t1 = performance.now();
  // Each line made and let go, as `scenec run -o FILE` drains its buffer to the file.
  if (e.scenec_measure_script() !== 0) throw new Error("the run failed");
  const t2 = performance.now();
  const said = new TextDecoder().decode(
    new Uint8Array(e.memory.buffer, e.scenec_output(), e.scenec_output_length())).split(" ");
  const result = { loadMs: t1 - t0, runMs: t2 - t1, frames: Number(said[0]), bytes: Number(said[1]) };
  if (!best || result.runMs < best.runMs) best = result;
}
process.stdout.write(JSON.stringify(best) + "\n");
