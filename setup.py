"""Build the C core, ``royalchess._core``; everything else is in pyproject.toml."""

import os
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The search's helper threads are POSIX threads; Windows builds search on one thread.
THREADS = [] if os.name == "nt" else ["-pthread"]


class BuildExt(build_ext):
    """build_ext whose in-place copy replaces the module file instead of overwriting it.

    A running engine (a datagen or match worker, a server) has the old ``_core`` mapped:
    writing over that file under it can crash it. Removing the name first leaves the old
    file alive for whoever has it open, and the next import takes the new one."""

    def copy_file(self, infile, outfile, *args, **kwargs):
        target = outfile
        if os.path.isdir(target):
            target = os.path.join(target, os.path.basename(infile))
        if os.path.isfile(target) and not os.path.samefile(infile, target):
            os.unlink(target)
        return super().copy_file(infile, outfile, *args, **kwargs)


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "royalchess._core",
            sources=sorted(glob("src/core/*.c")),
            depends=sorted(glob("src/core/*.h")),
            include_dirs=["src/core"],
            extra_compile_args=["-std=c99", "-O3", "-Wall", "-Wextra", *THREADS],
            extra_link_args=THREADS,
        )
    ],
)
