"""The version of tegula (one place: the package, the CLI and cache bundles read it; pyproject.toml repeats it)."""
__version__ = "0.1.0"
