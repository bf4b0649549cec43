"""Protocol algorithms shared by suites and models (the layer between ``models`` and ``stats | data | render``).

A suite scores with them and a model adapter trains or decodes with them, so they sit below both:

- :mod:`sentiprobe.protocols.triplets.grid`: the GTS grid tagging scheme for opinion triplets (builder,
  decoder, BIO reader), used by the triplet suites' loader and scorer and by the ``gts-*`` models;
- :mod:`sentiprobe.protocols.lexcomp`: the LexComp BIO tags and their Viterbi decoding, the
  Embed -> Encode -> Predict probe, the ablation transforms and the majority baselines, used by the LexComp
  suites' score stage and by the ``lexcomp-probe`` / constituent models.

Nothing here imports ``sentiprobe.models``, ``sentiprobe.suites`` or anything above them (``make lint``).
"""
