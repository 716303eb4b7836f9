"""The NNUE trainer (PyTorch): not part of the royalchess package; install the extra with
``pip install -e '.[train]'`` and run ``python -m train --help`` from the repository root."""
