# Sourced by .ci/gui-minifb.sh, .ci/gui-pixels.sh and scripts/screenshots.sh: checks the
# tools of .ci/apt-packages and points wgpu at Mesa's software Vulkan driver (lavapipe),
# alone, so that no hardware driver is probed (there is no GPU).
for tool in xvfb-run xauth import xdotool timeout; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: $tool not found; install the packages of .ci/apt-packages" >&2
        exit 1
    fi
done
lvp=(/usr/share/vulkan/icd.d/lvp_icd.*.json)
if [ ! -f "${lvp[0]}" ]; then
    echo "error: Mesa's software Vulkan driver (lavapipe) is not installed: apt-get install mesa-vulkan-drivers" >&2
    exit 1
fi
export WGPU_BACKEND=vulkan
export VK_DRIVER_FILES="${lvp[0]}"
export VK_ICD_FILENAMES="${lvp[0]}"
