"""Simulations: many games played by bots, recorded as tidy tables (pandas, Parquet).

``cardlab.simulate(...)`` (the same as :func:`simulate` here) and ``cardlab simulate`` on the
command line; see docs/simulations.md for the tables' columns, the seeds, the backends (this
process, a process pool, dask.distributed) and what an interrupted run leaves.

Nothing heavy is imported here: pandas, pyarrow, tqdm and dask are imported by the functions
that need them.
"""

from .api import SimulationResult, games_path, load, simulate
from .spec import Spec, make_spec

__all__ = ["SimulationResult", "Spec", "games_path", "load", "make_spec", "simulate"]
