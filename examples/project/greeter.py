"""A small module a worker agent delivered: greetings for the example plan."""

from __future__ import annotations


def greet(name: str, *, excited: bool = False) -> str:
    """Greet ``name``; with ``excited`` end in an exclamation mark."""
    greeting = f"Hello, {name.strip() or 'world'}"
    return greeting + ("!" if excited else ".")
