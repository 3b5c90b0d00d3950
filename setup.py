"""Only the compiled rollout kernel lives here; everything else about the package is in pyproject.toml.

The kernel is optional: without a C compiler the install still succeeds and ``expert`` uses the
pure-Python reference of the same algorithm (racko.bots.rollout), which is much slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("racko.bots._rollout", ["src/racko/bots/_rollout.c"], extra_compile_args=["-O2"], optional=True)
    ]
)
