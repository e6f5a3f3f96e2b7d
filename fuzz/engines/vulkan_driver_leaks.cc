// atomics_vulkan_fuzzer only: LeakSanitizer's suppressions (its
// __lsan_default_suppressions hook) for the Vulkan driver and loader, which
// are not what the harness tests. lavapipe leaks a 48-byte object now and
// then (seen in its seeds: Direct leak ... libvulkan_lvp.so, one run in
// three), and a leak report ends a libFuzzer run as a crash would. Leaks
// in vkd3d-shader and atomfuzz are still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libvulkan_lvp.so\n"
         "leak:libvulkan.so.1\n"
         "leak:libLLVM\n";
}
