"""Property-based fuzzing of the API from its own OpenAPI schema
(schemathesis): whatever fits the schema, and much that does not, gets a
documented status, a body that matches the schema, and never a 5xx."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import CheckConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from wsdb.web import create_app

APP = create_app(None, max_time_limit=1, max_busy=4)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
# invalid data may also be refused as too large (413, documented): a body over 64 KiB is not read
schema.config.checks.negative_data_rejection = CheckConfig(
    expected_statuses=["400", "404", "405", "406", "413", "415", "422", "429", "5xx"]
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
CALLS: dict[tuple[str, str], int] = {}  # calls per (method, path)


@pytest.fixture(autouse=True)
def built_database(db4):
    APP.state.db = db4


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_holds_to_its_schema(case):
    key = (case.method.upper(), case.path)
    CALLS[key] = CALLS.get(key, 0) + 1
    case.call_and_validate(checks=CHECKS)


def test_every_endpoint_was_fuzzed():
    # runs after the fuzzing above (file order): every operation of the
    # OpenAPI schema got calls, so the checks were not vacuous
    operations = {(method.upper(), path) for path, item in APP.openapi()["paths"].items() for method in item}
    print(f"\nschemathesis: {sum(CALLS.values())} API calls over {len(CALLS)} operations")
    assert operations and {op for op in operations if op not in CALLS} == set()
    assert sum(CALLS.values()) >= 10 * len(operations)
