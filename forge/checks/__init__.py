"""forge's built-in check plugins, one module each.

Each module ends in its hook implementation and is registered through the
``forge`` entry-point group in forge's ``pyproject.toml``, exactly like a
third-party plugin; the entry-point name is what users write to disable it.
"""
