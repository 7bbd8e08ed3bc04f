# Denham. `make` builds ./denham; see README.md for every target.
CC      ?= cc
CSTD    := -std=c17
WARN    := -Wall -Wextra -Wshadow
CFLAGS  ?= -O2
# Release builds target this machine's instruction set (popcount, BMI and
# the rest inline) with link-time optimisation; `make portable` (ARCH=)
# builds for any x86-64 or other CPU. Objects live apart per ARCH.
ARCH    ?= native
REL     := build/rel$(if $(ARCH),-$(ARCH))
RELFLAGS = $(CFLAGS) $(if $(ARCH),-march=$(ARCH)) -flto=auto
# build/arch names the ARCH the binaries were last linked for; it changes
# with ARCH, so that switching relinks them from that ARCH's objects.
$(shell mkdir -p build; [ -f build/arch ] && [ "$$(cat build/arch)" = "$(ARCH)" ] || echo "$(ARCH)" > build/arch)
LDLIBS  := -lpthread -lm

# The match runner's games-file tally and statistics, which `denham serve
# --watch` uses too: in the library, not in MATCH_SRC.
RUNNER_SHARED := bench/runner/games_tally.c bench/runner/stats.c
# The engine, and every front end but main.c (which the test binaries
# replace with their own main).
LIB_SRC  := $(wildcard engine/core/*.c engine/games/*.c engine/games/*/*.c engine/search/*.c engine/learn/*.c) \
            $(wildcard engine/solve/*.c engine/reference/*.c) \
            $(wildcard protocol/ugi/*.c protocol/otep/*.c protocol/common/*.c) \
            $(filter-out protocol/cli/main.c,$(wildcard protocol/cli/*.c)) \
            $(filter-out protocol/serve/embed_web.c,$(wildcard protocol/serve/*.c)) build/gen/web_assets.c \
            $(RUNNER_SHARED)
TEST_SRC := $(wildcard tests/*.c) tests/fuzz/targets.c tests/fuzz/session.c
FUZZ_TARGETS := protocol session http fen moves match_args otep openings match_files ring proof
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
MATCH_SRC := $(filter-out bench/runner/match_main.c $(RUNNER_SHARED),$(wildcard bench/runner/*.c))
# The web app (web/), built into the binary as a generated table, with the
# rules pages (docs/rules/, served as /rules/<page>.md for its "How to play").
WEB_FILES := $(sort $(wildcard web/*.html web/*.css web/*.js web/*.svg))
RULES_FILES := $(sort $(wildcard docs/rules/*.md))

.PHONY: all portable pgo deps test test-cluster test-poll sanitize tsan bench fuzz soak soak-tsan clean install uninstall \
	wasm test-wasm web-static test-web-static
# The default goal, so that a plain `make` builds what README.md runs.
all: denham denham-match

# Shared by the tests and the benchmarks: very long games, and the tools
# that drive `denham serve` (an HTTP client, a headless browser over the
# DevTools pipe, a strict JSON reader).
BENCH_LIB := $(wildcard bench/tools/*.c)

# Expanded when used (=, not :=), so that `make deps test` sees the check
# that deps has just installed.
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck_pic -lsubunit -lm -lrt -pthread)

build/embed_web: protocol/serve/embed_web.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O1 -o $@ $<

build/gen/web_assets.c: build/embed_web $(WEB_FILES) $(RULES_FILES)
	@mkdir -p $(dir $@)
	build/embed_web $(WEB_FILES) --under /rules $(RULES_FILES) > $@.tmp && mv $@.tmp $@

# Release objects drop assertions; test objects keep them, so the suite
# checks the invariants as it runs.
REL_OBJ  := $(LIB_SRC:%.c=$(REL)/%.o)
DBG_OBJ  := $(LIB_SRC:%.c=build/dbg/%.o)
SAN_OBJ  := $(LIB_SRC:%.c=build/san/%.o)
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
TSAN_OBJ := $(LIB_SRC:%.c=build/tsan/%.o)
TSANFLAGS := -O1 -g -fsanitize=thread


# For another machine: no -march.
portable:
	$(MAKE) ARCH= denham denham-match

# Profile-guided build of ./denham: an instrumented build runs `bench` in
# the main games, then the same objects are rebuilt with its profile (gcc
# names the profile after the object's path, so both builds use build/pgo).
PGO_GAMES := brax brandubh bolix jinxx brax-4p
PGO_DATA := $(CURDIR)/build/pgo-data
pgo:
	rm -rf build/pgo $(PGO_DATA)
	$(MAKE) REL=build/pgo CFLAGS="$(CFLAGS) -fprofile-generate -fprofile-update=atomic -fprofile-dir=$(PGO_DATA)" build/pgo/denham
	for g in $(PGO_GAMES); do build/pgo/denham bench $$g > /dev/null; done
	find build/pgo -name '*.o' -delete; rm -f build/pgo/denham
	$(MAKE) REL=build/pgo CFLAGS="$(CFLAGS) -fprofile-use -fprofile-partial-training -fprofile-dir=$(PGO_DATA)" build/pgo/denham
	cp build/pgo/denham denham

build/pgo/denham: $(REL_OBJ) $(REL)/protocol/cli/main.o
	$(CC) $(RELFLAGS) -o $@ $^ $(LDLIBS)

denham: $(REL_OBJ) $(REL)/protocol/cli/main.o build/arch
	$(CC) $(RELFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(REL)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(RELFLAGS) -DNDEBUG -MMD -MP -c -o $@ $<

build/dbg/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -g $(CHECK_CFLAGS) -MMD -MP -c -o $@ $<

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SANFLAGS) $(CHECK_CFLAGS) -MMD -MP -c -o $@ $<

build/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(TSANFLAGS) $(CHECK_CFLAGS) -MMD -MP -c -o $@ $<

denham-match: $(REL_OBJ) $(MATCH_SRC:%.c=$(REL)/%.o) $(REL)/bench/runner/match_main.o build/arch
	$(CC) $(RELFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS) -lm

# The tests link the match runner's statistics and process code too.
build/test_denham: $(DBG_OBJ) $(MATCH_SRC:%.c=build/dbg/%.o) $(BENCH_LIB:%.c=build/dbg/%.o) $(TEST_SRC:%.c=build/dbg/%.o)
	$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS) -lm

build/test_denham_san: $(SAN_OBJ) $(MATCH_SRC:%.c=build/san/%.o) $(BENCH_LIB:%.c=build/san/%.o) $(TEST_SRC:%.c=build/san/%.o)
	$(CC) $(SANFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS) -lm

build/test_denham_tsan: $(TSAN_OBJ) $(MATCH_SRC:%.c=build/tsan/%.o) $(BENCH_LIB:%.c=build/tsan/%.o) $(TEST_SRC:%.c=build/tsan/%.o)
	$(CC) $(TSANFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS) -lm

build/bench_denham: $(REL_OBJ) $(BENCH_LIB:%.c=$(REL)/%.o) $(patsubst %.c,$(REL)/%.o,$(wildcard bench/speed/*.c))
	$(CC) $(RELFLAGS) -o $@ $^ $(LDLIBS)

# The test suite needs the `check` library, the fuzz targets clang with
# libFuzzer, the browser tests Chromium, the manual pages' test man, the
# cluster test Slurm, munge and GNU parallel, the SPRT's check against an
# independent program (tests/sprt_reference.py) Python 3, the WebAssembly
# build clang's wasm32-wasi target (lld, wasi-libc, the compiler's runtime
# for it), binaryen, Node and Python (the static board's server in the
# browser tests); on Debian this installs what is missing.
deps:
	@need=""; \
	pkg-config --exists check 2>/dev/null || need="$$need check pkg-config"; \
	[ -x /usr/bin/chromium ] || [ -n "$$CHROMIUM" ] || need="$$need chromium"; \
	command -v man >/dev/null 2>&1 || need="$$need man-db"; \
	printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' > /tmp/denham-fuzz-probe.c; \
	$(FUZZ_CC) -fsanitize=fuzzer /tmp/denham-fuzz-probe.c -o /tmp/denham-fuzz-probe 2>/dev/null || need="$$need clang libclang-rt-dev"; \
	[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null || need="$$need slurm-wlm"; \
	[ -x /usr/sbin/munged ] || need="$$need munge"; \
	command -v parallel >/dev/null || need="$$need parallel"; \
	printf 'int main(void) { return 0; }\n' > /tmp/denham-wasm-probe.c; \
	$(WASM_CC) --target=wasm32-wasi /tmp/denham-wasm-probe.c -o /tmp/denham-wasm-probe.wasm 2>/dev/null || \
		need="$$need clang lld wasi-libc libclang-rt-$$($(WASM_CC) -dumpversion 2>/dev/null | cut -d. -f1 | grep . || echo 14)-dev-wasm32"; \
	command -v $(WASM_OPT) >/dev/null || need="$$need binaryen"; \
	command -v node >/dev/null || need="$$need nodejs"; \
	command -v python3 >/dev/null || need="$$need python3"; \
	if [ -n "$$need" ]; then \
		echo "installing$$need with apt-get"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$need >/dev/null; \
	fi

# The transcript and match tests drive the real binaries, so `test` builds them.
test: build/test_denham denham denham-match
	./build/test_denham

# bench/cluster/ on a one-node Slurm cluster started for the test (as
# root) and with GNU parallel on this machine (tests/cluster.sh).
test-cluster: denham denham-match
	tests/cluster.sh

# Every suite under ASan and UBSan but those that only drive the release
# binaries and Chromium (the command line's, the server's, the browser's,
# the documents'): no sanitizer of this build sees what they run, and
# make test has run them.
SAN_SKIP := cli serve web web_learn web_board web_static docs
sanitize: build/test_denham_san denham denham-match
	DENHAM_SKIP_SUITES="$(SAN_SKIP)" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./build/test_denham_san

# ThreadSanitizer over the suites that run threads: the search (helper
# threads, stop), the protocol (the search thread beside the command
# loop), OTEP, learning (datagen's games and the tuner's parts on
# threads), the solver (threads on one table), and the server (sessions,
# readers, reaper; the watch page's poller and streams). Any report fails
# the run.
tsan: build/test_denham_tsan build/denham_tsan denham denham-match
	for s in search protocol otep learn solve; do \
		CK_RUN_SUITE=$$s TSAN_OPTIONS="halt_on_error=1 exitcode=66" ./build/test_denham_tsan || exit 1; \
	done
	CK_RUN_SUITE=serve DENHAM_SERVE=build/denham_tsan TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		./build/test_denham_tsan
	CK_RUN_SUITE=watch DENHAM_SERVE=build/denham_tsan TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		./build/test_denham_tsan

# `denham serve`'s threads under ThreadSanitizer: the serve suite runs this
# build as the server (a report ends it with status 66, which fails the test).
build/denham_tsan: $(TSAN_OBJ) build/tsan/protocol/cli/main.o
	$(CC) $(TSANFLAGS) -o $@ $^ $(LDLIBS)

# `denham serve` on poll(2), evloop.c's backend for systems without epoll:
# the serve suite runs against it too (make test-poll).
build/denham_poll: $(filter-out $(REL)/protocol/serve/evloop.o,$(REL_OBJ)) build/poll/evloop.o $(REL)/protocol/cli/main.o
	$(CC) $(RELFLAGS) -o $@ $^ $(LDLIBS)

build/poll/evloop.o: protocol/serve/evloop.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(RELFLAGS) -DNDEBUG -DDENHAM_EVLOOP_POLL -MMD -MP -c -o $@ $<

test-poll: build/test_denham build/denham_poll denham
	CK_RUN_SUITE=serve DENHAM_SERVE=build/denham_poll ./build/test_denham

# libFuzzer with ASan and UBSan, one binary per target (tests/fuzz); each
# runs FUZZ_SECONDS on the committed corpus plus what it finds (build/fuzz).
# A crash fails the target and leaves build/fuzz/crash-<target>-*: commit
# it to tests/fuzz/corpus/<target> once fixed, so make test replays it.
# The malloc limit admits Hash 16384 (a lazily touched 16 GiB table).
# Every source but the one naming the target is compiled once, into
# build/fuzzobj/, and shared by every target's binary.
FUZZ_SHARED_OBJ := $(patsubst %.c,build/fuzzobj/%.o,tests/fuzz/targets.c tests/fuzz/session.c bench/tools/json_check.c $(MATCH_SRC) $(LIB_SRC))

build/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(FUZZFLAGS) -MMD -MP -c -o $@ $<

.SECONDARY: $(FUZZ_SHARED_OBJ) # kept after the build, not removed as intermediate files

build/fuzz/%: tests/fuzz/libfuzzer_main.c $(FUZZ_SHARED_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(FUZZFLAGS) -DFUZZ_TARGET=$* -o $@ $^ $(LDLIBS) -lm

fuzz: $(FUZZ_TARGETS:%=build/fuzz/%)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus-$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		ASAN_OPTIONS=allocator_may_return_null=1 build/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) \
			-timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=32768 \
			-artifact_prefix=build/fuzz/crash-$$t- -print_final_stats=1 \
			build/fuzz/corpus-$$t tests/fuzz/corpus/$$t > build/fuzz/$$t.log 2>&1; rc=$$?; \
		grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Test unit written|runtime error" build/fuzz/$$t.log; \
		[ $$rc -eq 0 ] || { tail -30 build/fuzz/$$t.log; exit 1; }; \
	done

# The engine built with ASan and UBSan, for the soak; and with TSan.
build/denham-san: $(SAN_OBJ) build/san/protocol/cli/main.o
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

build/denham-tsan: $(TSAN_OBJ) build/tsan/protocol/cli/main.o
	$(CC) $(TSANFLAGS) -o $@ $^ $(LDLIBS)

# Self-play of the sanitizer build in every variant (bench/runner/soak.sh):
# SOAK_GAMES per variant (default 100) at SOAK_TC (default 1+0.01),
# SOAK_CONCURRENCY games at a time (default 2).
soak: build/denham-san denham-match
	bench/runner/soak.sh

# The same with the ThreadSanitizer build searching on two threads.
soak-tsan: build/denham-tsan denham-match
	SOAK_ENGINE=build/denham-tsan SOAK_OPTIONS=option.Threads=2 bench/runner/soak.sh

bench: build/bench_denham denham
	./build/bench_denham

# The single-threaded build natively, under ASan and UBSan: the WebAssembly
# build's protocol (thread.h's slices, protocol/common/input.c) where the
# sanitizers see it. DENHAM_ENGINE=build/denham-st CK_RUN_SUITE=protocol
# ./build/test_denham runs the transcripts through it (make test-wasm).
ST_OBJ := $(LIB_SRC:%.c=build/st/%.o)

build/st/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SANFLAGS) -DDENHAM_SINGLE_THREAD -MMD -MP -c -o $@ $<

build/denham-st: $(ST_OBJ) build/st/protocol/cli/main.o
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# ---- WebAssembly (README, "Play without installing") ----
# The engine for wasm32-wasi, with clang, lld and wasi-libc: single-threaded
# (thread.h), without what needs sockets or processes (the server, the
# match runner, engine_proc.c). binaryen's wasm-opt then runs asyncify over
# the calls that may wait (reading input, poll, sched_yield: the turn
# between slices of a search), so that a page without shared memory can
# unwind a search to its event loop and back (web/wasm/wasi.js), and -O3.
# build/wasm/denham.mjs is web/wasm/wasi.js and the Node launcher in one file.
WASM_CC ?= clang
WASM_OPT ?= wasm-opt
WASM_SRC := $(wildcard engine/core/*.c engine/games/*.c engine/games/*/*.c engine/search/*.c engine/learn/*.c engine/solve/*.c engine/reference/*.c) \
            $(wildcard protocol/ugi/*.c protocol/otep/*.c protocol/cli/*.c) protocol/common/out.c protocol/common/input.c
WASM_CFLAGS := --target=wasm32-wasi -O3 -DNDEBUG -DDENHAM_SINGLE_THREAD
WASM_OBJ := $(WASM_SRC:%.c=build/wasm/obj/%.o)
WASM_WAITS := wasi_snapshot_preview1.fd_read,wasi_snapshot_preview1.poll_oneoff,wasi_snapshot_preview1.sched_yield
WASM_ASYNCIFY := --asyncify --pass-arg=asyncify-imports@$(WASM_WAITS) --pass-arg=asyncify-ignore-indirect

build/wasm/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(WASM_CC) $(CSTD) $(WARN) $(WASM_CFLAGS) -MMD -MP -c -o $@ $<

build/wasm/denham-plain.wasm: $(WASM_OBJ)
	$(WASM_CC) --target=wasm32-wasi -O3 -Wl,-z,stack-size=8388608 -o $@ $^ -lm

build/wasm/denham.wasm: build/wasm/denham-plain.wasm
	$(WASM_OPT) $(WASM_ASYNCIFY) -O3 $< -o $@

build/wasm/denham.mjs: web/wasm/wasi.js web/wasm/node.mjs
	@mkdir -p $(dir $@)
	cat $^ > $@

wasm: build/wasm/denham.wasm build/wasm/denham.mjs

# The WebAssembly build's answers against the native build's: every line
# of bench/speed/perft.txt, and the transcripts of the suites that need no
# second thread (protocol: every bench node count, go infinite and stop,
# pondering...; describe; why) through build/wasm/denham.mjs, as Node and a
# cross-origin isolated page run it (input in shared memory); the
# protocol's once more as a page without shared memory runs it (its stack
# unwound to the event loop between slices, DENHAM_WASM_UNWIND=1); and the
# protocol's through the single-threaded build natively under the
# sanitizers (build/denham-st).
# Each transcript starts an engine (Node and its compile): check's
# timeouts, set for the engine in this process, are ten times longer.
WASM_ENGINE := node build/wasm/denham.mjs
test-wasm: export CK_TIMEOUT_MULTIPLIER := 10
test-wasm: wasm build/test_denham build/denham-st
	for s in builds protocol describe why; do \
		DENHAM_ENGINE="$(WASM_ENGINE)" CK_RUN_SUITE=$$s ./build/test_denham || exit 1; \
	done
	DENHAM_WASM_UNWIND=1 DENHAM_ENGINE="$(WASM_ENGINE)" CK_RUN_SUITE=protocol ./build/test_denham
	ASAN_OPTIONS=detect_leaks=1 DENHAM_ENGINE=build/denham-st CK_RUN_SUITE=protocol ./build/test_denham

# The board with no server (README, "Play without installing"): the app
# (web/, without the watch page), its engine as WebAssembly in a Web Worker
# (web/wasm/), the rules pages, a manifest and a service worker for offline
# use; nothing else. The page is index.html marked data-transport="worker"
# (session.js) with the manifest and offline.js; sw.js gets the folder's
# file list and a version (a hash of the files).
STATIC_APP := $(filter-out web/watch.%,$(WEB_FILES))
# The engine's files fetched with the page's, not after app.js asks for them.
WASM_PRELOAD := <link rel="modulepreload" href="wasm/worker-transport.js">\n<link rel="modulepreload" href="wasm/wasi.js">\n
# Every module of the app asked for at once from the top of the page (not
# level by level as the imports are read: each level a round trip through
# the service worker).
APP_PRELOAD := $(subst \n ,\n,$(foreach m,$(notdir $(filter %.js,$(STATIC_APP))),<link rel="modulepreload" href="$(m)">\n))
# At the top of the head: the module fetched and compiled while the page
# and the app load (early.js).
WASM_EARLY := <link rel="preload" href="wasm/denham.wasm" as="fetch" crossorigin>\n<script src="wasm/early.js"></script>
# The first board of a first visit (preview.js): the engine's own
# description of the default variant's start (its UCI_Variant line, then
# `layout` and `state`), asked of the native ./denham at build time (the
# same sources as the module: web_static's test compares it with what the
# module describes) and written on the page as JSON (id engine-first).
STATIC_DESCRIBE := printf 'uci\nlayout\nstate\nquit\n' | ./denham
STATIC_WASM := web/wasm/wasi.js web/wasm/engine-worker.js web/wasm/worker-transport.js web/wasm/offline.js web/wasm/early.js \
               web/wasm/icon.svg
web-static: denham build/wasm/denham.wasm $(STATIC_APP) $(STATIC_WASM) $(RULES_FILES) web/wasm/sw.js web/wasm/manifest.webmanifest
	rm -rf build/web-static
	mkdir -p build/web-static/wasm build/web-static/rules
	cp $(filter-out web/index.html,$(STATIC_APP)) web/wasm/manifest.webmanifest build/web-static/
	cp $(STATIC_WASM) build/wasm/denham.wasm build/web-static/wasm/
	cp $(RULES_FILES) build/web-static/rules/
	build=$$(sha256sum build/wasm/denham.wasm | cut -c1-16) && \
	sed -e 's|^<html lang="en">$$|<html lang="en" data-transport="worker" data-engine-build="'$$build'">|' \
	    -e 's|^<head>$$|<head>\n$(WASM_EARLY)|' -e 's|^<meta charset="utf-8">$$|&\n$(APP_PRELOAD)|' \
	    -e 's|^</head>$$|<link rel="manifest" href="manifest.webmanifest">\n<script type="module" src="wasm/offline.js"></script>\n$(WASM_PRELOAD)</head>|' \
	    web/index.html > build/web-static/index.html.tmp
	d=$$($(STATIC_DESCRIBE)) && \
	uci=$$(printf '%s\n' "$$d" | grep '^option name UCI_Variant ') && \
	layout=$$(printf '%s\n' "$$d" | sed -n 's/^layout //p') && state=$$(printf '%s\n' "$$d" | sed -n 's/^state //p') && \
	test -n "$$uci" -a -n "$$layout" -a -n "$$state" && \
	printf '<script type="application/json" id="engine-first">{"command":"position startpos","uci":"%s","layout":%s,"state":%s}</script>\n' \
	    "$$uci" "$$layout" "$$state" > build/web-static/engine-first.tmp
	! sed -e 's|^<script[^>]*>||' -e 's|</script>$$||' build/web-static/engine-first.tmp | grep -q '<' # nothing to end the script early
	awk -v f=build/web-static/engine-first.tmp '/^<\/head>$$/ { while ((getline l < f) > 0) print l } { print }' \
	    build/web-static/index.html.tmp > build/web-static/index.html
	rm build/web-static/index.html.tmp build/web-static/engine-first.tmp
	grep -q 'data-transport="worker" data-engine-build="[0-9a-f]\{16\}"' build/web-static/index.html && grep -q 'offline.js' build/web-static/index.html && grep -q 'early.js' build/web-static/index.html && grep -q 'id="engine-first">{' build/web-static/index.html
	cd build/web-static && files=$$(find . -type f | sed 's|^\./||' | LC_ALL=C sort) && \
		version=$$(cat $$files | sha256sum | cut -c1-16) && \
		list=$$(printf "'%s', " ./ $$files) && \
		sed -e "s|@VERSION@|$$version|" -e "s|@FILES@|$$list|" ../../web/wasm/sw.js > sw.js
	@echo "build/web-static/: $$(find build/web-static -type f | wc -l) files, $$(du -sk build/web-static | cut -f1) KiB"

# The browser suites against the static folder, served by python3 -m
# http.server (DENHAM_WEB_TRANSPORT=static, tests/web_host.h): the static
# board's own (every variant against Denham, stop with and without shared
# memory, offline after one visit, installable) and, of the served board's
# suites, those chosen for CI's time (DENHAM_WEB_SUBSET=ci: analysis,
# replay, reload, Download and Open, clocks, How to play). Without the
# subset every test that needs no server of Denham's runs:
# DENHAM_WEB_TRANSPORT=static CK_RUN_SUITE=web ./build/test_denham.
test-web-static: web-static build/test_denham denham denham-match
	for s in web_static web web_learn; do \
		DENHAM_WEB_TRANSPORT=static DENHAM_WEB_SUBSET=ci CK_RUN_SUITE=$$s ./build/test_denham || exit 1; \
	done

# `make install` as packagers expect: PREFIX (default /usr/local) and
# DESTDIR (a staging root). The binaries need no file beside them: the web
# app is built in.
PREFIX ?= /usr/local
BINDIR := $(PREFIX)/bin
MAN1DIR := $(PREFIX)/share/man/man1
MAN_PAGES := docs/man/denham.1 docs/man/denham-match.1

install: denham denham-match
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MAN1DIR)"
	install -m 755 denham denham-match "$(DESTDIR)$(BINDIR)/"
	install -m 644 $(MAN_PAGES) "$(DESTDIR)$(MAN1DIR)/"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/denham" "$(DESTDIR)$(BINDIR)/denham-match"
	rm -f "$(DESTDIR)$(MAN1DIR)/denham.1" "$(DESTDIR)$(MAN1DIR)/denham-match.1"

clean:
	rm -rf build denham denham-match

-include $(shell find build -name '*.d' 2>/dev/null)
