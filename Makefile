# SwiftYOLO — build, test and demo. `make test` and `make demo` work on a fresh machine: they
# install what is missing (apt packages when run as root, else they print the command), convert
# the default weights, build, and run.

SHARED      ?= ../shared
CHECKPOINT  ?= $(SHARED)/weights/yolo11n.pt
IMAGES      ?= $(SHARED)/images
WEIGHTS     := Weights/yolo11n.swyolo
GENERATED   := Tests/Fixtures/generated
PYTHON      ?= python3
APT_PACKAGES := libpng-dev libjpeg62-turbo-dev pkg-config binutils
GOLDEN_VENV ?= .venv-golden

.PHONY: all deps weights fixtures build release test test-python test-swift demo demo-tasks demo-video golden static static-deps static-check clean

all: build

## Install the system libraries and numpy if they are missing.
# $(call apt_ensure,PACKAGES): install the missing ones (as root), else name them and fail.
apt_ensure = missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing packages:$$missing — run: sudo apt-get install -y$$missing"; exit 1; fi; fi
deps:
	@$(call apt_ensure,$(APT_PACKAGES))
	@$(PYTHON) -c "import numpy" 2>/dev/null || $(PYTHON) -m pip install --quiet numpy

## Convert the reference checkpoints into Weights/ (git-ignored): detection, and the segmentation and
## pose models (skipped with a note when ../shared lacks them).
TASK_WEIGHTS := Weights/yolo11n-seg.swyolo Weights/yolo11n-pose.swyolo
weights: $(WEIGHTS) $(TASK_WEIGHTS) Weights/yolo26n.swyolo
## YOLO26n (end-to-end head), for its goldens and parity tests.
Weights/yolo26n.swyolo: tools/convert.py tools/checkpoint.py tools/swyolo_file.py
	@if [ -f $(SHARED)/weights/yolo26n.pt ]; then $(PYTHON) tools/convert.py $(SHARED)/weights/yolo26n.pt $@; \
	else echo "note: $(SHARED)/weights/yolo26n.pt not found; the YOLO26 tests will fail"; fi
Weights/yolo11n-%.swyolo: tools/convert.py tools/checkpoint.py tools/swyolo_file.py
	@if [ -f $(SHARED)/weights/yolo11n-$*.pt ]; then $(PYTHON) tools/convert.py $(SHARED)/weights/yolo11n-$*.pt $@; \
	else echo "note: $(SHARED)/weights/yolo11n-$*.pt not found; the $* tests will be skipped"; fi
$(WEIGHTS): $(CHECKPOINT) tools/convert.py tools/checkpoint.py tools/swyolo_file.py
	@test -f $(CHECKPOINT) || { echo "error: $(CHECKPOINT) not found (set CHECKPOINT=path/to/yolo11n.pt)"; exit 1; }
	$(PYTHON) tools/convert.py $(CHECKPOINT) $@

## Weights for the golden fixtures of the random models (git-ignored, made with numpy only), and the
## tiny every-block model of the fuzzing seeds, which the reliability tests rebuild with hostile metadata.
fixtures: $(GENERATED)/yolo11n-random38.swyolo $(GENERATED)/yolo11m-random.swyolo $(GENERATED)/tiny-yolo11.swyolo \
	$(GENERATED)/yolo11n-seg-random7.swyolo $(GENERATED)/yolo11n-pose-random2.swyolo $(GENERATED)/yolo26n-random20.swyolo
$(GENERATED)/yolo26n-%.swyolo: Tests/Fixtures/models/yolo26n-%.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@
$(GENERATED)/yolo11n-%.swyolo: Tests/Fixtures/models/yolo11n-%.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@
$(GENERATED)/tiny-yolo11.swyolo: Fuzz/Seeds/models/tiny-yolo11.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@
$(GENERATED)/yolo11n-random38.swyolo: Tests/Fixtures/models/yolo11n-random38.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@
$(GENERATED)/yolo11m-random.swyolo: Tests/Fixtures/models/yolo11m-random.manifest.json tools/random_weights.py
	@mkdir -p $(GENERATED)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@

build: deps
	swift build

release: deps build-info
	@rm -f .build/release/swift-yolo  # SwiftPM does not see the commit's object: relink
	swift build $(SWIFT_RELEASE_FLAGS) -Xlinker $(CURDIR)/$(BUILD_INFO_OBJECT)

test: deps weights fixtures test-python test-swift

