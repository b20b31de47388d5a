"""Build hook: compile ``cardlab/kernel.py`` with Ted's Game's
``cardlab/games/teds_game/kernel.py``, Where's Bob's Hat?'s ``cardlab/games/bobs_hat/kernel.py``
and the solver's ``cardlab/solvekernel.py`` with mypyc, or fall back to plain Python.

Everything else about the package is in pyproject.toml. Each kernel is the same source either
way (see its docstring); set ``CARDLAB_PURE=1`` to skip compiling them. A missing compiler or a
failed build gives a warning and the pure-Python kernel instead of a failed install, so the
notebooks work everywhere; ``tests/test_kernel.py`` insists on the compiled one.

mypyc runs only when a library is built (``build_ext``): the metadata hooks, the sdist and a
pure build never run it. A wheel whose build fell back holds no library, so it is tagged
``py3-none-any`` like the ``CARDLAB_PURE=1`` wheel, never a platform wheel without its code.
"""

import os
import re
import shutil
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# One library: a compiled class can only extend a compiled class of its own library (Ted's
# Game's TedsKernel extends the kernel's TrickKernel), and a call into another library is a
# Python call: the solver's search asks the kernel's rules of trick play at every card.
KERNEL = ("cardlab/kernel.py", "cardlab/playout.py", "cardlab/replaytext.py",
          "cardlab/games/teds_game/kernel.py", "cardlab/games/bobs_hat/kernel.py",
          "cardlab/solvekernel.py", "cardlab/solveranks.py", "cardlab/rolloutkernel.py")
# Calls inside the library go straight to the function, which the C compiler may then inline:
# without this a function the library exports is called through its PLT (in case another
# library replaced it), and the rules of trick play are small functions called at every card.
DIRECT_CALLS = "-fno-semantic-interposition"
# mypyc's small per-module shims call nothing of libc, so a linker that drops unused libraries
# (--as-needed, the default of many) leaves it out; auditwheel then cannot tell which libc a
# wheel is for, and refuses to repair it.
LINK_LIBC = ["-Wl,--no-as-needed", "-lc"]


class OptionalBuildExt(build_ext):
    """Build the kernel if possible; never fail the install because of it."""

    def run(self) -> None:
        if not self.extensions:  # mypyc failed, or there was nothing to build
            self._fall_back()
            return
        try:
            super().run()
        except Exception as error:  # no compiler, no headers: keep the pure-Python kernel
            # mypyc makes two libraries (a loader and the code): never leave one alone.
            for path in self._built():
                if os.path.exists(path):
                    os.remove(path)
            print(f"WARNING: cardlab's kernel was not compiled ({error}); "
                  "it runs as plain Python, correct but slower", file=sys.stderr)
            self._fall_back()
            return
        # mypyc has just translated the current source; when the C came out the same (a
        # docstring edit), the library was not relinked. Either way it is now up to date
        # with the source, so say so with its time (tests/test_kernel.py compares them).
        for path in self._built():
            if os.path.exists(path):
                os.utime(path)

    def _fall_back(self) -> None:
        """Make what is being built pure: no library, so no platform tag and no platlib."""
        self.extensions = []
        self.distribution.ext_modules = []
        wheel = self.distribution.command_obj.get("bdist_wheel")
        if wheel is not None:
            wheel.root_is_pure = True  # read after the build: the tag, and purelib

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            direct = self._accepts(DIRECT_CALLS)
            for extension in self.extensions:
                # mypyc's extensions share one list of arguments: add each flag once
                args = extension.extra_compile_args
                if direct and DIRECT_CALLS not in args:
                    args.append(DIRECT_CALLS)
                links = extension.extra_link_args
                if sys.platform.startswith("linux") and LINK_LIBC[0] not in links:
                    links.extend(LINK_LIBC)
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


class FreshBuildPy(build_py):
    """Copy the package into a build folder emptied of any earlier copy: setuptools packs all
    that ``build/lib`` holds, and a build in the checkout (``pip wheel .``) reuses it, so a
    module deleted since an earlier build would otherwise still be in the wheel."""

    def run(self) -> None:
        for package in self.packages or []:
            if "." in package:
                continue
            earlier = os.path.join(self.build_lib, package)
            if os.path.isdir(earlier) and not os.path.samefile(earlier, package):
                shutil.rmtree(earlier)
        super().run()


def mypyc_extensions() -> list[Extension]:
    """The kernel's extensions from mypyc (it translates the sources to C now), or none."""
    try:
        from mypyc.build import mypycify
        # the library is named after the first module (cardlab/kernel__mypyc.*.so); each
        # interpreter gets its own C, since mypyc writes C for the Python that runs it
        name = KERNEL[0].removesuffix(".py").replace("/", ".")
        target = os.path.join("build", f"mypyc-{sys.implementation.cache_tag}")
        return list(mypycify(list(KERNEL), opt_level="3", group_name=name, target_dir=target))
    except (Exception, SystemExit) as error:  # no mypyc, or it fails its type check
        print(f"WARNING: {', '.join(KERNEL)} not compiled ({error})", file=sys.stderr)
        return []


# The setup commands that build a library; the others (egg_info, dist_info, sdist) only describe
# or pack the sources, so mypyc does not run for them (PEP 517 passes the command in argv).
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def kernel_extensions() -> list[Extension]:
    if os.environ.get("CARDLAB_PURE") == "1" or not BUILDS.intersection(sys.argv[1:]):
        return []
    return mypyc_extensions()


# README.md is the long description on a package index, where its links into the repository
# (docs/install.md, ...) would lead nowhere: the sdist ships no docs/, and no public URL of the
# repository is known to point them at. So each such link becomes its text and the path.
RELATIVE_LINK = re.compile(r"\[([^\]]+)\]\((?![a-z]+:|#)([^)\s]+)\)")


def long_description(readme: str = "README.md") -> str:
    with open(readme, encoding="utf-8") as file:
        text = file.read()

    def unlinked(link: re.Match) -> str:
        words, path = link.groups()
        if words == path:
            return f"`{path}` in cardlab's repository"
        return f"{words} (`{path}` in cardlab's repository)"
    return RELATIVE_LINK.sub(unlinked, text)


setup(ext_modules=kernel_extensions(),
      cmdclass={"build_ext": OptionalBuildExt, "build_py": FreshBuildPy},
      long_description=long_description(), long_description_content_type="text/markdown")
