"""Tools that write test sets (``sentiprobe arts generate``): they read a suite's data formats and the packaged
models, and their output is run and scored by the suites (``arts-custom``); no suite imports them.

- :mod:`sentiprobe.generate.arts`: ARTS-style RevTgt / RevNon / AddDiff variants of any aspect-sentiment file,
  their automatic and blind human audits, and their fidelity to the released ARTS sets.
"""