test-python:
	$(PYTHON) -m unittest discover -s tools/tests -t tools

# One release build for every x86-64 host: the kernels are compiled for each instruction set
# (baseline, AVX2, AVX-512) and the binary picks one at load (SWIFTYOLO_KERNELS=baseline|avx2|avx512
# forces it), so no flag here depends on the build machine's CPU.
SWIFT_RELEASE_FLAGS := -c release

# The commit for `swift-yolo --version` (with `+` when the tree has uncommitted changes), in the
# binaries made to be run or shipped, `make release` and `make static`: an object defining it, which
# only their link takes in (Sources/CBuildInfo), so they share every compiled module with the tests.
BUILD_COMMIT      := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo +)
BUILD_INFO_OBJECT := .build/build-info/commit.o
C_COMPILER        ?= $(shell command -v clang || command -v cc)
.PHONY: build-info
build-info:
	@mkdir -p $(dir $(BUILD_INFO_OBJECT))
	@printf 'const char sy_build_commit_name[] = "%s";\n' '$(BUILD_COMMIT)' >$(BUILD_INFO_OBJECT:.o=.c)
	@$(C_COMPILER) -O2 -Wall -Werror -c $(BUILD_INFO_OBJECT:.o=.c) -o $(BUILD_INFO_OBJECT)

# Release mode: the SIMD kernels are ~50x slower unoptimized, and release is what users run. The
# tests build with exactly the flags of the binaries, so they test what ships: they reach the
# engine's insides through `package` declarations, not `@testable` (which needs -enable-testing).
test-swift:
	swift build --build-tests $(SWIFT_RELEASE_FLAGS)
	swift test --skip-build $(SWIFT_RELEASE_FLAGS)
	tools/kernel-codegen-check.sh .build/release/swift-yolo

## The DocC documentation of `import SwiftYOLO` (Sources/SwiftYOLO/SwiftYOLO.docc), through swift-docc-plugin,
## which Package.swift declares only with SWIFTYOLO_DOCS=1; warnings are errors, so a broken symbol link fails.
## The symbol graph comes from the release build in .build, so after `make test` nothing is compiled again
## (the plugin adds no flag to the package's modules).
.PHONY: docs
docs: deps
	@mkdir -p .build-docs  # the plugin moves the archive there, and does not make the folder
	SWIFTYOLO_DOCS=1 swift package $(SWIFT_RELEASE_FLAGS) generate-documentation --target SwiftYOLO \
	  --warnings-as-errors --output-path .build-docs/SwiftYOLO.doccarchive
	@echo "docs: .build-docs/SwiftYOLO.doccarchive"

## The package under Examples/consumer built as a user's package is, by version against a tagged
## clone, with a plain `swift build -c release`: it must find bus.jpg's objects within 1.15x of the
## time per image of the release binary we ship (dist/swift-yolo, `make static`: release flags,
## statically linked), so that CI compiles the package once less.
.PHONY: consumer-check
consumer-check: deps weights static
	Examples/consumer/check.sh dist/swift-yolo

## `swift-yolo serve` end to end (tools/serve_check.py): /v1/detect and KServe infer against detect --json,
## health and metrics, concurrency 32 (200s and 503s only), SIGTERM under load (exit 0, nothing dropped); then
## schemathesis against docs/openapi.yaml (tools/serve-schemathesis.sh).
.PHONY: serve-check serve-load
serve-check: deps weights
	swift build $(SWIFT_RELEASE_FLAGS) --product swift-yolo
	$(PYTHON) tools/serve_check.py .build/release/swift-yolo $(WEIGHTS) $(IMAGES)/bus.jpg
	tools/serve-schemathesis.sh .build/release/swift-yolo $(WEIGHTS)

## Throughput and latency of `serve` at concurrency 1, 2, 8 and 32 and RSS over a soak (Benchmarks/serve-load.sh, hey).
serve-load: deps weights release
	Benchmarks/serve-load.sh .build/release/swift-yolo $(WEIGHTS) $(IMAGES)/bus.jpg

## Scale-out with Ray (Examples/ray): a private venv with ray[data] and Pillow from PyPI, a local Ray instance, 36 images
## made from bus.jpg and zidane.jpg, actors each keeping one `swift-yolo serve`; out/ray/{parquet,jsonl} must equal
## `swift-yolo detect --json` image by image.
RAY_VENV ?= .venv-ray
.PHONY: demo-ray
$(RAY_VENV)/bin/python:
	$(PYTHON) -m venv $(RAY_VENV)
	$(RAY_VENV)/bin/pip install --quiet "ray[data]" pillow
