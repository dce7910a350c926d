"""Precision on real Python: each case is shaped like a pattern found in click, httpx,
requests or forge itself, and must give no finding (the placeholders they resemble are in
test_stubs_precision_python_placeholders.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find


DELIBERATE = [
    pytest.param(
        "import click\n\n@click.group()\ndef cli():\n    pass\n\n@cli.group()\n"
        'def sub():\n    """Sub-commands."""\n',
        "src/app/cli.py",
        id="click-groups",
    ),
    pytest.param(
        "import pytest\n\n@pytest.fixture\ndef migrated(db):\n    pass\n\n"
        "@receiver(post_save)\ndef on_save(sender, **kw):\n    pass\n\n"
        "@bot.event\nasync def on_ready():\n    pass\n",
        "src/app/handlers.py",
        id="fixture-and-event-handlers",
    ),
    pytest.param(
        'import pluggy\n\nhookspec = pluggy.HookspecMarker("forge")\n\n@hookspec\n'
        'def forge_languages():\n    """Register languages."""\n\n'
        "@hookspec(firstresult=True)\ndef forge_pick(x):\n    ...\n",
        "forge/hookspecs.py",
        id="pluggy-hookspecs",
    ),
    pytest.param(
        "class ContentDecoder:\n    def decode(self, data: bytes) -> bytes:\n"
        "        raise NotImplementedError()\n\n    def flush(self) -> bytes:\n"
        "        raise NotImplementedError()\n\n"
        "class IdentityDecoder(ContentDecoder):\n    def decode(self, data):\n        return data\n",
        "httpx/_decoders.py",
        id="base-extended-in-file",
    ),
    pytest.param(
        "class BaseTransport:\n    def handle_request(self, request):\n"
        "        raise NotImplementedError(\"The 'handle_request' method must be implemented.\")\n\n"
        "    def close(self) -> None:\n        pass\n\n"
        "class AuthBase:\n    def __call__(self, r):\n"
        '        raise NotImplementedError("Auth hooks must be callable.")\n',
        "httpx/_transports/base.py",
        id="base-by-name",
    ),
    pytest.param(
        "class AsyncByteStream:\n    async def __aiter__(self):\n"
        "        raise NotImplementedError(\"The '__aiter__' method must be implemented.\")\n"
        '        yield b""\n\n    async def aclose(self) -> None:\n        pass\n',
        "httpx/_types.py",
        id="base-by-abstract-message",
    ),
    pytest.param(
        "import abc\n\nclass Store(abc.ABC):\n    def load(self):\n        raise NotImplementedError\n\n"
        "class Meta(metaclass=abc.ABCMeta):\n    def save(self):\n        pass\n",
        "src/store.py",
        id="abc-classes",
    ),
    pytest.param(
        "class MockRequest:\n    def add_header(self, key, val):\n"
        '        raise NotImplementedError("Cookie headers should be added with '
        'add_unredirected_header()")\n',
        "requests/cookies.py",
        id="refusal-with-reason",
    ),
    pytest.param(
        "class HTTPAdapter:\n    def add_headers(self, request, **kwargs):\n"
        '        """Add any headers needed. This does\n        nothing by default, '
        'but is left for overriding."""\n        pass\n',
        "requests/adapters.py",
        id="docstring-says-why",
    ),
    pytest.param(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    def send(self, request) -> Response: ...\n\n"
        "class SessionRedirectMixin:\n    def send(self, request, **kwargs) -> Response: ...\n",
        "requests/sessions.py",
        id="type-checking-and-mixin",
    ),
    pytest.param(
        "class _KeepOpenFile:\n    def __exit__(self, exc_type, exc, tb) -> None:\n        pass\n\n"
        "class _NamedTextIOWrapper(io.TextIOWrapper):\n    def close(self) -> None:\n"
        '        """The buffer belongs to some other object."""\n\n'
        "def noop(*_args):\n    pass\n\ndef ignore(_event, _ctx):\n    pass\n",
        "click/utils.py",
        id="nothing-to-release-noop-underscores",
    ),
    pytest.param(
        "def test_repr():\n    @click.command()\n    def command():\n        pass\n\n"
        "    class FakePager:\n        def terminate(self):\n            pass\n\n"
        "class RecordingStderr:\n    def flush(self):\n        pass\n",
        "tests/test_basic.py",
        id="test-doubles",
    ),
    pytest.param(
        "x = 1  # type: ignore  # FIXME\n# const badData = 'XXX'\n", "src/m.py", id="py-non-markers"
    ),
]

