"""The verify command of the greeter module: ``python3 -m unittest -q``."""

from __future__ import annotations

import unittest

from greeter import greet


class GreetTest(unittest.TestCase):
    def test_plain(self) -> None:
        self.assertEqual(greet("Ada"), "Hello, Ada.")

    def test_excited(self) -> None:
        self.assertEqual(greet("Ada", excited=True), "Hello, Ada!")

    def test_blank_name(self) -> None:
        self.assertEqual(greet("  "), "Hello, world.")


if __name__ == "__main__":
    unittest.main()