demo-ray: deps weights $(RAY_VENV)/bin/python
	swift build $(SWIFT_RELEASE_FLAGS) --product swift-yolo
	@mkdir -p out
	@$(RAY_VENV)/bin/python Examples/ray/check.py $(CURDIR)/.build/release/swift-yolo $(CURDIR)/$(WEIGHTS) $(abspath $(IMAGES)) out/ray \
	  >out/ray.log 2>&1 || { tail -n 40 out/ray.log; exit 1; }
	@tail -n 1 out/ray.log

## Detect in bus.jpg and write the annotated picture to out/bus.png.
demo: deps weights release
	.build/release/swift-yolo detect --model $(WEIGHTS) --save out $(IMAGES)/bus.jpg

## Segmentation, pose and background replacement on the sample images, into out/ (git-ignored):
## out/tasks/bus.png (masks), out/tasks/zidane.png (skeletons), out/background/bus.png (people on white).
demo-tasks: deps weights release
	.build/release/swift-yolo detect --model Weights/yolo11n-seg.swyolo --save out/tasks $(IMAGES)/bus.jpg
	.build/release/swift-yolo detect --model Weights/yolo11n-pose.swyolo --faces --save out/tasks $(IMAGES)/zidane.jpg
	.build/release/swift-yolo background --model Weights/yolo11n-seg.swyolo --replace white --classes person --save out/background $(IMAGES)/bus.jpg

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

## One binary for every x86-64 Linux: dist/swift-yolo (git-ignored), statically linked: the Swift
## runtime, FoundationEssentials, libpng, libjpeg-turbo, zlib and glibc are all in
## it, so it runs on a host with nothing installed (`make static-check` runs it in an empty chroot).
## Release mode with no -target-cpu: the kernel set is chosen at run time, as in every build. It is
## the objects of the release build in .build (the ones `make test` tests and `make release` links)
## linked again with -static-executable (tools/static/link.py; tools/static/static_libraries.swift
## names the archives FoundationEssentials needs), so the package is compiled once for both. The unstripped
## binary and the link's log go to .build-static/, and dist/ gets the binary stripped. glibc warns at
## the link that getpwnam, getaddrinfo, dlopen and the like would need its shared libraries at run
## time: FoundationEssentials and the Swift runtime link them, and detect never calls them (the chroot check
## proves it).
## tools/static/proc_free_runtime.c lets the Swift runtime start without /proc (see there).
## The static archives come from the -dev packages: libpng16.a, libjpeg.a, libz.a, libc.a.
STATIC_APT_PACKAGES := $(APT_PACKAGES) zlib1g-dev libc6-dev
STATIC_SCRATCH      := .build-static
STATIC_SHIM         := $(STATIC_SCRATCH)/proc_free_runtime.o
STATIC_LIBRARIES    := $(STATIC_SCRATCH)/static_libraries.o
STATIC_LINK_FLAGS   := -static-executable $(CURDIR)/$(STATIC_LIBRARIES) -Xlinker $(CURDIR)/$(STATIC_SHIM) \
                       -Xlinker --wrap=dladdr -Xlinker -lz -Xlinker -lm -Xlinker $(CURDIR)/$(BUILD_INFO_OBJECT)

static-deps:
	@$(call apt_ensure,$(STATIC_APT_PACKAGES))

$(STATIC_SHIM): tools/static/proc_free_runtime.c
	@mkdir -p $(@D)
	@$(C_COMPILER) -O2 -Wall -Werror -c $< -o $@

$(STATIC_LIBRARIES): tools/static/static_libraries.swift
	@mkdir -p $(@D)
	@swiftc -O -static-executable -parse-as-library -module-name StaticLibraries -c $< -o $@

