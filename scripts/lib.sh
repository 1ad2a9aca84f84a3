# scripts/lib.sh - what the set-up scripts share: the Debian packages dmbench needs
# (installed when run as root, else the exact apt-get line is printed) and the build.
# Sourced, not run.

DM_PACKAGES="cmake ninja-build pkg-config gcc libsqlite3-dev libgsl-dev libfyaml-dev libcmocka-dev gnuplot-nox"
DM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DM_BUILD=${DMBENCH_BUILD_DIR:-$DM_ROOT/build}

dm_install_deps() {
    local missing=() p
    for p in $DM_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "dmbench: installing ${missing[*]}" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "dmbench: missing Debian packages; run:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
        return 1
    fi
}

dm_find_nvcc() {
    command -v nvcc >/dev/null 2>&1 && { command -v nvcc; return 0; }
    local c
    for c in /usr/local/cuda/bin/nvcc /usr/local/cuda-13*/bin/nvcc; do
        [ -x "$c" ] && { echo "$c"; return 0; }
    done
    echo "dmbench: nvcc not found: install the CUDA toolkit (13.x) or put nvcc on PATH" >&2
    return 1
}

# dm_build [extra cmake arguments]: configure (once) and build into $DM_BUILD, for the
# GPU architectures of $DMBENCH_CUDA_ARCHITECTURES when set (CMake's syntax: "90" or
# "80-real;90"), else for those the folder was configured with (a new one: every one
# CMakeLists.txt lists).
dm_build() {
    local nvcc archs=()
    nvcc=$(dm_find_nvcc) || return 1
    [ -z "${DMBENCH_CUDA_ARCHITECTURES:-}" ] ||
        archs=("-DCMAKE_CUDA_ARCHITECTURES=$DMBENCH_CUDA_ARCHITECTURES")
    cmake -S "$DM_ROOT" -B "$DM_BUILD" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc" "${archs[@]}" "$@" >/dev/null &&
        cmake --build "$DM_BUILD" -j "$(nproc)"
}
