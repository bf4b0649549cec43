"""Baseline models: majority and trainable scikit-learn text baselines."""
