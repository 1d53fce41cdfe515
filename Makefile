# mtc — common tasks. `make figures` runs every config's quick profile (CI);
# `make figures-full` the paper-scale runs whose results are committed under results/.
PYTHON ?= python3
JOBS ?= 2
CONFIGS := $(sort $(wildcard configs/*.yaml))
BENCHES := $(sort $(wildcard tests/benchmarks/bench_*.py))

.PHONY: install test test-reliability test-slurm figures figures-full bench lint readme

install:
	$(PYTHON) -m pip install -e '.[dev,cluster]'

test:
	$(PYTHON) -m pytest -m "not reliability and not slurm"

# the bad-input and interruption suite (68 review cases, cache damage, locks, signals)
test-reliability:
	$(PYTHON) -m pytest -m reliability

# against a single-node SLURM the test starts (root; apt-get install slurmctld slurmd
# slurm-client munge — .ci/run does)
test-slurm:
	$(PYTHON) -m pytest -m slurm -rs

figures:
	@for c in $(CONFIGS); do echo "== $$c (quick)"; mtc run $$c --quick -j $(JOBS) > /dev/null || exit 1; done
	@echo "quick figures in results/quick/"

figures-full:
	@for c in $(CONFIGS); do echo "== $$c"; mtc run $$c -j $(JOBS) || exit 1; done
	mtc report results --readme README.md

bench:
	@for b in $(BENCHES); do echo "== $$b"; $(PYTHON) $$b || exit 1; done

lint:
	ruff check .

readme:
	mtc report results --readme README.md
