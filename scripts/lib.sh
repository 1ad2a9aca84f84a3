# scripts/lib.sh - what the set-up scripts share: the Debian packages dmbench needs
# (installed when run as root, else the exact apt-get line is printed), the build, and
# the Slurm selftest with its own packages. Sourced, not run.

DM_PACKAGES="cmake ninja-build pkg-config gcc libsqlite3-dev libgsl-dev libfyaml-dev libcmocka-dev zlib1g-dev gnuplot-nox"
# scripts/slurm/selftest's: a one-node Slurm cluster, and sqlite3 to read its databases
DM_SLURM_PACKAGES="slurmctld slurmd slurm-client munge sqlite3"
# scripts/test's only: the browser that tests/report_first_screen opens the report in
# (the test skips without it)
DM_TEST_PACKAGES="chromium"
DM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DM_BUILD=${DMBENCH_BUILD_DIR:-$DM_ROOT/build}

# The Debian packages among $* that are not installed, one a line.
dm_missing_packages() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
    done
}

# dm_apt_install SUDO PACKAGES...: installs those of the packages that are missing, with
# SUDO ("" as root, or "sudo -n") before apt-get.
dm_apt_install() {
    local sudo=$1 missing
    shift
    missing=$(dm_missing_packages "$@")
    [ -z "$missing" ] && return 0
    echo "dmbench: installing" $missing >&2
    $sudo apt-get update -qq &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
}

dm_install_deps() {
    local missing
    missing=$(dm_missing_packages $DM_PACKAGES)
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        dm_apt_install "" $missing
    else
        echo "dmbench: missing Debian packages; run:" >&2
        echo "  sudo apt-get install -y" $missing >&2
        return 1
    fi
}

# dm_sudo: prints what goes before a command run as root ("" as root, "sudo -n" with
# passwordless sudo); returns 1 when neither.
dm_sudo() {
    if [ "$(id -u)" -eq 0 ]; then
        echo ""
    elif sudo -n true 2>/dev/null; then
        echo "sudo -n"
    else
        return 1
    fi
}

# dm_install_test_deps: installs $DM_TEST_PACKAGES where root or passwordless sudo allows
# it; otherwise, or when apt-get fails, one line says which tests will skip.
dm_install_test_deps() {
    local sudo
    if ! sudo=$(dm_sudo) || ! dm_apt_install "$sudo" $DM_TEST_PACKAGES; then
        echo "dmbench: could not install $DM_TEST_PACKAGES: report_first_screen will skip" >&2
    fi
    return 0
}

# dm_slurm_selftest: scripts/slurm/selftest on $DM_BUILD's dmbench where this machine
# allows it: as root or through passwordless sudo (it starts munged, slurmctld and
# slurmd), its Debian packages installed first. Otherwise one line says why it skipped.
dm_slurm_selftest() {
    local sudo
    if ! sudo=$(dm_sudo); then
        echo "dmbench: Slurm selftest skipped: it starts munged, slurmctld and slurmd, which needs root or passwordless sudo" >&2
        return 0
    fi
    if ! dm_apt_install "$sudo" $DM_SLURM_PACKAGES; then
        echo "dmbench: Slurm selftest skipped: could not install $DM_SLURM_PACKAGES" >&2
        return 0
    fi
    # 77: it said in one line why slurmd cannot run here
    $sudo env DMBENCH="$DM_BUILD/dmbench" "$DM_ROOT/scripts/slurm/selftest" || [ $? -eq 77 ]
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
