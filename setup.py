"""Build hook: compile ``cardlab/kernel.py`` with Ted's Game's ``cardlab/games/teds_game/kernel.py``
and the solver's ``cardlab/solvekernel.py`` with mypyc, or fall back to plain Python.

Everything else about the package is in pyproject.toml. Each kernel is the same source either
way (see its docstring); set ``CARDLAB_PURE=1`` to skip compiling them. A missing compiler or a
failed build gives a warning and the pure-Python kernel instead of a failed install, so the
notebooks work everywhere; ``tests/test_kernel.py`` insists on the compiled one.
"""

from __future__ import annotations

import os
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

# One library: a compiled class can only extend a compiled class of its own library (Ted's
# Game's TedsKernel extends the kernel's TrickKernel), and a call into another library is a
# Python call: the solver's search asks the kernel's rules of trick play at every card.
KERNEL = ("cardlab/kernel.py", "cardlab/games/teds_game/kernel.py", "cardlab/solvekernel.py")
# Calls inside the library go straight to the function, which the C compiler may then inline:
# without this a function the library exports is called through its PLT (in case another
# library replaced it), and the rules of trick play are small functions called at every card.
DIRECT_CALLS = "-fno-semantic-interposition"


class OptionalBuildExt(build_ext):
    """Build the kernel if possible; never fail the install because of it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no headers: keep the pure-Python kernel
            # mypyc makes two libraries (a loader and the code): never leave one alone.
            for path in self._built():
                if os.path.exists(path):
                    os.remove(path)
            print(f"WARNING: cardlab's kernel was not compiled ({error}); "
                  "it runs as plain Python, correct but slower", file=sys.stderr)
            return
        # mypyc has just translated the current source; when the C came out the same (a
        # docstring edit), the library was not relinked. Either way it is now up to date
        # with the source, so say so with its time (tests/test_kernel.py compares them).
        for path in self._built():
            if os.path.exists(path):
                os.utime(path)

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix" and self._accepts(DIRECT_CALLS):
            for extension in self.extensions:
                extension.extra_compile_args.append(DIRECT_CALLS)
        super().build_extensions()

    def _accepts(self, flag: str) -> bool:
        """True when the C compiler compiles a small file with ``flag`` (GCC 5+, clang 10+)."""
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "flag.c")
            with open(source, "w") as file:
                file.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([source], output_dir=folder, extra_postargs=[flag, "-Werror"])
            except Exception:  # an older compiler: the kernel is built without the flag
                return False
        return True

    def _built(self) -> list[str]:
        """The libraries this build makes, and their copies beside the source if in place."""
        paths = dict.fromkeys(self.get_outputs())
        if self.inplace:
            paths.update(dict.fromkeys(self.get_output_mapping().values()))
        return list(paths)


def kernel_extensions() -> list:
    if os.environ.get("CARDLAB_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
        # the library is named after the first module (cardlab/kernel__mypyc.*.so)
        name = KERNEL[0].removesuffix(".py").replace("/", ".")
        return list(mypycify(list(KERNEL), opt_level="3", group_name=name))
    except (Exception, SystemExit) as error:  # no mypyc, or it fails its type check
        print(f"WARNING: {', '.join(KERNEL)} not compiled ({error})", file=sys.stderr)
        return []


setup(ext_modules=kernel_extensions(), cmdclass={"build_ext": OptionalBuildExt})
