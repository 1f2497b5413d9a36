#!/usr/bin/env bash
# Copies the shared libraries a binary built here needs beyond the C runtime (cairo and what it
# pulls in: pixman, fontconfig, freetype, libpng, the X libraries) into a folder, for the GPU
# machine, which has no network and may lack them. Usage: scripts/stage-gpu-libs.sh BIN OUT_DIR;
# there: export LD_LIBRARY_PATH=OUT_DIR:$LD_LIBRARY_PATH (the GL/EGL/GLFW libraries come from
# the GPU stage's .gpu-stage/enter.sh, the NVIDIA driver's from the machine).
set -euo pipefail
bin=$1; out=$2
mkdir -p "$out"
ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libgcc_s.so*|libstdc++.so*|ld-linux*) continue ;;
    libGL*|libEGL*|libOpenGL*|libglfw*|libnvidia*|libcuda*) continue ;;  # the stage and the driver's
  esac
  cp -L "$lib" "$out/"
done
du -sh "$out" | awk '{print "staged " $1 " of libraries in " $2}'
