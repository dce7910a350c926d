"""PEP 695 generics and the type statement (Python 3.12+ syntax)."""

type Pair[T] = tuple[T, T]
type Tree[T: (int, str)] = T | list[Tree[T]]


class Stack[T]:
    def __init__(self) -> None:
        self.items: list[T] = []

    def push[S: T](self, item: S) -> S:
        self.items.append(item)
        return item


def first[T, *Ts, **P](pair: Pair[T]) -> T:
    return pair[0]


name = "x"
print(f"{'nested quotes'} and {f'{name!r}'}")
