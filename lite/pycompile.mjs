// Compile Python sources to bytecode with Pyodide's own CPython, in Node: run by lite/build.py.
//
//   node lite/pycompile.mjs PYODIDE_DIR WORK_DIR
//
// PYODIDE_DIR holds Pyodide's core (pyodide.mjs). WORK_DIR/jobs.json lists the sources as
// [source, where, relpath]: `source` is a file under WORK_DIR; `where` is "stdlib" (a module of
// python_stdlib.zip, read by zipimport from /lib/python3XY.zip) or "site" (a module of a
// wheel, unpacked into site-packages); `relpath` is its path inside that archive. Each module
// is compiled as the browser's kernel will import it (its file name in tracebacks is the one
// the kernel sees) into WORK_DIR/out/, and WORK_DIR/compiled.json lists
// [index of the job, the bytecode's path inside the archive]: beside the source for zipimport
// (`json/decoder.pyc`), in __pycache__ for a wheel (`pkg/__pycache__/mod.cpython-314.pyc`).
//
// Why: Pyodide's stdlib zip and the wheels of the package index hold sources only, and the
// kernel would compile every module it imports at every start (seconds of WebAssembly). The
// bytecode is "unchecked-hash" (PEP 552): used as it is, whatever the dates of the unpacked
// files, with the source kept beside it for tracebacks. PYTHONHASHSEED=0 makes the bytecode the
// same at each build (sets of strings are written in their hash order).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, workDir] = process.argv.slice(2).map((p) => resolve(p));
if (!pyodideDir || !workDir) {
  console.error("usage: node lite/pycompile.mjs PYODIDE_DIR WORK_DIR");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({
  indexURL: `${pyodideDir}/`,
  env: { PYTHONHASHSEED: "0" },
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: workDir }, "/work");
pyodide.runPython(readFileSync(new URL("./pycompile.py", import.meta.url), "utf8"));
