// The reproducer templates (fuzz/export/templates/, README.md there),
// embedded at build time by embed_templates.cmake.
#ifndef ATOMFUZZ_FUZZ_EXPORT_TEMPLATES_H_
#define ATOMFUZZ_FUZZ_EXPORT_TEMPLATES_H_

namespace atomfuzz::fuzz::export_internal {

extern const char k_repro_types_h[];
extern const char k_repro_check_c[];
extern const char k_vulkan_main_c[];
extern const char k_d3d12_main_c[];
extern const char k_d3d11_main_c[];

}  // namespace atomfuzz::fuzz::export_internal

#endif  // ATOMFUZZ_FUZZ_EXPORT_TEMPLATES_H_
