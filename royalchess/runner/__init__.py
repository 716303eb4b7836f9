"""Many games at once: ``royalchess match``, ``analyse`` and ``datagen`` on local worker
processes or a Ray cluster (see ``docs/scale.md``).

- :mod:`~royalchess.runner.units` — work units and their seeds;
- :mod:`~royalchess.runner.backends` — the local process pool and Ray;
- :mod:`~royalchess.runner.output` — append-as-you-go output and ``--resume``;
- :mod:`~royalchess.runner.sprt` — Elo, LOS and the GSPRT;
- :mod:`~royalchess.runner.players`, :mod:`~royalchess.runner.uciclient` — engines;
- :mod:`~royalchess.runner.openings` — the built-in and user opening sets;
- :mod:`~royalchess.runner.match`, :mod:`~royalchess.runner.analyse`,
  :mod:`~royalchess.runner.datagen` — the three jobs;
- :mod:`~royalchess.runner.commands` — their command-line arguments.
"""
