"""Precision on real code: each case is shaped like a pattern found in click, httpx, requests,
got, zod, express or forge itself, and must give no finding; beside each, the agent's placeholder
it resembles, which must still be found."""

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
]


@pytest.mark.parametrize(("source", "filename"), DELIBERATE)
def test_deliberate_python_is_left_alone(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize(("source", "filename", "expected"), PLACEHOLDERS)
def test_python_placeholders_still_found(
    source: str, filename: str, expected: list[object], find: Find
) -> None:
    assert find(source, filename) == expected


def test_hard_coded_return_without_a_comment_is_real_code(find: Find) -> None:
    assert find("def answer():\n    return 42\n", "src/a.py") == []
    assert find("function answer() {\n  return 42;\n}\n", "src/a.js") == []


JS_DELIBERATE = [
    pytest.param("const noop = () => { };\nfunction nop() {}\n", "dist/core/index.js", id="noop"),
    pytest.param(
        "class Request {\n  _destroy(error, callback) {\n    this.flush = async () => { };\n  }\n}\n",
        "dist/core/index.js",
        id="noop-stored-at-run-time",
    ),
    pytest.param(
        "// @ts-expect-error FIXME\nthis._internals.hooks[event] = [...hooks];\n",
        "dist/core/options.js",
        id="directive-fixme",
    ),
    pytest.param(
        "export function assertIs<T>(_arg: T): void {}\n"
        "export const assertEqual = <A, B>(_: AssertEqual<A, B>): void => {};\n"
        "export function assert<T>(_: any): asserts _ is T {}\n"
        "export const anyProcessor = (_schema, _ctx, _json, _params) => {\n};\n",
        "src/v4/core/util.ts",
        id="type-level-assertions",
    ),
    pytest.param(
        "const Class = class {\n  constructor(..._args: any[]) {}\n};\n",
        "src/v4/core/util.ts",
        id="rest-underscore-constructor",
    ),
    pytest.param(
        "(_b = inst._zod).check ?? (_b.check = () => { });\n", "v4/core/checks.js", id="default"
    ),
    pytest.param(
        "z.parse({ then: () => {}, catch: {} });\n"
        "app.get('/', function(req, res){});\nrequest(app).get('/').end(function(){});\n"
        "app.use(function handler(req, res, next) {});\n",
        "lib/app.js",
        id="callbacks-in-arguments",
    ),
    pytest.param(
        "abstract class Shape {\n  onResize() {}\n  abstract area(): number;\n}\n"
        "class Widget {\n  render() {}\n}\nclass Button extends Widget {\n  render() { return 1; }\n}\n",
        "src/shapes.ts",
        id="base-classes",
    ),
    pytest.param(
        "class Repo {\n  find() {\n    throw new Error('find must be implemented by subclasses');\n"
        "  }\n}\n",
        "src/repo.ts",
        id="abstract-message",
    ),
    pytest.param(
        "test('async parse', async () => {\n  const goodData = () => {};\n"
        "  // const badData = 'XXX';\n  expect(1).toBe(1);\n});\n"
        "it.skip('later', () => {});\nbeforeEach(() => {});\n",
        "src/tests/async-parsing.test.ts",
        id="test-doubles-and-skips",
    ),
]

JS_DELIBERATE += [
    pytest.param(
        "export default env.standard ?\n  {\n    write(name, value) { document.cookie = name + value; },\n"
        "    read(name) { return find(name); },\n"
        "    remove(name) { this.write(name, '', Date.now() - 86400000); }\n  } :\n"
        "  // Non-standard browser env (web workers, react-native) lack needed support.\n"
        "  {\n    write() {},\n    read() { return null; },\n    remove: function remove() {}\n  };\n",
        "lib/helpers/cookies.js",
        id="axios-fallback-object",
    ),
    pytest.param(
        "export default {\n  assert: {\n    notStrictEqual: (a, b) => {\n      // noop.\n    },\n"
        "  },\n  process: {\n    // exit is noop browser:\n    exit: () => {},\n  },\n};\n",
        "lib/shim.js",
        id="yargs-noop-comments",
    ),
    pytest.param(
        "export default {\n  y18n: {\n    setLocale: () => {},\n    updateLocale: () => {},\n"
        "  },\n  process: {\n    emitWarning: (warning, name) => {},\n  },\n};\n",
        "lib/platform-shims/browser.js",
        id="yargs-platform-shims",
    ),
    pytest.param(
        "function Generator() {}\nfunction GeneratorFunction() {}\n"
        "GeneratorFunction.prototype = Object.create(Generator.prototype);\n",
        "dist/axios.js",
        id="babel-empty-constructors",
    ),
]

JS_DELIBERATE += [
    pytest.param(
        "function createManagedIterator(iterable, onResult) {\n  function cleanup() {\n"
        "    state = 'done';\n    onResult = () => {};\n  }\n  return cleanup;\n}\n",
        "dist/resolveResponse.js",
        id="callback-rebound-to-a-no-op",
    ),
    pytest.param(
        "class EventProcessor {\n  getCookies(event, headers) {\n    return headers;\n  }\n}\n"
        "var LatticeV2Processor = class extends EventProcessor {\n  getCookies() {}\n};\n",
        "dist/adapter/aws-lambda/handler.js",
        id="empty-override-of-a-sibling",
    ),
    pytest.param(
        "function baseLodash() {\n  // No operation performed.\n}\n"
        "var baseCreate = (function() {\n  function object() {}\n  return function(proto) {\n"
        "    object.prototype = proto;\n    var result = new object;\n    return result;\n  };\n"
        "}());\n",
        "_baseLodash.js",
        id="lodash-no-operation-and-constructor",
    ),
    pytest.param(
        "// FIXME:\n// - the generics here are probably unnecessary\n"
        "export function transform(x) {\n  return x;\n}\n",
        "src/transformer.js",
        id="fixme-explained-on-the-next-line",
    ),
    # Redux Toolkit 2.14's query/core/buildSlice.ts: reducers that only name actions.
    pytest.param(
        "const subscriptionSlice = createSlice({\n  name: 'subscriptions',\n"
        "  reducers: {\n    unsubscribeQueryResult(d, a) {\n      // Dummy\n    },\n"
        "    internal_getRTKQSubscriptions() {},\n  },\n})\n",
        "src/query/core/buildSlice.ts",
        id="methods-of-an-object-handed-to-a-call",
    ),
    # Redux Toolkit 2.14's query/tsHelpers.ts: a cast the type checker reads.
    pytest.param(
        "export function assertCast<T>(v: any): asserts v is T {}\n",
        "src/query/tsHelpers.ts",
        id="assertion-of-the-functions-own-type-parameter",
    ),
    # Redux Toolkit 2.14's listenerMiddleware/index.ts: a no-op until the listener is added.
    pytest.param(
        "const take = async (predicate) => {\n  let unsubscribe = () => {}\n"
        "  const p = new Promise((resolve, reject) => {\n"
        "    const stop = start(predicate, resolve)\n"
        "    unsubscribe = () => {\n      stop()\n      reject()\n    }\n  })\n"
        "  try {\n    return await p\n  } finally {\n    unsubscribe()\n  }\n}\n",
        "src/listenerMiddleware/index.ts",
        id="let-rebound-later",
    ),
    # preact 11's compat/src/render.js: every event gets a no-op persist().
    pytest.param(
        "let oldEventHook = options.event;\noptions.event = e => {\n"
        "  if (oldEventHook) e = oldEventHook(e);\n  e.persist = () => {};\n"
        "  return (e.nativeEvent = e);\n};\n",
        "compat/src/render.js",
        id="no-op-stored-on-a-parameter",
    ),
    # TanStack Query 5's build/modern/subscribable.js, msw 2's lib/browser bundle:
    # `export class Subscribable` compiled to an anonymous class bound to a var.
    pytest.param(
        "var Subscribable = class {\n  onSubscribe() {}\n  onUnsubscribe() {}\n};\n"
        "var FocusManager = class extends Subscribable {\n  onSubscribe() {\n"
        "    this.setup();\n  }\n};\n",
        "build/modern/focusManager.js",
        id="hooks-of-an-anonymous-class-the-file-extends",
    ),
]

JS_PLACEHOLDERS = [
    pytest.param(
        "test('masking', () => {});\nit('works', function () {\n});\n",
        "src/tests/masking.test.ts",
        [(1, "<anonymous>", "empty_body"), (2, "<anonymous>", "empty_body")],
        id="empty-tests",
    ),
    pytest.param(
        "export function createUser(data) {}\nexport const deleteUser = (id) => {};\n",
        "src/users.ts",
        [(1, "createUser", "empty_body"), (2, "deleteUser", "empty_body")],
        id="definitions-left-empty",
    ),
    pytest.param(
        "export function price() {\n  // placeholder until the pricing API exists\n"
        "  return 9.99;\n}\n",
        "src/shop.ts",
        [(3, "price", "hardcoded_return")],
        id="hardcoded-under-placeholder-comment",
    ),
    pytest.param(
        "export const api = {\n  fetchUser(id) {},\n  saveUser(user) {}\n};\n"
        "export function Header() {}\n",
        "src/api.js",
        [
            (2, "fetchUser", "empty_body"),
            (3, "saveUser", "empty_body"),
            (5, "Header", "empty_body"),
        ],
        id="object-and-component-left-empty",
    ),
    pytest.param(
        "exports.handler = function () {};\nmodule.exports.run = () => {};\n"
        "class Animal {\n  speak() {}\n}\n// TODO:\n// implement paging\n"
        "// FIXME\nexport const page = 1;\n",
        "src/handler.js",
        [
            (1, "exports.handler", "empty_body"),
            (2, "module.exports.run", "empty_body"),
            (4, "Animal.speak", "empty_body"),
            (6, None, "todo_comment"),
            (8, None, "todo_comment"),
        ],
        id="look-alikes-of-deliberate-bodies",
    ),
    pytest.param(
        "// TODO: implement paging\nexport const page = 1;\n",
        "src/page.ts",
        [(1, None, "todo_comment")],
        id="todo-implement",
    ),
    pytest.param(
        "export const api = {\n  reducers: {\n    reset() {},\n  },\n};\n"
        "export function assertUser(v: unknown): asserts v is User {}\n"
        "export function assertOne<T extends string>(v: any): asserts v is T {}\n"
        "export function load() {\n  let save = () => {};\n  const drop = () => {};\n"
        "  return [save, drop];\n}\n"
        "function wire(e) {\n  exports.persist = () => {};\n  Event.prototype.stop = () => {};\n}\n",
        "src/store.ts",
        [
            (3, "reset", "empty_body"),
            (6, "assertUser", "empty_body"),
            (7, "assertOne", "empty_body"),
            (9, "load.save", "empty_body"),
            (10, "load.drop", "empty_body"),
            (14, "wire.exports.persist", "empty_body"),
            (15, "wire.Event.prototype.stop", "empty_body"),
        ],
        id="look-alikes-of-values-and-casts",
    ),
    pytest.param(
        "var Subscribable = class {\n  onSubscribe() {}\n};\n"
        "var Store = class {\n  findCookie() {}\n};\n"
        "var FocusManager = class extends Subscribable {};\n",
        "src/store.js",
        [(5, "Store.findCookie", "empty_body")],
        id="anonymous-class-nothing-extends",
    ),
]


@pytest.mark.parametrize(("source", "filename"), JS_DELIBERATE)
def test_deliberate_js_ts_is_left_alone(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize(("source", "filename", "expected"), JS_PLACEHOLDERS)
def test_js_ts_placeholders_still_found(
    source: str, filename: str, expected: list[object], find: Find
) -> None:
    assert find(source, filename) == expected


def test_a_comment_quoting_another_comments_marker_is_not_one(find: Find) -> None:
    quoting = (
        "DEFENDED = {\n"
        '    # "# TODO: implement auth-int": the branch really is missing upstream.\n'
        '    ("httpx/_auth.py", "todo_comment"),\n'
        "}\n"
    )
    assert find(quoting, "tests/test_real.py") == []
    asking = 'def f():\n    # TODO: implement "auth-int"\n    pass\n'
    assert find(asking, "src/auth.py") != []
