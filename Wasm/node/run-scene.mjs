// Runs a DSL scene's scripted gesture in the WebAssembly engine under node and prints
// its frames as JSON lines, as `scenec run` prints them.
//
// Usage: node Wasm/node/run-scene.mjs ENGINE.wasm SCENE.scene [PRECISION] [NAME=TRACE ...]
// Each NAME=TRACE hands the engine the trace file TRACE for the `replay "NAME"` steps.
// Exit status: 0, 1 for a scene with errors (diagnostics on standard error), 2 for a
// runtime error, 64 for bad usage, 70 if the engine trapped (what it said on standard
// error).
import { readFileSync, writeSync } from "node:fs";

const [enginePath, scenePath, precisionText = "3", ...traceArguments] = process.argv.slice(2);
if (!enginePath || !scenePath || traceArguments.some((a) => !a.includes("="))) {
  process.stderr.write("usage: node run-scene.mjs ENGINE.wasm SCENE.scene [PRECISION] [NAME=TRACE ...]\n");
  process.exit(64);
}
const { instance } = await WebAssembly.instantiate(readFileSync(enginePath), {});
const engine = instance.exports;

function write(text) {
  const bytes = new TextEncoder().encode(text);
  const at = engine.scenec_input(bytes.length);
  new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
  return bytes.length;
}

function output() {
  return new Uint8Array(engine.memory.buffer, engine.scenec_output(), engine.scenec_output_length());
}

// A trap (a failed precondition in the engine) is a bug: say what the engine wrote.
process.on("uncaughtException", (error) => {
  let said = "";
  try { engine.scenec_console(); said = new TextDecoder().decode(output()); } catch {}
  process.stderr.write(`the engine stopped: ${error.message}\n${said}\n`);
  process.exit(70);
});

for (const argument of traceArguments) {
  const name = argument.slice(0, argument.indexOf("="));
  const nameLength = new TextEncoder().encode(name).length;
  const total = write(name + readFileSync(argument.slice(argument.indexOf("=") + 1), "utf8"));
  const added = engine.scenec_add_trace(nameLength, total - nameLength);
  if (added !== 0) {
    process.stderr.write(new TextDecoder().decode(output()));
    process.exit(added);
  }
}

const loaded = engine.scenec_load(write(readFileSync(scenePath, "utf8")), Number(precisionText));
if (loaded !== 0) {
  process.stderr.write(new TextDecoder().decode(output()));
  process.exit(loaded);
}
const ran = engine.scenec_run_script();
if (ran !== 0) {
  process.stderr.write(new TextDecoder().decode(output()));
  process.exit(ran);
}
const bytes = output();
for (let start = 0; start < bytes.length; start += 1 << 16) {
  writeSync(1, bytes, start, Math.min(1 << 16, bytes.length - start));
}
