# Two commands a user needs: `make demo` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit system-packages firmware bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## demo: a whole simulated game (synthetic camera, software panel, bots), windowed when there is a display.
demo: $(STAMP)
	$(BIN)/companion demo $(DEMO_ARGS)

## test: lint, type-check and run every test.
test: $(STAMP) system-packages lint typecheck unit

system-packages:
	@scripts/system-packages.sh

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests share the cores (pytest-xdist, one worker per core up to four, a file per worker at a
# time so module fixtures are made once); the firmware tests run after them on their own, because
# the simulated panel keeps the wall clock's pace and must not wait for a core.
unit: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -m "not simavr" \
		--numprocesses auto --maxprocesses 4 --dist loadfile
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -m simavr

firmware:
	$(MAKE) -C firmware

bench: $(STAMP)
	for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache firmware/build firmware/sim/build
