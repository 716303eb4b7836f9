"""Build the C core, ``royalchess._core``; everything else is in pyproject.toml."""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "royalchess._core",
            sources=sorted(glob("src/core/*.c")),
            depends=sorted(glob("src/core/*.h")),
            include_dirs=["src/core"],
            extra_compile_args=["-std=c99", "-O3", "-Wall", "-Wextra"],
        )
    ]
)
