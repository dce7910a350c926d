"""Empty overrides of a base class in another file: real work turned off, or a member left unimplemented.

Each project is validated one subclass file alone, as a worker's hook or
``forge validate --files`` does: the bases are found through its imports.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forge.models import ValidateRequest
from forge.validate.run import Engine

if TYPE_CHECKING:
    from conftest import MakeFile

#: httpcore/_backends/base.py, shortened: declared members and one doing real work.
HTTPCORE_BASE = """\
import time


class NetworkBackend:
    def connect_tcp(self, host, port, timeout=None):
        raise NotImplementedError()  # pragma: nocover

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)  # pragma: nocover
"""


def found(engine: Engine, file: str) -> list[tuple[str | None, str]]:
    """(function, kind) of each placeholder ``stub_check`` reports in ``file`` validated alone."""
    report = engine.validate(ValidateRequest(module_id="m", files=[file])).to_wire()
    (result,) = [r for r in report["results"] if r["type"] == "stub_check"]
    return [(f["function"], f["kind"]) for f in result.get("findings", [])]


def found_in(engine: Engine, files: list[str]) -> dict[str, list[tuple[str | None, str]]]:
    """(function, kind) of each placeholder ``stub_check`` reports, by file, ``files`` validated together."""
    report = engine.validate(ValidateRequest(module_id="m", files=files)).to_wire()
    return {
        r["target"]: [(f["function"], f["kind"]) for f in r.get("findings", [])]
        for r in report["results"]
        if r["type"] == "stub_check"
    }


def test_an_empty_override_of_real_work_in_another_file_is_deliberate(
    project: Path, make_file: MakeFile
) -> None:
    # httpcore/_backends/mock.py: the mock backend does not sleep. Beside it, the
    # look-alike: a member the base only declares, left empty.
    make_file("httpcore/__init__.py", "")
    make_file("httpcore/_backends/__init__.py", "")
    make_file("httpcore/_backends/base.py", HTTPCORE_BASE)
    make_file(
        "httpcore/_backends/mock.py",
        """\
        from .base import NetworkBackend


        class MockBackend(NetworkBackend):
            def sleep(self, seconds: float) -> None:
                pass

            def connect_tcp(self, host, port, timeout=None):
                pass
        """,
    )
    engine = Engine.for_project(project)
    assert found(engine, "httpcore/_backends/mock.py") == [("MockBackend.connect_tcp", "pass")]


def test_a_base_is_followed_through_re_exports_module_imports_and_bases(
    project: Path, make_file: MakeFile
) -> None:
    make_file("src/app/__init__.py", "from .handlers import Handler as Handler\n")
    make_file(
        "src/app/handlers.py",
        """\
        import abc
        import logging


        class Handler:
            def emit(self, record):
                logging.getLogger().handle(record)

            def format_record(self, record):
                return str(record)

            def write_out(self, text):
                print(text)

            def reset(self):
                return False

            def extra_info(self, name):
                return None

            def flush_all(self):
                pass

            @abc.abstractmethod
            def handle(self, record):
                return record
        """,
    )
    # Each class overrides a different method: no sibling of the file defines it.
    make_file(
        "src/app/quiet.py",
        """\
        import app.handlers
        from app import Handler
        from . import handlers


        class Quiet(Handler):
            def emit(self, record):
                pass

            def flush_all(self):
                pass

            def handle(self, record):
                pass

            def extra_info(self, name):
                pass


        class Silent(handlers.Handler):
            def format_record(self, record):
                ...


        class Muted(app.handlers.Handler):
            def write_out(self, text):
                \"\"\"Say nothing.\"\"\"


        class Reset(Muted):
            def reset(self):
                pass
        """,
    )
    make_file(
        "src/app/outside.py",
        "import logging\n\n\nclass Outside(logging.Handler):\n"
        "    def emit(self, record):\n        pass\n",
    )
    engine = Engine.for_project(project)
    # flush_all and extra_info override hooks that do nothing, handle an abstract member:
    # all are left to do.
    assert found(engine, "src/app/quiet.py") == [
        ("Quiet.flush_all", "pass"),
        ("Quiet.handle", "pass"),
        ("Quiet.extra_info", "pass"),
    ]
    # logging.Handler is not the project's: nothing is known of what its emit does.
    assert found(engine, "src/app/outside.py") == [("Outside.emit", "pass")]


def test_restating_a_declared_member_is_still_a_placeholder(
    project: Path, make_file: MakeFile
) -> None:
    # httpcore's TLSinTLSStream.start_tls raises NotImplementedError() as its base
    # NetworkStream does: the scaffold a worker leaves reads the same.
    make_file(
        "net/base.py",
        "class NetworkStream:\n    def start_tls(self, ssl_context):\n"
        "        raise NotImplementedError()  # pragma: nocover\n",
    )
    make_file(
        "net/sync.py",
        "from .base import NetworkStream\n\n\nclass TLSinTLSStream(NetworkStream):\n"
        "    def start_tls(self, ssl_context):\n        raise NotImplementedError()\n",
    )
    make_file("net/__init__.py", "")
    engine = Engine.for_project(project)
    assert found(engine, "net/sync.py") == [("TLSinTLSStream.start_tls", "not_implemented")]


def test_an_edited_base_changes_the_verdict_on_its_unchanged_subclass(
    project: Path, make_file: MakeFile
) -> None:
    # What a base in another file does is read on every call, not kept with the subclass's tree.
    make_file("lib/__init__.py", "")
    make_file("lib/base.py", HTTPCORE_BASE)
    make_file(
        "lib/mock.py",
        "from lib.base import NetworkBackend\n\n\nclass MockBackend(NetworkBackend):\n"
        "    def sleep(self, seconds):\n        pass\n",
    )
    engine = Engine.for_project(project)
    assert found(engine, "lib/mock.py") == []
    make_file(
        "lib/base.py", HTTPCORE_BASE.replace("time.sleep(seconds)", "raise NotImplementedError")
    )
    assert found(engine, "lib/mock.py") == [("MockBackend.sleep", "pass")]
    make_file("lib/base.py", HTTPCORE_BASE)
    assert found(engine, "lib/mock.py") == []


def test_an_empty_method_of_a_drop_in_over_real_work_is_deliberate(
    project: Path, make_file: MakeFile
) -> None:
    # urllib3: contrib/emscripten/__init__.py assigns EmscriptenHTTPSConnection over
    # connection.HTTPSConnection; its set_cert is `pass` (the browser handles TLS).
    make_file("src/urllib3/__init__.py", "")
    make_file(
        "src/urllib3/connection.py",
        "import os\n\n\nclass HTTPSConnection:\n    def set_cert(self, key_file=None, ca_certs=None):\n"
        "        self.key_file = key_file\n        self.ca_certs = os.path.expanduser(ca_certs)\n",
    )
    make_file(
        "src/urllib3/contrib/emscripten/connection.py",
        "class EmscriptenHTTPConnection:\n    def close(self):\n        self._closed = True\n\n\n"
        "class EmscriptenHTTPSConnection(EmscriptenHTTPConnection):\n"
        "    def set_cert(self, key_file=None, ca_certs=None):\n        pass\n\n"
        "    def getresponse(self):\n        pass\n",
    )
    inject = (
        "import urllib3.connection\n\nfrom ...connectionpool import HTTPSConnectionPool\n"
        "from .connection import EmscriptenHTTPSConnection\n\n\ndef inject_into_urllib3():\n"
        "    HTTPSConnectionPool.ConnectionCls = EmscriptenHTTPSConnection\n"
        "    urllib3.connection.HTTPSConnection = EmscriptenHTTPSConnection\n"
    )
    make_file("src/urllib3/contrib/emscripten/__init__.py", inject)
    make_file("src/urllib3/contrib/__init__.py", "")
    engine = Engine.for_project(project)
    files = [
        "src/urllib3/contrib/emscripten/__init__.py",
        "src/urllib3/contrib/emscripten/connection.py",
    ]
    # getresponse is no method of HTTPSConnection: left empty, it is left to do.
    assert found_in(engine, files)[files[1]] == [("EmscriptenHTTPSConnection.getresponse", "pass")]
    # Alone, nothing says the class stands in for another.
    alone = [
        ("EmscriptenHTTPSConnection.set_cert", "pass"),
        ("EmscriptenHTTPSConnection.getresponse", "pass"),
    ]
    assert found(engine, files[1]) == alone
    # What the other files assign is read on every call: the unchanged file is judged again.
    make_file(
        "src/urllib3/contrib/emscripten/__init__.py",
        inject.replace("    urllib3.connection.HTTPSConnection = EmscriptenHTTPSConnection\n", ""),
    )
    assert found_in(engine, files)[files[1]] == alone


def test_bases_that_import_each_other_end_the_search(project: Path, make_file: MakeFile) -> None:
    make_file("loop/__init__.py", "from .a import A\nfrom .b import B\n")
    make_file("loop/a.py", "from .b import B\n\n\nclass A(B):\n    def run(self):\n        pass\n")
    make_file("loop/b.py", "from .a import A\n\n\nclass B(A):\n    def run(self):\n        pass\n")
    make_file("loop/c.py", "from .c import C\n\n\nclass D(C):\n    def run(self):\n        pass\n")
    engine = Engine.for_project(project)
    assert found(engine, "loop/a.py") == [("A.run", "pass")]
    assert found(engine, "loop/c.py") == [("D.run", "pass")]