DELIBERATE += [
    pytest.param(
        'class HookRelay:\n    def __init__(self) -> None:\n        """:meta private:"""\n\n'
        "class _DefaultLifespan:\n    def __init__(self, router):\n        self._router = router\n\n"
        "    async def __aenter__(self) -> None:\n        pass\n",
        "src/pluggy/_hooks.py",
        id="dunders-with-nothing-to-take",
    ),
    pytest.param(
        "class MultiPartParser:\n    def __init__(self):\n"
        '        self.callbacks = {"on_data": self.on_data, "on_end": self.on_end}\n\n'
        "    def on_data(self, data):\n        self.items.append(data)\n\n"
        "    def on_end(self) -> None:\n        pass\n",
        "starlette/formparsers.py",
        id="method-handed-over-as-callback",
    ),
    pytest.param(
        "def compile_templates(target, log_function=None):\n    if log_function is None:\n\n"
        "        def log_function(x: str) -> None:\n            pass\n\n"
        '    log_function("compiling")\n',
        "src/jinja2/environment.py",
        id="default-for-an-optional-callback",
    ),
    pytest.param(
        "class RootVisitor(NodeVisitor):\n    visit_Block = _simple_visit\n\n"
        "class FrameSymbolVisitor(NodeVisitor):\n    def visit_Block(self, node, **kwargs):\n"
        '        """Stop visiting at blocks."""\n\n'
        "class CodeGenerator(NodeVisitor):\n    def visit_Scope(self, node, frame):\n"
        "        self.blockvisit(node.body, frame)\n\n"
        "class DependencyFinderVisitor(NodeVisitor):\n    def visit_Scope(self, node):\n"
        '        """Stop visiting at scopes."""\n',
        "src/jinja2/idtracking.py",
        id="empty-overrides-of-a-sibling",
    ),
    pytest.param(
        "class TrackingCodeGenerator(CodeGenerator):\n    def write(self, x: str) -> None:\n"
        '        """Don\'t write."""\n\n    def enter_frame(self, frame) -> None:\n'
        '        """Do not track frames."""\n',
        "src/jinja2/meta.py",
        id="docstring-declines",
    ),
]

