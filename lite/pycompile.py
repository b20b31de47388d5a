"""Runs inside Pyodide (lite/pycompile.mjs): compile the sources of WORK_DIR/jobs.json.

Not a module of the project: lite/pycompile.mjs executes it with /work mounted. See there.
"""

import importlib.util
import json
import os
import py_compile
import sys
import warnings

warnings.simplefilter("ignore")  # the SyntaxWarnings of other people's code
STDLIB = next(p for p in sys.path if p.endswith(".zip"))  # /lib/python314.zip
SITE = next(p for p in sys.path if p.endswith("site-packages"))
UNCHECKED = py_compile.PycInvalidationMode.UNCHECKED_HASH


def compiled_name(where: str, relpath: str) -> tuple[str, str]:
    """The module's file as the kernel imports it, and its bytecode's path in the archive."""
    if where == "stdlib":
        return f"{STDLIB}/{relpath}", relpath + "c"
    source = f"{SITE}/{relpath}"
    return source, os.path.relpath(importlib.util.cache_from_source(source), SITE)


def main() -> None:
    with open("/work/jobs.json", encoding="utf-8") as file:
        jobs = json.load(file)
    done = []
    for index, (source, where, relpath) in enumerate(jobs):
        seen_as, name = compiled_name(where, relpath)
        try:
            py_compile.compile(f"/work/{source}", cfile=f"/work/out/{index}/{name}",
                               dfile=seen_as, doraise=True, invalidation_mode=UNCHECKED)
        except py_compile.PyCompileError:
            continue  # not Python 3 (a wheel's Python 2 leftovers): the kernel never imports it
        done.append([index, name])
    with open("/work/compiled.json", "w", encoding="utf-8") as file:
        json.dump(done, file)
    print(f"compiled {len(done)} of {len(jobs)} modules with {sys.version.split()[0]}")


main()