# Silent on success when it is only a prerequisite (static-check prints the size); `make static` says more.
STATIC_SAY = $(if $(filter static,$(MAKECMDGOALS)),echo,:)
static: deps static-deps $(STATIC_SHIM) $(STATIC_LIBRARIES) build-info
	@$(STATIC_SAY) "building dist/swift-yolo (release, statically linked; log: $(STATIC_SCRATCH)/build.log)"
	@{ swift build $(SWIFT_RELEASE_FLAGS) --product swift-yolo && \
	   $(PYTHON) tools/static/link.py .build swift-yolo $(STATIC_SCRATCH)/swift-yolo $(STATIC_LINK_FLAGS); } \
	  >$(STATIC_SCRATCH)/build.log 2>&1 || { cat $(STATIC_SCRATCH)/build.log; exit 1; }
	@mkdir -p dist
	@strip -o dist/swift-yolo.tmp $(STATIC_SCRATCH)/swift-yolo && mv -f dist/swift-yolo.tmp dist/swift-yolo
	@ldd dist/swift-yolo 2>&1 | grep -q "not a dynamic executable" || { echo "error: dist/swift-yolo is not static:"; ldd dist/swift-yolo; exit 1; }
	@size=$$(stat -c %s dist/swift-yolo); $(STATIC_SAY) "dist/swift-yolo: statically linked, $$((size / 1000000)).$$((size / 100000 % 10)) MB"

## dist/swift-yolo in an empty chroot (root only): tools/static-check.sh.
static-check: static weights
	@tools/static-check.sh

## Benchmarks: targets of the main package declared only with SWIFTYOLO_BENCHMARKS=1 (Package.swift), so that
## building or depending on SwiftYOLO never pulls in ordo-one/benchmark; their own scratch folder, Benchmarks/.build.
## The kernels on YOLO11n's 640×640 layer shapes (ordo-one/benchmark): KERNEL_THREADS=1,2, KERNEL_ITERATIONS,
## KERNEL_SECONDS, and BENCH_ARGS for `swift package benchmark` (e.g. BENCH_ARGS="--filter 'Conv.*'").
.PHONY: bench-kernels bench-peers
bench-kernels: deps
	SWIFTYOLO_BENCHMARKS=1 swift package --scratch-path Benchmarks/.build benchmark --target Kernels --no-progress $(BENCH_ARGS)

## What masks cost beside the forward pass: YOLO11n-seg on bus.jpg, the forward pass and the post-processing
## that assembles the masks, in alternation (Benchmarks/Support/mask-assembly; MASK_ARGS="--threads 1 --runs 30").
.PHONY: bench-masks
bench-masks: deps weights
	SWIFTYOLO_BENCHMARKS=1 swift build -c release --scratch-path Benchmarks/.build --product mask-assembly
	Benchmarks/.build/release/mask-assembly $(MASK_ARGS)

## SwiftYOLO against ONNX Runtime, OpenVINO, MNN, ncnn and PyTorch in alternation (Benchmarks/peers.py: a private venv from PyPI,
## Ultralytics' exports); PEERS_ARGS="--runs 3 --rounds 2" for a quick check. YOLO11n and YOLO26n (both of its heads);
## writes Benchmarks/results/peers-DATE-MODEL.md.
bench-peers: deps weights
	$(PYTHON) Benchmarks/peers.py $(PEERS_ARGS)

## Reliability (README, "Reliability"): fuzzing, sanitizers, concurrency and soak. Everything runs at
## the lowest CPU priority (nice 19), one fuzzing job at a time.
## `make fuzz` runs each target FUZZ_SECONDS (default 600), records the run in Fuzz/stats.tsv and
## merges new coverage into Fuzz/Corpus/ (commit both); `make fuzz-ci` is CI's short pass (FUZZ_CI_SECONDS, 20 s each,
## nothing recorded); `make fuzz-stats` prints the cumulative totals per target.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= image weights model cli request video result checkpoint
FUZZ_SEEDS   := .build-fuzz/seeds
.PHONY: fuzz fuzz-ci fuzz-build fuzz-atheris fuzz-seeds fuzz-stats sanitize sanitize-address sanitize-thread
# The fuzz targets (Package.swift, SWIFTYOLO_FUZZ=1) link libFuzzer without its `main` and are built
# with AddressSanitizer, without the HTTP server, in one of two builds:
# - CI's short pass uses the AddressSanitizer build of the tests (.build-asan: SANITIZE_ENV declares
#   the targets there), whose libFuzzer coverage is on the code that parses their input only
#   (Package.swift), so that the tests in it run at their speed and CI builds the package once less;
# - `make fuzz` (fuzz-build) builds them in .build-fuzz with the coverage on every module, the
#   argument parser's and the kernels' too, for the fullest guidance in long runs. A change of
#   these flags needs a clean .build-fuzz: SwiftPM keeps objects compiled without them.
LIBFUZZER    := $(shell clang -print-file-name=libclang_rt.fuzzer_no_main-$(shell uname -m).a 2>/dev/null)
SANITIZE_ENV := SWIFTYOLO_FUZZ=1 SWIFTYOLO_LIBFUZZER=$(LIBFUZZER) SWIFTYOLO_SERVER=0
ASAN_FLAGS   := $(SWIFT_RELEASE_FLAGS) --sanitize=address --scratch-path .build-asan
FUZZ_FLAGS   := $(SWIFT_RELEASE_FLAGS) --sanitize=address --scratch-path .build-fuzz \
  -Xswiftc -sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table,trace-cmp \
  -Xcc -fsanitize-coverage=indirect-calls,inline-8bit-counters,pc-table,trace-cmp
