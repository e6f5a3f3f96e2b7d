// Wine's Direct3D 11 as a target: the case encoded as DXBC, run by D3D11 in
// a Windows program under Wine (wine_session.h), on wined3d's GL renderer
// (its own DXBC -> GLSL translator) or its Vulkan renderer (the
// vkd3d-shader Wine bundles, DXBC -> SPIR-V). The shader is instrumented
// like the vulkan target's (trace_instrumentation.h), so returned values
// are judged, and the log doubles as a canary: a dispatch that did nothing
// (a shader wined3d failed to translate, which D3D11 does not report) is
// an invalid-code outcome of its own, never wrong values.
#ifndef ATOMFUZZ_TARGETS_WINE_WINE_TARGET_H_
#define ATOMFUZZ_TARGETS_WINE_WINE_TARGET_H_

#include <memory>

#include "absl/status/statusor.h"
#include "targets/target.h"
#include "targets/wine/wine_session.h"

namespace atomfuzz::targets::wine {

enum class Renderer { kGl, kVulkan };

// The device starts at the first Run (FailedPrecondition there when Wine,
// Xvfb or the runner is missing).
absl::StatusOr<std::unique_ptr<Target>> CreateWineTarget(
    const TargetOptions& options, Renderer renderer);

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_WINE_TARGET_H_
