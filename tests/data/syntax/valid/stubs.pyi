from typing import overload

@overload
def parse(value: str) -> int: ...
@overload
def parse(value: bytes) -> int: ...

class Config:
    name: str
    def __init__(self, name: str = ...) -> None: ...
