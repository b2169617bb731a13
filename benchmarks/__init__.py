"""pytest-benchmark benchmarks of nardy (a package so that the tests and conftest share one
module: ``from benchmarks.conftest import ...``)."""
