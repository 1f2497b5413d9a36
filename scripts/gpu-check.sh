#!/usr/bin/env bash
# Runs the GPU proof on a machine with an NVIDIA GPU, from binaries built elsewhere:
# the [gpu] tests, then the benchmark suites. Usage: scripts/gpu-check.sh BIN_DIR OUT_DIR [what...]
# Run from the project root (the window step unpacks .gpu-stage/xvfb-root.tar.xz, made by
# scripts/stage-gpu-window.sh).
# what: window, live, tests, slab-tests, hive-tests, render-hive, hive, memcheck-hive, slab, slab-tile, memcheck-slab, racecheck-slab, render, memcheck, memcheck-tombstone, roofline, locality, linear-churn, linear, linear-groups, linear-variants, seed-linear,
#       seed-linear-load-first, seed-linear-full
set -uo pipefail
bin=$1; out=$2; shift 2
mkdir -p "$out"
what=${*:-tests roofline linear seed-linear}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader
status=0
for w in $what; do
  echo "=== $w ==="
  case $w in
    tests) "$bin/hs_core_tests" "[gpu]" --reporter compact 2>&1 | tail -40 || status=1
           "$bin/hs_app_tests" --reporter compact 2>&1 | tail -40 || status=1 ;;
    render-hive) for sc in hive-evictions hive-resize; do
              "$bin/hashscope" render $sc --backend gpu --out "$out/render" || status=1
            done ;;
    render-slab) for sc in slab-chains slab-flush slab-step; do
              "$bin/hashscope" render $sc --backend gpu --out "$out/render" || status=1
            done ;;
    render) for sc in linear-clustering linear-weak-hash linear-tombstones linear-churn; do
              "$bin/hashscope" render $sc --backend gpu --out "$out/render" || status=1
            done ;;
    memcheck) timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/hs_core_tests" \
                "[gpu]~[inspect]" --reporter compact 2>&1 | tail -15 || status=1 ;;
    roofline) "$bin/hashscope" bench roofline --out "$out" || status=1 ;;
    linear) "$bin/hashscope" bench linear --out "$out" || status=1 ;;
    linear-groups) for g in 1 4 8; do "$bin/hashscope" bench linear --group $g --out "$out/g$g" | tail -9 || status=1; done ;;
    linear-variants)
      for v in "--partition off" "--partition on"; do
        echo "--- $v"; "$bin/hashscope" bench linear $v --out "$out/variant" | tail -8 || status=1
      done ;;
    locality) "$bin/hashscope" bench locality --out "$out" || status=1 ;;
    linear-churn) "$bin/hashscope" bench linear-churn --out "$out" || status=1 ;;
    slab) "$bin/hashscope" bench slab --out "$out" || status=1 ;;
    slab-tile) "$bin/hashscope" bench slab-tile --out "$out" || status=1 ;;
    slab-tests) "$bin/hs_core_tests" "[gpu][slab]" --reporter compact 2>&1 | tail -40 || status=1 ;;
    hive-tests) "$bin/hs_core_tests" "[gpu][hive]" --reporter compact 2>&1 | tail -40 || status=1 ;;
    hive) "$bin/hashscope" bench hive --out "$out" || status=1 ;;
    memcheck-hive) timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/hs_core_tests" \
                "[gpu][hive]" --reporter compact 2>&1 | tail -8 || status=1 ;;
    memcheck-slab) timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/hs_core_tests" \
                "[gpu][slab]" --reporter compact 2>&1 | tail -8 || status=1 ;;
    racecheck-slab) timeout 300 compute-sanitizer --tool synccheck --error-exitcode 9 "$bin/hs_core_tests" \
                "slab: mixed batches with every operation kind in each warp" --reporter compact 2>&1 | tail -6 || status=1 ;;
    memcheck-tombstone) timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/hs_core_tests" \
                "[tombstone],[rehash]" --reporter compact 2>&1 | tail -6 || status=1 ;;
    seed-linear) "$bin/hashscope" bench seed-linear --no-cpu-baseline --out "$out" || status=1 ;;
    seed-linear-load-first) "$bin/hashscope" bench seed-linear --no-cpu-baseline --cas-first off --out "$out/load-first" | sed -n '/Experiment 2/,/Probe/p' || status=1 ;;
    seed-linear-full) "$bin/hashscope" bench seed-linear --out "$out" || status=1 ;;
    window) # The real GLFW window on the GPU machine: Xvfb serves the display and Mesa's GLX draws
            # (llvmpipe: the GL context is on no CUDA GPU, so the heatmaps come through the host;
            # NVIDIA's GLX finds no GLXFBConfig on Xvfb). The table, 2^27 slots on the GPU, fills
            # to 0.5 and the window runs 300 frames, then writes its screenshot.
      x=/opt/xvfb; mkdir -p $x && tar -xJf .gpu-stage/xvfb-root.tar.xz -C $x
      xl=$x/usr/lib/x86_64-linux-gnu:$x/lib/x86_64-linux-gnu dri=$x/usr/lib/x86_64-linux-gnu/dri
      [ -x /usr/bin/xkbcomp ] || ln -s $x/usr/bin/xkbcomp /usr/bin/xkbcomp
      LD_LIBRARY_PATH=$xl LIBGL_DRIVERS_PATH=$dri \
        $x/usr/bin/Xvfb :7 -screen 0 1920x1080x24 -xkbdir $x/usr/share/X11/xkb +iglx -nolisten tcp >"$out/xvfb.log" 2>&1 &
      xvfb=$!; sleep 3
      printf 'title GPU window check\ntable linear\ncapacity 2^27\nbackend gpu\nbatch 1M\nfill 0.5\n' >/tmp/window.scn
      DISPLAY=:7 LD_LIBRARY_PATH=$xl:${LD_LIBRARY_PATH:-} __GLX_VENDOR_LIBRARY_NAME=mesa LIBGL_DRIVERS_PATH=$dri \
        HOME=$(mktemp -d) "$bin/hashscope" --backend gpu --scenario /tmp/window.scn \
        --frames 300 --screenshot "$out/window.png" 2>&1 | tail -8 || status=1
      kill $xvfb ;;
    live) "$bin/hashscope" bench live --out "$out" || status=1 ;;
    *) echo "unknown step $w"; status=1 ;;
  esac
done
exit $status