FUZZ_PRODUCTS := fuzz-image fuzz-weights fuzz-model fuzz-cli fuzz-request fuzz-video fuzz-result
# $(call build-fuzz-products,FLAGS): each fuzz target with those build flags.
build-fuzz-products = for target in $(FUZZ_PRODUCTS); do $(SANITIZE_ENV) nice -n 19 swift build $(1) --product $$target || exit 1; done
fuzz-build: deps fuzz-atheris
	$(call build-fuzz-products,$(FUZZ_FLAGS))
## The checkpoint target's fuzzer (Python).
fuzz-atheris:
	@$(PYTHON) -c "import atheris" 2>/dev/null || $(PYTHON) -m pip install --quiet atheris

## The tiny models' weights from their committed manifests (numpy only).
fuzz-seeds: $(FUZZ_SEEDS)/weights/tiny-conv-detect.swyolo $(FUZZ_SEEDS)/tiny-yolo11.swyolo
$(FUZZ_SEEDS)/weights/tiny-conv-detect.swyolo: Fuzz/Seeds/models/tiny-conv-detect.manifest.json tools/random_weights.py
	@mkdir -p $(@D)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@
$(FUZZ_SEEDS)/tiny-yolo11.swyolo: Fuzz/Seeds/models/tiny-yolo11.manifest.json tools/random_weights.py
	@mkdir -p $(@D)
	$(PYTHON) tools/random_weights.py --manifest $< --out $@

fuzz: fuzz-build fuzz-seeds
	@status=0; for target in $(FUZZ_TARGETS); do Fuzz/run.sh $$target $(FUZZ_SECONDS) --record --merge || status=1; done; \
	$(MAKE) --no-print-directory fuzz-stats; exit $$status

## CI's short pass: two targets at a time (each one libFuzzer process, one core), each one's lines
## printed together when all have ended.
fuzz-ci: deps fuzz-seeds fuzz-atheris
	$(call build-fuzz-products,$(ASAN_FLAGS))
	@mkdir -p .build-fuzz/work; status=0; \
	printf '%s\n' $(FUZZ_TARGETS) | FUZZ_BUILD=.build-asan xargs -P 2 -I{} sh -c 'Fuzz/run.sh {} $(or $(FUZZ_CI_SECONDS),20) >.build-fuzz/work/{}.ci.log 2>&1' || status=1; \
	for target in $(FUZZ_TARGETS); do cat .build-fuzz/work/$$target.ci.log; done; exit $$status

fuzz-stats:
	@awk -F'\t' 'NR > 1 { runs[$$2]++; seconds[$$2] += $$3; executions[$$2] += $$4; findings[$$2] += $$6; corpus[$$2] = $$5 } \
	  END { printf "%-11s %5s %9s %13s %12s %9s\n", "target", "runs", "seconds", "executions", "last corpus", "findings"; \
	        for (t in runs) printf "%-11s %5d %9d %13d %12s %9d\n", t, runs[t], seconds[t], executions[t], corpus[t], findings[t] }' Fuzz/stats.tsv

## The Swift test suites under AddressSanitizer and ThreadSanitizer, in release mode like `make test`,
## at the lowest CPU priority, both without the HTTP server (SWIFTYOLO_SERVER=0: `make test` and
## serve-check run the server; its own shared state, InferenceQueue and ThreadHandoff, is in
## YOLOServing and checked here). LeakSanitizer checks the Swift Testing suites; the XCTest ones run
## without it (XCTest itself leaks every test-case run on Linux; see Tests/lsan-suppressions.txt).
## SANITIZE_FILTER narrows the tests (e.g. SANITIZE_FILTER="--filter Reliability").
SANITIZE_RUN = SWIFT_BACKTRACE=enable=no nice -n 19 swift test --skip-build
sanitize: sanitize-address sanitize-thread
sanitize-address: deps weights fixtures
	$(SANITIZE_ENV) nice -n 19 swift build --build-tests $(ASAN_FLAGS)
	$(SANITIZE_ENV) ASAN_OPTIONS=detect_leaks=0 $(SANITIZE_RUN) $(ASAN_FLAGS) --disable-swift-testing $(SANITIZE_FILTER)
	$(SANITIZE_ENV) LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt \
	  $(SANITIZE_RUN) $(ASAN_FLAGS) --disable-xctest $(SANITIZE_FILTER)
