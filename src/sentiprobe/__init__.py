"""sentiprobe: measure what a sentiment model understands beyond polarity accuracy."""
__version__ = "0.1.0"
