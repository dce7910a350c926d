"""Python placeholders an agent leaves, each beside a deliberate look-alike of
test_stubs_precision_python_deliberate.py: every one must still be found."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find


PLACEHOLDERS = [
    pytest.param(
        "@cli.command()\ndef deploy():\n    pass\n",
        "src/app/cli.py",
        [(3, "deploy", "pass")],
        id="command-body-left-empty",
    ),
    pytest.param(
        "class UserService:\n    def create(self, data):\n        raise NotImplementedError\n"
        "\n    def delete(self, user_id):\n"
        '        raise NotImplementedError("delete is not implemented yet")\n',
        "src/users.py",
        [
            (3, "UserService.create", "not_implemented"),
            (6, "UserService.delete", "not_implemented"),
        ],
        id="service-not-a-base",
    ),
    pytest.param(
        'def load():\n    raise NotImplementedError("coming in phase 2")\n',
        "src/load.py",
        [(2, "load", "not_implemented")],
        id="refusal-says-to-come",
    ),
    pytest.param(
        "class UserService:\n    def __init__(self, db):\n        pass\n\n"
        "class Repo(Base):\n    def save(self, item):\n"
        '        """Save the item; never twice."""\n\n'
        "def start(on_done=None):\n    def finish():\n        pass\n\n"
        "    self.finish()\n",
        "src/users.py",
        [
            (3, "UserService.__init__", "pass"),
            (7, "Repo.save", "docstring_only"),
            (11, "start.finish", "pass"),
        ],
        id="look-alikes-of-deliberate-bodies",
    ),
    pytest.param(
        "def handler(event):\n    pass\n\n\nhandler(1)\n\n\n"
        "def later():\n    # TODO: write this\n    return compute()\n\n\n"
        "def fetch():\n    # TODO: fetch pages?\n    # TODO\n    return []\n\n\n"
        '__all__ = ["create_user"]\n\n\ndef create_user(data):\n    pass\n',
        "src/handlers.py",
        [
            (2, "handler", "pass"),
            (9, "later", "todo_comment"),
            (15, "fetch", "todo_comment"),
            (23, "create_user", "pass"),
        ],
        id="look-alikes-of-deliberate-markers",
    ),
    pytest.param(
        "class Database:\n    def connect(self):\n        pass\n",
        "src/db.py",
        [(3, "Database.connect", "pass")],
        id="database-is-not-a-base-name",
    ),
    pytest.param(
        "def test_creates_user():\n    pass\n\nclass TestUsers:\n    def test_delete(self):\n"
        "        ...\n",
        "tests/test_users.py",
        [(2, "test_creates_user", "pass"), (6, "TestUsers.test_delete", "ellipsis")],
        id="empty-tests",
    ),
    pytest.param(
        "def price(item):\n    # placeholder until the pricing API exists\n    return 9.99\n\n"
        "def users():\n    return []  # stub\n\n# fake data for now\ndef config():\n"
        '    return {"debug": True}\n',
        "src/shop.py",
        [
            (3, "price", "hardcoded_return"),
            (6, "users", "hardcoded_return"),
            (10, "config", "hardcoded_return"),
        ],
        id="hardcoded-under-placeholder-comment",
    ),
    pytest.param(
        "router = APIRouter()\nadmin = APIRouter()\n\n\n"
        '@router.post("/invoices/{id}/paid")\ndef mark_paid(id: str):\n    pass\n\n\n'
        '@app.post("/invoices/", callbacks=admin.routes)\n'
        "def create_invoice(invoice: Invoice):\n"
        '    """Create an invoice."""\n',
        "src/app/invoices.py",
        [(7, "mark_paid", "pass"), (12, "create_invoice", "docstring_only")],
        id="fastapi-routes-left-empty",
    ),
    pytest.param(
        "import sys\nfrom typing import TYPE_CHECKING\n\n\nclass ClientSession:\n"
        "    if sys.version_info >= (3, 11) or TYPE_CHECKING:\n\n"
        "        def get(self, url: str) -> '_Ctx': ...\n\n"
        "    if not TYPE_CHECKING:\n\n        def post(self, url: str) -> '_Ctx': ...\n\n"
        "    if TYPE_CHECKING:\n        pass\n    else:\n\n"
        "        def put(self, url: str) -> '_Ctx': ...\n",
        "aiohttp/client.py",
        [
            (8, "ClientSession.get", "ellipsis"),
            (12, "ClientSession.post", "ellipsis"),
            (18, "ClientSession.put", "ellipsis"),
        ],
        id="type-checking-that-the-running-code-passes",
    ),
    pytest.param(
        "class WSGIRequestHandler(BaseHTTPRequestHandler):\n"
        "    def connection_dropped(self, error, environ=None) -> None:\n"
        '        """Called if the connection was closed by the client."""\n',
        "werkzeug/serving.py",
        [(3, "WSGIRequestHandler.connection_dropped", "docstring_only")],
        id="docstring-that-only-describes",
    ),
    pytest.param(
        "from coolmagic.utils import export\n\n\n"
        '@export("/broken")\ndef broken():\n    pass\n\n\n'
        '@export("/about", template=TEMPLATES)\ndef about():\n    pass\n\n\n'
        '@export("/price", template="price.html")\ndef price():\n'
        "    # placeholder until the pricing API exists\n    return 9.99\n",
        "examples/coolmagic/views/static.py",
        [(6, "broken", "pass"), (11, "about", "pass"), (17, "price", "hardcoded_return")],
        id="views-without-a-template",
    ),
    pytest.param(
        "if FAST:\n\n    def f():\n        pass\n\n\n"
        "if SLOW:\n\n    def g():\n        pass\n\nelse:\n\n    def g():\n        ...\n\n\n"
        "try:\n    import colorama\nfinally:\n\n    def init():\n        pass\n",
        "src/app/compat.py",
        [(4, "f", "pass"), (10, "g", "pass"), (15, "g", "ellipsis"), (23, "init", "pass")],
        id="conditional-definitions-without-a-real-side",
    ),
    pytest.param(
        "def outer(register):\n    def after():\n        pass\n\n    after()\n"
        "    register(after_all)\n",
        "src/app/hooks.py",
        [(3, "outer.after", "pass")],
        id="nested-function-called",
    ),
    pytest.param(
        "class RewriteHook:\n"
        '    """A hook that marks modules for rewriting."""\n\n'
        "    def mark_rewrite(self, *names: str) -> None:\n        pass\n\n\n"
        "class Settings:\n"
        '    """Settings with environment overrides."""\n\n'
        "    def load(self):\n        pass\n",
        "src/app/rewrite.py",
        [(5, "RewriteHook.mark_rewrite", "pass"), (12, "Settings.load", "pass")],
        id="class-docstring-that-only-describes",
    ),
    pytest.param(
        'from pluggy import HookspecMarker\n\nhookspec = HookspecMarker("pytest")\n\n\n'
        "@hookspec(historic=True)\ndef pytest_addhooks(pluginmanager):\n"
        '    """Called at plugin registration time."""\n\n\n'
        "def _helper():\n    pass\n\n\n"
        "def collect_items(session):\n"
        '    """Collect the items."""\n',
        "src/_pytest/hookspec.py",
        [(12, "_helper", "pass"), (16, "collect_items", "docstring_only")],
        id="functions-of-a-hookspec-module-that-are-not-specs",
    ),
    pytest.param(
        "def test_foo():\n    pass\n\n\ndef test_bar():\n    raise NotImplementedError\n",
        "testing/collect/test_foo.py",
        [(2, "test_foo", "pass"), (6, "test_bar", "not_implemented")],
        id="empty-tests-beside-the-test-inputs",
    ),
    pytest.param(
        "def process(items):\n    pass\n",
        "docs/examples/pipeline.py",
        [(2, "process", "pass")],
        id="empty-function-of-a-documentation-example",
    ),
    pytest.param(
        "def fetch(url):\n    raise NotImplementedError('fetch %s: not implemented yet' % url)\n\n\n"
        "def store(item):\n    raise NotImplementedError('TODO: ' + item.kind)\n\n\n"
        "def drop():\n    raise RuntimeError('not implemented: ' + WHY)\n",
        "src/app/io.py",
        [
            (2, "fetch", "not_implemented"),
            (6, "store", "not_implemented"),
            (10, "drop", "not_implemented"),
        ],
        id="built-messages-that-say-the-code-is-to-come",
    ),
    pytest.param(
        "def and_(*clauses):\n    return combine(clauses)\n\n\n"
        "def and_(*clauses):\n    ...\n\n\n"
        "def not_(clause):\n    pass\n\n\nif FAST:\n\n    def not_(clause):\n        ...\n",
        "src/app/sql.py",
        [(6, "and_", "ellipsis"), (10, "not_", "pass"), (16, "not_", "ellipsis")],
        id="definitions-not-replaced-by-real-code",
    ),
    pytest.param(
        "class EmptyState:\n    def render(self):\n        pass\n\n\n"
        "class Nullable:\n    def check(self):\n        pass\n",
        "src/app/views.py",
        [(3, "EmptyState.render", "pass"), (8, "Nullable.check", "pass")],
        id="class-names-that-are-features",
    ),
    pytest.param(
        "from setuptools import Command\n\n\nclass lint(Command):\n"
        "    user_options = [('strict', None, 'fail on warnings')]\n\n"
        "    def initialize_options(self):\n        pass\n\n"
        "    def finalize_options(self):\n        pass\n",
        "setup.py",
        [(8, "lint.initialize_options", "pass"), (11, "lint.finalize_options", "pass")],
        id="setup-command-with-options-left-unset",
    ),
    pytest.param(
        "class Exporter:\n    def export(self, rows):\n"
        '        raise NotImplementedError("export")\n\n'
        "    def flush(self):\n"
        '        raise NotImplementedError("Exporter.flush()")\n\n'
        "    def close(self):\n"
        '        raise NotImplementedError(f"{type(self).__name__}.close")\n\n\n'
        "def frobnicate(x):\n    raise NotImplementedError('frobnicate')\n",
        "src/app/exporter.py",
        [
            (3, "Exporter.export", "not_implemented"),
            (6, "Exporter.flush", "not_implemented"),
            (9, "Exporter.close", "not_implemented"),
            (13, "frobnicate", "not_implemented"),
        ],
        id="refusal-that-only-names-itself",
    ),
]


@pytest.mark.parametrize(("source", "filename", "expected"), PLACEHOLDERS)
def test_python_placeholders_still_found(
    source: str, filename: str, expected: list[object], find: Find
) -> None:
    assert find(source, filename) == expected


def test_hard_coded_return_without_a_comment_is_real_code(find: Find) -> None:
    assert find("def answer():\n    return 42\n", "src/a.py") == []
    assert find("function answer() {\n  return 42;\n}\n", "src/a.js") == []
