# mtc — common tasks. `make figures` runs every config's quick profile (CI);
# `make figures-full` the paper-scale runs whose results are committed under results/.
PYTHON ?= python3
JOBS ?= 2
CONFIGS := $(sort $(wildcard configs/*.yaml))
BENCHES := $(sort $(wildcard tests/benchmarks/bench_*.py))
# every file whose numbers, tables and notes `mtc report` renders from results/
DOCS := README.md $(sort $(wildcard docs/*.md)) $(sort $(wildcard experiments/*/NOTES.md))

.PHONY: install test test-reliability test-slurm figures figures-full bench lint readme docs-check

install:
	$(PYTHON) -m pip install -e '.[dev,cluster]'

# on $(JOBS) processes (pytest-xdist); the end-to-end quick profiles that `make figures` runs
# anyway are marked slow and left out (`$(PYTHON) -m pytest -m slow -n 2` runs them)
test:
	$(PYTHON) -m pytest -m "not reliability and not slurm and not slow" -n $(JOBS)

# the bad-input and interruption suite (both reviews' cases, cache damage, locks, signals,
# a full disk, a bounded fuzz run of the readers)
test-reliability:
	$(PYTHON) -m pytest -m "reliability or review"

# against a single-node SLURM the test starts (root; apt-get install slurmctld slurmd
# slurm-client munge — .ci/run does)
test-slurm:
	$(PYTHON) -m pytest -m slurm -rs

# one process for all configs: one start-up and one worker pool (progress names each config)
figures:
	mtc run $(CONFIGS) --quick -j $(JOBS) > /dev/null
	@echo "quick figures in results/quick/"

# one process and one worker pool for all configs, the longest tasks first
figures-full:
	mtc run $(CONFIGS) -j $(JOBS)
	mtc report results $(addprefix --readme ,$(DOCS))

bench:
	@for b in $(BENCHES); do echo "== $$b"; $(PYTHON) $$b || exit 1; done

lint:
	ruff check .

readme:
	mtc report results $(addprefix --readme ,$(DOCS))

# every rendered number, table and notes copy of $(DOCS) against the committed results (CI)
docs-check:
	mtc report results $(addprefix --readme ,$(DOCS)) --check
