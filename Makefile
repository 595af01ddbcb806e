# SwiftYOLO — build, test and demo. `make test` and `make demo` work on a fresh machine: they
# install what is missing (apt packages when run as root, else they print the command), convert
# the default weights, build, and run.

SHARED      ?= ../shared
CHECKPOINT  ?= $(SHARED)/weights/yolo11n.pt
IMAGES      ?= $(SHARED)/images
WEIGHTS     := Weights/yolo11n.swyolo
GENERATED   := Tests/Fixtures/generated
PYTHON      ?= python3
APT_PACKAGES := libopenblas-dev libpng-dev libjpeg62-turbo-dev pkg-config
GOLDEN_VENV ?= .venv-golden

.PHONY: all deps weights fixtures build release test test-python test-swift demo golden clean

all: build

## Install the system libraries and numpy if they are missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing packages:$$missing — run: sudo apt-get install -y$$missing"; exit 1; fi; fi
	@$(PYTHON) -c "import numpy" 2>/dev/null || $(PYTHON) -m pip install --quiet numpy

## Convert the reference checkpoint into Weights/ (git-ignored).
weights: $(WEIGHTS)
$(WEIGHTS): $(CHECKPOINT) tools/convert.py tools/checkpoint.py tools/swyolo_file.py
	@test -f $(CHECKPOINT) || { echo "error: $(CHECKPOINT) not found (set CHECKPOINT=path/to/yolo11n.pt)"; exit 1; }
	$(PYTHON) tools/convert.py $(CHECKPOINT) $@

## Weights for the golden fixtures of the random models (git-ignored, made with numpy only).
fixtures: $(GENERATED)/yolo11n-random38.swyolo $(GENERATED)/yolo11m-random.swyolo
$(GENERATED)/yolo11n-random38.swyolo: Tests/Fixtures/models/yolo11n-random38.pt tools/convert.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/convert.py $< $@
$(GENERATED)/yolo11m-random.swyolo: Tests/Fixtures/models/yolo11m-random.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@

build: deps
	swift build

release: deps
	swift build -c release

test: deps weights fixtures test-python test-swift

test-python:
	$(PYTHON) -m unittest discover -s tools/tests -t tools

test-swift:
	swift build --build-tests
	swift test --skip-build

## Detect in bus.jpg and write the annotated picture to out/bus.png.
demo: deps weights release
	.build/release/swift-yolo detect --model $(WEIGHTS) --save out $(IMAGES)/bus.jpg

## Regenerate the golden fixtures (needs torch + ultralytics: installed into $(GOLDEN_VENV)).
golden:
	test -x $(GOLDEN_VENV)/bin/python || { $(PYTHON) -m venv $(GOLDEN_VENV) && $(GOLDEN_VENV)/bin/pip install -q -r tools/requirements-golden.txt; }
	@echo "see Tests/Fixtures/README.md for the commands, run with $(GOLDEN_VENV)/bin/python"

clean:
	rm -rf .build $(GENERATED) $(WEIGHTS)
