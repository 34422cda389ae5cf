"""GARP-Py: a 2D town of generative agents driven by a local language model."""

__version__ = "0.1.0"
