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

.PHONY: all deps weights fixtures build release test test-python test-swift demo demo-video golden clean

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
	swift build $(SWIFT_RELEASE_FLAGS)

test: deps weights fixtures test-python test-swift

test-python:
	$(PYTHON) -m unittest discover -s tools/tests -t tools

# On x86-64 CPUs with AVX2 and FMA (every one since 2013) build for them: the SIMD kernels then
# work on 8 floats per instruction instead of 4. The binary then needs such a CPU; CPU= overrides.
CPU ?= $(shell [ "$$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && echo haswell)
SWIFT_RELEASE_FLAGS := -c release $(if $(CPU),-Xswiftc -target-cpu -Xswiftc $(CPU))

# Release mode: the SIMD kernels are ~50x slower unoptimized, and release is what users run.
# -enable-testing keeps @testable imports working.
SWIFT_TEST_FLAGS := $(SWIFT_RELEASE_FLAGS) -Xswiftc -enable-testing

test-swift:
	swift build --build-tests $(SWIFT_TEST_FLAGS)
	swift test --skip-build $(SWIFT_TEST_FLAGS)

## Detect in bus.jpg and write the annotated picture to out/bus.png.
demo: deps weights release
	.build/release/swift-yolo detect --model $(WEIGHTS) --save out $(IMAGES)/bus.jpg

## Turn the sample images into a 5-second 1280×720 clip (ffmpeg, installed from apt if missing),
## run `swift-yolo video` on it with tracking and settle events, and print the events. The clip pans
## over zidane.jpg for a second, holds still, then cuts to bus.jpg; out/demo-video.jsonl keeps every line.
VIDEO_BIN ?= .build/release/swift-yolo
demo-video: deps weights release
	@command -v ffmpeg >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing: ffmpeg"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null; \
	  else echo "ffmpeg is missing — run: sudo apt-get install -y ffmpeg"; exit 1; fi; }
	@mkdir -p out
	ffmpeg -v error -y -loop 1 -t 3 -i $(IMAGES)/zidane.jpg -loop 1 -t 2 -i $(IMAGES)/bus.jpg -filter_complex \
	  "[0]crop=w=1120:h=630:x='160*min(t,1)':y='90*min(t,1)',scale=1280:720,setsar=1[a];[1]scale=-2:720,pad=1280:720:(ow-iw)/2:0,setsar=1[b];[a][b]concat=n=2:v=1,fps=10,format=yuv420p" \
	  -c:v libx264 -crf 18 out/demo-video.mp4
	ffmpeg -v error -i out/demo-video.mp4 -f yuv4mpegpipe - \
	  | $(VIDEO_BIN) video --model $(WEIGHTS) --smooth --settle 5 - | tee out/demo-video.jsonl | grep '"event"'

## Regenerate the golden fixtures (needs torch + ultralytics: installed into $(GOLDEN_VENV)).
golden:
	test -x $(GOLDEN_VENV)/bin/python || { $(PYTHON) -m venv $(GOLDEN_VENV) && $(GOLDEN_VENV)/bin/pip install -q -r tools/requirements-golden.txt; }
	@echo "see Tests/Fixtures/README.md for the commands, run with $(GOLDEN_VENV)/bin/python"

## Benchmarks (Benchmarks/, a package of its own so that the main package never pulls in ordo-one/benchmark).
## The kernels on YOLO11n's 640×640 layer shapes (ordo-one/benchmark): KERNEL_THREADS=1,2, KERNEL_ITERATIONS,
## KERNEL_SECONDS, and BENCH_ARGS for `swift package benchmark` (e.g. BENCH_ARGS="--filter 'Conv.*'").
.PHONY: bench-kernels bench-peers
bench-kernels: deps
	swift package --package-path Benchmarks --scratch-path Benchmarks/.build benchmark --target Kernels --no-progress $(BENCH_ARGS)

## SwiftYOLO against ONNX Runtime, ncnn and PyTorch in alternation (Benchmarks/peers.py: a private venv from PyPI,
## Ultralytics' exports); PEERS_ARGS="--runs 3 --rounds 2" for a quick check. Writes Benchmarks/results/peers-DATE.md.
bench-peers: deps weights
	$(PYTHON) Benchmarks/peers.py $(PEERS_ARGS)

clean:
	rm -rf .build $(GENERATED) $(WEIGHTS)
