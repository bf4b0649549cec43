"""Running models on suites: prediction cache, cached predictor, runner."""
