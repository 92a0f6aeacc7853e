# Sourced by scripts/* and pipelines/*: where the build lives and how to run
# GStreamer against it. Not a command: `. scripts/env.sh` in a shell gives
# vmi_build (configure once, then build into build/) and vmi_gst_env (the
# plugin from build/ for gst-launch-1.0, gst-inspect-1.0 and tools/).
#
# Usage: . scripts/env.sh && vmi_build && vmi_gst_env
# Environment: VMI_BUILD (default: build/ in the checkout)
VMI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VMI_BUILD=${VMI_BUILD:-$VMI_ROOT/build}

vmi_build () {
  if [ ! -f "$VMI_BUILD/build.ninja" ]; then
    meson setup "$VMI_BUILD" "$VMI_ROOT" -Dtests=enabled -Dexamples=enabled "$@"
  fi
  meson compile -C "$VMI_BUILD"
}

# Run gst-launch & co. against the freshly built plugin, not an installed one.
vmi_gst_env () {
  export GST_PLUGIN_PATH_1_0="$VMI_BUILD/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
  export GST_REGISTRY_1_0="$VMI_BUILD/registry.bin"
  export PATH="$VMI_BUILD/tools:$PATH"
}

# -h / --help as a script's first argument: print the script's header
# comment (its usage) and exit before it starts anything.
vmi_help () {
  case "${1:-}" in
    -h|--help)
      awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next }
        { exit }' "$0"
      exit 0 ;;
  esac
}

# run, not sourced (bash scripts/env.sh --help): say what it is
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  vmi_help --help
fi