DELIBERATE += [
    pytest.param(
        "def _frontend_dependency_endpoint() -> None:\n    pass  # pragma: no cover\n",
        "fastapi/routing.py",
        id="never-run-by-pragma",
    ),
    pytest.param(
        'def old_callback():\n    """\n    Old callback help.\n    """\n\n\n'
        "users_app = typer.Typer(callback=old_callback)\n",
        "docs_src/subcommands/tutorial004.py",
        id="function-handed-over",
    ),
    pytest.param(
        "class BrotliDecoder:\n    def __init__(self):\n"
        '        setattr(self, "_decompress", self._obj.process)\n\n'
        "    def _decompress(self, data: bytes) -> bytes:\n        raise NotImplementedError()\n\n"
        "class Stream:\n    def __init__(self, sock):\n        self.read = sock.recv\n\n"
        "    def read(self, n):\n        pass\n",
        "src/urllib3/response.py",
        id="method-rebound-at-run-time",
    ),
    pytest.param(
        "def getresponse(self):\n    # TODO should we implement it everywhere?\n"
        '    _shutdown = getattr(self.sock, "shutdown", None)\n\n'
        "def read_chunked(self):\n"
        "    # FIXME: Rewrite this method and make it a class with a better structured logic.\n"
        "    return self._read()\n\n"
        "def test_lazy_load_twice():\n"
        "    # This branch should generally bail here, but maybe someday it will\n"
        "    # work? Perhaps by some sort of magic. Consider it a TODO.\n"
        "    assert read() == 1\n",
        "src/urllib3/connection.py",
        id="markers-in-questions-and-prose",
    ),
    pytest.param(
        "invoices_callback_router = APIRouter()\n\n\n"
        '@invoices_callback_router.post(\n    "{$callback_url}/invoices/{$request.body.id}",'
        " response_model=InvoiceEventReceived\n)\n"
        "def invoice_notification(body: InvoiceEvent):\n    pass\n\n\n"
        '@app.post("/invoices/", callbacks=invoices_callback_router.routes)\n'
        "def create_invoice(invoice: Invoice, callback_url: HttpUrl | None = None):\n"
        '    return {"msg": "Invoice received"}\n',
        "docs_src/openapi_callbacks/tutorial001.py",
        id="fastapi-callback-declared",
    ),
    pytest.param(
        '@app.webhooks.post("new-subscription")\ndef new_subscription(body: Subscription):\n'
        '    """\n    When a new user subscribes to your service we send you a POST request.\n'
        '    """\n',
        "docs_src/openapi_webhooks/tutorial001.py",
        id="fastapi-webhook-declared",
    ),
    pytest.param(
        "import sys\nfrom typing import TYPE_CHECKING\n\n\nclass ClientSession:\n"
        "    if sys.version_info >= (3, 11) and TYPE_CHECKING:\n\n"
        "        def get(self, url: str, **kwargs: Unpack[_RequestOptions]) -> '_Ctx': ...\n\n"
        "    else:\n\n        def get(self, url, **kwargs):\n"
        "            return self._request('GET', url, **kwargs)\n",
        "aiohttp/client.py",
        id="type-checking-in-a-conjunction",
    ),
    pytest.param(
        "class WSGIRequestHandler(BaseHTTPRequestHandler):\n"
        "    def connection_dropped(self, error, environ=None) -> None:\n"
        '        """Called if the connection was closed by the client.  By default\n'
        '        nothing happens.\n        """\n',
        "werkzeug/serving.py",
        id="docstring-nothing-happens-by-default",
    ),
    pytest.param(
        "from coolmagic.utils import export\n\n\n"
        '@export("/", template="static/index.html")\ndef index():\n    pass\n\n\n'
        '@export(None, template="static/not_found.html")\ndef not_found():\n'
        '    """Always executed if no url matches."""\n    pass\n',
        "examples/coolmagic/views/static.py",
        id="views-rendered-by-their-template",
    ),
    pytest.param(
        "import os\nimport sys\n\nif os.environ.get('_ARGCOMPLETE'):\n"
        "    try:\n        import argcomplete.completers\n    except ImportError:\n"
        "        sys.exit(-1)\n\n    def try_argcomplete(parser):\n"
        "        argcomplete.autocomplete(parser, always_complete_options=False)\n\n"
        "else:\n\n    def try_argcomplete(parser):\n        pass\n\n\n"
        "try:\n    from colorama import init\nexcept ImportError:\n\n"
        "    def init():\n        pass\n",
        "src/_pytest/_argcomplete.py",
        id="no-op-side-of-a-conditional-definition",
    ),
    pytest.param(
        "class HookRecorder:\n    def __init__(self, pluginmanager):\n"
        "        self.calls = []\n\n"
        "        def before(hook_name, hook_impls, kwargs):\n"
        "            self.calls.append((hook_name, kwargs))\n\n"
        "        def after(outcome, hook_name, hook_impls, kwargs):\n            pass\n\n"
        "        self._undo = pluginmanager.add_hookcall_monitoring(before, after)\n",
        "src/_pytest/pytester.py",
        id="nested-function-handed-over",
    ),
    pytest.param(
        "class DummyRewriteHook:\n"
        '    """A no-op import hook for when rewriting is disabled."""\n\n'
        "    def mark_rewrite(self, *names: str) -> None:\n        pass\n\n\n"
        "class NullHandler(Handler):\n"
        '    """This handler does nothing. It is meant to avoid a warning."""\n\n'
        "    def emit(self, record):\n        pass\n",
        "src/_pytest/assertion/__init__.py",
        id="null-object-by-its-class-docstring",
    ),
    pytest.param(
        'from pluggy import HookspecMarker\n\nhookspec = HookspecMarker("pytest")\n\n\n'
        "@hookspec(historic=True)\ndef pytest_addhooks(pluginmanager):\n"
        '    """Called at plugin registration time."""\n\n\n'
        "def pytest_collection_modifyitems(session, config, items):\n"
        '    """Called after collection has been performed."""\n',
        "src/_pytest/hookspec.py",
        id="undecorated-hookspecs-beside-decorated-ones",
    ),
    pytest.param(
        "def test_foo():\n    pass\n\n\nclass TestSomethingElse:\n"
        "    def test_two(self):\n        pass\n",
        "testing/example_scripts/collect/package_init_given_as_arg/pkg/test_foo.py",
        id="empty-tests-as-test-inputs",
    ),
    pytest.param(
        "def test_function():\n    pass\n\n\nclass TestClass:\n"
        "    def test_method(self):\n        pass\n",
        "doc/en/example/pythoncollection.py",
        id="empty-tests-in-documentation-examples",
    ),
    pytest.param(
        "class Foo:\n    def test(self):\n        ...\n",
        "tests/data/cases/blank_line_after_stub_method.py",
        id="empty-tests-in-formatter-inputs",
    ),
    pytest.param(
        "from pytest_bdd import scenario\n\n\n"
        '@scenario("bdd_wallet.feature", "Buy fruits")\ndef test_publish():\n    pass\n',
        "testing/plugins_integration/bdd_wallet.py",
        id="pytest-bdd-scenario",
    ),
    pytest.param(
        "def _unsupported_impl(expr, op, *arg, **kw):\n    raise NotImplementedError(\n"
        "        \"Operator '%s' is not supported on this expression\" % op.__name__\n    )\n\n\n"
        "class Variant:\n    def __init__(self, *arg, **kw):\n"
        "        raise NotImplementedError(\n"
        "            'Variant is no longer used in SQLAlchemy; this is a '\n"
        "            'placeholder symbol for backwards compatibility.'\n        )\n\n\n"
        "def refuse(kind):\n    raise NotImplementedError(REFUSALS[kind])\n",
        "lib/sqlalchemy/sql/default_comparator.py",
        id="not-implemented-with-a-built-or-retiring-message",
    ),
    pytest.param(
        "from typing import TYPE_CHECKING\n\n\n"
        "def and_(initial_clause, *clauses):\n"
        '    """Produce a conjunction of expressions joined by AND."""\n    ...\n\n\n'
        "if not TYPE_CHECKING:\n\n    def and_(*clauses):\n"
        "        return BooleanClauseList.and_(*clauses)\n",
        "lib/sqlalchemy/sql/_elements_constructors.py",
        id="declaration-replaced-by-a-later-definition",
    ),
    pytest.param(
        "class _empty_collection(Collection):\n    def appendleft(self, element):\n"
        "        pass\n\n\nclass NullTracer:\n    def start_span(self, name):\n"
        "        pass\n",
        "lib/sqlalchemy/event/attr.py",
        id="null-objects-by-name",
    ),
    pytest.param(
        "from setuptools import Command\n\n\nclass test(Command):\n\n"
        "    user_options = []\n\n    def initialize_options(self):\n        pass\n\n"
        "    def finalize_options(self):\n        pass\n\n"
        "    def run(self):\n        self.run_command('build')\n",
        "setup.py",
        id="setup-command-without-options",
    ),
]


@pytest.mark.parametrize(("source", "filename"), DELIBERATE)
def test_deliberate_python_is_left_alone(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []
