# Sourced by scripts/*: where the build lives and how to run GStreamer against it.
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
