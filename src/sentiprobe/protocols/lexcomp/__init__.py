"""LexComp protocol algorithms: BIO ``tags``, the ``probes`` (Embed -> Encode -> Predict), ablation
``transforms`` and the majority ``baselines`` (see docs/protocols/lexcomp.md)."""