## ThreadSanitizer looks for races, so it skips the suites that only repeat forward passes for their numbers
## (the parity images, goldens, each kernel set's processes, task and YOLO26 parity, backgrounds, the attention
## heads against their double-precision reference, detect's output on 1, 2 and 3 threads, the memory plan against
## bench's measured peaks), and the command line's contracts on files, options and output formats, which run
## swift-yolo as a process (CommandLineTests, TaskCommandLineTests, VideoCommandLineTests, DataSafetyTests; `make
## test` and `make sanitize-address` run them) but for the ones that stop it with a signal while it works and the
## video pipeline's reading thread fed from standard input. The kernels' threads still race over random shapes
## in the kernel tests and in a pool set below its workers (WorkerPoolTests), real models in DetectorTests (one
## detector, several threads, the heads' branches side by side), and the inference queue's threads in
## InferenceQueueTests and ThreadHandoffTests. TSAN_SKIP= runs everything; TSAN_SERVER=1 adds the server and its
## live tests (SwiftNIO compiled once more under TSan: about 230 s on 2 cores).
TSAN_SKIP   ?= ParityTests|GoldenTests|KernelSetTests|FaceOnPicturesTests|YOLO26Tests|BackgroundTests|AttentionHeadsTests|ThreadCountTests|MemoryPlanTests|CommandLineTests/(?!videoFromStandardInput)|DataSafetyTests/(?!anInterrupt|aRealtimeWait|benchEnds)
## Under TSan a test process keeps about one core busy, so the tests run as two processes at once (one of them
## TSAN_SHARD's suites, the other the rest and the XCTest suites; `--ignore-lock`: the build is done, and SwiftPM
## would otherwise run them one after the other), each one's lines printed when both have ended. With
## SANITIZE_FILTER, one process.
TSAN_SERVER  ?= 0
TSAN_SHARD   ?= DetectorTests|ReliabilityTests|DataSafetyTests|ConvolutionTests
TSAN_SCRATCH := .build-tsan$(if $(filter 1,$(TSAN_SERVER)),-server)
TSAN_FLAGS   := $(SWIFT_RELEASE_FLAGS) --sanitize=thread --scratch-path $(TSAN_SCRATCH)
TSAN_RUN      = SWIFTYOLO_SERVER=$(TSAN_SERVER) TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/Tests/tsan-suppressions.txt $(TSAN_OPTIONS)" \
  $(SANITIZE_RUN) --ignore-lock $(TSAN_FLAGS)
sanitize-thread: deps weights fixtures
	SWIFTYOLO_SERVER=$(TSAN_SERVER) nice -n 19 swift build --build-tests $(TSAN_FLAGS)
ifneq ($(SANITIZE_FILTER),)
	$(TSAN_RUN) $(if $(TSAN_SKIP),--skip '$(TSAN_SKIP)') $(SANITIZE_FILTER)
else
	@$(TSAN_RUN) --disable-xctest --filter '$(TSAN_SHARD)' $(if $(TSAN_SKIP),--skip '$(TSAN_SKIP)') >$(TSAN_SCRATCH)/tests-1.log 2>&1 & shard=$$!; \
	$(TSAN_RUN) --skip '$(if $(TSAN_SKIP),$(TSAN_SKIP)|)$(TSAN_SHARD)' >$(TSAN_SCRATCH)/tests-2.log 2>&1; rest=$$?; \
	wait $$shard; shard=$$?; cat $(TSAN_SCRATCH)/tests-1.log $(TSAN_SCRATCH)/tests-2.log; \
	echo "sanitize-thread: $(TSAN_SHARD) exit $$shard, the rest exit $$rest"; [ $$shard = 0 ] && [ $$rest = 0 ]
endif

clean:
	rm -rf .build $(GENERATED) $(WEIGHTS) Weights/yolo26n.swyolo dist
