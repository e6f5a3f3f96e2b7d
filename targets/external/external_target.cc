#include "targets/external/external_target.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include "absl/strings/str_cat.h"
#include "targets/external/c_case.h"
#include "targets/external/c_outcome.h"
#include "targets/isolation/isolated_target.h"

namespace atomfuzz::targets::external {
namespace {

using AbiVersionFn = uint32_t (*)();
using CreateFn = void* (*)(const char*, char*, size_t);
using RunFn = int (*)(void*, const atomfuzz_case*, atomfuzz_outcome*);
using DestroyFn = void (*)(void*);

class ExternalTarget : public Target {
 public:
  ExternalTarget(std::string name, void* library, RunFn run, DestroyFn destroy,
                 void* handle, bool trace)
      : name_(std::move(name)),
        library_(library),
        run_(run),
        destroy_(destroy),
        handle_(handle),
        trace_(trace) {}
  ~ExternalTarget() override {
    destroy_(handle_);
    dlclose(library_);
  }

  absl::string_view name() const override { return name_; }

  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    for (const isa::Resource& r : c.resources) {
      if (r.init.size() != r.WordCount()) {  // what the C structs promise
        isa::Outcome o;
        o.status = isa::RunStatus::kRejected;
        o.message =
            absl::StrCat("u", r.slot, ": initial words do not fill the view");
        return o;
      }
    }
    const CCase in(c, trace_);
    atomfuzz_outcome out{};
    const int rc = run_(handle_, &in.get(), &out);
    if (rc != 0) {
      isa::Outcome o;
      o.status = isa::RunStatus::kRejected;
      o.message = absl::StrCat("atomfuzz_target_run returned ", rc);
      if (out.message != nullptr && out.message_size > 0) {
        absl::StrAppend(
            &o.message, ": ",
            absl::string_view(out.message,
                              std::min<uint32_t>(out.message_size, 4096)));
      }
      return o;
    }
    return FromC(out, c);
  }

 private:
  const std::string name_;
  void* const library_;
  const RunFn run_;
  const DestroyFn destroy_;
  void* const handle_;
  const bool trace_;
};

template <typename Fn>
Fn Symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

}  // namespace

absl::StatusOr<ExternalSpec> ParseExternalName(absl::string_view name) {
  if (name.substr(0, kPrefix.size()) != kPrefix) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ext:PATH, found '", name, "'"));
  }
  name.remove_prefix(kPrefix.size());
  ExternalSpec spec;
  const size_t colon = name.find(':');
  spec.path = std::string(name.substr(0, colon));
  if (colon != absl::string_view::npos)
    spec.options = std::string(name.substr(colon + 1));
  if (spec.path.empty()) {
    return absl::InvalidArgumentError(
        "--target=ext:PATH: expected a library path after 'ext:'");
  }
  return spec;
}

absl::StatusOr<std::unique_ptr<Target>> LoadExternalTarget(
    std::string name, const ExternalSpec& spec, const TargetOptions& options) {
  void* library = dlopen(spec.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return absl::InvalidArgumentError(absl::StrCat(
        spec.path, ": cannot load: ", why ? why : "unknown reason"));
  }
  const auto abi = Symbol<AbiVersionFn>(library, "atomfuzz_target_abi_version");
  const auto create = Symbol<CreateFn>(library, "atomfuzz_target_create");
  const auto run = Symbol<RunFn>(library, "atomfuzz_target_run");
  const auto destroy = Symbol<DestroyFn>(library, "atomfuzz_target_destroy");
  if (!abi || !create || !run || !destroy) {
    dlclose(library);
    return absl::InvalidArgumentError(absl::StrCat(
        spec.path,
        ": expected the functions atomfuzz_target_abi_version, _create, _run "
        "and _destroy (include/atomfuzz/target.h)"));
  }
  if (const uint32_t v = abi(); v != ATOMFUZZ_TARGET_ABI_VERSION) {
    dlclose(library);
    return absl::InvalidArgumentError(
        absl::StrCat(spec.path, ": ABI version ", v, ", expected ",
                     ATOMFUZZ_TARGET_ABI_VERSION));
  }
  char error[1024] = {};
  void* handle = create(spec.options.c_str(), error, sizeof error);
  if (handle == nullptr) {
    error[sizeof error - 1] = '\0';
    dlclose(library);
    return absl::InvalidArgumentError(
        absl::StrCat(spec.path, ": atomfuzz_target_create(\"", spec.options,
                     "\") failed: ", error[0] ? error : "no reason given"));
  }
  return std::make_unique<ExternalTarget>(std::move(name), library, run,
                                          destroy, handle, options.trace);
}

absl::StatusOr<std::unique_ptr<Target>> CreateExternalTarget(
    const std::string& name, const TargetOptions& options) {
  absl::StatusOr<ExternalSpec> spec = ParseExternalName(name);
  if (!spec.ok()) return spec.status();
  // Checked here too, so a typo is an error without a child to start.
  struct stat st;
  if (spec->path.find('/') != std::string::npos &&
      stat(spec->path.c_str(), &st) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(spec->path, ": no such library"));
  }
  return Isolate(
      name,
      [name, spec = *spec, options] {
        return LoadExternalTarget(name, spec, options);
      },
      IsolationFor(options));
}

}  // namespace atomfuzz::targets::external
